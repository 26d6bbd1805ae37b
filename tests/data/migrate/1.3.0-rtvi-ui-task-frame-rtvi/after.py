from pipecat.processors.frameworks.rtvi import RTVIUIJobGroupFrame


async def send_task_update(processor, data):
    await processor.push_frame(RTVIUIJobGroupFrame(data=data))
