import aiohttp

from pipecat.services.xtts.tts import XTTSService


def create_tts(session: aiohttp.ClientSession) -> XTTSService:
    return XTTSService(base_url="http://localhost:8000", aiohttp_session=session)
