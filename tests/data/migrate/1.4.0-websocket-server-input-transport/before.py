from pipecat.transports.websocket.server import WebsocketServerInputTransport


class LoggingInput(WebsocketServerInputTransport):
    async def start(self, frame):
        print("starting", frame)
        await super().start(frame)
