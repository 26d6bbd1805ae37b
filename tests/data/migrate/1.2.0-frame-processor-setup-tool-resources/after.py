from pipecat.processors.frame_processor import FrameProcessor
from pipecat.processors.frame_processor import FrameProcessorSetup


class OrderLookup(FrameProcessor):
    async def setup(self, setup: FrameProcessorSetup):
        await super().setup(setup)
        self._db = setup.tool_resources["db"]
