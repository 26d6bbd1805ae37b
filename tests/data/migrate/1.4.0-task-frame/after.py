from pipecat.frames.frames import WorkerFrame


def is_task_frame(frame) -> bool:
    return isinstance(frame, WorkerFrame)
