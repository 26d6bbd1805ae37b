from pipecat.flows import FlowManager
from pipecat.flows import flows_tool_options


@flows_tool_options(cancel_on_interruption=True)
async def check_availability(flow_manager: FlowManager, party_size: int):
    """Check whether a table is free for the party."""
    return {"available": party_size <= 6}, None
