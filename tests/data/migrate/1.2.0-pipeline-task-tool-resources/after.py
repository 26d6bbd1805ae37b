from pipecat.pipeline.pipeline import Pipeline
from pipecat.pipeline.worker import PipelineWorker


def build_task(processors, db):
    pipeline = Pipeline(processors)
    return PipelineWorker(pipeline, app_resources={"db": db})
