from pipecat.processors.frameworks.rtvi.models import UITaskData


def kind_of(data: UITaskData) -> str:
    return data.kind
