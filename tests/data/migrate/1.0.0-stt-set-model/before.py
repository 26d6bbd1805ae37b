from pipecat.services.deepgram.stt import DeepgramSTTService

stt = DeepgramSTTService(api_key="key")


async def switch_model():
    await stt.set_model("nova-3-general")
