from pipecat.processors.aggregators.llm_response_universal import LLMUserAggregatorParams

# Let the LLM decide whether the user has finished speaking.
user_params = LLMUserAggregatorParams(filter_incomplete_user_turns=True)
