import pipecat.workers.runner


def make_runner():
    return pipecat.workers.runner.WorkerRunner(handle_sigint=False)
