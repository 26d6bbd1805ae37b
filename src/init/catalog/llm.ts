/**
 * LLM services for cascade (STT -> LLM -> TTS) bots, checked against Pipecat v1.7.0: module paths,
 * class names, constructor keywords, Settings fields and pipecat-ai extras. Models are left at each
 * service's default unless the service cannot work without one.
 */

import type { Service } from "./types.ts";

export const LLM_SERVICES: readonly Service[] = [
  {
    id: "anthropic_llm",
    label: "Anthropic Claude",
    kind: "llm",
    extras: ["anthropic"],
    env: ["ANTHROPIC_API_KEY", "ANTHROPIC_MODEL"],
    imports: ["from pipecat.services.anthropic.llm import AnthropicLLMService"],
    construct: `AnthropicLLMService(
    api_key=os.environ["ANTHROPIC_API_KEY"],
    settings=AnthropicLLMService.Settings(
        model=os.getenv("ANTHROPIC_MODEL", "claude-sonnet-4-6"),
        system_instruction=SYSTEM_INSTRUCTION,
    ),
)`,
    note: "Claude models through Anthropic's API (default claude-sonnet-4-6).",
  },
  {
    id: "aws_bedrock_llm",
    aliases: ["aws_llm"],
    label: "AWS Bedrock",
    kind: "llm",
    extras: ["aws"],
    env: [
      "AWS_ACCESS_KEY_ID",
      "AWS_SECRET_ACCESS_KEY",
      "AWS_SESSION_TOKEN",
      "AWS_REGION",
      "AWS_BEDROCK_MODEL",
    ],
    imports: ["from pipecat.services.aws.llm import AWSBedrockLLMService"],
    construct: `AWSBedrockLLMService(
    aws_access_key=os.environ["AWS_ACCESS_KEY_ID"],
    aws_secret_key=os.environ["AWS_SECRET_ACCESS_KEY"],
    aws_session_token=os.getenv("AWS_SESSION_TOKEN"),
    aws_region=os.getenv("AWS_REGION", "us-east-1"),
    settings=AWSBedrockLLMService.Settings(
        model=os.getenv("AWS_BEDROCK_MODEL", "us.amazon.nova-lite-v1:0"),
        system_instruction=SYSTEM_INSTRUCTION,
    ),
)`,
    note:
      "Claude, Nova and other Bedrock models (default us.amazon.nova-lite-v1:0); IAM credentials.",
  },
  {
    id: "azure_llm",
    label: "Azure OpenAI",
    kind: "llm",
    extras: ["azure"],
    env: ["AZURE_CHATGPT_API_KEY", "AZURE_CHATGPT_ENDPOINT", "AZURE_CHATGPT_MODEL"],
    imports: ["from pipecat.services.azure.llm import AzureLLMService"],
    construct: `AzureLLMService(
    api_key=os.environ["AZURE_CHATGPT_API_KEY"],
    endpoint=os.environ["AZURE_CHATGPT_ENDPOINT"],
    settings=AzureLLMService.Settings(
        model=os.environ["AZURE_CHATGPT_MODEL"],
        system_instruction=SYSTEM_INSTRUCTION,
    ),
)`,
    note: "OpenAI models in your Azure resource; AZURE_CHATGPT_MODEL is the deployment name.",
  },
  {
    id: "baseten_llm",
    label: "Baseten",
    kind: "llm",
    extras: ["baseten"],
    env: ["BASETEN_API_KEY", "BASETEN_MODEL"],
    imports: ["from pipecat.services.baseten.llm import BasetenLLMService"],
    construct: `BasetenLLMService(
    api_key=os.environ["BASETEN_API_KEY"],
    settings=BasetenLLMService.Settings(
        model=os.getenv("BASETEN_MODEL", "moonshotai/Kimi-K2.6"),
        system_instruction=SYSTEM_INSTRUCTION,
    ),
)`,
    note: "Open-weights models on Baseten Model APIs (default moonshotai/Kimi-K2.6).",
  },
  {
    id: "cerebras_llm",
    label: "Cerebras",
    kind: "llm",
    extras: ["cerebras"],
    env: ["CEREBRAS_API_KEY", "CEREBRAS_MODEL"],
    imports: ["from pipecat.services.cerebras.llm import CerebrasLLMService"],
    construct: `CerebrasLLMService(
    api_key=os.environ["CEREBRAS_API_KEY"],
    settings=CerebrasLLMService.Settings(
        model=os.getenv("CEREBRAS_MODEL", "gpt-oss-120b"),
        system_instruction=SYSTEM_INSTRUCTION,
    ),
)`,
    note: "Very fast inference of open models (default gpt-oss-120b).",
  },
  {
    id: "crusoe_llm",
    label: "Crusoe",
    kind: "llm",
    extras: ["crusoe"],
    env: ["CRUSOE_API_KEY", "CRUSOE_MODEL"],
    imports: ["from pipecat.services.crusoe.llm import CrusoeLLMService"],
    construct: `CrusoeLLMService(
    api_key=os.environ["CRUSOE_API_KEY"],
    settings=CrusoeLLMService.Settings(
        model=os.getenv("CRUSOE_MODEL", "zai/GLM-5.2"),
        system_instruction=SYSTEM_INSTRUCTION,
    ),
)`,
    note: "Crusoe Cloud managed inference of open models (default zai/GLM-5.2).",
  },
  {
    id: "deepseek_llm",
    label: "DeepSeek",
    kind: "llm",
    extras: ["deepseek"],
    env: ["DEEPSEEK_API_KEY", "DEEPSEEK_MODEL"],
    imports: ["from pipecat.services.deepseek.llm import DeepSeekLLMService"],
    construct: `DeepSeekLLMService(
    api_key=os.environ["DEEPSEEK_API_KEY"],
    settings=DeepSeekLLMService.Settings(
        model=os.getenv("DEEPSEEK_MODEL", "deepseek-chat"),
        system_instruction=SYSTEM_INSTRUCTION,
    ),
)`,
    note: "DeepSeek's own API (default deepseek-chat).",
  },
  {
    id: "fireworks_llm",
    label: "Fireworks AI",
    kind: "llm",
    extras: ["fireworks"],
    env: ["FIREWORKS_API_KEY", "FIREWORKS_MODEL"],
    imports: ["from pipecat.services.fireworks.llm import FireworksLLMService"],
    construct: `FireworksLLMService(
    api_key=os.environ["FIREWORKS_API_KEY"],
    settings=FireworksLLMService.Settings(
        model=os.getenv("FIREWORKS_MODEL", "accounts/fireworks/models/firefunction-v2"),
        system_instruction=SYSTEM_INSTRUCTION,
    ),
)`,
    note:
      "Open models on Fireworks (default firefunction-v2; set FIREWORKS_MODEL to a current one).",
  },
  {
    id: "google_gemini_llm",
    aliases: ["google_llm"],
    label: "Google Gemini",
    kind: "llm",
    extras: ["google"],
    env: ["GOOGLE_API_KEY", "GOOGLE_MODEL"],
    imports: ["from pipecat.services.google.llm import GoogleLLMService"],
    construct: `GoogleLLMService(
    api_key=os.environ["GOOGLE_API_KEY"],
    settings=GoogleLLMService.Settings(
        model=os.getenv("GOOGLE_MODEL", "gemini-2.5-flash"),
        system_instruction=SYSTEM_INSTRUCTION,
    ),
)`,
    note: "Gemini with a Google AI Studio API key (default gemini-2.5-flash).",
  },
  {
    id: "google_vertex_llm",
    label: "Google Vertex AI",
    kind: "llm",
    extras: ["google"],
    env: ["GOOGLE_CREDENTIALS", "GOOGLE_CLOUD_PROJECT_ID", "GOOGLE_CLOUD_LOCATION", "GOOGLE_MODEL"],
    imports: ["from pipecat.services.google.vertex.llm import GoogleVertexLLMService"],
    construct: `GoogleVertexLLMService(
    credentials=os.environ["GOOGLE_CREDENTIALS"],
    project_id=os.environ["GOOGLE_CLOUD_PROJECT_ID"],
    location=os.environ["GOOGLE_CLOUD_LOCATION"],
    settings=GoogleVertexLLMService.Settings(
        model=os.getenv("GOOGLE_MODEL", "gemini-2.5-flash"),
        system_instruction=SYSTEM_INSTRUCTION,
    ),
)`,
    note: "Gemini on Vertex AI; service-account JSON, GCP project and region.",
  },
  {
    id: "groq_llm",
    label: "Groq",
    kind: "llm",
    extras: ["groq"],
    env: ["GROQ_API_KEY", "GROQ_MODEL"],
    imports: ["from pipecat.services.groq.llm import GroqLLMService"],
    construct: `GroqLLMService(
    api_key=os.environ["GROQ_API_KEY"],
    settings=GroqLLMService.Settings(
        model=os.getenv("GROQ_MODEL", "llama-3.3-70b-versatile"),
        system_instruction=SYSTEM_INSTRUCTION,
    ),
)`,
    note: "Low-latency open models on Groq (default llama-3.3-70b-versatile).",
  },
  {
    id: "inception_llm",
    label: "Inception",
    kind: "llm",
    extras: ["inception"],
    env: ["INCEPTION_API_KEY", "INCEPTION_MODEL"],
    imports: ["from pipecat.services.inception.llm import InceptionLLMService"],
    construct: `InceptionLLMService(
    api_key=os.environ["INCEPTION_API_KEY"],
    settings=InceptionLLMService.Settings(
        model=os.getenv("INCEPTION_MODEL", "mercury-2"),
        system_instruction=SYSTEM_INSTRUCTION,
    ),
)`,
    note: "Mercury-2, a fast diffusion-based reasoning model.",
  },
  {
    id: "mistral_llm",
    label: "Mistral",
    kind: "llm",
    extras: ["mistral"],
    env: ["MISTRAL_API_KEY", "MISTRAL_MODEL"],
    imports: ["from pipecat.services.mistral.llm import MistralLLMService"],
    construct: `MistralLLMService(
    api_key=os.environ["MISTRAL_API_KEY"],
    settings=MistralLLMService.Settings(
        model=os.getenv("MISTRAL_MODEL", "mistral-small-latest"),
        system_instruction=SYSTEM_INSTRUCTION,
    ),
)`,
    note: "Mistral's API (default mistral-small-latest).",
  },
  {
    id: "nebius_llm",
    label: "Nebius",
    kind: "llm",
    extras: ["nebius"],
    env: ["NEBIUS_API_KEY"],
    imports: ["from pipecat.services.nebius.llm import NebiusLLMService"],
    construct: `NebiusLLMService(
    api_key=os.environ["NEBIUS_API_KEY"],
    settings=NebiusLLMService.Settings(system_instruction=SYSTEM_INSTRUCTION),
)`,
    note: "Open models on Nebius Token Factory (default Qwen3-30B-A3B-Instruct).",
  },
  {
    id: "novita_llm",
    label: "Novita AI",
    kind: "llm",
    extras: ["novita"],
    env: ["NOVITA_API_KEY", "NOVITA_MODEL"],
    imports: ["from pipecat.services.novita.llm import NovitaLLMService"],
    construct: `NovitaLLMService(
    api_key=os.environ["NOVITA_API_KEY"],
    settings=NovitaLLMService.Settings(
        model=os.getenv("NOVITA_MODEL", "moonshotai/kimi-k2.5"),
        system_instruction=SYSTEM_INSTRUCTION,
    ),
)`,
    note: "Open models on Novita AI (default moonshotai/kimi-k2.5).",
  },
  {
    id: "nvidia_llm",
    label: "NVIDIA NIM",
    kind: "llm",
    extras: ["nvidia"],
    env: ["NVIDIA_API_KEY", "NVIDIA_MODEL"],
    imports: ["from pipecat.services.nvidia.llm import NvidiaLLMService"],
    construct: `NvidiaLLMService(
    api_key=os.environ["NVIDIA_API_KEY"],
    settings=NvidiaLLMService.Settings(
        model=os.getenv("NVIDIA_MODEL", "nvidia/nemotron-3-nano-30b-a3b"),
        system_instruction=SYSTEM_INSTRUCTION,
    ),
)`,
    note: "NVIDIA NIM models (default nemotron-3-nano); keeps reasoning text out of speech.",
  },
  {
    id: "ollama_llm",
    label: "Ollama (local)",
    local: true,
    kind: "llm",
    extras: [],
    env: ["OLLAMA_MODEL"],
    imports: ["from pipecat.services.ollama.llm import OLLamaLLMService"],
    construct: `OLLamaLLMService(
    settings=OLLamaLLMService.Settings(
        model=os.getenv("OLLAMA_MODEL", "llama2"),
        system_instruction=SYSTEM_INSTRUCTION,
    ),
)`,
    note: "Models served locally by Ollama on localhost:11434; no API key, pull the model first.",
  },
  {
    id: "openai_llm",
    label: "OpenAI",
    kind: "llm",
    extras: ["openai"],
    env: ["OPENAI_API_KEY", "OPENAI_MODEL"],
    imports: ["from pipecat.services.openai.llm import OpenAILLMService"],
    construct: `OpenAILLMService(
    api_key=os.environ["OPENAI_API_KEY"],
    settings=OpenAILLMService.Settings(
        model=os.getenv("OPENAI_MODEL", "gpt-4.1"),
        system_instruction=SYSTEM_INSTRUCTION,
    ),
)`,
    note: "OpenAI Chat Completions (default gpt-4.1); the common default.",
  },
  {
    id: "openai_responses_http_llm",
    label: "OpenAI Responses (HTTP)",
    kind: "llm",
    extras: ["openai"],
    env: ["OPENAI_API_KEY"],
    imports: ["from pipecat.services.openai.responses.llm import OpenAIResponsesHttpLLMService"],
    construct: `OpenAIResponsesHttpLLMService(
    api_key=os.environ["OPENAI_API_KEY"],
    settings=OpenAIResponsesHttpLLMService.Settings(system_instruction=SYSTEM_INSTRUCTION),
)`,
    note: "OpenAI Responses API, one HTTP request per turn (default gpt-4.1).",
  },
  {
    id: "openai_responses_llm",
    label: "OpenAI Responses (WebSocket)",
    kind: "llm",
    extras: ["openai"],
    env: ["OPENAI_API_KEY", "OPENAI_MODEL"],
    imports: ["from pipecat.services.openai.responses.llm import OpenAIResponsesLLMService"],
    construct: `OpenAIResponsesLLMService(
    api_key=os.environ["OPENAI_API_KEY"],
    settings=OpenAIResponsesLLMService.Settings(
        model=os.getenv("OPENAI_MODEL", "gpt-4.1"),
        system_instruction=SYSTEM_INSTRUCTION,
    ),
)`,
    note: "OpenAI Responses API over a persistent WebSocket; lower latency with tool calls.",
  },
  {
    id: "openrouter_llm",
    label: "OpenRouter",
    kind: "llm",
    extras: ["openrouter"],
    env: ["OPENROUTER_API_KEY", "OPENROUTER_MODEL"],
    imports: ["from pipecat.services.openrouter.llm import OpenRouterLLMService"],
    construct: `OpenRouterLLMService(
    api_key=os.environ["OPENROUTER_API_KEY"],
    settings=OpenRouterLLMService.Settings(
        model=os.getenv("OPENROUTER_MODEL", "openai/gpt-4.1"),
        system_instruction=SYSTEM_INSTRUCTION,
    ),
)`,
    note: "One key for many vendors' models (default openai/gpt-4.1).",
  },
  {
    id: "perplexity_llm",
    label: "Perplexity",
    kind: "llm",
    extras: ["perplexity"],
    env: ["PERPLEXITY_API_KEY", "PERPLEXITY_MODEL"],
    imports: ["from pipecat.services.perplexity.llm import PerplexityLLMService"],
    construct: `PerplexityLLMService(
    api_key=os.environ["PERPLEXITY_API_KEY"],
    settings=PerplexityLLMService.Settings(
        model=os.getenv("PERPLEXITY_MODEL", "sonar"),
        system_instruction=SYSTEM_INSTRUCTION,
    ),
)`,
    note: "Web-search-grounded answers (default sonar); no function calling.",
  },
  {
    id: "qwen_llm",
    label: "Qwen (Alibaba Cloud)",
    kind: "llm",
    extras: ["qwen"],
    env: ["QWEN_API_KEY", "QWEN_MODEL"],
    imports: ["from pipecat.services.qwen.llm import QwenLLMService"],
    construct: `QwenLLMService(
    api_key=os.environ["QWEN_API_KEY"],
    settings=QwenLLMService.Settings(
        model=os.getenv("QWEN_MODEL", "qwen-plus"),
        system_instruction=SYSTEM_INSTRUCTION,
    ),
)`,
    note: "Qwen models via DashScope's international endpoint (default qwen-plus).",
  },
  {
    id: "sambanova_llm",
    label: "SambaNova",
    kind: "llm",
    extras: ["sambanova"],
    env: ["SAMBANOVA_API_KEY", "SAMBANOVA_MODEL"],
    imports: ["from pipecat.services.sambanova.llm import SambaNovaLLMService"],
    construct: `SambaNovaLLMService(
    api_key=os.environ["SAMBANOVA_API_KEY"],
    settings=SambaNovaLLMService.Settings(
        model=os.getenv("SAMBANOVA_MODEL", "Meta-Llama-3.3-70B-Instruct"),
        system_instruction=SYSTEM_INSTRUCTION,
    ),
)`,
    note: "Fast open models on SambaNova (default Meta-Llama-3.3-70B-Instruct).",
  },
  {
    id: "sarvam_llm",
    label: "Sarvam AI",
    kind: "llm",
    extras: ["sarvam"],
    env: ["SARVAM_API_KEY", "SARVAM_MODEL"],
    imports: ["from pipecat.services.sarvam.llm import SarvamLLMService"],
    construct: `SarvamLLMService(
    api_key=os.environ["SARVAM_API_KEY"],
    settings=SarvamLLMService.Settings(
        model=os.getenv("SARVAM_MODEL", "sarvam-105b"),
        system_instruction=SYSTEM_INSTRUCTION,
    ),
)`,
    note: "Sarvam's sarvam-105b, aimed at Indian languages.",
  },
  {
    id: "together_llm",
    label: "Together AI",
    kind: "llm",
    extras: ["together"],
    env: ["TOGETHER_API_KEY", "TOGETHER_MODEL"],
    imports: ["from pipecat.services.together.llm import TogetherLLMService"],
    construct: `TogetherLLMService(
    api_key=os.environ["TOGETHER_API_KEY"],
    settings=TogetherLLMService.Settings(
        model=os.getenv("TOGETHER_MODEL", "zai-org/GLM-5.1"),
        system_instruction=SYSTEM_INSTRUCTION,
    ),
)`,
    note: "Open models on Together AI (default zai-org/GLM-5.1).",
  },
  {
    id: "xai_llm",
    label: "xAI Grok",
    kind: "llm",
    extras: ["xai"],
    env: ["XAI_API_KEY", "XAI_MODEL"],
    imports: ["from pipecat.services.xai.llm import GrokLLMService"],
    construct: `GrokLLMService(
    api_key=os.environ["XAI_API_KEY"],
    settings=GrokLLMService.Settings(
        model=os.getenv("XAI_MODEL", "grok-4.20-non-reasoning"),
        system_instruction=SYSTEM_INSTRUCTION,
    ),
)`,
    note: "Grok models from xAI (default grok-4.20-non-reasoning).",
  },
];
