from pipecat.transports.websocket.server import SingleClientWebsocketServerCallbacks


def log_callbacks(callbacks: SingleClientWebsocketServerCallbacks):
    print(callbacks)
