from pipecat.workers.runner import WorkerRunner as Runner


def make_runner(handle_sigint: bool) -> Runner:
    return Runner(handle_sigint=handle_sigint, force_gc=True)
