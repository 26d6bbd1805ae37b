from pipecat.workers.runner import WorkerRunner


async def run_bot(worker):
    runner = WorkerRunner(handle_sigint=False)
    await runner.add_workers(worker)
    await runner.run()
