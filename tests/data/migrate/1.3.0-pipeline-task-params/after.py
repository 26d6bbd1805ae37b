import asyncio

from pipecat.workers.base_worker import WorkerParams


async def run_task(task):
    params = WorkerParams(loop=asyncio.get_running_loop())
    await task.run(params)
