from pipecat.services.settings import LLMSettings


def llm_settings(completion_config=None) -> LLMSettings:
    return LLMSettings(model="gpt-4.1", filter_incomplete_user_turns=True)
