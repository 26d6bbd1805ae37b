from pipecat.services.llm_service import FunctionCallParams


def fake_params(llm, context, callback, db):
    return FunctionCallParams(
        function_name="get_order_status",
        tool_call_id="call_1",
        arguments={"order_id": "42"},
        llm=llm,
        context=context,
        result_callback=callback,
        tool_resources={"db": db},
    )
