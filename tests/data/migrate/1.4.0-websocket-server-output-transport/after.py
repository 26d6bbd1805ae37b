from pipecat.transports.websocket.server import SingleClientWebsocketServerOutputTransport


class LoggingOutput(SingleClientWebsocketServerOutputTransport):
    async def start(self, frame):
        print("starting", frame)
        await super().start(frame)
