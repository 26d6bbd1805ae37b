from pipecat.transports.base_input import BaseInputTransport


async def on_client_ready(input_transport: BaseInputTransport):
    await input_transport.start_audio_in_streaming()
