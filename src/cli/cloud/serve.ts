/**
 * `voicebot cloud serve`: the secrets API, and `serve create-key`. The server and the database
 * drivers load only when one of them runs.
 *
 * Output: stdout carries what scripts capture (the bootstrap key alone on its line, then
 * `Listening on <base URL>` last); stderr carries JSON log lines.
 */
import { define } from "gunshi";
import { UsageError } from "../../errors.ts";
import { hasPassword } from "../../server/database_url.ts";
import { printJson, printSuccess } from "../output.ts";

const DEFAULT_REGIONS = "us-west,us-east,eu-central";
const REGION_PATTERN = /^[a-z0-9-]{1,32}$/;
const ORGANIZATION_PATTERN = /^[A-Za-z0-9-]{1,63}$/;
const KEY_ID_PATTERN = /^[0-9a-f]{16}$/;
/** The server's AUTH_CACHE_MS (this file may not import the server; a test holds them equal). */
export const AUTH_CACHE_SECONDS = 2;
const ACTIONS =
  "`create-key --organization ORG`, `list-keys --organization ORG [--json]` and `revoke-key KEY_ID`";
/** The words that make `cloud serve` do something else than serve (completion offers them). */
export const SERVE_ACTIONS = ["create-key", "list-keys", "revoke-key"] as const;

const DATABASE_URL_ENV = "VOICEBOT_DATABASE_URL";

const database = {
  type: "string",
  description:
    `SQLite file (default: $XDG_DATA_HOME/voicebot/voicebot.db) or postgres://URL without a password; default: $${DATABASE_URL_ENV}`,
} as const;

export default define({
  name: "serve",
  description:
    `Serve the secrets API (SQLite by default, PostgreSQL with ${DATABASE_URL_ENV}=postgres://...).\n` +
    "  `voicebot cloud serve create-key -o ORG` prints a new API key for ORG instead;\n" +
    "  `list-keys -o ORG [--json]` lists ORG's key ids; `revoke-key KEY_ID` revokes one.",
  args: {
    action: {
      type: "positional",
      required: false,
      choices: SERVE_ACTIONS,
      description: "create-key, list-keys or revoke-key KEY_ID instead of serving",
    },
    organization: {
      type: "string",
      short: "o",
      description: "create-key: the organization (created if new); list-keys: the organization",
    },
    json: { type: "boolean", description: "list-keys: print JSON" },
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
      description: "Default region (default: the first of --regions)",
    },
    "rate-limit": {
      type: "number",
      default: 50,
      description: "Requests per second per API key; 0 turns it off",
    },
    "rate-burst": {
      type: "number",
      default: 100,
      description: "Requests an API key may send at once",
    },
    "provision-delay": {
      type: "number",
      default: 200,
      description: "Milliseconds a write stays pending at least",
    },
  },
  run: async (ctx) => {
    const values = ctx.values;
    // `create-key` is an action word rather than a gunshi subcommand: a nested command would
    // make gunshi read the value of `--port 0` as a command name.
    const [action, ...extra] = ctx.positionals.slice(ctx.commandPath.length);
    if (action === "create-key" && extra.length === 0) {
      return await createKey(values.organization, databaseOf(values.database));
    }
    if (action === "list-keys" && extra.length === 0) {
      return await listKeys(values.organization, databaseOf(values.database), values.json ?? false);
    }
    if (action === "revoke-key" && extra.length === 1) {
      return await revokeKey(extra[0], databaseOf(values.database));
    }
    if (action !== undefined) {
      throw new UsageError(`unexpected argument "${[action, ...extra].join(" ")}".`, {
        hint: `the actions are ${ACTIONS}.`,
      });
    }
    if (values.organization !== undefined || values.json) {
      throw new UsageError("--organization and --json go with an action.", {
        hint: `the actions are ${ACTIONS}.`,
      });
    }
    const regions = values.regions.split(",").map((region) => region.trim()).filter(Boolean);
    const defaultRegion = values["default-region"] ?? regions[0];
    checkOptions(
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

async function createKey(organization: string | undefined, database: string) {
  if (organization === undefined) {
    throw new UsageError("create-key needs --organization.", {
      hint: "`voicebot cloud serve create-key --organization ORG`.",
    });
  }
  if (!ORGANIZATION_PATTERN.test(organization)) {
    throw new UsageError(`invalid organization name "${organization}".`, {
      hint: "use 1 to 63 letters, digits or hyphens.",
    });
  }
  const { createApiKey } = await import("../../server/serve.ts");
  console.log(await createApiKey(database, organization));
  printSuccess(
    `New API key for organization "${organization}". Store it now: it is not shown again.`,
  );
}

async function listKeys(organization: string | undefined, database: string, json: boolean) {
  if (organization === undefined) {
    throw new UsageError("list-keys needs --organization.", {
      hint: "`voicebot cloud serve list-keys --organization ORG`.",
    });
  }
  const { listApiKeys } = await import("../../server/serve.ts");
  const keys = (await listApiKeys(database, organization)).map((key) => ({
    id: key.id,
    created: new Date(key.createdAt).toISOString(),
    lastUsed: key.lastUsedAt === null ? null : new Date(key.lastUsedAt).toISOString(),
  }));
  if (json) return printJson(keys);
  const { table } = await import("../../secrets/render.ts");
  const out = table(["id", "created", "last used"]);
  for (const key of keys) out.push([key.id, key.created, key.lastUsed ?? "never"]);
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

function checkOptions(
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
    ...regions.filter((region) => !REGION_PATTERN.test(region)).map((region) =>
      `--regions: "${region}" is not a region code (lower-case letters, digits, hyphens)`
    ),
    ...(regions.length ? [] : ["--regions must name at least one region"]),
    ...(regions.includes(defaultRegion)
      ? []
      : [`--default-region ${defaultRegion} is not one of --regions`]),
    ...(rateLimit >= 0 ? [] : ["--rate-limit must be 0 or more"]),
    ...(rateBurst >= 1 ? [] : ["--rate-burst must be 1 or more"]),
    ...(provisionDelay >= 0 ? [] : ["--provision-delay must be 0 or more"]),
  ];
  if (problems.length) throw new UsageError("invalid options.", { problems });
}

/**
 * --database, else VOICEBOT_DATABASE_URL, else the default file. A password on the command line
 * would show in `ps` and in shell history, so --database refuses a URL that carries one.
 */
function databaseOf(flag: string | undefined): string {
  if (flag !== undefined) {
    if (hasPassword(flag)) {
      throw new UsageError("--database must not carry a password: it would show in `ps`.", {
        hint:
          `put the URL in the environment instead: \`export ${DATABASE_URL_ENV}=postgres://...\`.`,
      });
    }
    return flag;
  }
  return Deno.env.get(DATABASE_URL_ENV) || defaultDatabase();
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
