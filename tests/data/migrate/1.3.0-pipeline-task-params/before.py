import asyncio

from pipecat.pipeline.task import PipelineTaskParams


async def run_task(task):
    params = PipelineTaskParams(loop=asyncio.get_running_loop())
    await task.run(params)
