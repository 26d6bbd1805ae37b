from pipecat.frames.frames import Frame
from pipecat.processors.frame_processor import FrameDirection
from pipecat.processors.frame_processor import FrameProcessor


class OrderLookup(FrameProcessor):
    async def process_frame(self, frame: Frame, direction: FrameDirection):
        await super().process_frame(frame, direction)
        db = self.pipeline_worker.app_resources["db"]
        await db.touch()
        await self.push_frame(frame, direction)
