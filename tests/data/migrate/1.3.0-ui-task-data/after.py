from pipecat.processors.frameworks.rtvi.models import UIJobGroupData


def kind_of(data: UIJobGroupData) -> str:
    return data.kind
