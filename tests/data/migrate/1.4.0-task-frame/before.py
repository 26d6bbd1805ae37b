from pipecat.frames.frames import TaskFrame


def is_task_frame(frame) -> bool:
    return isinstance(frame, TaskFrame)
