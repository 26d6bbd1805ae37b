from pipecat.processors.frameworks.rtvi.models import UITaskGroupCompletedData


def make_data(group_id: str, update=None):
    return UITaskGroupCompletedData(task_id=group_id)
