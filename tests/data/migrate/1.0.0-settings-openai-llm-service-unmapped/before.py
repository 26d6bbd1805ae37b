import os

from pipecat.services.openai.llm import OpenAILLMService

llm = OpenAILLMService(
    api_key=os.getenv("OPENAI_API_KEY"),
    params=OpenAILLMService.InputParams(temperature=0.7, service_tier="flex"),
)
