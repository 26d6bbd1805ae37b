from pipecat.processors.frameworks.rtvi import RTVIUITaskFrame


async def send_task_update(processor, data):
    await processor.push_frame(RTVIUITaskFrame(data=data))
