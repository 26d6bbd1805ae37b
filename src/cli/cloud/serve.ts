/**
 * `voicebot cloud serve`: the secrets API, and `serve create-key`. The server and the database
 * drivers load only when one of them runs.
 *
 * Output: stdout carries what scripts capture (the bootstrap key alone on its line, then
 * `Listening on <base URL>` last); stderr carries JSON log lines.
 */
import { define } from "gunshi";
import { invalidArguments, UsageError, VoicebotError } from "../../errors.ts";
import { databaseProblem, describeDatabase, hasPassword } from "../../server/database_url.ts";
import { ORGANIZATION_NAME, readsAsName, SET_NAME } from "../../secrets/names.ts";
import { NO_COLOR, printJson, printNote, printSuccess } from "../output.ts";
import { count, durationMs, quoted } from "../../words.ts";

const DEFAULT_REGIONS = "us-west,us-east,eu-central";
const REGION_PATTERN = /^[a-z0-9-]{1,32}$/;
const KEY_ID_PATTERN = /^[0-9a-f]{16}$/;
/** The server's AUTH_CACHE_MS (this file may not import the server; a test holds them equal). */
export const AUTH_CACHE_SECONDS = 2;
const CREATE_KEY_USAGE =
  "voicebot cloud serve create-key --organization ORG [--runtime --set NAME ...] [--expires-in 90d] [--create]";
const ACTIONS = `\`${CREATE_KEY_USAGE.slice("voicebot cloud serve ".length)}\`, ` +
  "`list-keys --organization ORG [--json]`, `revoke-key KEY_ID`, " +
  "`rotate-master-key [--batch-size N] [--json]` and `backup --to FILE`";
/** The words that make `cloud serve` do something else than serve (completion offers them). */
export const SERVE_ACTIONS = [
  "create-key",
  "list-keys",
  "revoke-key",
  "rotate-master-key",
  "backup",
] as const;
/** Items re-sealed in one transaction by rotate-master-key (the server's ROTATION_BATCH). */
export const ROTATION_BATCH = 500;

const DATABASE_URL_ENV = "VOICEBOT_DATABASE_URL";

const database = {
  type: "string",
  description:
    `SQLite file, or postgres://URL without a password (default: $${DATABASE_URL_ENV}, else $XDG_DATA_HOME/voicebot/voicebot.db)`,
} as const;

