from pipecat.services.settings import LLMSettings


def llm_settings(completion_config=None) -> LLMSettings:
    return LLMSettings(model="gpt-4.1", user_turn_completion_config=completion_config)
