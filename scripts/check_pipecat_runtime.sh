#!/usr/bin/env bash
# Runs generated bots under Pipecat's real runner, with local fake vendors (not part of CI).
#
# 1. Installs what it can of Pipecat's Python dependencies from Debian's packages (apt-get;
#    skipped with --no-apt or when not root).
# 2. Runs scripts/check_pipecat_runtime.py, which puts Pipecat's source at the tag on the path,
#    generates bots with this checkout's CLI and runs the scenarios: a phone call end to end, a
#    WebSocket client's session with its one-time token, a browser transport's /start, a session
#    of a type the bot does not serve, the eval transport with `pipecat eval run`, the image's
#    command line (server/Dockerfile's CMD), and each web client's dev server (Vite, Next.js;
#    installed from the npm registry before the network closes) in front of a real bot.
#
# Everything runs in a network namespace of its own when `unshare -n` works (as root): the fake
# vendors, the bots and the clients reach one another on 127.0.0.1 and nothing else, so a bot
# that calls a real vendor (a carrier's hang-up API) fails instead of leaving the machine.
# Every wait is bounded; the last lines summarise what ran, what failed and what could not run.
#
# Usage: scripts/check_pipecat_runtime.sh [--no-apt] --repo /path/to/pipecat.git [--tag v1.7.0]
#        [--python python3] [--keep DIR]
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
apt=1
args=()
for arg in "$@"; do
  if [ "$arg" = "--no-apt" ]; then apt=0; else args+=("$arg"); fi
done

# Pipecat's runtime dependencies as Debian packages; bookworm lacks some (openai, onnxruntime,
# soxr, docstring-parser, pyloudnorm) and has others too old (fastapi, websockets): the Python
# script reports each one.
debian_packages=(
  python3-aiofiles python3-aiohttp python3-anyio python3-distro python3-dotenv python3-fastapi
  python3-httpx python3-loguru python3-markdown python3-multipart python3-nltk python3-num2words
  python3-numba python3-numpy python3-pil python3-protobuf python3-pydantic python3-resampy
  python3-starlette python3-uvicorn python3-websockets python3-yaml
)
if [ "$apt" = 1 ] && [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
  echo "apt-get: installing ${#debian_packages[@]} packages" >&2
  timeout 600 apt-get install -y -qq --no-install-recommends "${debian_packages[@]}" >/dev/null ||
    echo "apt-get failed: continuing with what is installed" >&2
fi

# Deno: the one on PATH, or the version README.md pins, through npx. The namespace has no
# registry, so the Python script gets Deno's executable itself (VOICEBOT_DENO), and pyright (npm)
# goes into Deno's cache first.
if command -v deno >/dev/null; then
  deno=(deno)
else
  version="$(grep -o -m1 'npx --yes deno@[0-9.]*' "$here/../README.md" | sed 's/.*@//')"
  deno=(npx --yes "deno@${version:-2.9.6}")
fi
VOICEBOT_DENO="$("${deno[@]}" eval 'console.log(Deno.execPath())')"
export VOICEBOT_DENO
# From a directory with no deno.json, as the script runs it (in its work directory): inside this
# checkout the lockfile resolves pyright, and the registry's answer, which a run elsewhere needs,
# would not be cached.
(cd / && "$VOICEBOT_DENO" run -A npm:pyright@1.1.414 --version >/dev/null)

# The web clients whose dev servers the runtime check puts in front of a real bot (the UI kit on
# Vite and on Next.js, each with a bot on SmallWebRTC and WebSocket), made and installed here: the
# namespace has no registry. The Python script removes them when it is done (but with --keep).
if command -v npm >/dev/null; then
  VOICEBOT_RUNTIME_CLIENTS="$(mktemp -d -t voicebot-runtime-clients-XXXXXX)"
  export VOICEBOT_RUNTIME_CLIENTS
  for client in vite:devserver_a next:devserver_b; do
    name=${client%%:*}
    echo "client $name: made and installed (npm) for the dev-server scenario" >&2
    (cd / && "$VOICEBOT_DENO" run -A --quiet "$here/../main.ts" init "$VOICEBOT_RUNTIME_CLIENTS/$name" \
      -t lightweb -t websocket --client-framework uilib --client-server "${client#*:}" \
      -m cascade --stt openai_stt --llm openai_llm --tts openai_tts --no-recording \
      --no-deploy-to-cloud >/dev/null) &&
      timeout 600 npm install --prefix "$VOICEBOT_RUNTIME_CLIENTS/$name/client" --no-audit --no-fund \
        >/dev/null 2>&1 ||
      echo "client $name: could not be made or installed; its scenario says so" >&2
  done
fi

driver=(python3 "$here/check_pipecat_runtime.py" "${args[@]}")
if [ "$(id -u)" = 0 ] && unshare -n true 2>/dev/null; then
  # A namespace with a loopback interface only.
  exec unshare -n sh -c 'ip link set lo up && exec "$@"' sh "${driver[@]}" --isolated
fi
echo "unshare -n is not available: the bots run on the host's network (servers on 127.0.0.1)" >&2
exec "${driver[@]}"
