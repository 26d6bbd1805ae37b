/**
 * Prism (Stoplight's OpenAPI mock and validating proxy, from npm) serving the platform's
 * documented secrets contract, tests/data/platform-secrets.openapi.json, on loopback:
 *
 * - `mock`: a server that implements only the documentation, answering every valid request with
 *   an answer generated from the contract's schemas and refusing (400 or 422) any request the
 *   contract does not describe;
 * - `proxy`: in front of a real server, it refuses requests the contract does not describe and
 *   names every way an answer departs from it in an `sl-violations` header.
 *
 * Prism ignores the contract's relative server URL (`/v1`), so it is given a copy whose paths
 * carry `/v1` themselves: the client then uses the same base URL as with our server.
 */
import { join } from "pathe";
import { tempDir } from "./helpers.ts";

/** Pinned: the last release whose engines take the Node of the machines we test on (20). */
export const PRISM = "@stoplight/prism-cli@5.14.2";
const CONTRACT = new URL("./data/platform-secrets.openapi.json", import.meta.url);
/** The first start may download Prism through npx; later ones take a few seconds. */
const START_TIMEOUT_MS = 180_000;
const STOP_TIMEOUT_MS = 10_000;

export interface Prism extends AsyncDisposable {
  /** `http://127.0.0.1:PORT/v1`. */
  baseUrl: string;
  /** Everything Prism logged so far (one line per request, and each violation). */
  log(): string;
}

/** Prism on a free loopback port: `mock`, or `proxy` in front of `upstream` (an origin). */
export async function startPrism(
  mode: { mock: true } | { proxyTo: string },
): Promise<Prism> {
  const dir = await tempDir();
  const contract = JSON.parse(await Deno.readTextFile(CONTRACT));
  delete contract.servers;
  contract.paths = Object.fromEntries(
    Object.entries(contract.paths).map(([path, item]) => [`/v1${path}`, item]),
  );
  const spec = join(dir.path, "contract.json");
  await Deno.writeTextFile(spec, JSON.stringify(contract));

  const port = freePort();
  const modeArgs = "mock" in mode
    ? ["mock", spec]
    : ["proxy", "--errors", spec, new URL(mode.proxyTo).origin];
  // Its own process group (setsid), so that stopping it stops npx's child too.
  const child = new Deno.Command("setsid", {
    args: ["npx", "--yes", PRISM, ...modeArgs, "-h", "127.0.0.1", "-p", String(port)],
    cwd: dir.path,
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
    env: { NO_COLOR: "1", FORCE_COLOR: "0" },
  }).spawn();

  let output = "";
  let ready!: () => void;
  const listening = new Promise<void>((resolve) => (ready = resolve));
  const drain = (stream: ReadableStream<Uint8Array>) =>
    stream.pipeThrough(new TextDecoderStream()).pipeTo(
      new WritableStream({
        write(chunk) {
          output += chunk;
          if (/Prism is listening on/.test(output)) ready();
        },
      }),
    );
  const drained = Promise.all([drain(child.stdout), drain(child.stderr)]);

  const stop = async () => {
    try {
      Deno.kill(-child.pid, "SIGTERM");
    } catch {
      // Already gone.
    }
    const timer = setTimeout(() => {
      try {
        Deno.kill(-child.pid, "SIGKILL");
      } catch {
        // Already gone.
      }
    }, STOP_TIMEOUT_MS);
    await child.status;
    clearTimeout(timer);
    await drained.catch(() => {});
    await dir[Symbol.asyncDispose]();
  };

  let timer: ReturnType<typeof setTimeout> | undefined;
  const outcome = await Promise.race([
    listening.then(() => "listening" as const),
    child.status.then(() => "exited" as const),
    new Promise<"timeout">((
      resolve,
    ) => (timer = setTimeout(() => resolve("timeout"), START_TIMEOUT_MS))),
  ]);
  clearTimeout(timer);
  if (outcome !== "listening") {
    await stop();
    throw new Error(`Prism did not start (${outcome}):\n${output.slice(-2000)}`);
  }
  return {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    log: () => output,
    [Symbol.asyncDispose]: stop,
  };
}

/** A port nothing listens on now (the kernel's pick; Prism takes no port 0). */
function freePort(): number {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const { port } = listener.addr as Deno.NetAddr;
  listener.close();
  return port;
}
