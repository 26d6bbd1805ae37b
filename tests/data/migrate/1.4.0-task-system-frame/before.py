from pipecat.frames.frames import TaskSystemFrame


def is_urgent(frame) -> bool:
    return isinstance(frame, TaskSystemFrame)