export default define({
  name: "serve",
  description:
    `Serve the secrets API (SQLite by default, PostgreSQL with ${DATABASE_URL_ENV}=postgres://...).\n` +
    "With an ACTION, it manages keys and data instead of serving:\n" +
    "`create-key -o ORG` prints a new API key for ORG (`--runtime --set NAME`: a key that only " +
    "reads the values of set NAME);\n" +
    "`list-keys -o ORG [--json]` lists ORG's keys;\n" +
    "`revoke-key KEY_ID` revokes one;\n" +
    "`rotate-master-key` re-seals everything with the newest master key;\n" +
    "`backup --to FILE` writes a consistent copy of a SQLite database.",
  helpExamples: [
    ["Serve on 127.0.0.1:8787, SQLite in $XDG_DATA_HOME/voicebot", "voicebot cloud serve"],
    [
      "Make organization acme, with the database if new; print its key",
      "voicebot cloud serve create-key -o acme --create",
    ],
    [
      "A runtime key that reads set my-bot's values, for 90 days",
      "voicebot cloud serve create-key -o acme --runtime --set my-bot --expires-in 90d",
    ],
    ["Listen on every interface, port 8080", "voicebot cloud serve --host 0.0.0.0 --port 8080"],
    [
      "A consistent copy of the live SQLite database",
      "voicebot cloud serve backup --to voicebot-backup.db",
    ],
  ],
  actions: {
    "create-key": {
      description:
        "Print a new API key for an organization (created with --create if new), or a runtime key that only reads the values of the --set sets.",
      args: ["organization", "runtime", "set", "expires-in", "create", "database"],
      helpExamples: [
        [
          "Make organization acme, with the database if new; print its key",
          "voicebot cloud serve create-key -o acme --create",
        ],
        [
          "A runtime key that reads set my-bot's values, for 90 days",
          "voicebot cloud serve create-key -o acme --runtime --set my-bot --expires-in 90d",
        ],
      ],
    },
    "list-keys": {
      description: "List an organization's API keys: ids, kinds, sets, times; never a secret.",
      args: ["organization", "json", "database"],
      helpExamples: [["acme's keys, as JSON", "voicebot cloud serve list-keys -o acme --json"]],
    },
    "revoke-key": {
      description:
        "Revoke an API key by its id (list-keys shows it); every server process refuses it within seconds.",
      args: ["key-id", "database"],
      helpExamples: [["Revoke one key", "voicebot cloud serve revoke-key 0123456789abcdef"]],
    },
    "rotate-master-key": {
      description:
        "Re-seal every value with the newest master key (the first of VOICEBOT_MASTER_KEY), while the servers keep serving.",
      args: ["batch-size", "json", "database"],
      helpExamples: [["Re-seal everything", "voicebot cloud serve rotate-master-key"]],
    },
    backup: {
      description: "Write a consistent copy of a SQLite database, while the servers keep serving.",
      args: ["to", "database"],
      helpExamples: [[
        "A consistent copy of the live SQLite database",
        "voicebot cloud serve backup --to voicebot-backup.db",
      ]],
    },
  },
  environment: [
    [
      DATABASE_URL_ENV,
      "postgres://URL of the database (with its password), where --database is not given",
    ],
    [
      "VOICEBOT_MASTER_KEY",
      "Master keys that seal the values, comma-separated, newest first (default, with SQLite: the key file beside the database)",
    ],
    ["XDG_DATA_HOME", "Where the default SQLite file goes (default: ~/.local/share)"],
    NO_COLOR,
  ],
  args: {
    action: {
      type: "positional",
      required: false,
      choices: SERVE_ACTIONS,
      description:
        "create-key, list-keys, revoke-key KEY_ID, rotate-master-key or backup instead of serving",
    },
    "key-id": {
      type: "positional",
      required: false,
      metavar: "KEY_ID",
      description: "revoke-key: the id of the key to revoke",
    },
    organization: {
      type: "string",
      metavar: "org",
      short: "o",
      description: "create-key: the organization (created if new); list-keys: the organization",
    },
    runtime: {
      type: "boolean",
      description: "create-key: a runtime key, which reads the values of the --set sets only",
    },
    set: {
      type: "string",
      multiple: true,
      description: "create-key --runtime: a secret set the key reads (repeat for more)",
    },
    "expires-in": {
      type: "string",
      metavar: "duration",
      description:
        "create-key: the key stops working after this long, e.g. 30m, 12h, 90d (default: it does not expire)",
    },
    create: {
      type: "boolean",
      description: "create-key: make the database if there is none (else it must exist)",
    },
    json: { type: "boolean", description: "list-keys, rotate-master-key: print JSON" },
    to: {
      type: "string",
      metavar: "file",
      description: "backup: the file to write (it must not exist)",
    },
    "batch-size": {
      type: "number",
      metavar: "values",
      description:
        `rotate-master-key: values re-sealed per transaction (default: ${ROTATION_BATCH})`,
    },
    host: { type: "string", default: "127.0.0.1", description: "Address to listen on" },
    port: { type: "number", default: 8787, description: "Port; 0 picks a free one" },
    database,
    regions: {
      type: "string",
      default: DEFAULT_REGIONS,
      description: "Comma-separated region codes",
    },
    "default-region": {
      type: "string",
      metavar: "region",
      description: "Default region (default: the first of --regions)",
    },
    "rate-limit": {
      type: "number",
      metavar: "requests",
      default: 50,
      description: "Requests per second per API key; 0 turns it off",
    },
    "rate-burst": {
      type: "number",
      metavar: "requests",
      default: 100,
      description: "Requests an API key may send at once",
    },
    "provision-delay": {
      type: "number",
      metavar: "milliseconds",
      default: 200,
      description: "Milliseconds a write stays pending at least",
    },
  },
  run: async (ctx) => {
    const values = ctx.values;
    // `create-key` is an action word rather than a gunshi subcommand: a nested command would
    // make gunshi read the value of `--port 0` as a command name.
    const [action, ...extra] = ctx.positionals.slice(ctx.commandPath.length);
    if (values.create && action !== "create-key") {
      throw new UsageError("--create goes with create-key.", {
        hint: `the actions are ${ACTIONS}.`,
      });
    }
    if (action === "create-key" && extra.length === 0) {
      return await createKey(values, operatorDatabase(values.database));
    }
    if (action === "list-keys" && extra.length === 0) {
      return await listKeys(
        values.organization,
        operatorDatabase(values.database),
        values.json ?? false,
      );
    }
    if (action === "revoke-key" && extra.length === 1) {
      return await revokeKey(extra[0], operatorDatabase(values.database));
    }
    if (values["batch-size"] !== undefined && action !== "rotate-master-key") {
      throw new UsageError("--batch-size goes with rotate-master-key.", {
        hint: `the actions are ${ACTIONS}.`,
      });
    }
    if (values.to !== undefined && action !== "backup") {
      throw new UsageError("--to goes with backup.", { hint: `the actions are ${ACTIONS}.` });
    }
    if (action === "backup" && extra.length === 0) {
      return await backup(operatorDatabase(values.database), values.to);
    }
    if (action === "rotate-master-key" && extra.length === 0) {
      return await rotateMasterKey(
        operatorDatabase(values.database),
        values["batch-size"] ?? ROTATION_BATCH,
        values.json ?? false,
      );
    }
    if (action === "revoke-key") {
      throw new UsageError("revoke-key needs the id of the key to revoke: 16 hex digits.", {
        hint:
          "`voicebot cloud serve list-keys -o ORG` lists an organization's keys with their ids; then `voicebot cloud serve revoke-key KEY_ID`.",
      });
    }
    if (action !== undefined) {
      // An action that takes no argument, given one: quoted only when it reads as a name.
      const word = readsAsName(extra[0]) ? `"${extra[0]}"` : "one not shown (it may be a value)";
      throw new UsageError(`${action} takes no argument; unexpected: ${word}.`, {
        hint: `the actions are ${ACTIONS}.`,
      });
    }
    const actionOnly = [
      values.organization !== undefined && "--organization",
      values.json && "--json",
      values.runtime && "--runtime",
      values.set !== undefined && "--set",
      values["expires-in"] !== undefined && "--expires-in",
    ].filter(Boolean);
    if (actionOnly.length) {
      throw new UsageError(`${actionOnly.join(", ")} go with an action.`, {
        hint: `the actions are ${ACTIONS}.`,
      });
    }
    const regions = values.regions.split(",").map((region) => region.trim()).filter(Boolean);
    const defaultRegion = values["default-region"] ?? regions[0];
    checkOptions(
      values.host,
      values.port,
      regions,
      defaultRegion,
      values["rate-limit"],
      values["rate-burst"],
      values["provision-delay"],
    );

    const { PROVISION_POLL_MS, startServer } = await import("../../server/serve.ts");
    const server = await startServer({
      hostname: values.host,
      port: values.port,
      database: databaseOf(values.database),
      regions,
      defaultRegion,
      rateLimit: values["rate-limit"] > 0
        ? { perSecond: values["rate-limit"], burst: values["rate-burst"] }
        : undefined,
      provisioner: { delayMs: values["provision-delay"], pollMs: PROVISION_POLL_MS },
      // Empty counts as unset, as in most shells' habits.
      masterKey: Deno.env.get("VOICEBOT_MASTER_KEY") || undefined,
    });
    // The listeners come before the line that says the server is up: a signal sent as soon as it
    // appears finds them. A second signal while it drains (Ctrl-C twice) joins the same shutdown.
    const stopped = new Promise((resolve) => {
      const stop = () => void server.shutdown().then(resolve);
      Deno.addSignalListener("SIGINT", stop);
      Deno.addSignalListener("SIGTERM", stop);
    });
    if (server.bootstrap) {
      console.log(
        `Created organization "${server.bootstrap.organization}" with this API key (shown only once, store it now):`,
      );
      console.log(server.bootstrap.apiKey);
    }
    console.log(`Listening on ${server.baseUrl}`);
    await stopped;
    // The shutdown is done (the database closed, the logs written): the process ends now, not
    // when the event loop empties. A stalled client's connection would keep it alive, and a signal
    // that came while the runtime wound down would meet no listener and end a clean stop with 143.
    Deno.exit(0);
  },
});

