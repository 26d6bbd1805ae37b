#!/usr/bin/env bash
# Builds the generated web clients for real, which the test suite does not: scaffolds a bot with
# each client (vanilla on Vite, the voice UI kit on Vite, the voice UI kit on Next.js) and every
# web transport (SmallWebRTC, Daily, WebSocket) with the CLI, says when this machine's Node is
# outside the range the client's package.json declares, runs `npm install` and `npm run build` in
# each from the npm registry (with a start token in the client's .env, made from its .env.example,
# and checks that the built files for the browser do not hold it, and do hold each transport's
# package), then serves each build, and runs each dev server, with the bot's URL in that .env and
# checks that it forwards the client's session requests, and the WebSocket client's socket, to the
# bot runner (a stand-in that records what reaches it and refuses as Pipecat's runner does): once
# without BOT_START_TOKEN, when no Authorization header may reach the runner (and a runner that
# wants a start token refuses /start), and once with it, when `Authorization: Bearer <token>` must
# reach /start, exactly, and nothing else (the socket's one-time token would give way to it).
# Then it takes the Node ranges the installed packages declare (scripts/client_engines.ts) and
# compares them with tests/data/client_engines.json, which the test suite holds the clients'
# `engines` to. Not run by CI: it needs the registry and takes minutes.
#
#   bash scripts/check_clients.sh              # exits non-zero when a client or the facts fail
#   KEEP=1 bash scripts/check_clients.sh       # keeps the projects and logs in the printed directory
#   TAKE_FACTS=1 bash scripts/check_clients.sh # writes the ranges taken to the facts file
set -uo pipefail
cd "$(dirname "$0")/.."
repo=$(pwd)

if command -v deno >/dev/null; then
  deno=(deno)
else
  deno=(npx --yes "deno@$(grep -m1 -oE 'npx --yes deno@[0-9.]+' README.md | cut -d@ -f2)")
fi
voicebot() { "${deno[@]}" run -A --quiet "$repo/main.ts" "$@"; }
engines() { "${deno[@]}" run --quiet --allow-read "$repo/scripts/client_engines.ts" "$@"; }
facts_file="$repo/tests/data/client_engines.json"

work=$(mktemp -d)
pids=()
cleanup() {
  for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null; done
  if [ -n "${KEEP:-}" ]; then echo "kept: $work"; else rm -rf "$work"; fi
}
trap cleanup EXIT

free_port() {
  node -e 'const s = require("net").createServer().listen(0, "127.0.0.1", () => {
    console.log(s.address().port); s.close(); });'
}

# The bot runner's stand-in: logs "METHOD path auth=<Authorization header, or ->" per request and
# answers /start as the runner does: for a WebSocket session, the socket's URL as the image's
# runner names it (its listening address, which no browser reaches) and a one-time token; for
# SmallWebRTC, a session id. With a start token in $runner_token_file (the bot's BOT_START_TOKEN),
# /start without it is refused (401), as the bot refuses it. It takes a WebSocket on /ws-client
# (logged "WEBSOCKET path auth=...") as Pipecat's runner does: the token is an Authorization
# bearer's if one is sent, else ?token='s, and any but the one-time token is refused (403). It ends
# the socket, so that no forwarded socket keeps the client's server from stopping.
runner_port=$(free_port)
runner_log="$work/runner.log"
runner_token_file="$work/runner-token"
: >"$runner_log"
: >"$runner_token_file"
node -e '
  const [port, log, tokenFile] = process.argv.slice(1);
  const fs = require("fs");
  const server = require("http").createServer((req, res) => {
    const auth = req.headers.authorization ?? "-";
    fs.appendFileSync(log, `${req.method} ${req.url} auth=${auth}\n`);
    let body = "";
    req.on("data", (chunk) => body += chunk);
    req.on("end", () => {
      res.setHeader("content-type", "application/json");
      if (req.url !== "/start") return res.end("{}");
      const startToken = fs.readFileSync(tokenFile, "utf8").trim();
      if (startToken && auth !== `Bearer ${startToken}`) {
        res.statusCode = 401;
        return res.end("{\"detail\":\"no valid start token\"}");
      }
      const websocket = body.includes("\"websocket\"");
      res.end(JSON.stringify(websocket
        ? { wsUrl: "wss://0.0.0.0:7860/ws-client", sessionId: "check", token: "check-ws-token" }
        : { sessionId: "check" }));
    });
  });
  server.on("upgrade", (req, socket) => {
    const auth = req.headers.authorization ?? "-";
    fs.appendFileSync(log, `WEBSOCKET ${req.url} auth=${auth}\n`);
    const bearer = /^Bearer (.+)$/.exec(req.headers.authorization ?? "");
    const sent = bearer ? bearer[1] : new URL(req.url, "http://x").searchParams.get("token");
    socket.on("error", () => {});
    if (sent !== "check-ws-token") return socket.end("HTTP/1.1 403 Forbidden\r\n\r\n");
    const key = req.headers["sec-websocket-key"] ?? "";
    const accept = require("crypto").createHash("sha1")
      .update(key + "258EAFA5-E914-47DA-95CA-C5AB0DC85B11").digest("base64");
    socket.end("HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\n" +
      `Connection: Upgrade\r\nSec-WebSocket-Accept: ${accept}\r\n\r\n`);
  });
  server.listen(Number(port), "127.0.0.1");
