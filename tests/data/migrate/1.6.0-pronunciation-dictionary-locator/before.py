from pipecat.services.elevenlabs.tts import PronunciationDictionaryLocator

locators = [PronunciationDictionaryLocator(pronunciation_dictionary_id="dict-1", version_id="v1")]
