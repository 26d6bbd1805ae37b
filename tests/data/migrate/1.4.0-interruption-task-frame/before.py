from pipecat.frames.frames import InterruptionTaskFrame
from pipecat.processors.frame_processor import FrameDirection


async def interrupt_bot(processor):
    await processor.push_frame(InterruptionTaskFrame(), FrameDirection.UPSTREAM)
