from pipecat.pipeline.runner import PipelineRunner


async def main(task):
    runner = PipelineRunner(handle_sigint=False)
    await runner.run(task)
