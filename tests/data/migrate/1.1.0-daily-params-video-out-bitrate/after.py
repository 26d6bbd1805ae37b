import os

from pipecat.transports.daily.transport import DailyTransport
from pipecat.transports.daily.transport import DailyParams

transport = DailyTransport(
    os.getenv("DAILY_ROOM_URL"),
    None,
    "Pipecat Bot",
    DailyParams(camera_out_enabled=True, video_out_bitrate=1_500_000),
)
