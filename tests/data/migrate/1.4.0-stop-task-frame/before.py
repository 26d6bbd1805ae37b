from pipecat.frames.frames import StopTaskFrame
from pipecat.processors.frame_processor import FrameDirection


async def pause_pipeline(processor):
    await processor.push_frame(StopTaskFrame(), FrameDirection.UPSTREAM)
