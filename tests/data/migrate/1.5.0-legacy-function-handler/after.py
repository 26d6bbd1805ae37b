from pipecat.flows import FlowArgs
from pipecat.flows import LegacyFunctionHandler


async def collect_name(args: FlowArgs):
    return {"name": args["name"]}


handler: LegacyFunctionHandler = collect_name
