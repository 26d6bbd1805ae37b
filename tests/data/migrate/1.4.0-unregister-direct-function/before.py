from pipecat.services.openai.llm import OpenAILLMService


def disable_tool(llm: OpenAILLMService, handler):
    llm.unregister_direct_function(handler)
