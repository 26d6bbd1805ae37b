from pipecat.services.llm_service import FunctionCallParams
from pipecat.services.openai.llm import OpenAILLMService


async def get_weather(params: FunctionCallParams, location: str):
    """Get the current weather.

    Args:
        location: The city and state.
    """
    await params.result_callback({"conditions": "sunny"})


llm = OpenAILLMService(api_key="sk-test")
llm.register_direct_function(get_weather)
