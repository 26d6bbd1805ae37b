from pipecat.processors.frameworks.rtvi.models import UITaskGroupStartedData


def make_data(group_id: str, update=None):
    return UITaskGroupStartedData(task_id=group_id, agents=["researcher"])
