from pipecat.pipeline.pipeline import Pipeline
from pipecat.pipeline.task import PipelineTask as Task


def build_task(processors) -> Task:
    # The alias keeps the rest of this module unchanged.
    return Task(Pipeline(processors))
