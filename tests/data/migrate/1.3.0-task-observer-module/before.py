from pipecat.pipeline.task_observer import Proxy


def describe(proxy: Proxy) -> str:
    return repr(proxy)
