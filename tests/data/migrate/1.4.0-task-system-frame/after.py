from pipecat.frames.frames import WorkerSystemFrame


def is_urgent(frame) -> bool:
    return isinstance(frame, WorkerSystemFrame)
