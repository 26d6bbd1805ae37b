from pipecat.frames.frames import StopWorkerFrame
from pipecat.processors.frame_processor import FrameDirection


async def pause_pipeline(processor):
    await processor.push_frame(StopWorkerFrame(), FrameDirection.UPSTREAM)
