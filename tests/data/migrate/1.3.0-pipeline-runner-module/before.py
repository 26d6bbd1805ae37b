import pipecat.pipeline.runner


def make_runner():
    return pipecat.pipeline.runner.PipelineRunner(handle_sigint=False)
