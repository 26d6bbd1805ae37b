from pipecat.transports.base_transport import TransportParams
from pipecat.transports.smallwebrtc.transport import SmallWebRTCTransport


def create_transport(webrtc_connection):
    params = TransportParams(video_out_enabled=True, video_out_width=1280, video_out_height=720)
    return SmallWebRTCTransport(webrtc_connection=webrtc_connection, params=params)
