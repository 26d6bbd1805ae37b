from pipecat.workers.runner import WorkerRunner


async def run_bot(worker):
    runner = WorkerRunner(handle_sigint=False)
    await runner.run(worker)
