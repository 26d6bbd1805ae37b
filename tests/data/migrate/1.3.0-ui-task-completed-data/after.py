from pipecat.processors.frameworks.rtvi.models import UITaskCompletedData


def make_data(group_id: str, update=None):
    return UITaskCompletedData(task_id=group_id, agent_name="researcher", response=update)
