from pipecat.transports.websocket.server import WebsocketServerCallbacks


def log_callbacks(callbacks: WebsocketServerCallbacks):
    print(callbacks)
