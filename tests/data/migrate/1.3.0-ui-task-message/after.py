from pipecat.processors.frameworks.rtvi.models import UIJobGroupMessage


def wrap(data):
    return UIJobGroupMessage(data=data)
