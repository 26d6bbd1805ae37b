from pipecat.transports.websocket.server import WebsocketServerOutputTransport


class LoggingOutput(WebsocketServerOutputTransport):
    async def start(self, frame):
        print("starting", frame)
        await super().start(frame)
