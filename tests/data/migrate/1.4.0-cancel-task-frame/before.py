from pipecat.frames.frames import CancelTaskFrame
from pipecat.processors.frame_processor import FrameDirection


async def abort_call(processor, reason: str):
    await processor.push_frame(CancelTaskFrame(reason=reason), FrameDirection.UPSTREAM)
