from pipecat.services.cartesia.tts import CartesiaTTSService

tts = CartesiaTTSService(api_key="key")


async def faster():
    await tts.set_model("sonic-turbo")
