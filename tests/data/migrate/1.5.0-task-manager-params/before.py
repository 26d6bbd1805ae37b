import asyncio

from pipecat.utils.asyncio.task_manager import TaskManager
from pipecat.utils.asyncio.task_manager import TaskManagerParams


async def make_task_manager() -> TaskManager:
    task_manager = TaskManager()
    task_manager.setup(TaskManagerParams(loop=asyncio.get_running_loop()))
    return task_manager