interface CreateKeyValues {
  create?: boolean;
  organization?: string;
  runtime?: boolean;
  set?: string[];
  "expires-in"?: string;
}

async function createKey(values: CreateKeyValues, database: string) {
  const { organization, runtime, set: sets = [] } = values;
  const expiresIn = values["expires-in"];
  const lifetime = expiresIn === undefined ? undefined : durationMs(expiresIn);
  const problems = [
    ...(organization === undefined ? ["create-key needs --organization ORG"] : []),
    ...(organization !== undefined && !ORGANIZATION_NAME.test(organization)
      ? [`invalid organization name "${organization}": use 1 to 63 letters, digits or hyphens`]
      : []),
    ...(runtime && sets.length === 0 ? ["--runtime needs --set NAME, a set the key reads"] : []),
    ...(!runtime && sets.length ? ["--set goes with --runtime"] : []),
    // Not quoted: what was typed there may be a value.
    ...sets.flatMap((name, i) =>
      SET_NAME.test(name)
        ? []
        : [`--set number ${i + 1} is not a set name (1 to 63 letters, digits or hyphens)`]
    ),
    ...(lifetime === null
      ? [`--expires-in "${expiresIn}" is not a duration such as 30m, 12h or 90d`]
      : []),
  ];
  if (problems.length) {
    throw invalidArguments(problems, {
      summary: "invalid options.",
      hint: `\`${CREATE_KEY_USAGE}\`.`,
    });
  }
  const expiresAt = lifetime ? Date.now() + lifetime : undefined;
  const { createApiKey } = await import("../../server/serve.ts");
  const runtimeSets = runtime ? [...new Set(sets)] : undefined;
  const create = values.create ?? false;
  console.log(await createApiKey(database, organization!, { runtimeSets, expiresAt, create }));
  const until = expiresAt ? `, valid until ${new Date(expiresAt).toISOString()}` : "";
  printSuccess(
    runtimeSets
      ? `New runtime key for organization "${organization}", reading ${
        runtimeSets.map((name) => `"${name}"`).join(", ")
      }${until}. Store it now: it is not shown again.`
      : `New API key for organization "${organization}"${until}. Store it now: it is not shown again.`,
  );
  if (runtimeSets) {
    printNote(
      "Give it to the program's environment as VOICEBOT_RUNTIME_KEY (from your secret store, " +
        `never typed on a command line), then: voicebot cloud secrets run ${
          runtimeSets.join(" ")
        } -- COMMAND`,
    );
  }
}

