from pipecat.pipeline.worker_observer import Proxy


def describe(proxy: Proxy) -> str:
    return repr(proxy)
