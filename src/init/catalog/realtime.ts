/**
 * Realtime (speech-to-speech) services, checked against Pipecat v1.7.0: module paths, class names,
 * constructor keywords, Settings fields and pipecat-ai extras. Each one replaces STT, LLM and TTS
 * in the pipeline; voices and models stay at the service defaults. `camera`: OpenAI Realtime (and
 * Azure's, its subclass) and Gemini Live (and Vertex's) send the camera's frames to the model;
 * Nova Sonic, Inworld, Ultravox and Grok handle no image frame at v1.7.0.
 */

import type { Service } from "./types.ts";

export const REALTIME_SERVICES: readonly Service[] = [
  {
    id: "aws_nova_realtime",
    aliases: ["aws_nova_sonic_realtime"],
    label: "AWS Nova Sonic",
    kind: "realtime",
    extras: ["aws-nova-sonic"],
    env: ["AWS_ACCESS_KEY_ID", "AWS_SECRET_ACCESS_KEY", "AWS_SESSION_TOKEN", "AWS_REGION"],
    imports: ["from pipecat.services.aws.nova_sonic.llm import AWSNovaSonicLLMService"],
    construct: `AWSNovaSonicLLMService(
    access_key_id=os.environ["AWS_ACCESS_KEY_ID"],
    secret_access_key=os.environ["AWS_SECRET_ACCESS_KEY"],
    session_token=os.getenv("AWS_SESSION_TOKEN"),
    region=os.getenv("AWS_REGION", "us-east-1"),
    settings=AWSNovaSonicLLMService.Settings(system_instruction=SYSTEM_INSTRUCTION),
)`,
    note: "Nova 2 Sonic on Bedrock; needs Python 3.12+ and us-east-1, us-west-2 or ap-northeast-1.",
  },
  {
    id: "azure_realtime",
    label: "Azure OpenAI Realtime",
    kind: "realtime",
    camera: true,
    extras: ["azure"],
    env: ["AZURE_REALTIME_API_KEY", "AZURE_REALTIME_BASE_URL"],
    imports: ["from pipecat.services.azure.realtime.llm import AzureRealtimeLLMService"],
    construct: `AzureRealtimeLLMService(
    api_key=os.environ["AZURE_REALTIME_API_KEY"],
    base_url=os.environ["AZURE_REALTIME_BASE_URL"],
    settings=AzureRealtimeLLMService.Settings(system_instruction=SYSTEM_INSTRUCTION),
)`,
    note:
      "OpenAI Realtime on Azure; base URL is the full wss:// URL with api-version and deployment.",
  },
  {
    id: "gemini_live_realtime",
    label: "Google Gemini Live",
    kind: "realtime",
    camera: true,
    extras: ["google"],
    env: ["GOOGLE_API_KEY", "GOOGLE_MODEL"],
    imports: ["from pipecat.services.google.gemini_live.llm import GeminiLiveLLMService"],
    construct: `GeminiLiveLLMService(
    api_key=os.environ["GOOGLE_API_KEY"],
    settings=GeminiLiveLLMService.Settings(
        model=os.getenv("GOOGLE_MODEL", "models/gemini-2.5-flash-native-audio-preview-12-2025"),
        system_instruction=SYSTEM_INSTRUCTION,
    ),
)`,
    note: "Gemini native-audio model with a Google AI Studio key; also takes video.",
  },
  {
    id: "gemini_vertex_live_realtime",
    aliases: ["gemini_live_vertex_realtime"],
    label: "Google Gemini Live (Vertex AI)",
    kind: "realtime",
    camera: true,
    extras: ["google"],
    env: ["GOOGLE_CREDENTIALS", "GOOGLE_CLOUD_PROJECT_ID", "GOOGLE_CLOUD_LOCATION"],
    imports: [
      "from pipecat.services.google.gemini_live.vertex.llm import GeminiLiveVertexLLMService",
    ],
    construct: `GeminiLiveVertexLLMService(
    credentials=os.environ["GOOGLE_CREDENTIALS"],
    project_id=os.environ["GOOGLE_CLOUD_PROJECT_ID"],
    location=os.environ["GOOGLE_CLOUD_LOCATION"],
    settings=GeminiLiveVertexLLMService.Settings(system_instruction=SYSTEM_INSTRUCTION),
)`,
    note: "Gemini Live through Vertex AI; service-account JSON, GCP project and region.",
  },
  {
    id: "inworld_realtime",
    label: "Inworld Realtime",
    kind: "realtime",
    extras: ["inworld"],
    env: ["INWORLD_API_KEY"],
    imports: ["from pipecat.services.inworld.realtime.llm import InworldRealtimeLLMService"],
    construct: `InworldRealtimeLLMService(
    api_key=os.environ["INWORLD_API_KEY"],
    settings=InworldRealtimeLLMService.Settings(system_instruction=SYSTEM_INSTRUCTION),
)`,
    note: "Hosted STT, LLM and TTS behind one socket; routable LLM (default openai/gpt-4.1-mini).",
  },
  {
    id: "openai_realtime",
    label: "OpenAI Realtime",
    kind: "realtime",
    camera: true,
    extras: ["openai"],
    env: ["OPENAI_API_KEY"],
    imports: ["from pipecat.services.openai.realtime.llm import OpenAIRealtimeLLMService"],
    construct: `OpenAIRealtimeLLMService(
    api_key=os.environ["OPENAI_API_KEY"],
    settings=OpenAIRealtimeLLMService.Settings(system_instruction=SYSTEM_INSTRUCTION),
)`,
    note: "OpenAI speech-to-speech (default gpt-realtime-2) with server-side turn detection.",
  },
  {
    id: "ultravox_realtime",
    // Pipecat's scaffolder calls it `ultravox`; ours keeps the `<vendor>_realtime` form.
    aliases: ["ultravox"],
    label: "Ultravox",
    kind: "realtime",
    extras: ["ultravox"],
    env: ["ULTRAVOX_API_KEY"],
    imports: [
      "from pipecat.services.ultravox.llm import OneShotInputParams, UltravoxRealtimeLLMService",
    ],
    construct: `UltravoxRealtimeLLMService(
    params=OneShotInputParams(
        api_key=os.environ["ULTRAVOX_API_KEY"],
        system_prompt=SYSTEM_INSTRUCTION,
    ),
)`,
    note: "Ultravox speech-native model; calls are capped at one hour by default.",
  },
  {
    id: "xai_realtime",
    label: "xAI Grok Voice",
    kind: "realtime",
    extras: ["xai"],
    env: ["XAI_API_KEY"],
    imports: ["from pipecat.services.xai.realtime.llm import GrokRealtimeLLMService"],
    construct: `GrokRealtimeLLMService(
    api_key=os.environ["XAI_API_KEY"],
    settings=GrokRealtimeLLMService.Settings(system_instruction=SYSTEM_INSTRUCTION),
)`,
    note: "Grok voice agent with built-in web and X search tools; voices Ara, Rex, Sal, Eve, Leo.",
  },
];
