import pipecat.frames.frames as pf
from pipecat.processors.frame_processor import FrameDirection


async def end_call(params):
    await params.llm.push_frame(pf.EndTaskFrame(), FrameDirection.UPSTREAM)
