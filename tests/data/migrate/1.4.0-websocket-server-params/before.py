from pipecat.transports.websocket.server import WebsocketServerTransport
from pipecat.transports.websocket.server import WebsocketServerParams

transport = WebsocketServerTransport(
    params=WebsocketServerParams(audio_in_enabled=True, audio_out_enabled=True),
    host="0.0.0.0",
    port=8765,
)
