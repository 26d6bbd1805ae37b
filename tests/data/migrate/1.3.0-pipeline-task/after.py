from pipecat.pipeline.pipeline import Pipeline
from pipecat.pipeline.worker import PipelineWorker


def build_task(transport, stt, llm, tts) -> PipelineWorker:
    pipeline = Pipeline([transport.input(), stt, llm, tts, transport.output()])
    task = PipelineWorker(pipeline, idle_timeout_secs=120)
    return task
