from pipecat.processors.frameworks.rtvi import RTVIObserverParams


async def strip_markdown(text: str, agg_type: str) -> str:
    return text.replace("*", "")


params = RTVIObserverParams(bot_output_transforms=[("*", strip_markdown)])
