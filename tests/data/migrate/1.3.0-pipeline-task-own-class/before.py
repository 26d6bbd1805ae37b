class PipelineTask:
    """Our own job-queue task; nothing to do with Pipecat."""

    def __init__(self, name: str):
        self.name = name


task = PipelineTask("nightly-export")
print(task.name)
