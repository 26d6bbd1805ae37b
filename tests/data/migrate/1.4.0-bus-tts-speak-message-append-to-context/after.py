from pipecat.bus.messages import BusTTSSpeakMessage


def speak(source: str, text: str) -> BusTTSSpeakMessage:
    return BusTTSSpeakMessage(source=source, text=text, append_to_context=None)
