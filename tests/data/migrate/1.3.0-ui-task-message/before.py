from pipecat.processors.frameworks.rtvi.models import UITaskMessage


def wrap(data):
    return UITaskMessage(data=data)
