from pipecat.flows.types import LegacyActionHandler


async def notify_kitchen(action: dict):
    print("order placed:", action["order"])


handler: LegacyActionHandler = notify_kitchen
