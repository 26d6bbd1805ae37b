from pipecat.workers.runner import WorkerRunner


async def main(task):
    runner = WorkerRunner(handle_sigint=False)
    await runner.add_workers(task)
    await runner.run()
