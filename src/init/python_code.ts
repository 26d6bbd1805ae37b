/**
 * bot.py's Python as ruff writes it: the imports derived from the names the rendered code uses,
 * in ruff's (isort's) order, and string literals wrapped at the line length ruff keeps.
 */
import type { Service } from "./catalog.ts";

/** Where each name bot.py may use comes from. Service imports are added from the catalog. */
const PYTHON_NAMES: Readonly<Record<string, string>> = {
  // The standard library.
  asyncio: "asyncio",
  base64: "base64",
  hashlib: "hashlib",
  hmac: "hmac",
  logging: "logging",
  os: "os",
  re: "re",
  uuid: "uuid",
  UTC: "datetime",
  wave: "wave",
  datetime: "datetime",
  Path: "pathlib",
  parse_qs: "urllib.parse",
  // Third-party packages that pipecat-ai and its extras bring in.
  aiohttp: "aiohttp",
  load_dotenv: "dotenv",
  BackgroundTasks: "fastapi",
  Request: "fastapi",
  Response: "fastapi",
  JSONResponse: "fastapi.responses",
  logger: "loguru",
  OTLPSpanExporter: "opentelemetry.exporter.otlp.proto.http.trace_exporter",
  // Pipecat.
  SileroVADAnalyzer: "pipecat.audio.vad.silero",
  EvalTransportParams: "pipecat.evals.transport",
  LLMRunFrame: "pipecat.frames.frames",
  Pipeline: "pipecat.pipeline.pipeline",
  PipelineParams: "pipecat.pipeline.worker",
  PipelineWorker: "pipecat.pipeline.worker",
  LLMContext: "pipecat.processors.aggregators.llm_context",
  AssistantTurnStoppedMessage: "pipecat.processors.aggregators.llm_response_universal",
  LLMContextAggregatorPair: "pipecat.processors.aggregators.llm_response_universal",
  LLMUserAggregatorParams: "pipecat.processors.aggregators.llm_response_universal",
  UserTurnMessageAddedMessage: "pipecat.processors.aggregators.llm_response_universal",
  AudioBufferProcessor: "pipecat.processors.audio.audio_buffer_processor",
  configure: "pipecat.runner.daily",
  ProtobufFrameSerializer: "pipecat.serializers.protobuf",
  DailyRunnerArguments: "pipecat.runner.types",
  EvalRunnerArguments: "pipecat.runner.types",
  SmallWebRTCRunnerArguments: "pipecat.runner.types",
  RunnerArguments: "pipecat.runner.types",
  WebSocketRunnerArguments: "pipecat.runner.types",
  create_transport: "pipecat.runner.utils",
  maybe_capture_participant_camera: "pipecat.runner.utils",
  parse_telephony_websocket: "pipecat.runner.utils",
  BaseTransport: "pipecat.transports.base_transport",
  TransportParams: "pipecat.transports.base_transport",
  DailyParams: "pipecat.transports.daily.transport",
  FastAPIWebsocketParams: "pipecat.transports.websocket.fastapi",
  setup_tracing: "pipecat.utils.tracing.setup",
  WorkerRunner: "pipecat.workers.runner",
};

/** Modules that are imported whole (`import x`) rather than from (`from x import y`). */
const WHOLE_MODULES = new Set([
  "asyncio",
  "base64",
  "hashlib",
  "hmac",
  "logging",
  "os",
  "re",
  "uuid",
  "wave",
  "aiohttp",
]);
const STANDARD_LIBRARY = new Set([
  "asyncio",
  "base64",
  "hashlib",
  "datetime",
  "hmac",
  "logging",
  "os",
  "pathlib",
  "re",
  "urllib.parse",
  "uuid",
  "wave",
]);
/** The line that bot.py's template holds where its imports go. */
export const IMPORTS_MARKER = "# <imports>";
/** ruff's line length, as the projects' pyproject.toml sets it. */
const LINE_LENGTH = 100;

/** The code without comments, docstrings and string text (f-strings keep their fields). */
function codeOnly(source: string): string {
  const fields = (literal: string) => (literal.match(/\{[^{}]*\}/g) ?? []).join(" ");
  return source
    .replace(/"""[\s\S]*?"""/g, '""')
    .replace(
      /(f?)("(?:[^"\\\n]|\\.)*"|'(?:[^'\\\n]|\\.)*')/g,
      (_, f, text) => f ? fields(text) : '""',
    )
    .replace(/#.*$/gm, "");
}

/** ruff's isort order for imported names: CONSTANTS, then Classes, then functions. */
function nameOrder(a: string, b: string): number {
  const rank = (n: string) => (n === n.toUpperCase() ? 0 : n[0] === n[0].toUpperCase() ? 1 : 2);
  return rank(a) - rank(b) || compare(a.toLowerCase(), b.toLowerCase()) || compare(a, b);
}

/** Code-point order. Not localeCompare: its first call loads ICU's collator, ~30 ms at start. */
function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

function fromImport(module: string, names: string[]): string {
  const line = `from ${module} import ${names.join(", ")}`;
  if (line.length <= LINE_LENGTH) return line;
  return `from ${module} import (\n${names.map((n) => `    ${n},\n`).join("")})`;
}

/** Import blocks for the names `code` uses: the standard library, then everything else. */
export function pythonImports(code: string, services: readonly Service[]): string {
  const sources = new Map(Object.entries(PYTHON_NAMES));
  for (const line of services.flatMap((s) => s.imports)) {
    const [, module, names] = line.match(/^from (\S+) import (.+)$/)!;
    for (const name of names.split(",")) sources.set(name.trim(), module);
  }
  const used = new Set(codeOnly(code).match(/(?<![\w.])[A-Za-z_]\w*/g));
  const byModule = new Map<string, string[]>();
  for (const [name, module] of sources) {
    if (used.has(name)) byModule.set(module, [...byModule.get(module) ?? [], name]);
  }
  const block = (standard: boolean) => {
    const modules = [...byModule.keys()].filter((m) => STANDARD_LIBRARY.has(m) === standard)
      .sort();
    const whole = modules.filter((m) => WHOLE_MODULES.has(m)).map((m) => `import ${m}`);
    const from = modules.filter((m) => !WHOLE_MODULES.has(m))
      .map((m) => fromImport(m, byModule.get(m)!.sort(nameOrder)));
    return [...whole, ...from].join("\n");
  };
  return [block(true), block(false)].filter((b) => b !== "").join("\n\n");
}

/**
 * A Python string literal as ruff formats it after `prefix` characters: on the line, alone in
 * parentheses on the next, or split in two there.
 */
export function pythonString(text: string, prefix: number): string {
  if (prefix + text.length + 2 <= LINE_LENGTH) return `"${text}"`;
  if (4 + text.length + 2 <= LINE_LENGTH) return `(\n    "${text}"\n)`;
  const cut = text.lastIndexOf(" ", LINE_LENGTH - 8);
  return `(\n    "${text.slice(0, cut + 1)}"\n    "${text.slice(cut + 1)}"\n)`;
}
