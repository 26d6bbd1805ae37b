from pipecat.workers.base_worker import WorkerParams


class DebugRunner:
    def __init__(self, task):
        self._task = task

    async def run(self, params: WorkerParams):
        await self._task.run(params)
