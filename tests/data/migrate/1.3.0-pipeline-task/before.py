from pipecat.pipeline.pipeline import Pipeline
from pipecat.pipeline.task import PipelineTask


def build_task(transport, stt, llm, tts) -> PipelineTask:
    pipeline = Pipeline([transport.input(), stt, llm, tts, transport.output()])
    task = PipelineTask(pipeline, idle_timeout_secs=120)
    return task
