from pipecat.transports.websocket.server import SingleClientWebsocketServerTransport
from pipecat.transports.websocket.server import SingleClientWebsocketServerParams

transport = SingleClientWebsocketServerTransport(
    params=SingleClientWebsocketServerParams(audio_in_enabled=True, audio_out_enabled=True),
    host="0.0.0.0",
    port=8765,
)
