from pipecat.services.llm_service import FunctionCallParams


async def get_order_status(params: FunctionCallParams):
    db = params.tool_resources["db"]
    status = await db.order_status(params.arguments["order_id"])
    await params.result_callback({"status": status})
