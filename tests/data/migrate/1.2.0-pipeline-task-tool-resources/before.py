from pipecat.pipeline.pipeline import Pipeline
from pipecat.pipeline.task import PipelineTask


def build_task(processors, db):
    pipeline = Pipeline(processors)
    return PipelineTask(pipeline, tool_resources={"db": db})
