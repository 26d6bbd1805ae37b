from pipecat.pipeline.worker_observer import WorkerObserver


def is_task_observer(observer) -> bool:
    return isinstance(observer, WorkerObserver)
