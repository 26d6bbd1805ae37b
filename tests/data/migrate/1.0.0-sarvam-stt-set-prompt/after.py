from pipecat.services.sarvam.stt import SarvamSTTService

stt = SarvamSTTService(api_key="key")


async def hint():
    await stt.set_prompt("Names of Indian cities")
