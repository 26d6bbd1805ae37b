/**
 * The web clients, generated in process for each client option, transport set and video setting:
 * their package.json parses and pins exact versions, the dev server forwards the start endpoint to
 * the bot runner, and the client's transports and media are the bot's. Its Node range is the one
 * its packages declare (tests/data/client_engines.json, which scripts/check_clients.sh takes from
 * the installed packages). Also the README and the guides, which describe the client. No npm
 * install here: scripts/check_clients.sh builds them.
 */
import assert from "node:assert/strict";
import { findTransport } from "../src/init/catalog.ts";
import { BOT_URL, clientFolder, clientTransports, START_PATH } from "../src/init/client.ts";
import { resolveConfig, type ScaffoldConfig, type ScaffoldInput } from "../src/init/config.ts";
import { loadTemplates, planGuides, planProject } from "../src/init/project.ts";
import { formatRange, intersectAll } from "../scripts/client_engines.ts";
import ENGINES from "./data/client_engines.json" with { type: "json" };

await loadTemplates();

const CASCADE: ScaffoldInput = {
  mode: "cascade",
  stt_service: "deepgram_stt",
  llm_service: "openai_llm",
  tts_service: "cartesia_tts",
};

const CLIENTS = [
  { client_framework: "vanilla" },
  { client_framework: "uilib", client_server: "devserver_a" },
  { client_framework: "uilib", client_server: "devserver_b" },
] as const;

const WEB_TRANSPORT_SETS = [
  ["lightweb"],
  ["hosted"],
  ["websocket"],
  ["lightweb", "hosted"],
  ["hosted", "lightweb"],
  ["websocket", "lightweb", "hosted"],
];

/** The JS package of each transport, by the name Pipecat's runner gives it in `POST /start`. */
const TRANSPORT_PACKAGES: Readonly<Record<string, string>> = {
  webrtc: "@pipecat-ai/small-webrtc-transport",
  daily: "@pipecat-ai/daily-transport",
  websocket: "@pipecat-ai/websocket-transport",
};

/** A realtime bot, over the cascade defaults that `configOf` starts from. */
const REALTIME: ScaffoldInput = {
  mode: "realtime",
  realtime_service: "gemini_live_realtime",
  stt_service: undefined,
  llm_service: undefined,
  tts_service: undefined,
};

/** The runner's start route: where `START_PATH` lands once the dev server strips `/api`. */
const RUNNER_START = "/start";

function configOf(input: ScaffoldInput): ScaffoldConfig {
  const result = resolveConfig({ ...CASCADE, ...input }, "web-bot");
  assert.deepEqual(result.problems, []);
  return result.config!;
}

/** The project's files by path. */
function project(input: ScaffoldInput): Map<string, string> {
  const { files, guides } = planProject(configOf(input));
  return new Map([...files, ...guides].map((file) => [file.path, file.content]));
}

function clientFiles(files: Map<string, string>): string[] {
  return [...files.keys()].filter((path) => path.startsWith("client/")).sort();
}

function read(files: Map<string, string>, path: string): string {
  const content = files.get(path);
  assert.ok(content !== undefined, `${path} is missing; the files: ${[...files.keys()]}`);
  return content;
}

/** The runner names of the transports a client's config file sets up, in its order. */
function clientRunners(config: string): string[] {
  return [...config.matchAll(/transport: "(\w+)"/g)].map((match) => match[1]);
}

/** The runner names `bot.py` gives transport parameters for (the eval transport aside). */
function botRunners(bot: string): string[] {
  return [...bot.matchAll(/^\s+"(\w+)": lambda/gm)].map((match) => match[1])
    .filter((name) => name !== "eval");
}

/** The installed packages' Node ranges: per client, per direct dependency, all it brings. */
const NODE_FACTS: Readonly<Record<string, Record<string, Record<string, string>>>> = ENGINES;

