from pipecat.transports.whatsapp.client import WhatsAppClient


async def handle_webhook(client: WhatsAppClient, request, run_bot):
    async def on_connection(connection):
        await run_bot(connection)

    return await client.handle_webhook_request(request, connection_callback=on_connection)
