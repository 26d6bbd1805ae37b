class WebsocketServerTransport:
    """A tiny echo server used by our integration tests."""

    def __init__(self, port: int):
        self.port = port


server = WebsocketServerTransport(port=9000)
