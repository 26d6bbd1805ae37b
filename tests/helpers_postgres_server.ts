/**
 * A PostgreSQL server of a test's own, made with initdb in a temporary directory and started on a
 * free loopback port, so that the test may restart it or end its connections without touching the
 * server the rest of the suite shares. As root, it runs as the `postgres` user (PostgreSQL refuses
 * root). Needs Debian's PostgreSQL (tests/skips.ts's "postgres-server" group).
 */
import { join } from "pathe";
import { freePort, tempDir } from "./helpers.ts";
import { postgresBin, postgresUser } from "./skips.ts";

export interface OwnPostgres extends AsyncDisposable {
  /** A URL without a password (the server trusts loopback), for a database named voicebot. */
  url: string;
  /** `pg_ctl restart -m fast`: every connection ended, the server back when it resolves. */
  restart(): Promise<void>;
  /** Ends every client connection but the caller's, as an operator's pg_terminate_backend. */
  terminateConnections(): Promise<number>;
}

export async function ownPostgres(): Promise<OwnPostgres> {
  const bin = postgresBin();
  if (!bin) throw new Error("no PostgreSQL under /usr/lib/postgresql (apt-get install postgresql)");
  const root = Deno.uid() === 0;
  const user = root ? postgresUser() : undefined;
  if (root && !user) throw new Error("running as root, and there is no postgres user to run as");
  const dir = await tempDir();
  if (user) await Deno.chown(dir.path, user.uid, user.gid);
  const data = join(dir.path, "data");
  const port = freePort();
  const run = async (program: string, args: string[]) => {
    const command = root ? "runuser" : `${bin}/${program}`;
    const output = await new Deno.Command(command, {
      args: root ? ["-u", "postgres", "--", `${bin}/${program}`, ...args] : args,
      stdin: "null",
      signal: AbortSignal.timeout(60_000),
    }).output();
    const text = new TextDecoder().decode(output.stderr) + new TextDecoder().decode(output.stdout);
    if (!output.success) throw new Error(`${program} ${args.join(" ")} failed:\n${text}`);
  };
  const pgCtl = (action: string[]) =>
    run("pg_ctl", [
      "-D",
      data,
      "-w",
      "-t",
      "30",
      "-l",
      join(dir.path, "log"),
      "-o",
      `-p ${port} -k ${dir.path} -c listen_addresses=127.0.0.1 -c fsync=off`,
      ...action,
    ]);
  await run("initdb", ["-D", data, "-A", "trust", "-U", "voicebot", "--no-sync", "-E", "UTF8"]);
  await pgCtl(["start"]);
  const url = `postgres://voicebot@127.0.0.1:${port}/postgres`;
  return {
    url,
    restart: () => pgCtl(["restart", "-m", "fast"]),
    async terminateConnections() {
      const { default: postgres } = await import("postgres");
      const sql = postgres(url, { max: 1, onnotice: () => {} });
      try {
        const rows = await sql`SELECT pg_terminate_backend(pid) AS ended FROM pg_stat_activity
          WHERE pid <> pg_backend_pid() AND backend_type = 'client backend'`;
        return rows.filter((row) => row.ended).length;
      } finally {
        await sql.end({ timeout: 1 });
      }
    },
    async [Symbol.asyncDispose]() {
      await pgCtl(["stop", "-m", "immediate"]).catch(() => {});
      await dir[Symbol.asyncDispose]();
    },
  };
}
