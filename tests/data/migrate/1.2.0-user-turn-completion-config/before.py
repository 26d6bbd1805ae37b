from pipecat.processors.aggregators.llm_response_universal import LLMUserAggregatorParams


def user_params(completion_config):
    return LLMUserAggregatorParams(user_turn_completion_config=completion_config)
