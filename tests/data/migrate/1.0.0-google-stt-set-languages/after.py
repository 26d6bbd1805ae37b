from pipecat.services.google.stt import GoogleSTTService
from pipecat.transcriptions.language import Language

stt = GoogleSTTService(credentials_path="creds.json")


async def bilingual():
    await stt.set_languages([Language.EN_US, Language.ES])
