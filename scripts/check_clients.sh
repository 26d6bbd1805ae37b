#!/usr/bin/env bash
# Builds the generated web clients for real, which the test suite does not: scaffolds a bot with
# each client (vanilla on Vite, the voice UI kit on Vite, the voice UI kit on Next.js) with the
# CLI, runs `npm install` and `npm run build` in each from the npm registry, then serves each build
# and checks that its server forwards the client's start request to the bot runner (a stand-in
# that records what reaches it). Not run by CI: it needs the registry and takes minutes.
#
#   bash scripts/check_clients.sh           # exits non-zero when a client fails
#   KEEP=1 bash scripts/check_clients.sh    # keeps the projects and logs in the printed directory
set -uo pipefail
cd "$(dirname "$0")/.."
repo=$(pwd)

if command -v deno >/dev/null; then
  voicebot() { deno run -A --quiet "$repo/main.ts" "$@"; }
else
  deno_version=$(grep -m1 -oE 'npx --yes deno@[0-9.]+' README.md | cut -d@ -f2)
  voicebot() { npx --yes "deno@$deno_version" run -A --quiet "$repo/main.ts" "$@"; }
fi

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

# The bot runner's stand-in: logs "METHOD path" per request and answers /start as the runner
# does for SmallWebRTC (a session id).
runner_port=$(free_port)
runner_log="$work/runner.log"
: >"$runner_log"
node -e '
  const [port, log] = process.argv.slice(1);
  require("http").createServer((req, res) => {
    require("fs").appendFileSync(log, `${req.method} ${req.url}\n`);
    res.setHeader("content-type", "application/json");
    res.end(JSON.stringify(req.url === "/start" ? { sessionId: "check" } : {}));
  }).listen(Number(port), "127.0.0.1");
' "$runner_port" "$runner_log" &
pids+=($!)
# Next.js takes the runner's address when it builds; Vite when its server starts.
export BOT_URL="http://127.0.0.1:$runner_port" NEXT_TELEMETRY_DISABLED=1

wait_for() {
  for _ in $(seq 60); do
    curl -s -o /dev/null "$1" && return 0
    sleep 0.5
  done
  return 1
}

failed=0
summary=()

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

# The client's built server forwards /api/start and SmallWebRTC's offer path to the runner.
check_forwarding() {
  local client=$1 serve=$2 port
  port=$(free_port)
  (cd "$client" && "$serve" "$port") &
  local pid=$!
  pids+=("$pid")
  wait_for "http://127.0.0.1:$port/" || { echo "its server did not start"; return 1; }
  : >"$runner_log"
  curl -sf -X POST "http://127.0.0.1:$port/api/start" -H "content-type: application/json" \
    -d '{"transport":"webrtc"}'
  curl -sf -X POST "http://127.0.0.1:$port/api/sessions/check/api/offer" \
    -H "content-type: application/json" -d '{"sdp":"","type":"offer"}'
  kill "$pid"
  echo
  cat "$runner_log"
  grep -qx "POST /start" "$runner_log" && grep -qx "POST /sessions/check/api/offer" "$runner_log"
}

check_client() {
  local name=$1 serve=$2
  shift 2
  local dir="$work/$name" start=$SECONDS
  echo "$name: voicebot init $*"
  mkdir -p "$dir"
  if (cd "$dir" && step "scaffold" "$work/$name-init.log" voicebot init bot "$@" \
    -t lightweb -t hosted -m cascade --stt deepgram_stt --llm openai_llm --tts cartesia_tts) &&
    step "npm install" "$work/$name-install.log" npm install --prefix "$dir/bot/client" \
      --no-audit --no-fund &&
    step "npm run build" "$work/$name-build.log" npm run build --prefix "$dir/bot/client" &&
    step "forwards /api/* to the runner" "$work/$name-serve.log" \
      check_forwarding "$dir/bot/client" "$serve"; then
    summary+=("ok: $name ($((SECONDS - start)) s)")
  else
    failed=$((failed + 1))
    summary+=("FAILED: $name ($((SECONDS - start)) s)")
  fi
}

# Serve a built client on a port; `exec` leaves one process to stop.
vite_preview() { exec node_modules/.bin/vite preview --host 127.0.0.1 --strictPort --port "$1"; }
next_start() { exec node_modules/.bin/next start --hostname 127.0.0.1 --port "$1"; }

echo "node $(node --version), npm $(npm --version); bot runner stand-in on $BOT_URL"
check_client vanilla-vite vite_preview --client-framework vanilla
check_client uilib-vite vite_preview --client-framework uilib --client-server devserver_a \
  --video-output --video-input
check_client uilib-next next_start --client-framework uilib --client-server devserver_b

echo
printf '%s\n' "${summary[@]}"
[ "$failed" -eq 0 ]
