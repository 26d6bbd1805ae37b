import asyncio

from pipecat.workers.runner import WorkerRunner


async def make_runner() -> WorkerRunner:
    return WorkerRunner(loop=asyncio.get_running_loop(), handle_sigint=False)
