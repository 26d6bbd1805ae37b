from pipecat.flows.manager import FlowManager


def create_flow_manager(task, llm, context_aggregator) -> FlowManager:
    return FlowManager(task=task, llm=llm, context_aggregator=context_aggregator)
