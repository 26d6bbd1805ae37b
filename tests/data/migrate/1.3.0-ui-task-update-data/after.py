from pipecat.processors.frameworks.rtvi.models import UITaskUpdateData


def make_data(group_id: str, update=None):
    return UITaskUpdateData(task_id=group_id, agent_name="researcher", data=update)