' "$runner_port" "$runner_log" "$runner_token_file" &
pids+=($!)
# Each client reads the runner's address from its .env: Next.js when it builds, Vite when its
# server starts. Not from the environment, which would win over the file.
bot_url="http://127.0.0.1:$runner_port"
unset BOT_URL BOT_START_TOKEN
# The start token the clients are given: it must reach the runner and no file for the browser.
token="check-start-token-$RANDOM$RANDOM$RANDOM"
export NEXT_TELEMETRY_DISABLED=1

wait_for() {
  for _ in $(seq 60); do
    curl -s -o /dev/null "$1" && return 0
    sleep 0.5
  done
  return 1
}

failed=0
summary=()
installed=() # <client>=<dir> of each client installed, for client_engines.ts

# Runs one step of a client's check, timing it; its output goes to a log, shown when it fails.
step() {
  local name=$1 log=$2
  shift 2
  local start=$SECONDS
  if "$@" >"$log" 2>&1; then
    echo "  ok: $name ($((SECONDS - start)) s)"
  else
    echo "  FAILED: $name ($((SECONDS - start)) s)"
    tail -n 40 "$log" | sed 's/^/    /'
    return 1
  fi
}

# Opens a WebSocket at an http:// URL (the handshake only), as a browser opens ws:// there, and
# says whether the server switched protocols.
ws_handshake() {
  node -e '
    const request = require("http").get(process.argv[1], { headers: {
      connection: "Upgrade", upgrade: "websocket", "sec-websocket-version": "13",
      "sec-websocket-key": require("crypto").randomBytes(16).toString("base64") } });
    request.on("upgrade", (res, socket) => { console.log(`upgraded ${res.statusCode}`); socket.destroy(); });
    request.on("response", (res) => { console.log(`not upgraded: ${res.statusCode}`); process.exit(1); });
    request.on("error", (e) => { console.log(`failed: ${e.message}`); process.exit(1); });
    setTimeout(() => { console.log("no answer in 10 s"); process.exit(1); }, 10000).unref();
  ' "$1"
}

