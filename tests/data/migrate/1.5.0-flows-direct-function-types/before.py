from pipecat.flows import FlowManager
from pipecat.flows.types import flows_direct_function


@flows_direct_function(cancel_on_interruption=True)
async def check_availability(flow_manager: FlowManager, party_size: int):
    """Check whether a table is free for the party."""
    return {"available": party_size <= 6}, None
