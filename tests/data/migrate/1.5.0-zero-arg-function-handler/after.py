from pipecat.flows import ZeroArgFunctionHandler


async def get_specials():
    return {"specials": ["soup of the day"]}


handler: ZeroArgFunctionHandler = get_specials
