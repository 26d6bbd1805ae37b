from pipecat.pipeline.task_observer import TaskObserver


def is_task_observer(observer) -> bool:
    return isinstance(observer, TaskObserver)