# The client's server (`serve`: its dev server, or its build's) forwards /api/start,
# SmallWebRTC's offer path and the WebSocket client's socket to the runner. With the start token
# (`auth` "Bearer <token>"), the runner wants it: /start alone carries it, and the socket, which
# carries the one-time token, opens. Without it (`auth` "-"), no Authorization header reaches the
# runner; then a runner that wants a start token refuses /start.
check_forwarding() {
  local client=$1 serve=$2 auth=$3 port
  port=$(free_port)
  (cd "$client" && "$serve" "$port") &
  local pid=$!
  pids+=("$pid")
  wait_for "http://127.0.0.1:$port/" || { echo "its server did not start"; return 1; }
  if [ "$auth" = "-" ]; then : >"$runner_token_file"; else echo "$token" >"$runner_token_file"; fi
  : >"$runner_log"
  local ok=0
  curl -sf -X POST "http://127.0.0.1:$port/api/start" -H "content-type: application/json" \
    -d '{"transport":"webrtc"}' || { echo "POST /api/start failed"; ok=1; }
  curl -sf -X POST "http://127.0.0.1:$port/api/sessions/check/api/offer" \
    -H "content-type: application/json" -d '{"sdp":"","type":"offer"}'
  curl -sf -X PATCH "http://127.0.0.1:$port/api/sessions/check/api/offer" \
    -H "content-type: application/json" -d '{"pc_id":"check","candidates":[]}'
  ws_handshake "http://127.0.0.1:$port/api/ws-client?token=check-ws-token" || ok=1
  local refused=0
  if [ "$auth" = "-" ]; then
    # The bot with a start token, this client without: /start is refused.
    echo "$token" >"$runner_token_file"
    refused=$(curl -s -o /dev/null -w '%{http_code}' -X POST "http://127.0.0.1:$port/api/start" \
      -H "content-type: application/json" -d '{"transport":"webrtc"}')
    : >"$runner_token_file"
  fi
  kill "$pid"
  wait "$pid" 2>/dev/null
  echo
  cat "$runner_log"
  [ "$ok" -eq 0 ] || return 1
  grep -qxF "POST /start auth=$auth" "$runner_log" || { echo "expected: POST /start auth=$auth"; return 1; }
  local route
  for route in "POST /sessions/check/api/offer" "PATCH /sessions/check/api/offer" \
    "WEBSOCKET /ws-client?token=check-ws-token"; do
    grep -qxF "$route auth=-" "$runner_log" || { echo "expected: $route auth=-"; return 1; }
  done
  if [ "$auth" = "-" ] && [ "$refused" != 401 ]; then
    echo "expected: /api/start without the start token refused (401), not $refused"
    return 1
  fi
}

