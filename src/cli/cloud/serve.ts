/**
 * `voicebot cloud serve`: the secrets API, and `serve create-key`. The server and the database
 * drivers load only when one of them runs.
 *
 * Output: stdout carries what scripts capture (the bootstrap key alone on its line, then
 * `Listening on <base URL>` last); stderr carries JSON log lines.
 */
import { define } from "gunshi";
import { UsageError } from "../../errors.ts";
import { printSuccess } from "../output.ts";

const DEFAULT_REGIONS = "us-west,us-east,eu-central";
const REGION_PATTERN = /^[a-z0-9-]{1,32}$/;
const ORGANIZATION_PATTERN = /^[A-Za-z0-9-]{1,63}$/;

const database = {
  type: "string",
  description:
    "SQLite file (default: $XDG_DATA_HOME/voicebot/voicebot.db) or postgres://user:password@host/db",
} as const;

export default define({
  name: "serve",
  description:
    "Serve the secrets API (SQLite by default, PostgreSQL with --database postgres://...).\n" +
    "  `voicebot cloud serve create-key -o ORG` prints a new API key for ORG instead.",
  args: {
    organization: {
      type: "string",
      short: "o",
      description: "create-key: the organization (created if new)",
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
      return await createKey(values.organization, values.database ?? defaultDatabase());
    }
    if (action !== undefined) {
      throw new UsageError(`unexpected argument "${[action, ...extra].join(" ")}".`, {
        hint: "the one action is `voicebot cloud serve create-key --organization ORG`.",
      });
    }
    if (values.organization !== undefined) {
      throw new UsageError("--organization goes with create-key.", {
        hint: "`voicebot cloud serve create-key --organization ORG`.",
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

    const { startServer } = await import("../../server/serve.ts");
    const server = await startServer({
      hostname: values.host,
      port: values.port,
      database: values.database ?? defaultDatabase(),
      regions,
      defaultRegion,
      rateLimit: values["rate-limit"] > 0
        ? { perSecond: values["rate-limit"], burst: values["rate-burst"] }
        : undefined,
      provisioner: { delayMs: values["provision-delay"], pollMs: 1000 },
      // Empty counts as unset, as in most shells' habits.
      masterKey: Deno.env.get("VOICEBOT_MASTER_KEY") || undefined,
    });
    if (server.bootstrap) {
      console.log(
        `Created organization "${server.bootstrap.organization}" with this API key (shown only once, store it now):`,
      );
      console.log(server.bootstrap.apiKey);
    }
    console.log(`Listening on ${server.baseUrl}`);
    await new Promise<void>((resolve) => {
      const stop = () => void server.shutdown().then(resolve);
      Deno.addSignalListener("SIGINT", stop);
      Deno.addSignalListener("SIGTERM", stop);
    });
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

/** $XDG_DATA_HOME/voicebot/voicebot.db, else ~/.local/share/voicebot/voicebot.db. */
function defaultDatabase(): string {
  const dataHome = Deno.env.get("XDG_DATA_HOME") ||
    (Deno.env.get("HOME") ? `${Deno.env.get("HOME")}/.local/share` : undefined);
  if (!dataHome) {
    throw new UsageError("cannot find a place for the database.", {
      hint: "pass --database PATH.",
    });
  }
  return `${dataHome}/voicebot/voicebot.db`;
}
