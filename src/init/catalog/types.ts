/** The shape of one AI service in the catalog. Data lives in the sibling files, one per kind. */

export type ServiceKind = "stt" | "llm" | "tts" | "realtime" | "video";

export interface Service {
  /** Our identifier, `<vendor>_<kind>`, e.g. `deepgram_stt`: Pipecat's scaffolder's id, where it has that form. */
  readonly id: string;
  /**
   * Other ids accepted for it, by the flags and by `--config`: Pipecat's scaffolder's id where ours
   * differs, or the id this catalog used before. `--list-options` lists only `id`.
   */
  readonly aliases?: readonly string[];
  /** What a person reads in a list, e.g. "Deepgram". */
  readonly label: string;
  readonly kind: ServiceKind;
  /** The `pipecat-ai[...]` extras that install this service's dependencies; empty when none exists. */
  readonly extras: readonly string[];
  /**
   * Every environment variable the service needs, in the order it reads them: those the
   * constructor expression reads, then any that Pipecat reads itself (the SageMaker clients take
   * their AWS keys from the environment).
   */
  readonly env: readonly string[];
  /** Python import lines the constructor needs, e.g. `from pipecat.services.deepgram.stt import DeepgramSTTService`. */
  readonly imports: readonly string[];
  /**
   * A Python expression that builds the service, checked against Pipecat's source. It reads its
   * environment with `os.environ["NAME"]` (or `os.getenv("NAME", "default")` for optional values),
   * may use the name `SYSTEM_INSTRUCTION` (LLM and realtime services), and `session`, an
   * `aiohttp.ClientSession`, when `needsHttpSession` is set. Continuation lines are indented by
   * four spaces relative to the expression's first line.
   */
  readonly construct: string;
  /**
   * A realtime service that takes the user's camera: its Pipecat class handles the camera's
   * frames (`InputImageRawFrame`) at the pinned release. The others drop them, so `--video-input`
   * is refused for them.
   */
  readonly camera?: boolean;
  /** The constructor takes an aiohttp session that the bot must open. */
  readonly needsHttpSession?: boolean;
  /**
   * Set when Pipecat deprecates the class at the pinned release: since when, and what to use
   * instead ("<id> is <deprecated>" is init's warning). Deprecated services come last in
   * `--list-options` and their label says so.
   */
  readonly deprecated?: string;
  /**
   * The model files Pipecat's class fetches while it is constructed (bot.py constructs it for each
   * session), checked against Pipecat's source by the matrix test (`model_downloads`). The image
   * fetches them when it is built, by constructing the class as bot.py does; the README says what
   * a first local session waits for.
   */
  readonly modelDownload?: ModelDownload;
  /**
   * Runs on the user's own machine and needs no account with anyone: a local model or a local
   * server, and no API key among its variables. The wizard says "(local, no account)".
   */
  readonly local?: true;
  /** One line on when to pick it, shown in lists and the wizard. */
  readonly note?: string;
}

/** What a service's class downloads when it is constructed, and where it puts it. */
export interface ModelDownload {
  /** What it fetches, and from where, e.g. "Kokoro's ONNX model and voices, from GitHub". */
  readonly what: string;
  /** How big, where a source states it (the source in a comment beside it); else left out. */
  readonly size?: string;
  /**
   * Where the files go: `home`, a directory under the user's home (`cache` names it as it is
   * on Linux), or `cwd`, the directory the bot runs in.
   */
  readonly into: "home" | "cwd";
  readonly cache?: string;
  /** Where a local run puts them, when that is not `cache` on every system. */
  readonly localCache?: string;
}
