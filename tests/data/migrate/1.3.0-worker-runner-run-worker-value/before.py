from pipecat.pipeline.runner import PipelineRunner


async def run_bot(worker):
    runner = PipelineRunner(handle_sigint=False)
    result = await runner.run(worker)
    return result
