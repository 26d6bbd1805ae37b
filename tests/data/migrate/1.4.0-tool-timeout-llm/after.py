from pipecat.workers.llm import tool


class DocsAgent:
    @tool(cancel_on_interruption=False, timeout_secs=60)
    async def search_docs(self, params, query: str):
        """Search the product documentation."""
        await params.result_callback({"results": []})
