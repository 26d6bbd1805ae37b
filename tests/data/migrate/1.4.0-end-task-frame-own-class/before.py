from dataclasses import dataclass


@dataclass
class EndTaskFrame:
    """Marks the end of a task in our own scheduler."""

    task_id: str


frame = EndTaskFrame(task_id="export-1")
