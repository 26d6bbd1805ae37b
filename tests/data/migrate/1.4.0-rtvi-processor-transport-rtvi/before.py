from pipecat.processors.frameworks.rtvi import RTVIProcessor


def make_rtvi(transport):
    return RTVIProcessor(transport=transport)