/** The key of a client's facts: its template folder's name (vanilla, uilib-vite, uilib-next). */
function clientKey(config: ScaffoldConfig): string {
  return clientFolder(config)!.replace(/^client\/|\/$/g, "");
}

/**
 * What a generated package.json's dependencies, at the versions it pins, and all they bring declare
 * of Node (`name@version` → its range), and the intersection of those ranges.
 */
function derivedNode(
  key: string,
  pkg: { dependencies: Record<string, string>; devDependencies?: Record<string, string> },
): { range: string; packages: Record<string, string> } {
  const facts = NODE_FACTS[key];
  assert.ok(facts, `tests/data/client_engines.json has no facts for the ${key} client`);
  const packages: Record<string, string> = {};
  for (const [name, version] of Object.entries({ ...pkg.dependencies, ...pkg.devDependencies })) {
    const brought = facts[`${name}@${version}`];
    assert.ok(
      brought,
      `tests/data/client_engines.json has no ${name}@${version} for the ${key} client: ` +
        "take the facts again with scripts/check_clients.sh (TAKE_FACTS=1)",
    );
    Object.assign(packages, brought);
  }
  return { range: formatRange(intersectAll(Object.values(packages))), packages };
}

const EXPECTED_FILES: Readonly<Record<string, string[]>> = {
  vanilla: [
    "client/.env.example",
    "client/index.html",
    "client/package.json",
    "client/src/config.js",
    "client/src/main.js",
    "client/src/style.css",
    "client/vite.config.js",
  ],
  devserver_a: [
    "client/.env.example",
    "client/index.html",
    "client/package.json",
    "client/src/App.tsx",
    "client/src/Session.tsx",
    "client/src/config.ts",
    "client/src/main.tsx",
    "client/src/styles.css",
    "client/tsconfig.json",
    "client/vite.config.ts",
  ],
  devserver_b: [
    "client/.env.example",
    "client/next.config.ts",
    "client/package.json",
    "client/src/App.tsx",
    "client/src/Session.tsx",
    "client/src/app/layout.tsx",
    "client/src/app/page.tsx",
    "client/src/config.ts",
    "client/src/proxy.ts",
    "client/src/styles.css",
    "client/tsconfig.json",
  ],
};

