from pipecat.flows import ContextStrategy
from pipecat.flows import ContextStrategyConfig


def summary_strategy(prompt: str) -> ContextStrategyConfig:
    strategy = ContextStrategy.RESET_WITH_SUMMARY
    return ContextStrategyConfig(strategy=strategy, summary_prompt=prompt)
