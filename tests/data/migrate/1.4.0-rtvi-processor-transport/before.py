from pipecat.processors.frameworks.rtvi.processor import RTVIProcessor


def make_rtvi(transport):
    return RTVIProcessor(transport=transport)
