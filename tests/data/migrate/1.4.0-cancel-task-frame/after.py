from pipecat.frames.frames import CancelWorkerFrame
from pipecat.processors.frame_processor import FrameDirection


async def abort_call(processor, reason: str):
    await processor.push_frame(CancelWorkerFrame(reason=reason), FrameDirection.UPSTREAM)
