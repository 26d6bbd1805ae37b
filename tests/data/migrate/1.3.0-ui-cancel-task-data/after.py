from pipecat.processors.frameworks.rtvi.models import UICancelTaskData


def make_data(group_id: str, update=None):
    return UICancelTaskData(task_id=group_id)
