import os

from pipecat.services.mem0.memory import Mem0MemoryService

memory = Mem0MemoryService(
    api_key=os.getenv("MEM0_API_KEY"),
    user_id="user-123",
    params=Mem0MemoryService.InputParams(search_limit=5, api_version="v2"),
)
