from pipecat.frames.frames import TTSSpeakFrame


async def greet(task):
    await task.queue_frame(TTSSpeakFrame("Hello! How can I help?", append_to_context=None))