async function listKeys(organization: string | undefined, database: string, json: boolean) {
  if (organization === undefined) {
    throw new UsageError("list-keys needs --organization.", {
      hint: "`voicebot cloud serve list-keys --organization ORG`.",
    });
  }
  const { listApiKeys } = await import("../../server/serve.ts");
  const iso = (ms: number | null) => ms === null ? null : new Date(ms).toISOString();
  const now = Date.now();
  const keys = (await listApiKeys(database, organization)).map((key) => ({
    id: key.id,
    kind: key.kind,
    sets: key.sets,
    created: iso(key.createdAt)!,
    lastUsed: iso(key.lastUsedAt),
    expires: iso(key.expiresAt),
    expired: key.expiresAt !== null && key.expiresAt <= now,
  }));
  if (json) return printJson(keys);
  const { table } = await import("../../secrets/render.ts");
  const out = table(["id", "kind", "sets", "created", "last used", "expires"]);
  for (const key of keys) {
    // A runtime key whose sets were all deleted reads nothing any more.
    const sets = key.kind === "private" ? "" : key.sets.join(", ") || "(all deleted)";
    const expires = key.expires === null
      ? "never"
      : `${key.expires}${key.expired ? " (expired)" : ""}`;
    out.push([key.id, key.kind, sets, key.created, key.lastUsed ?? "never", expires]);
  }
  console.log(out.toString());
}

