from pipecat.flows import FlowManager
from pipecat.frames.frames import TTSSpeakFrame


async def say_goodbye(flow_manager: FlowManager):
    await flow_manager.task.queue_frame(TTSSpeakFrame("Goodbye!"))
