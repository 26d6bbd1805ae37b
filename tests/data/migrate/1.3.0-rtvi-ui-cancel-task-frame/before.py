from pipecat.processors.frameworks.rtvi.frames import RTVIUICancelTaskFrame


async def on_frame(frame, groups):
    if isinstance(frame, RTVIUICancelTaskFrame):
        await groups.cancel(frame.task_id)
