from pipecat.pipeline.base_task import PipelineTaskParams


class DebugRunner:
    def __init__(self, task):
        self._task = task

    async def run(self, params: PipelineTaskParams):
        await self._task.run(params)
