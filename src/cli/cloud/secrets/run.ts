/**
 * `voicebot cloud secrets run NAME [NAME ...] -- COMMAND [ARGS ...]`: start COMMAND with the
 * values of the sets in its environment, read with a runtime key.
 */
import { define } from "gunshi";
import { invalidArguments, UsageError } from "../../../errors.ts";
import { KEY_NAME, SET_NAME } from "../../../secrets/names.ts";
import { NO_COLOR, printJson, printNote } from "../../output.ts";
import { ENV, timeoutMs } from "../connect.ts";
import { checkWaitTimeout } from "./io.ts";
import { durationMs } from "../../../words.ts";

/** How long `--grace` gives a command by default; see docs/secrets.md on what a bot does then. */
const DEFAULT_GRACE_SECONDS = 600;
/** A question of `--watch` that takes longer than this counts as unanswered. */
const WATCH_TIMEOUT_MS = 10_000;
const USAGE = "`voicebot cloud secrets run NAME [NAME ...] -- COMMAND [ARGS ...]`";
/** How old the values `--fallback` starts from may be, unless `--fallback-max-age` says. */
const DEFAULT_FALLBACK_MAX_AGE = "3d";
const isVariable = (name: string) => KEY_NAME.test(name);

export default define({
  name: "run",
  description: "Run a command with the values of secret sets in its environment.\n" +
    "Reads the sets with a runtime key, from VOICEBOT_RUNTIME_KEY or --key-file.",
  exitCodes: [
    ["126", "The command could not be started"],
    ["127", "No such command"],
    ["N", "Once started, the command's own exit status"],
  ],
  helpExamples: [
    [
      "Start the bot with the values of set my-bot",
      "voicebot cloud secrets run my-bot -- uv run bot.py",
    ],
    [
      "Two sets, the later one's value winning; the key from a file",
      "voicebot cloud secrets run shared my-bot --key-file runtime.key -- uv run bot.py",
    ],
    [
      "Restart the bot when the set changes (asked every 10 s)",
      "voicebot cloud secrets run my-bot --watch -- uv run bot.py",
    ],
    [
      "The variables the bot would get (names only); nothing runs",
      "voicebot cloud secrets run my-bot --dry-run -- uv run bot.py",
    ],
  ],
  // Its environment, less VOICEBOT_*, is the command's too (the sets' values win over it).
  environment: [
    ["VOICEBOT_RUNTIME_KEY", "The runtime key, where --key-file is not given"],
    ENV.apiUrl,
    [
      "VOICEBOT_ORG",
      "Organization whose stored API URL is used, where neither --api-url nor VOICEBOT_API_URL is given",
    ],
    ENV.timeout,
    ENV.config,
    NO_COLOR,
  ],
  args: {
    names: {
      type: "positional",
      multiple: true,
      required: true,
      metavar: "NAME",
      description: "A secret set; a later set's value wins over an earlier one's",
    },
    "key-file": {
      type: "string",
      metavar: "file",
      description:
        "Read the runtime key from this file (mode 0600) instead of VOICEBOT_RUNTIME_KEY",
    },
    "keep-env": {
      type: "string",
      multiple: true,
      metavar: "variable",
      description: "Keep this variable's value from the environment where a set has it too",
    },
    "allow-var": {
      type: "string",
      multiple: true,
      metavar: "variable",
      description: "Let the sets give this variable, although it changes what runs (PATH, LD_*...)",
    },
    "wait-timeout": {
      type: "number",
      default: 120,
      metavar: "seconds",
      description: "Seconds to wait for a set that is still pending",
    },
    masking: {
      type: "boolean",
      negatable: true,
      default: true,
      description: "Mask the sets' values (6 characters or more) in the command's output " +
        "(--no-masking: its output is not touched, and it keeps the terminal)",
    },
    watch: {
      type: "boolean",
      description: "Restart the command when the sets change (SIGTERM, then --grace)",
    },
    fallback: {
      type: "string",
      metavar: "file",
      description: "Keep the values read in this file, sealed with the runtime key (0600); " +
        "start from it when the API cannot be reached",
    },
    "fallback-max-age": {
      type: "string",
      metavar: "age",
      description:
        `With --fallback: the oldest values it starts from (30m, 12h, 3d; default: ${DEFAULT_FALLBACK_MAX_AGE})`,
    },
    interval: {
      type: "number",
      default: 10,
      metavar: "seconds",
      description: "With --watch: seconds between two questions to the API",
    },
    grace: {
      type: "number",
      default: DEFAULT_GRACE_SECONDS,
      metavar: "seconds",
      description: "Seconds the command has to end after SIGTERM (a restart, or voicebot " +
        "stopped) before it and what it started are killed",
    },
    "dry-run": {
      type: "boolean",
      description: "List the variables the command would get (names only); run nothing",
    },
    json: { type: "boolean", description: "With --dry-run: print one JSON document on stdout" },
    "api-url": {
      type: "string",
      metavar: "url",
      description:
        "API base URL (default: VOICEBOT_API_URL, else the current organization's stored one)",
    },
  },
  run: async (ctx) => {
    const values = ctx.values;
    const names = ctx.positionals.slice(ctx.commandPath.length);
    const command = ctx.rest;
    const dryRun = values["dry-run"] ?? false;
    const keepEnv = values["keep-env"] ?? [];
    const allowVars = values["allow-var"] ?? [];
    const fallbackMaxAgeMs = durationMs(values["fallback-max-age"] ?? DEFAULT_FALLBACK_MAX_AGE);
    const problems = [
      // Not quoted: what was typed there may be a value.
      ...names.flatMap((name, i) =>
        SET_NAME.test(name) ? [] : [`argument ${i + 1} is not a set name`]
      ),
      ...(command.length || dryRun ? [] : ["no command: put it after `--`"]),
      ...(keepEnv.every(isVariable) ? [] : ["--keep-env takes a variable name"]),
      ...(allowVars.every(isVariable) ? [] : ["--allow-var takes a variable name"]),
      ...(values.json && !dryRun ? ["--json goes with --dry-run"] : []),
      ...(values.interval > 0 ? [] : ["--interval must be more than 0 seconds"]),
      ...(values.grace >= 0 ? [] : ["--grace must be 0 seconds or more"]),
      ...(values.watch && dryRun ? ["--watch does not go with --dry-run"] : []),
      ...(values["fallback-max-age"] !== undefined && values.fallback === undefined
        ? ["--fallback-max-age goes with --fallback"]
        : []),
      ...(fallbackMaxAgeMs === null
        ? ["--fallback-max-age takes an age such as 30m, 12h or 3d"]
        : []),
      ...(values.fallback !== undefined && dryRun ? ["--fallback does not go with --dry-run"] : []),
    ];
    if (problems.length) throw invalidArguments(problems, { hint: `${USAGE}.` });
    const waitMs = checkWaitTimeout(values["wait-timeout"]) * 1000;

    const [run, { isLoopback, normalizeApiUrl, SecretsClient }, { resolveApiUrl }] = await Promise
      .all([
        import("../../../secrets/run.ts"),
        import("../../../secrets/client.ts"),
        import("../../../config/credentials.ts"),
      ]);
    const env = (name: string) => Deno.env.get(name) || undefined;
    const apiKey = await run.readRuntimeKey(values["key-file"], env);
    // No --insecure here: a runtime key goes over https, or to this machine.
    const baseUrl = normalizeApiUrl(await resolveApiUrl(values["api-url"]));
    if (!baseUrl.startsWith("https:") && !isLoopback(baseUrl)) {
      throw new UsageError(
        `the API URL ${baseUrl} is http:// to another host: the runtime key would cross the ` +
          "network unencrypted; nothing was sent.",
        {
          hint:
            "use the server's https:// URL: a runtime key goes only over https, or to this machine.",
        },
      );
    }
    const client = new SecretsClient({
      baseUrl,
      apiKey,
      timeoutMs: timeoutMs(),
      loginHint: `the runtime key was refused: check ${
        values["key-file"] ? "--key-file" : run.RUNTIME_KEY_ENV
      }, or ask for a new one (it may be revoked or expired).`,
    });
    const fallback = values.fallback === undefined ? undefined : {
      path: values.fallback,
      maxAgeMs: fallbackMaxAgeMs!,
      context: { apiUrl: baseUrl, names },
    };
    const { keep, readOrFallback } = await import("../../../secrets/fallback.ts");
    const sets = await readOrFallback(
      async () => {
        // Whether the server offers runtime keys, asked without the key: it goes to no other.
        await run.checkRuntimeOffered(client, baseUrl);
        return await run.readSets(client, names, {
          timeoutMs: waitMs,
          onWait: (name) => printNote(`Waiting for "${name}" to be ready...`),
        });
      },
      fallback,
      apiKey,
      printNote,
    );
    const options = { keepEnv, allowVars };
    const child = run.childEnvironment(Deno.env.toObject(), sets, options);

    if (dryRun) {
      if (values.json) return printJson({ sets: names, given: child.given, kept: child.kept });
      const width = Math.max(...child.given.map(({ key }) => key.length), 0);
      for (const { key, set } of child.given) console.log(`${key.padEnd(width)}  from ${set}`);
      if (child.kept.length) printNote(`Kept from the environment: ${child.kept.join(", ")}.`);
      printNote(
        `${child.given.length} variable(s) from ${names.length} set(s); nothing was started.`,
      );
      return;
    }
    const watching = new AbortController();
    const watcher = values.watch
      ? new (await import("../../../secrets/watch.ts")).SetWatcher(
        new SecretsClient({
          baseUrl,
          apiKey,
          // One attempt per question: the watch has its own backoff.
          attempts: 1,
          timeoutMs: Math.min(timeoutMs() ?? WATCH_TIMEOUT_MS, WATCH_TIMEOUT_MS),
          signal: watching.signal,
        }),
        sets,
        child,
        {
          intervalMs: values.interval * 1000,
          environmentOf: (sets) => {
            const environment = run.childEnvironment(Deno.env.toObject(), sets, options);
            // New values: kept for the next start without the API.
            if (fallback) void keep(fallback, apiKey, sets, printNote);
            return environment;
          },
          say: printNote,
          signal: watching.signal,
        },
      )
      : undefined;
    try {
      await run.runCommand(command, child, {
        interactive: Deno.stdin.isTerminal(),
        mask: values.masking ? (environment) => environment.setValues : undefined,
        graceMs: values.grace * 1000,
        changed: watcher && (() => watcher.changed()),
        say: printNote,
      });
    } finally {
      watching.abort();
    }
  },
});