# The built files for the browser hold each JS transport of the bot, found by a message of its
# own code (minified names are not kept).
transports_in_build() {
  local built=$1 transport message
  for transport in "SmallWebRTC:SmallWebRTCTransport" "Daily:DailyTransport" \
    "WebSocket:Failed to connect to websocket"; do
    message=${transport#*:}
    if grep -rlqF "$message" "$built"; then
      echo "${transport%%:*}: found \"$message\""
    else
      echo "${transport%%:*}: no \"$message\" in $built"
      return 1
    fi
  done
}

# The client's .env from its .env.example, with the stand-in's address for the bot's, and with
# the start token when one is given (its commented line set).
env_from_example() {
  local client=$1 start_token=${2:-}
  grep -q '^BOT_URL=' "$client/.env.example" || { echo "no BOT_URL= in .env.example"; return 1; }
  grep -qx '# BOT_START_TOKEN=' "$client/.env.example" ||
    { echo "no '# BOT_START_TOKEN=' in .env.example"; return 1; }
  local edits=(-e "s|^BOT_URL=.*|BOT_URL=$bot_url|")
  if [ -n "$start_token" ]; then
    edits+=(-e "s|^# BOT_START_TOKEN=\$|BOT_START_TOKEN=$start_token|")
  fi
  sed "${edits[@]}" "$client/.env.example" >"$client/.env"
  cat "$client/.env"
  if [ -n "$start_token" ]; then grep -qx "BOT_START_TOKEN=$start_token" "$client/.env"; fi
}

# The built files the browser loads hold no start token.
no_token_in_build() {
  local built=$1
  [ -d "$built" ] || { echo "no $built"; return 1; }
  echo "$(find "$built" -type f | wc -l) files in $built"
  if grep -rlF "$token" "$built"; then
    echo "the start token is in the files above"
    return 1
  fi
}

# Says, before anything is installed, when this machine's Node is outside the client's range.
node_in_range() {
  local line
  line=$(engines check-node "$(node --version)" "$1") || return 1
  if [ -n "$line" ]; then echo "  $line"; fi
}

check_client() {
  local name=$1 facts=$2 serve=$3 dev=$4 built=$5
  shift 5
  local dir="$work/$name" start=$SECONDS
  echo "$name: voicebot init $*"
  mkdir -p "$dir"
  if (cd "$dir" && step "scaffold" "$work/$name-init.log" voicebot init bot "$@" \
    -t lightweb -t hosted -t websocket) &&
    node_in_range "$dir/bot/client" &&
    step "npm install" "$work/$name-install.log" npm install --prefix "$dir/bot/client" \
      --no-audit --no-fund &&
    installed+=("$facts=$dir/bot/client") &&
    step "client/.env from .env.example, with BOT_START_TOKEN" "$work/$name-env.log" \
      env_from_example "$dir/bot/client" "$token" &&
    step "npm run build" "$work/$name-build.log" npm run build --prefix "$dir/bot/client" &&
    step "no start token in $built/" "$work/$name-bundle.log" \
      no_token_in_build "$dir/bot/client/$built" &&
    step "each transport's package in $built/" "$work/$name-transports.log" \
      transports_in_build "$dir/bot/client/$built" &&
    step "client/.env from .env.example, without BOT_START_TOKEN" "$work/$name-env.log" \
      env_from_example "$dir/bot/client" &&
    step "its build forwards /api/* to the runner, no Authorization" "$work/$name-serve.log" \
      check_forwarding "$dir/bot/client" "$serve" "-" &&
    step "its dev server forwards /api/* to the runner, no Authorization" \
      "$work/$name-dev.log" check_forwarding "$dir/bot/client" "$dev" "-" &&
    step "client/.env with BOT_START_TOKEN" "$work/$name-env-token.log" \
      env_from_example "$dir/bot/client" "$token" &&
    step "its build forwards /api/*, the start token to /start alone" \
      "$work/$name-serve-token.log" \
      check_forwarding "$dir/bot/client" "$serve" "Bearer $token" &&
    step "its dev server forwards /api/*, the start token to /start alone" \
      "$work/$name-dev-token.log" \
      check_forwarding "$dir/bot/client" "$dev" "Bearer $token"; then
    summary+=("ok: $name ($((SECONDS - start)) s)")
  else
    failed=$((failed + 1))
    summary+=("FAILED: $name ($((SECONDS - start)) s)")
  fi
}

# Serve a built client, or run its dev server, on a port; `exec` leaves one process to stop.
vite_preview() { exec node_modules/.bin/vite preview --host 127.0.0.1 --strictPort --port "$1"; }
vite_dev() { exec node_modules/.bin/vite --host 127.0.0.1 --strictPort --port "$1"; }
next_start() { exec node_modules/.bin/next start --hostname 127.0.0.1 --port "$1"; }
next_dev() { exec node_modules/.bin/next dev --hostname 127.0.0.1 --port "$1"; }

# The Node ranges the installed packages declare, against the committed facts.
check_facts() {
  local taken="$work/client_engines.json"
  echo "Node ranges of the installed packages (scripts/client_engines.ts)"
  if [ "${#installed[@]}" -ne 3 ]; then
    echo "  not taken: only ${#installed[@]} of the 3 clients were installed"
    return 1
  fi
  if ! engines facts "${installed[@]}" >"$taken"; then
    echo "  FAILED: could not take them"
    return 1
  fi
  if [ -n "${TAKE_FACTS:-}" ]; then
    cp "$taken" "$facts_file"
    echo "  written to tests/data/client_engines.json"
  elif diff -u "$facts_file" "$taken" >"$work/facts.diff"; then
    echo "  ok: the same as tests/data/client_engines.json"
  else
    echo "  FAILED: not those of tests/data/client_engines.json (TAKE_FACTS=1 writes them):"
    sed 's/^/    /' "$work/facts.diff"
    return 1
  fi
}

echo "node $(node --version), npm $(npm --version); bot runner stand-in on $bot_url"
cascade=(-m cascade --stt deepgram_stt --llm openai_llm --tts cartesia_tts)
# The user's camera is for a realtime model that takes video.
realtime=(-m realtime --realtime gemini_live_realtime)
check_client vanilla-vite vanilla vite_preview vite_dev dist --client-framework vanilla \
  "${cascade[@]}"
check_client uilib-vite uilib-vite vite_preview vite_dev dist --client-framework uilib \
  --client-server devserver_a --video-output --video-input "${realtime[@]}"
check_client uilib-next uilib-next next_start next_dev .next/static --client-framework uilib \
  --client-server devserver_b "${cascade[@]}"
echo
check_facts || failed=$((failed + 1))

echo
printf '%s\n' "${summary[@]}"
[ "$failed" -eq 0 ]
