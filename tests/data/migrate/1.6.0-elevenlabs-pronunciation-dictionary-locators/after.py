from pipecat.services.elevenlabs.tts import ElevenLabsTTSService


def create_tts(api_key: str, locators) -> ElevenLabsTTSService:
    return ElevenLabsTTSService(api_key=api_key, pronunciation_dictionary_locators=locators)
