from pipecat.processors.frameworks.rtvi.observer import RTVIObserver


async def strip_markdown(text: str, agg_type: str) -> str:
    return text.replace("*", "")


def add_transforms(observer: RTVIObserver):
    observer.add_bot_output_transformer(strip_markdown)
