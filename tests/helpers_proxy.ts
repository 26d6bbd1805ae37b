/**
 * A loopback TCP proxy in front of the real server that fails requests the way networks do, for
 * the client's retry paths. For the first `count` requests whose method is one of `methods`:
 *
 * - `drop`: the request goes to the server, which acts on it, and the answer is lost on the way
 *   back (the client's connection is closed when the answer starts);
 * - `unavailable`: the proxy answers 503 itself, and the server never sees the request;
 * - `noRoute`: the proxy answers 404 ROUTE_NOT_FOUND itself, as a server without the route would
 *   (`path`, when given, limits the rule to requests for that path).
 *
 * Every other request and answer passes unchanged. Requests are framed by Content-Length, which
 * is how the client sends them (no chunked bodies).
 */
export interface LossyProxy extends AsyncDisposable {
  /** The API's base URL through the proxy. */
  baseUrl: string;
  /** How many requests the rule has applied to so far. */
  applied(): number;
}

export function lossyProxy(
  target: string,
  rule: {
    methods: string[];
    path?: string;
    count: number;
    mode: "drop" | "unavailable" | "noRoute";
  },
): LossyProxy {
  const url = new URL(target);
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const connections = new Set<Deno.Conn>();
  let applied = 0;

  const handle = async (client: Deno.Conn) => {
    const server = await Deno.connect({ hostname: url.hostname, port: Number(url.port) });
    connections.add(client).add(server);
    let dropArmed = false;
    const close = () => {
      for (const conn of [client, server]) {
        connections.delete(conn);
        try {
          conn.close();
        } catch {
          // Closed already.
        }
      }
    };
    // Answers, unchanged, unless the request they answer is to be lost: then the client's
    // connection closes as the answer starts, after the server has acted.
    (async () => {
      const buffer = new Uint8Array(64 * 1024);
      for (;;) {
        const n = await server.read(buffer).catch(() => null);
        if (n === null || dropArmed) return close();
        await writeAll(client, buffer.subarray(0, n)).catch(close);
      }
    })();
    const requests = new RequestReader(client);
    try {
      for (;;) {
        const request = await requests.next();
        if (!request) break;
        const matches = rule.methods.includes(request.method) &&
          (rule.path === undefined || request.path === rule.path);
        if (applied < rule.count && matches) {
          applied++;
          if (rule.mode === "unavailable") {
            await writeAll(client, UNAVAILABLE);
            break;
          }
          if (rule.mode === "noRoute") {
            await writeAll(client, NO_ROUTE);
            continue;
          }
          dropArmed = true;
        }
        await writeAll(server, request.bytes);
      }
    } catch {
      // A connection closed under the proxy ends its handling.
    }
    close();
  };

  const accepting = (async () => {
    for await (const client of listener) handle(client).catch(() => {});
  })();

  return {
    baseUrl: `http://127.0.0.1:${(listener.addr as Deno.NetAddr).port}${url.pathname}`,
    applied: () => applied,
    async [Symbol.asyncDispose]() {
      listener.close();
      for (const conn of connections) {
        try {
          conn.close();
        } catch {
          // Closed already.
        }
      }
      await accepting.catch(() => {});
    },
  };
}

function answer(status: string, body: object, close: boolean): Uint8Array {
  const text = JSON.stringify(body);
  return new TextEncoder().encode(
    `HTTP/1.1 ${status}\r\ncontent-type: application/json\r\ncontent-length: ${text.length}\r\n` +
      `${close ? "connection: close\r\n" : ""}\r\n${text}`,
  );
}
const UNAVAILABLE = answer(
  "503 Service Unavailable",
  { error: "Unavailable (test proxy).", code: "INTERNAL_ERROR" },
  true,
);
const NO_ROUTE = answer(
  "404 Not Found",
  { error: "No route (test proxy).", code: "ROUTE_NOT_FOUND" },
  false,
);

async function writeAll(conn: Deno.Conn, bytes: Uint8Array) {
  for (let written = 0; written < bytes.length;) {
    written += await conn.write(bytes.subarray(written));
  }
}

/** HTTP/1.1 requests off a connection, one at a time: the method and the raw bytes. */
class RequestReader {
  #buffered = new Uint8Array(0);
  constructor(readonly conn: Deno.Conn) {}

  async next(): Promise<{ method: string; path: string; bytes: Uint8Array } | undefined> {
    let headerEnd: number;
    while ((headerEnd = indexOf(this.#buffered, HEADER_END)) === -1) {
      if (!(await this.#fill())) return undefined;
    }
    const head = new TextDecoder().decode(this.#buffered.subarray(0, headerEnd));
    const length = Number(/^content-length:\s*(\d+)/im.exec(head)?.[1] ?? 0);
    const total = headerEnd + HEADER_END.length + length;
    while (this.#buffered.length < total) {
      if (!(await this.#fill())) return undefined;
    }
    const bytes = this.#buffered.slice(0, total);
    this.#buffered = this.#buffered.slice(total);
    const [method, path] = head.split(" ", 2);
    return { method, path, bytes };
  }

  async #fill(): Promise<boolean> {
    const chunk = new Uint8Array(64 * 1024);
    const n = await this.conn.read(chunk);
    if (n === null) return false;
    const joined = new Uint8Array(this.#buffered.length + n);
    joined.set(this.#buffered);
    joined.set(chunk.subarray(0, n), this.#buffered.length);
    this.#buffered = joined;
    return true;
  }
}

const HEADER_END = new TextEncoder().encode("\r\n\r\n");

function indexOf(haystack: Uint8Array, needle: Uint8Array): number {
  outer: for (let i = 0; i + needle.length <= haystack.length; i++) {
    for (let j = 0; j < needle.length; j++) if (haystack[i + j] !== needle[j]) continue outer;
    return i;
  }
  return -1;
}

/**
 * A loopback TCP proxy to `target` (host:port) that can be cut and pulled, as a database's network
 * or restart does to its clients: `cut()` closes every connection through it; `pull()` does too and
 * refuses new ones (accepted, then closed at once) until `putBack()`.
 */
export interface TcpPlug extends AsyncDisposable {
  port: number;
  cut(): void;
  pull(): void;
  putBack(): void;
}

export function tcpPlug(target: { hostname: string; port: number }): TcpPlug {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const open = new Set<Deno.Conn>();
  let pulled = false;
  const close = (conn: Deno.Conn) => {
    open.delete(conn);
    try {
      conn.close();
    } catch {
      // Closed already.
    }
  };
  const relay = async (client: Deno.Conn) => {
    let server: Deno.Conn;
    try {
      server = await Deno.connect(target);
    } catch {
      return close(client);
    }
    open.add(client).add(server);
    const both = () => [client, server].forEach(close);
    client.readable.pipeTo(server.writable).catch(() => {}).finally(both);
    server.readable.pipeTo(client.writable).catch(() => {}).finally(both);
  };
  const accepting = (async () => {
    for await (const client of listener) {
      if (pulled) close(client);
      else void relay(client);
    }
  })().catch(() => {});
  const cut = () => [...open].forEach(close);
  return {
    port: (listener.addr as Deno.NetAddr).port,
    cut,
    pull() {
      pulled = true;
      cut();
    },
    putBack() {
      pulled = false;
    },
    async [Symbol.asyncDispose]() {
      listener.close();
      cut();
      await accepting;
    },
  };
}