for (const client of CLIENTS) {
  const kind = "client_server" in client ? client.client_server : client.client_framework;
  const label = `${client.client_framework}${"client_server" in client ? `+${kind}` : ""}`;

  for (const transports of WEB_TRANSPORT_SETS) {
    Deno.test(`${label} client for ${transports.join("+")}: files, package.json, transports`, () => {
      const config = configOf({ transports, ...client });
      const files = project({ transports, ...client });
      assert.deepEqual(clientFiles(files), EXPECTED_FILES[kind]);
      for (const path of clientFiles(files)) {
        assert.doesNotMatch(read(files, path), /\{\{|\}\}/, `${path} has mustache left in it`);
      }

      // package.json: the client SDK, exactly the transports' packages, exact versions.
      const pkg = JSON.parse(read(files, "client/package.json"));
      assert.equal(pkg.name, "web-bot-client");
      assert.equal(pkg.private, true);
      assert.ok(pkg.scripts.dev && pkg.scripts.build, "dev and build scripts");
      const deps: Record<string, string> = { ...pkg.dependencies, ...pkg.devDependencies };
      for (const [name, version] of Object.entries(deps)) {
        assert.match(version, /^\d+\.\d+\.\d+$/, `${name} is pinned to an exact version`);
      }
      const runners = config.transports.map((id) => findTransport(id)!.runner);
      const transportPackages = Object.keys(pkg.dependencies)
        .filter((name) => Object.values(TRANSPORT_PACKAGES).includes(name)).sort();
      assert.deepEqual(transportPackages, runners.map((r) => TRANSPORT_PACKAGES[r]).sort());
      assert.ok(pkg.dependencies["@pipecat-ai/client-js"]);
      if (client.client_framework === "uilib") {
        for (const name of ["@pipecat-ai/client-react", "@pipecat-ai/voice-ui-kit", "react"]) {
          assert.ok(pkg.dependencies[name], `${name} is a dependency`);
        }
        assert.ok(JSON.parse(read(files, "client/tsconfig.json")).compilerOptions.strict);
      }
      assert.ok(kind === "devserver_b" ? deps.next : deps.vite, "the dev server is a dependency");

      // engines: what the installed packages, at these versions, declare of Node.
      assert.equal(pkg.engines?.node, derivedNode(clientKey(config), pkg).range);

      // The client's transports are the bot's, in the bot's order, and bot.py serves each.
      const clientConfig = read(
        files,
        client.client_framework === "vanilla" ? "client/src/config.js" : "client/src/config.ts",
      );
      assert.deepEqual(clientRunners(clientConfig), runners);
      assert.deepEqual(botRunners(read(files, "server/bot.py")).sort(), [...runners].sort());
      assert.equal(
        /createDailyRoom: true/.test(clientConfig),
        runners.includes("daily"),
        "a Daily session asks the runner for a room",
      );
      assert.ok(clientConfig.includes(`"${START_PATH}"`), "the client posts to the start path");
      if (client.client_framework === "vanilla") {
        for (const transport of clientTransports(config)) {
          assert.ok(
            clientConfig.includes(`import { ${transport.className} } from "${transport.package}";`),
          );
        }
        assert.match(clientConfig, new RegExp(`DEFAULT_TRANSPORT = "${runners[0]}"`));
        const html = read(files, "client/index.html");
        assert.equal(html.includes('<select id="transport">'), runners.length > 1);
      } else {
        const kit = clientTransports(config)[0].kit;
        assert.match(clientConfig, new RegExp(`DEFAULT_TRANSPORT: TransportType = "${kit}"`));
      }
    });
  }

  Deno.test(`${label} client: the dev server forwards the start endpoint to the bot runner`, () => {
    const files = project({ transports: ["lightweb"], ...client });
    // `/api/start` minus the `/api` prefix the dev server strips is the runner's `POST /start`;
    // SmallWebRTC's `/api/sessions/<id>/api/offer` becomes its `/sessions/<id>/api/offer`.
    assert.equal(START_PATH.replace(/^\/api/, ""), RUNNER_START);
    assert.equal(BOT_URL, "http://localhost:7860");
    if (kind === "devserver_b") {
      const next = read(files, "client/next.config.ts");
      assert.ok(next.includes(`process.env.BOT_URL || "${BOT_URL}"`));
      assert.ok(next.includes('{ source: "/api/:path*", destination: `${botUrl}/:path*` }'));
    } else {
      const vite = read(
        files,
        kind === "vanilla" ? "client/vite.config.js" : "client/vite.config.ts",
      );
      assert.ok(vite.includes(`env.BOT_URL || "${BOT_URL}"`));
      assert.match(vite, /const toBot(?:: ProxyOptions)? = \{\s+target: botUrl,/);
      assert.match(vite, /"\/api": \{\n\s+\.\.\.toBot,/);
      assert.ok(vite.includes('rewrite: (path) => path.replace(/^\\/api/, "")'));
      assert.match(vite, /server: \{ proxy \}/);
      assert.match(vite, /preview: \{ proxy \}/);
    }
  });

  Deno.test(`${label} client: a WebSocket session's socket goes through the dev server, with its token`, () => {
    const configPath = kind === "vanilla" ? "client/src/config.js" : "client/src/config.ts";
    for (const transports of [["websocket"], ["lightweb", "websocket"], ["lightweb"]]) {
      const files = project({ transports, ...client });
      const socket = transports.includes("websocket");
      // The dev server forwards upgrades on /api: Vite when its /api entry says `ws: true`;
      // Next.js forwards a rewritten upgrade whatever it is told.
      if (kind !== "devserver_b") {
        const vite = read(
          files,
          kind === "vanilla" ? "client/vite.config.js" : "client/vite.config.ts",
        );
        assert.equal(/^\s+ws: true,$/m.test(vite), socket, vite);
      }
      const config = read(files, configPath);
      const source = /function socketParams\(([^)]*)\)[^{]*\{([^]*?)\n\}/.exec(config);
      assert.equal(source !== null, socket, "socketParams exactly when the bot has the socket");
      if (!source) continue;
      // The generated function, run on the runner's answers: the image's runner names its own
      // listening address, which the browser cannot reach.
      const parameter = source[1].includes("{ wsUrl, token }") ? "{ wsUrl, token }" : "answer";
      const body = source[2].replace(/ as \{[^}]*\}/, "");
      const socketParams = (page: string, answer: unknown) =>
        new Function("location", `return (${parameter}) => {${body}\n}`)(new URL(page))(answer);
      const image = { wsUrl: "wss://0.0.0.0:7860/ws-client", sessionId: "s", token: "t-1" };
      assert.deepEqual(socketParams("http://localhost:5173/", image), {
        wsUrl: "ws://localhost:5173/api/ws-client",
        token: "t-1",
      });
      assert.deepEqual(
        socketParams("https://app.example.com/talk", { ...image, token: null }),
        { wsUrl: "wss://app.example.com/api/ws-client" },
        "no token (PIPECAT_WEBSOCKET_AUTH=none): none sent, and a secure page's socket is wss",
      );
      assert.match(config, /connectParams: socketParams,/);
      assert.match(
        read(files, "README.md"),
        /opens `\/api\/ws-client\?token=<token>` on the dev server/,
      );
    }
  });

  Deno.test(`${label} client shows the bot's video and the user's camera as the bot has them`, () => {
    for (const video_output of [false, true]) {
      for (const video_input of [false, true]) {
        // The user's camera is for a realtime model: no service of a cascade pipeline sees it.
        const mode: ScaffoldInput = video_input ? REALTIME : {};
        const files = project({
          transports: ["lightweb"],
          ...client,
          ...mode,
          video_output,
          video_input,
        });
        if (client.client_framework === "vanilla") {
          const html = read(files, "client/index.html");
          assert.equal(html.includes('id="bot-video"'), video_output);
          assert.equal(html.includes('id="user-video"'), video_input);
          assert.ok(
            read(files, "client/src/config.js").includes(`USER_VIDEO = ${video_input};`),
          );
        } else {
          const config = read(files, "client/src/config.ts");
          assert.ok(config.includes(`BOT_VIDEO: boolean = ${video_output};`));
          assert.ok(config.includes(`USER_VIDEO: boolean = ${video_input};`));
        }
      }
    }
  });

  Deno.test(`${label} client: a transport picker exactly when the bot has several web transports`, () => {
    for (const transports of WEB_TRANSPORT_SETS) {
      const files = project({ transports, ...client });
      const several = transports.length > 1;
      const readme = read(files, "README.md");
      assert.equal(/Pick the transport before you connect/.test(readme), several);
      if (client.client_framework === "vanilla") {
        // The page has the select only then; main.js fills it from the config's transports.
        assert.equal(read(files, "client/index.html").includes('<select id="transport">'), several);
        const main = read(files, "client/src/main.js");
        assert.ok(main.includes('document.querySelector("#transport")'));
        assert.match(main, /Object\.entries\(TRANSPORTS\)\) picker\?\.add\(new Option/);
        assert.match(main, /TRANSPORTS\[picker\?\.value \?\? DEFAULT_TRANSPORT\]/);
      } else {
        // The React session renders the select when the config names more than one transport.
        const session = read(files, "client/src/Session.tsx");
        assert.ok(session.includes("const TRANSPORT_TYPES = Object.keys(TRANSPORTS)"));
        assert.match(
          session,
          /\{TRANSPORT_TYPES\.length > 1 && \(\s*<label className="transport">/,
        );
        assert.match(session, /onChange=\{\(event\) => onTransportChange\(/);
        assert.equal(clientRunners(read(files, "client/src/config.ts")).length > 1, several);
      }
    }
  });

  Deno.test(`${label} client: its .env.example names the bot's URL as the client reads it`, () => {
    const files = project({ transports: ["lightweb"], ...client });
    const example = read(files, "client/.env.example");
    const settings = [...example.matchAll(/^([A-Z_]+)=(.*)$/gm)].map(([, name, value]) => ({
      name,
      value,
    }));
    assert.equal(settings.length, 1, example);
    const [{ name, value }] = settings;
    // The variable the dev server's config reads, and the default it falls back to.
    let reads: { name: string; fallback: string };
    if (kind === "devserver_b") {
      const match = /process\.env\.(\w+) \|\| "([^"]+)"/.exec(read(files, "client/next.config.ts"));
      assert.ok(match, "next.config.ts reads the bot's URL from the environment");
      reads = { name: match[1], fallback: match[2] };
    } else {
      const config = read(
        files,
        kind === "vanilla" ? "client/vite.config.js" : "client/vite.config.ts",
      );
      const prefix = /const env = loadEnv\(mode, "\.", "(\w+)"\);/.exec(config);
      assert.ok(prefix, "vite.config reads the client's settings with loadEnv from its folder");
      const match = /env\.(\w+) \|\| "([^"]+)"/.exec(config);
      assert.ok(match, "vite.config reads the bot's URL from loadEnv's answer");
      assert.ok(match[1].startsWith(prefix[1]), "loadEnv's prefix lets the variable through");
      reads = { name: match[1], fallback: match[2] };
    }
    assert.equal(name, reads.name);
    assert.equal(value, reads.fallback);
    assert.equal(value, BOT_URL, "the example's URL is the runner's");
    assert.match(example, /Copy this file to \.env/);
    assert.ok(read(files, "README.md").includes("`cp .env.example .env` in `client/`"));
  });

  Deno.test(`${label} client: its server sends the bot's start token, which stays off the browser`, () => {
    const files = project({ transports: ["lightweb"], ...client });
    // Where the token is read and sent: the proxy entry of vite.config, Next's proxy.ts.
    const path = kind === "devserver_b"
      ? "client/src/proxy.ts"
      : kind === "vanilla"
      ? "client/vite.config.js"
      : "client/vite.config.ts";
    const server = read(files, path);
    if (kind === "devserver_b") {
      // Runs on the server for /api/start only, before next.config.ts's rewrite forwards it:
      // never on the WebSocket's upgrade, whose one-time token the runner reads after an
      // Authorization header.
      assert.match(server, /^export function proxy\(request: NextRequest\)/m);
      assert.match(server, /export const config = \{ matcher: "\/api\/start" \};/);
      assert.match(server, /const token = process\.env\.BOT_START_TOKEN;/);
      assert.match(server, /if \(!token\) return NextResponse\.next\(\);/);
      assert.match(server, /headers\.set\("authorization", `Bearer \$\{token\}`\);/);
      // On the request that goes on to the bot, not on the answer to the browser.
      assert.match(server, /NextResponse\.next\(\{ request: \{ headers \} \}\)/);
      assert.doesNotMatch(read(files, "client/next.config.ts"), /BOT_START_TOKEN|env:/);
    } else {
      assert.match(server, /const env = loadEnv\(mode, "\.", "BOT_"\);/);
      assert.match(server, /const token = env\.BOT_START_TOKEN;/);
      // The /api/start entry, first, which both `server` and `preview` use, carries the header;
      // the /api entry after it (the session's routes, the WebSocket's socket) none.
      assert.match(
        server,
        /"\/api\/start": \{ \.\.\.toBot, headers: token \? \{ authorization: `Bearer \$\{token\}` \} : \{\} \},\n\s+"\/api": \{\n\s+\.\.\.toBot,\n/,
      );
      assert.equal(server.match(/headers/g)?.length, 1);
      assert.doesNotMatch(server, /envPrefix|define:/, "nothing widens what reaches the browser");
    }
    // No client file reads it under a name the bundler hands to the browser, nor elsewhere.
    for (const file of clientFiles(files)) {
      const text = read(files, file);
      assert.doesNotMatch(text, /(VITE_|NEXT_PUBLIC_)\w*TOKEN/, file);
      if (file !== path && file !== "client/.env.example") {
        assert.ok(!text.includes("BOT_START_TOKEN"), `${file} names the token`);
      }
    }
    // The example names it, commented out (a local bot needs none), and says where it stays.
    const example = read(files, "client/.env.example");
    assert.match(example, /^# BOT_START_TOKEN=$/m);
    assert.match(example, /kept on this client's server[^]*never to the browser/);
    const readme = read(files, "README.md");
    assert.match(
      readme,
      /set `BOT_URL`[^]*A bot elsewhere admits sessions only with its token: set `BOT_START_TOKEN`/,
    );
    assert.match(
      readme,
      /the client's server sends it to `\/start` alone \(the session's other routes[^)]*need\s+none\), never to the browser/,
    );
  });

  Deno.test(`${label} client: the README says which Node it needs, as its packages do`, () => {
    const config = configOf({ transports: ["lightweb", "hosted"], ...client });
    const files = project({ transports: ["lightweb", "hosted"], ...client });
    const pkg = JSON.parse(read(files, "client/package.json"));
    const { range, packages } = derivedNode(clientKey(config), pkg);
    const minimum = /^>=(\d+\.\d+\.\d+)$/.exec(range)?.[1];
    assert.ok(minimum, `the README words a range ">=X.Y.Z", not ${range}`);
    const readme = read(files, "README.md");
    assert.ok(readme.includes(`It needs Node.js ${minimum} or newer`), readme);
    // The reason it gives: Daily's call library is among the packages that ask for that much.
    assert.match(readme, /Daily's\s+call library, which the JS transports bring, asks for it/);
    const daily = Object.entries(packages).find(([id]) => id.startsWith("@daily-co/daily-js@"));
    assert.ok(daily, "the client installs @daily-co/daily-js");
    assert.equal(formatRange(intersectAll([daily[1]])), range);
  });

  Deno.test(`${label} client: the README says how to run it`, () => {
    const readme = read(project({ transports: ["lightweb", "hosted"], ...client }), "README.md");
    assert.match(readme, /## The web client/);
    assert.match(readme, /cd client\nnpm install\nnpm run dev/);
    assert.ok(readme.includes(kind === "devserver_b" ? "localhost:3000" : "localhost:5173"));
    assert.match(readme, /Pick the transport before you connect/);
  });
}

Deno.test("no client without one chosen, nor for a telephony bot", () => {
  for (const input of [{ transports: ["lightweb"] }, { transports: ["carrier1"] }]) {
    const files = project(input);
    assert.deepEqual(clientFiles(files), []);
    assert.doesNotMatch(read(files, "README.md"), /## The web client/);
  }
});

Deno.test("the README covers each transport's setup, the secret set and the docs tool", () => {
  const cases: [ScaffoldInput, RegExp[]][] = [
    [{ transports: ["lightweb"] }, [/Open http:\/\/localhost:7860/]],
    [{ transports: ["hosted"] }, [/DAILY_API_KEY/, /localhost:7860\/daily/]],
    [
      { transports: ["carrier1"] },
      [
        /-t twilio -x <host>/,
        /<Stream url="wss:\/\/<host>\/ws">/,
        /runner\s+checks no token there/,
      ],
    ],
    [{ transports: ["carrier2"] }, [/-t telnyx -x <host>/, /TeXML application/]],
    [{ transports: ["carrier3"] }, [/-t plivo -x <host>/, /Answer URL is `https:\/\/<host>\/`/]],
    [{ transports: ["carrier4"] }, [/-t exotel/, /Voicebot\*\* applet/]],
    [
      { transports: ["hosted_pstn"], daily_pstn_mode: "dial-in" },
      [/room_creation_api/, /https:\/\/<host>\/daily-dialin-webhook/],
    ],
    [
      { transports: ["hosted_pstn"], daily_pstn_mode: "dial-out" },
      [/localhost:7860\/dialout/, /"phoneNumber": "\+15551234567"/, /DIALOUT_ATTEMPTS/],
    ],
    [
      { transports: ["carrier1_hosted_sip"], twilio_daily_sip_mode: "dial-in" },
      [/https:\/\/<host>\/twilio\/incoming/],
    ],
    [
      { transports: ["carrier1_hosted_sip"], twilio_daily_sip_mode: "dial-out" },
      [/\{\{#e164\}\}\{\{To\}\}\{\{\/e164\}\}/, /localhost:7860\/dialout/, /"sipUri"/],
    ],
  ];
  for (const [input, patterns] of cases) {
    const readme = read(project(input), "README.md");
    for (const pattern of patterns) assert.match(readme, pattern, JSON.stringify(input));
    assert.match(readme, /voicebot cloud secrets set web-bot-secrets --file server\/.env/);
    assert.match(readme, /claude mcp add --transport http pipecat-docs https:\/\/\S+/);
    const telephony = findTransport(configOf(input).transports[0])!.group === "telephony";
    assert.equal(/ngrok http 7860/.test(readme), telephony);
  }
  const lean = read(project({ transports: ["lightweb"], deploy_to_cloud: false }), "README.md");
  assert.doesNotMatch(lean, /## Deploy|## Evals/);
  const full = read(project({ transports: ["lightweb"], eval: true }), "README.md");
  assert.match(full, /## Deploy/);
  assert.match(full, /## Evals/);
});

Deno.test("every guide starts with its stamp, and ASSISTANT.md imports AGENTS.md", () => {
  const scaffolded = planProject(configOf({ transports: ["lightweb"] })).guides;
  for (const guide of [...scaffolded, ...planGuides("web-bot")]) {
    assert.match(
      guide.content,
      /^<!-- voicebot-guide \S+ (agent|project) [0-9a-f]{8} -->\n/,
      guide.path,
    );
  }
  const phone = read(project({ transports: ["carrier1"] }), "AGENTS.md");
  assert.ok(phone.includes("wss://<public host>/ws"), "a phone bot's guide tells how calls arrive");
  const dialIn = read(
    project({ transports: ["hosted_pstn"], daily_pstn_mode: "dial-in" }),
    "AGENTS.md",
  );
  assert.ok(dialIn.includes("POST /daily-dialin-webhook"));
  for (const guides of [scaffolded, planGuides("web-bot")]) {
    const assistant = guides.find((guide) => guide.path === "ASSISTANT.md")!;
    assert.match(assistant.content, /^@AGENTS\.md$/m);
  }
});

Deno.test("the project's .gitignore keeps client/.env out and client/.env.example in", async () => {
  const files = project({ transports: ["lightweb"], client_framework: "vanilla" });
  const dir = await Deno.makeTempDir();
  try {
    await Deno.writeTextFile(`${dir}/.gitignore`, read(files, ".gitignore"));
    const git = (...args: string[]) =>
      new Deno.Command("git", { args, cwd: dir, stdout: "null", stderr: "piped" }).output();
    assert.equal((await git("init", "-q")).code, 0);
    // check-ignore: 0 when the path is ignored, 1 when it is not.
    for (
      const [path, ignored] of [["client/.env", true], ["client/.env.example", false]] as const
    ) {
      const { code, stderr } = await git("check-ignore", "-q", path);
      assert.equal(code, ignored ? 0 : 1, `${path}: ${new TextDecoder().decode(stderr)}`);
    }
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
