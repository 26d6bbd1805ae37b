from pipecat.processors.frameworks.rtvi import RTVIUICancelTaskFrame


async def on_frame(frame, groups):
    if isinstance(frame, RTVIUICancelTaskFrame):
        await groups.cancel(frame.task_id)
