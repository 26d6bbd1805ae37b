from pipecat.services.deepgram.stt import DeepgramSTTService
from pipecat.transcriptions.language import Language


async def to_french(stt: DeepgramSTTService):
    await stt.set_language(Language.FR)
