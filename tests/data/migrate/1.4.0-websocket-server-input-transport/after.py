from pipecat.transports.websocket.server import SingleClientWebsocketServerInputTransport


class LoggingInput(SingleClientWebsocketServerInputTransport):
    async def start(self, frame):
        print("starting", frame)
        await super().start(frame)