async function revokeKey(keyId: string, database: string) {
  if (!KEY_ID_PATTERN.test(keyId)) {
    // Not echoed, not even in part: what was pasted may be a key, or its secret part.
    throw new UsageError("the argument of revoke-key is not a key id (16 hex digits).", {
      hint: "`voicebot cloud serve list-keys --organization ORG` lists the ids; never pass a key.",
    });
  }
  const { revokeApiKey } = await import("../../server/serve.ts");
  await revokeApiKey(database, keyId);
  printSuccess(
    `Revoked API key ${keyId}. Running servers refuse it within ${AUTH_CACHE_SECONDS} seconds.`,
  );
}

async function backup(database: string, to: string | undefined) {
  if (to === undefined) {
    throw new UsageError("backup needs --to FILE.", {
      hint: "`voicebot cloud serve backup --to voicebot-backup.db`.",
    });
  }
  const { backupDatabase } = await import("../../server/backup.ts");
  const bytes = await backupDatabase(database, to, (files) =>
    printNote(
      `Removed ${count(files.length, "file")} that an interrupted backup left: ${
        files.join(", ")
      }.`,
    ));
  printSuccess(
    `Wrote a consistent copy of the database to ${to} (${bytes} bytes, mode 0600). ` +
      "It holds no key: restoring it needs the keyring it was sealed with, kept apart.",
  );
}

async function rotateMasterKey(database: string, batchSize: number, json: boolean) {
  if (!Number.isInteger(batchSize) || batchSize < 1 || batchSize > 10_000) {
    throw new UsageError(`--batch-size must be a whole number from 1 to 10000, not ${batchSize}.`);
  }
  const [{ keyNeeds, rotateMasterKeyOf }, { spinner }] = await Promise.all([
    import("../../server/serve.ts"),
    import("../prompt.ts"),
  ]);
  // Ctrl-C (or SIGTERM) stops the pass after the batch in progress: nothing is left half done.
  const stop = new AbortController();
  const onSignal = () => stop.abort();
  Deno.addSignalListener("SIGINT", onSignal);
  Deno.addSignalListener("SIGTERM", onSignal);
  const progress = spinner();
  progress.start("Re-sealing with the newest master key");
  let report;
  try {
    report = await rotateMasterKeyOf(database, Deno.env.get("VOICEBOT_MASTER_KEY") || undefined, {
      batchSize,
      signal: AbortSignal.any([stop.signal, progress.signal]),
      onProgress: (done, total) =>
        progress.message(`Re-sealing with the newest master key: ${done} of ${total}`),
    });
  } catch (error) {
    progress.error("Stopped.");
    throw error;
  } finally {
    Deno.removeSignalListener("SIGINT", onSignal);
    Deno.removeSignalListener("SIGTERM", onSignal);
  }
  const done = report.remaining.length === 0 && !report.interrupted;
  if (done) progress.stop(`Re-sealed ${report.resealed}.`);
  else progress.error(report.interrupted ? "Interrupted." : "Not finished.");
  if (json) {
    printJson({
      keyId: report.keyId,
      resealed: report.resealed,
      remaining: report.remaining,
      interrupted: report.interrupted,
      complete: done,
    });
  }
  if (done) {
    return printSuccess(
      `Everything is sealed with master key ${report.keyId} (${report.resealed} re-sealed by this run). ` +
        "Older keys can leave the keyring once every server runs with it.",
    );
  }
  throw new VoicebotError(
    `the rotation is not finished: ${report.resealed} re-sealed by this run${
      report.interrupted ? ", then stopped" : ""
    }.`,
    {
      problems: keyNeeds(report.remaining),
      hint: report.interrupted
        ? "run it again to finish: it goes on where it stopped, and every value opens meanwhile."
        : "each of those keys must be in the keyring (VOICEBOT_MASTER_KEY or the key file, after the newest) to be re-sealed; add it and run this again.",
    },
  );
}

