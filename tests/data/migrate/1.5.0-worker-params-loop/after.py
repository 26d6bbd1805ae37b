import asyncio

from pipecat.workers.base_worker import WorkerParams


async def run_worker(worker):
    await worker.run(WorkerParams(loop=asyncio.get_running_loop()))
