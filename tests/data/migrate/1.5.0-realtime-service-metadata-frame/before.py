from pipecat.frames.frames import RealtimeServiceMetadataFrame
from pipecat.processors.frame_processor import FrameProcessor


class RealtimeDetector(FrameProcessor):
    async def process_frame(self, frame, direction):
        await super().process_frame(frame, direction)
        if isinstance(frame, RealtimeServiceMetadataFrame):
            self.realtime = True
        await self.push_frame(frame, direction)