function checkOptions(
  host: string,
  port: number,
  regions: string[],
  defaultRegion: string,
  rateLimit: number,
  rateBurst: number,
  provisionDelay: number,
) {
  const problems = [
    ...(Number.isInteger(port) && port >= 0 && port <= 65535
      ? []
      : [`--port must be 0 to 65535, not ${port}`]),
    ...hostProblems(host),
    ...regions.filter((region) => !REGION_PATTERN.test(region)).map((region) =>
      `--regions: ${quoted(region)} is not a region code (lower-case letters, digits, hyphens)`
    ),
    ...(regions.length ? [] : ["--regions must name at least one region"]),
    ...(regions.includes(defaultRegion)
      ? []
      : [`--default-region ${quoted(defaultRegion)} is not one of --regions`]),
    ...(rateLimit >= 0 ? [] : ["--rate-limit must be 0 or more"]),
    ...(rateBurst >= 1 ? [] : ["--rate-burst must be 1 or more"]),
    ...(provisionDelay >= 0 ? [] : ["--provision-delay must be 0 or more"]),
  ];
  if (problems.length) throw new UsageError("invalid options.", { problems });
}

/**
 * `--host` as the system takes it, tried before the database is opened (or made): an address this
 * machine has, or a name that resolves to one. A port in use is said when the server listens.
 */
function hostProblems(host: string): string[] {
  try {
    Deno.listen({ hostname: host, port: 0 }).close();
    return [];
  } catch (error) {
    const way =
      "an address of this machine (127.0.0.1; 0.0.0.0 for every interface) or a name that resolves to one";
    if (error instanceof Deno.errors.AddrNotAvailable) {
      return [`--host ${quoted(host)} is not an address of this machine: give ${way}`];
    }
    if (/lookup address/.test(String((error as Error)?.message))) {
      return [
        `--host ${quoted(host)} is no address, and no name this machine resolves: give ${way}`,
      ];
    }
    throw error;
  }
}

/**
 * The database an operator command works on, named on stderr first: an operator who meant
 * another one sees it before acting on what the command says.
 */
function operatorDatabase(flag: string | undefined): string {
  const database = databaseOf(flag);
  printNote(`Database: ${describeDatabase(database)}`);
  return database;
}

/**
 * --database, else VOICEBOT_DATABASE_URL, else the default file. A password on the command line
 * would show in `ps` and in shell history, so --database refuses a URL that carries one.
 */
function databaseOf(flag: string | undefined): string {
  const fromEnv = flag === undefined ? Deno.env.get(DATABASE_URL_ENV) || undefined : undefined;
  const problem = databaseProblem(flag ?? fromEnv ?? "");
  if (problem) {
    throw new UsageError(`${flag === undefined ? DATABASE_URL_ENV : "--database"}: ${problem}`, {
      hint: "give a SQLite file path, or a PostgreSQL URL: postgres://user@host:port/database " +
        "(or postgresql://).",
    });
  }
  if (flag !== undefined) {
    if (hasPassword(flag)) {
      throw new UsageError("--database must not carry a password: it would show in `ps`.", {
        hint:
          `put the URL in the environment instead: \`export ${DATABASE_URL_ENV}=postgres://...\`.`,
      });
    }
    return flag;
  }
  return fromEnv ?? defaultDatabase();
}

/** $XDG_DATA_HOME/voicebot/voicebot.db, else ~/.local/share/voicebot/voicebot.db. */
function defaultDatabase(): string {
  const dataHome = Deno.env.get("XDG_DATA_HOME") ||
    (Deno.env.get("HOME") ? `${Deno.env.get("HOME")}/.local/share` : undefined);
  if (!dataHome) {
    throw new UsageError("cannot find a place for the database.", {
      hint: `pass --database PATH, or set ${DATABASE_URL_ENV}.`,
    });
  }
  return `${dataHome}/voicebot/voicebot.db`;
}
