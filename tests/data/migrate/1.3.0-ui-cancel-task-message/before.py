from pipecat.processors.frameworks.rtvi.models import UICancelTaskMessage


def cancel_data(message: UICancelTaskMessage):
    return message.data
