from pipecat.pipeline.base_task import BasePipelineTask


def is_running(task: BasePipelineTask) -> bool:
    return not task.has_finished()
