from pipecat.frames.frames import InterruptionWorkerFrame
from pipecat.processors.frame_processor import FrameDirection


async def interrupt_bot(processor):
    await processor.push_frame(InterruptionWorkerFrame(), FrameDirection.UPSTREAM)
