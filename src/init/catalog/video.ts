/**
 * Video avatar services, checked against Pipecat v1.7.0. Each one sits right after the TTS
 * service and before `transport.output()`: it takes the TTS audio, and sends downstream the
 * avatar's video frames together with the audio lip-synced to them. The transport needs video
 * output switched on (`video_out_enabled=True`, `video_out_is_live=True`); Pipecat's examples run
 * them over Daily or SmallWebRTC.
 */

import type { Service } from "./types.ts";

export const VIDEO_SERVICES: readonly Service[] = [
  {
    id: "heygen_video",
    label: "HeyGen LiveAvatar",
    kind: "video",
    extras: ["heygen"],
    env: ["HEYGEN_LIVE_AVATAR_API_KEY"],
    imports: [
      "from pipecat.services.heygen.client import ServiceType",
      "from pipecat.services.heygen.video import HeyGenVideoService",
    ],
    construct: `HeyGenVideoService(
    api_key=os.environ["HEYGEN_LIVE_AVATAR_API_KEY"],
    service_type=ServiceType.LIVE_AVATAR,
    session=session,
)`,
    needsHttpSession: true,
    note: "Goes after TTS; Pipecat's default LiveAvatar avatar; 1280x720 video out.",
  },
  {
    id: "simli_video",
    label: "Simli",
    kind: "video",
    extras: ["simli"],
    env: ["SIMLI_API_KEY", "SIMLI_FACE_ID"],
    imports: ["from pipecat.services.simli.video import SimliVideoService"],
    construct: `SimliVideoService(
    api_key=os.environ["SIMLI_API_KEY"],
    face_id=os.environ["SIMLI_FACE_ID"],
)`,
    note: "Goes after TTS; needs a Simli face id; 512x512 video out.",
  },
  {
    id: "tavus_video",
    label: "Tavus",
    kind: "video",
    extras: ["tavus"],
    env: ["TAVUS_API_KEY", "TAVUS_REPLICA_ID"],
    imports: ["from pipecat.services.tavus.video import TavusVideoService"],
    construct: `TavusVideoService(
    api_key=os.environ["TAVUS_API_KEY"],
    replica_id=os.environ["TAVUS_REPLICA_ID"],
    session=session,
)`,
    needsHttpSession: true,
    note: "Goes after TTS; needs a Tavus replica id; joins Tavus over Daily (daily-python).",
  },
];
