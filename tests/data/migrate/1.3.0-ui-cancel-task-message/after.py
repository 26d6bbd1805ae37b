from pipecat.processors.frameworks.rtvi.models import UICancelJobGroupMessage


def cancel_data(message: UICancelJobGroupMessage):
    return message.data
