from pipecat.transports.base_transport import TransportParams

transport_params = {
    "webrtc": lambda: TransportParams(video_out_enabled=True, video_out_bitrate=2_000_000),
}
