from pipecat.services.llm_service import RealtimeServiceInfo


def describe(info: RealtimeServiceInfo) -> str:
    return repr(info)
