from pipecat.frames.frames import EndTaskFrame
from pipecat.processors.frame_processor import FrameDirection
from pipecat.services.llm_service import FunctionCallParams


async def end_call(params: FunctionCallParams):
    await params.result_callback({"status": "ending"})
    await params.llm.push_frame(EndTaskFrame(), FrameDirection.UPSTREAM)
