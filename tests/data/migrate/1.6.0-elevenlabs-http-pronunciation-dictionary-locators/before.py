from pipecat.services.elevenlabs.tts import ElevenLabsHttpTTSService


def create_tts(api_key: str, locators) -> ElevenLabsHttpTTSService:
    return ElevenLabsHttpTTSService(api_key=api_key, pronunciation_dictionary_locators=locators)
