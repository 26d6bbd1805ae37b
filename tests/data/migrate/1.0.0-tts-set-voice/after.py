from pipecat.services.tts_service import TTSService


class MyTTS(TTSService):
    async def start_call(self):
        await self.set_voice("narrator")
