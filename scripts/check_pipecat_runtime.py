#!/usr/bin/env python3
"""The scenarios of scripts/check_pipecat_runtime.sh: generated bots under Pipecat's real runner.

It puts Pipecat's source at the tag (from a git directory of Pipecat), with its data files, on
PYTHONPATH, and for a system interpreter Debian's packages after the interpreter's own (so that a
newer pydantic there wins over Debian's; a virtualenv keeps to its own packages), makes
a few bots with this checkout's CLI, stands in fake vendors on 127.0.0.1 (an OpenAI-compatible
HTTP server for the LLM, speech-to-text and text-to-speech, reached through OPENAI_BASE_URL) and
a carrier (a websocket client speaking Twilio's media-stream protocol), and runs:

- import: each bot's module loads (every other scenario needs it);
- phone call: `bot.py -t twilio` answers Twilio's webhook with a stream on /ws, and a call on
  that websocket hears the bot's greeting, from the fake LLM through the fake TTS, as μ-law;
- refusal: a phone-only bot given a browser session refuses it by name instead of crashing;
- browser /start: `bot.py -t webrtc` starts a session on POST /start;
- websocket session: `bot.py -t websocket` refuses a socket on /ws-client without the token that
  POST /start gives, and with it plays the greeting back as Pipecat's protobuf audio frames; the
  token opens one socket only, and the bot's log names the socket with the token hidden; the
  same for a bot with several transports (SmallWebRTC and WebSocket) served at once;
- eval: `bot.py -t eval` and Pipecat's `pipecat eval run` on a text scenario that expects the
  fake model's greeting (the bot's own scenarios need a judge model);
- production: server/Dockerfile's CMD, on 127.0.0.1 and a free port, serves the carrier webhook
  (phone bot) and refuses /start without the token (web and WebSocket bots).

Each scenario prints RAN (passed), FAILED (ran, and the property does not hold) or COULD NOT RUN
(with the reason, e.g. a module the environment lacks, or the smart-turn model that a git mirror
may lack: then a stand-in is made with onnx when the interpreter has it). Every wait is bounded.
"""

from __future__ import annotations

import argparse
import contextlib
import http.server
import json
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "scripts"))
from check_pipecat_api import Source, deno_command, git_blobs, git_files  # noqa: E402

# The extras of pipecat-ai whose dependencies the scenarios need, besides the core ones.
EXTRAS = ["runner", "websocket", "webrtc", "cli"]

# Checks, in the bots' environment, each requirement (PEP 508) given as JSON on argv[1]: the
# installed version of the distribution, whether it satisfies the requirement, whether it imports.
REQUIREMENTS_PROBE = r"""
import importlib, importlib.metadata, json, sys
from packaging.requirements import Requirement
# Import names that differ from the distribution's.
IMPORT_NAME = {"pillow": "PIL", "protobuf": "google.protobuf", "pyyaml": "yaml",
               "python-dotenv": "dotenv", "opencv-python-headless": "cv2",
               "docstring-parser": "docstring_parser", "typing-extensions": "typing_extensions",
               "wait-for2": "wait_for2", "audioop-lts": "audioop"}
for group, line in json.loads(sys.argv[1]):
    requirement = Requirement(line)
    if requirement.marker and not requirement.marker.evaluate():
        continue
    name = requirement.name.lower().replace("_", "-")
    try:
        version = importlib.metadata.version(name)
    except importlib.metadata.PackageNotFoundError:
        version = None
    module = IMPORT_NAME.get(name, name.replace("-", "_"))
    try:
        importlib.import_module(module)
        error = None
    except Exception as e:
        error = f"{type(e).__name__}: {e}".splitlines()[0][:150]
    if version is None:
        state = "missing" if error else "ok"
    elif not requirement.specifier.contains(version, prereleases=True):
        state = "too old"
    else:
        state = "ok" if error is None else "broken"
    print(json.dumps([group, str(requirement), version, state, error]))
"""


def check_requirements(python: str, env: dict, source: Source) -> None:
    project = source.pyproject["project"]
    requirements = [("core", r) for r in project["dependencies"]]
    for extra in EXTRAS:
        requirements += [
            (extra, r) for r in project["optional-dependencies"][extra] if not r.startswith("pipecat-ai")
        ]
    result = run([python, "-c", REQUIREMENTS_PROBE, json.dumps(requirements)], env=env, timeout=300)
    if result.returncode != 0:
        print(f"  could not check: {last_error(result.stderr)}")
        return
    for line in result.stdout.splitlines():
        group, requirement, version, state, error = json.loads(line)
        detail = f"installed {version}" if version else "not installed"
        if error:
            detail += f"; import fails: {error}"
        print(f"  {state:8} {group:9} {requirement:45} {detail}")


GREETING = "Hello from the fake model."
RESULTS: list[tuple[str, str, str]] = []


def report(status: str, scenario: str, detail: str = ""):
    RESULTS.append((status, scenario, detail))
    print(f"{status}: {scenario}{': ' + detail if detail else ''}", flush=True)


# ---------------------------------------------------------------------------------------------
# The environment


def extract_pipecat(repo: Path, tag: str, destination: Path) -> tuple[Path, list[str]]:
    """Pipecat's package at the tag, every file at its path (the VAD model and the other data
    files with the modules), with the metadata its version lookup reads. Returns the source
    directory and the files whose content the git directory lacks (e.g. a model kept out of the
    mirror), which are not written."""
    names = git_files(repo, tag, "src/pipecat")
    src = destination / "src"
    missing: list[str] = []
    for name, content in git_blobs(repo, tag, names).items():
        if content is None:
            missing.append(name)
            continue
        path = src / name.removeprefix("src/")
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(content)
    version = tag.removeprefix("v")
    metadata = src / f"pipecat_ai-{version}.dist-info"
    metadata.mkdir()
    (metadata / "METADATA").write_text(
        f"Metadata-Version: 2.1\nName: pipecat-ai\nVersion: {version}\n"
    )
    return src, missing


# A stand-in for Pipecat's smart-turn model when the git directory lacks its blob: the same input
# (`input_features`) and a probability of 1, i.e. every pause ends the user's turn. Run with the
# bots' interpreter, which needs the onnx package; argv[1] is where to write it.
SMART_TURN_STAND_IN = r"""
import sys
import onnx
from onnx import TensorProto, helper

graph = helper.make_graph(
    [
        helper.make_node("ReduceMean", ["input_features"], ["mean"], keepdims=1),
        helper.make_node("Constant", [], ["zero"], value=helper.make_tensor("z", TensorProto.FLOAT, [], [0.0])),
        helper.make_node("Constant", [], ["one"], value=helper.make_tensor("o", TensorProto.FLOAT, [], [1.0])),
        helper.make_node("Mul", ["mean", "zero"], ["nothing"]),
        helper.make_node("Add", ["nothing", "one"], ["probability"]),
    ],
    "smart_turn_stand_in",
    [helper.make_tensor_value_info("input_features", TensorProto.FLOAT, None)],
    [helper.make_tensor_value_info("probability", TensorProto.FLOAT, None)],
)
model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)])
model.ir_version = 8
onnx.save(model, sys.argv[1])
"""

SMART_TURN_MODEL = "src/pipecat/audio/turn/smart_turn/data/smart-turn-v3.2-cpu.onnx"


def python_path(work: Path, pipecat_src: Path, python: str) -> str:
    """Pipecat's source first; for a system interpreter, Debian's packages last, after its own
    site-packages. A virtualenv keeps to its own packages: Debian's, built for other versions
    (scipy against numpy 1.x), would break the imports that try them."""
    site = work / "site"
    site.mkdir()
    in_venv = run([python, "-c", "import sys; print(sys.prefix != sys.base_prefix)"], timeout=60)
    if in_venv.stdout.strip() != "True":
        (site / "sitecustomize.py").write_text(
            "import sys\nsys.path.append('/usr/lib/python3/dist-packages')\n"
        )
    return f"{site}{os.pathsep}{pipecat_src}"


def probe(python: str, env: dict, module: str) -> tuple[bool, str]:
    code = (
        f"import importlib, sys; m = importlib.import_module({module!r}); "
        "print(getattr(m, '__version__', '') or getattr(m, 'VERSION', ''), m.__file__)"
    )
    result = run([python, "-c", code], env=env, timeout=60)
    if result.returncode == 0:
        return True, result.stdout.strip()
    return False, last_error(result.stderr)


def last_error(stderr: str) -> str:
    lines = [line for line in stderr.strip().splitlines() if line.strip()]
    errors = [line for line in lines if re.match(r"^[\w.]+(Error|Exception)\b", line)]
    return (errors or lines or ["no output"])[-1].strip()


def run(command: list[str], timeout: float, **kwargs) -> subprocess.CompletedProcess:
    try:
        return subprocess.run(
            command, capture_output=True, text=True, timeout=timeout, stdin=subprocess.DEVNULL, **kwargs
        )
    except subprocess.TimeoutExpired as error:
        return subprocess.CompletedProcess(command, 124, error.stdout or "", f"TimeoutError: {timeout}s")


# ---------------------------------------------------------------------------------------------
# The type check

PYRIGHT = "npm:pyright@1.1.414"


def type_check(work: Path, python: str, env: dict, pipecat_src: Path):
    """Pyright (Pipecat's scaffold has it in its dev group) on every bot of the test matrix."""
    matrix = work / "matrix"
    generated = run(
        [*deno_command(), "test", "-A", "--frozen", "--cached-only", "tests/project_matrix_test.ts"],
        env={**os.environ, "VOICEBOT_MATRIX_DIR": str(matrix), "NO_COLOR": "1"}, cwd=ROOT, timeout=300,
    )
    # The test writes every project before it checks them: a failed check leaves them all here.
    bots = sorted(matrix.glob("*/server/bot.py"))
    if not bots:
        report("COULD NOT RUN", "pyright on the matrix", "no bots: " + last_error(generated.stdout))
        return
    if generated.returncode != 0:
        print(f"  (the matrix test failed: {last_error(generated.stdout)})")
    config = {"extraPaths": [str(pipecat_src)], "pythonVersion": "3.11", "include": [str(b) for b in bots]}
    (matrix / "pyrightconfig.json").write_text(json.dumps(config))
    result = run([*deno_command(), "run", "-A", "--cached-only", PYRIGHT, "--pythonpath", shutil.which(python) or python,
                  "--outputjson", "-p", str(matrix / "pyrightconfig.json")], env=env, cwd=matrix, timeout=600)
    try:
        output = json.loads(result.stdout)
    except json.JSONDecodeError:
        report("COULD NOT RUN", "pyright on the matrix", last_error(result.stderr or result.stdout))
        return
    unresolved, errors = set(), []
    for d in output["generalDiagnostics"]:
        if d.get("rule") in ("reportMissingImports", "reportMissingModuleSource"):
            unresolved.add(re.sub(r'^Import "([^"]+)".*', r"\1", d["message"]))
        elif d["severity"] == "error":
            where = f"{Path(d['file']).parent.parent.name}/bot.py:{d['range']['start']['line'] + 1}"
            errors.append(f"{where}: {d['message'].splitlines()[0]}")
    detail = f"{len(bots)} bots; imports not installed here, so unchecked: {', '.join(sorted(unresolved)) or 'none'}"
    if errors:
        report("FAILED", "pyright on the matrix", detail + "; errors:\n    " + "\n    ".join(errors))
    else:
        report("RAN", "pyright on the matrix", detail)


# ---------------------------------------------------------------------------------------------
# The bots


BOTS = {
    "phone": ["-t", "carrier1", "--deploy-to-cloud"],
    "web": ["-t", "lightweb", "--deploy-to-cloud", "--eval", "--client-framework", "none"],
    "websocket": ["-t", "websocket", "--deploy-to-cloud", "--client-framework", "none"],
    # Several transports in one bot, served at once as `uv run bot.py` serves them.
    "several": ["-t", "lightweb", "-t", "websocket", "--no-deploy-to-cloud", "--client-framework", "none"],
}
CASCADE = ["-m", "cascade", "--stt", "openai_stt", "--llm", "openai_llm", "--tts", "openai_tts"]


def generate(projects: Path) -> dict[str, Path]:
    made = {}
    for name, flags in BOTS.items():
        target = projects / name
        command = [*deno_command(), "run", "--cached-only", "-A", str(ROOT / "main.ts"), "init", str(target)]
        result = run([*command, *flags, *CASCADE, "--no-recording"], timeout=120, cwd=ROOT)
        if result.returncode != 0:
            report("COULD NOT RUN", f"generate {name}", last_error(result.stderr))
            continue
        made[name] = target / "server"
    return made


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@contextlib.contextmanager
def server_process(command: list[str], cwd: Path, env: dict, port: int, log: Path):
    """Starts a bot's server and waits (bounded) until it listens; stops it on exit."""
    with open(log, "w") as out:
        process = subprocess.Popen(
            command, cwd=cwd, env=env, stdout=out, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL,
            start_new_session=True,
        )
        try:
            deadline = time.monotonic() + 60
            while time.monotonic() < deadline and process.poll() is None:
                with contextlib.suppress(OSError), socket.create_connection(("127.0.0.1", port), 1):
                    break
                time.sleep(0.5)
            else:
                raise RuntimeError(f"the server did not listen on {port}: {tail(log)}")
            yield process
        finally:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(process.pid, signal.SIGTERM)
            try:
                process.wait(10)
            except subprocess.TimeoutExpired:
                os.killpg(process.pid, signal.SIGKILL)
                process.wait(10)


def tail(log: Path, lines: int = 1) -> str:
    text = log.read_text(errors="replace").strip().splitlines() if log.exists() else []
    errors = [line for line in text if re.search(r"(Error|Exception|Traceback)", line)]
    return " | ".join((errors or text)[-lines:]) or "no output"


def send(method: str, url: str, body: dict | None = None, headers: dict | None = None, timeout: float = 20):
    data = json.dumps(body).encode() if body is not None else None
    request = urllib.request.Request(url, data=data, method=method, headers=headers or {})
    if data is not None:
        request.add_header("Content-Type", "application/json")
    try:
        with urllib.request.urlopen(request, timeout=timeout) as response:
            return response.status, response.read().decode(errors="replace")
    except urllib.error.HTTPError as error:
        return error.code, error.read().decode(errors="replace")


# ---------------------------------------------------------------------------------------------
# Fake vendors


class FakeOpenAI(http.server.ThreadingHTTPServer):
    """Chat completions (streamed), speech (PCM) and transcriptions, as OpenAI's API has them."""

    def __init__(self):
        super().__init__(("127.0.0.1", 0), FakeOpenAIHandler)
        self.hits: dict[str, int] = {}
        self.daemon_threads = True

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.server_address[1]}/v1"


class FakeOpenAIHandler(http.server.BaseHTTPRequestHandler):
    server: FakeOpenAI

    def log_message(self, *args):
        pass

    def do_POST(self):
        length = int(self.headers.get("Content-Length", 0))
        body = self.rfile.read(length)
        path = self.path.split("?")[0]
        self.server.hits[path] = self.server.hits.get(path, 0) + 1
        if path.endswith("/chat/completions"):
            request = json.loads(body or b"{}")
            self.chat(bool(request.get("stream")))
        elif path.endswith("/audio/speech"):
            # Half a second of a 440 Hz tone, 24 kHz 16-bit mono PCM.
            import math
            import struct

            samples = (int(8000 * math.sin(2 * math.pi * 440 * i / 24000)) for i in range(12000))
            self.reply(200, b"".join(struct.pack("<h", s) for s in samples), "audio/pcm")
        elif path.endswith("/audio/transcriptions"):
            self.reply(200, json.dumps({"text": "hello"}).encode(), "application/json")
        else:
            self.reply(404, b"{}", "application/json")

    def chat(self, stream: bool):
        created = int(time.time())
        if not stream:
            message = {"role": "assistant", "content": GREETING}
            choice = {"index": 0, "message": message, "finish_reason": "stop"}
            body = {"id": "fake", "object": "chat.completion", "created": created, "model": "fake",
                    "choices": [choice]}
            self.reply(200, json.dumps(body).encode(), "application/json")
            return
        self.send_response(200)
        self.send_header("Content-Type", "text/event-stream")
        self.end_headers()
        for delta, finish in [({"role": "assistant", "content": GREETING}, None), ({}, "stop")]:
            chunk = {"id": "fake", "object": "chat.completion.chunk", "created": created,
                     "model": "fake", "choices": [{"index": 0, "delta": delta, "finish_reason": finish}]}
            self.wfile.write(f"data: {json.dumps(chunk)}\n\n".encode())
        self.wfile.write(b"data: [DONE]\n\n")

    def reply(self, status: int, body: bytes, content_type: str):
        self.send_response(status)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)


# A Twilio media-stream call, run in the bots' environment (it needs the websockets package).
TWILIO_CALL = r"""
import asyncio, base64, json, sys
import websockets

async def call(url, seconds):
    async with websockets.connect(url, open_timeout=10) as ws:
        sid, call_sid = "MZ00000000000000000000000000000000", "CA00000000000000000000000000000000"
        await ws.send(json.dumps({"event": "connected", "protocol": "Call", "version": "1.0.0"}))
        await ws.send(json.dumps({"event": "start", "sequenceNumber": "1", "streamSid": sid,
            "start": {"streamSid": sid, "callSid": call_sid, "accountSid": "AC0", "tracks": ["inbound"],
                      "customParameters": {},
                      "mediaFormat": {"encoding": "audio/x-mulaw", "sampleRate": 8000, "channels": 1}}}))
        silence = base64.b64encode(b"\xff" * 160).decode()
        media, loop = 0, asyncio.get_running_loop()
        deadline = loop.time() + seconds
        while loop.time() < deadline and media < 5:
            await ws.send(json.dumps({"event": "media", "streamSid": sid,
                                      "media": {"track": "inbound", "payload": silence}}))
            try:
                message = json.loads(await asyncio.wait_for(ws.recv(), 0.02))
            except asyncio.TimeoutError:
                continue
            if message.get("event") == "media" and base64.b64decode(message["media"]["payload"]):
                media += 1
        await ws.send(json.dumps({"event": "stop", "streamSid": sid}))
        print(json.dumps({"media": media}))

asyncio.run(asyncio.wait_for(call(sys.argv[1], float(sys.argv[2])), float(sys.argv[2]) + 20))
"""


# A WebSocket client's session, run in the bots' environment (websockets, and Pipecat's protobuf
# frames from its source on the path): without a token the runner refuses the socket; with the
# token /start gave, the client sends 16 kHz silence as AudioRawFrame messages and counts the
# bot's audio frames back; the same token again is refused, for it opens one connection.
WEBSOCKET_SESSION = r"""
import asyncio, json, sys
import websockets
from pipecat.frames.protobufs import frames_pb2

async def refused(url):
    # Closed before it is accepted, the socket is refused in the handshake (HTTP 403); after, the
    # close frame carries the runner's code (4003). None: the socket was taken.
    try:
        async with websockets.connect(url, open_timeout=10) as ws:
            await asyncio.wait_for(ws.recv(), 10)
    except websockets.ConnectionClosed as closed:
        return f"close {closed.rcvd.code}" if closed.rcvd else "closed"
    except websockets.InvalidHandshake as error:
        response = getattr(error, "response", None)
        return f"http {getattr(error, 'status_code', None) or getattr(response, 'status_code', '?')}"
    except asyncio.TimeoutError:
        return None
    return None

async def session(url, seconds):
    frame = frames_pb2.Frame()
    frame.audio.audio = b"\x00\x00" * 320
    frame.audio.sample_rate = 16000
    frame.audio.num_channels = 1
    silence = frame.SerializeToString()
    audio, loop = 0, asyncio.get_running_loop()
    async with websockets.connect(url, open_timeout=10) as ws:
        deadline = loop.time() + seconds
        while loop.time() < deadline and audio < 5:
            await ws.send(silence)
            try:
                message = await asyncio.wait_for(ws.recv(), 0.02)
            except asyncio.TimeoutError:
                continue
            if isinstance(message, bytes):
                got = frames_pb2.Frame.FromString(message)
                if got.WhichOneof("frame") == "audio" and got.audio.audio:
                    audio += 1
    return audio

async def main(base, token, seconds):
    result = {"without_token": await refused(f"{base}/ws-client")}
    result["audio"] = await session(f"{base}/ws-client?token={token}", seconds)
    result["token_again"] = await refused(f"{base}/ws-client?token={token}")
    print(json.dumps(result))

asyncio.run(asyncio.wait_for(main(sys.argv[1], sys.argv[2], float(sys.argv[3])), float(sys.argv[3]) + 40))
"""


# bot.py's own start-token middleware on a Starlette app served by uvicorn on 127.0.0.1, with
# Pipecat stood in (tests/bot_sessions.py's stand-ins) and FastAPI's names taken from Starlette,
# which FastAPI's are: runs where Pipecat cannot load. The middleware is added as FastAPI's
# `app.middleware("http")` adds it, a BaseHTTPMiddleware (a plain Starlette app has no
# `.middleware` since Starlette 1.0). Prints the status of each request as JSON.
START_TOKEN_APP = r"""
import asyncio, importlib.abc, importlib.machinery, json, os, sys, types, urllib.request, urllib.error
sys.path.insert(0, sys.argv[2])
from bot_sessions import Anything, LOGGER
import starlette.applications, starlette.background, starlette.requests, starlette.responses
import starlette.routing, uvicorn
from starlette.middleware.base import BaseHTTPMiddleware

class StandIns(importlib.abc.MetaPathFinder, importlib.abc.Loader):
    def find_spec(self, name, path=None, target=None):
        top = name.split(".")[0]
        if top == "fastapi" or top == "pipecat" or top == "loguru":
            return importlib.machinery.ModuleSpec(name, self, is_package=True)
        if top in sys.stdlib_module_names or importlib.machinery.PathFinder.find_spec(top):
            return None
        return importlib.machinery.ModuleSpec(name, self, is_package=True)
    def create_module(self, spec):
        module = types.ModuleType(spec.name)
        if spec.name == "loguru":
            module.logger = LOGGER
        elif spec.name.startswith("fastapi"):
            for source in (starlette.requests, starlette.responses, starlette.background):
                module.__dict__.update({k: v for k, v in vars(source).items() if not k.startswith("_")})
        else:
            module.__getattr__ = lambda name: Anything()
        return module
    def exec_module(self, module):
        module.__path__ = []

stand_ins = StandIns()
sys.meta_path.insert(0, stand_ins)
sys.path.insert(0, ".")
import bot
# Only bot.py's imports are stood in: uvicorn must not take a stand-in for an optional module.
sys.meta_path.remove(stand_ins)

async def started(request):
    return starlette.responses.JSONResponse({"started": True})

paths = sorted({"/", "/daily-dialin-webhook", *bot.SESSION_ROUTES})
routes = [starlette.routing.Route(path, started, methods=["GET", "POST"]) for path in paths]
app = starlette.applications.Starlette(routes=routes)
app.add_middleware(BaseHTTPMiddleware, dispatch=bot.require_start_token)
port = int(sys.argv[1])

def request(path, token=None):
    headers = {"Authorization": f"Bearer {token}"} if token else {}
    try:
        with urllib.request.urlopen(urllib.request.Request(f"http://127.0.0.1:{port}{path}", b"{}", headers), timeout=10) as r:
            return r.status
    except urllib.error.HTTPError as e:
        return e.code

async def main():
    server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port, http="h11", log_level="warning"))
    task = asyncio.create_task(server.serve())
    while not server.started:
        await asyncio.sleep(0.05)
    results = {}
    for route in paths:
        for token in (None, "wrong", "fake-token"):
            results[f"POST {route} token={token}"] = await asyncio.to_thread(request, route, token)
    server.should_exit = True
    await task
    print(json.dumps(results))

asyncio.run(asyncio.wait_for(main(), 60))
"""


# ---------------------------------------------------------------------------------------------
# The scenarios


class Runtime:
    def __init__(self, python: str, env: dict, logs: Path, fake: FakeOpenAI, smart_turn: Path):
        self.python = python
        self.env = env
        self.logs = logs
        self.fake = fake
        self.smart_turn = smart_turn

    def bot_env(self) -> dict:
        return {
            **self.env,
            "OPENAI_API_KEY": "sk-fake",
            "OPENAI_BASE_URL": self.fake.base_url,
            "TWILIO_ACCOUNT_SID": "AC00000000000000000000000000000000",
            "TWILIO_AUTH_TOKEN": "fake",
            "PYTHONUNBUFFERED": "1",
        }

    def imports(self, name: str, server: Path) -> bool:
        result = run([self.python, "-c", "import bot"], env=self.bot_env(), cwd=server, timeout=120)
        if result.returncode == 0:
            report("RAN", f"import {name}/bot.py")
            return True
        report("COULD NOT RUN", f"import {name}/bot.py", last_error(result.stderr))
        return False

    def phone_call(self, server: Path):
        if not self.smart_turn.exists():
            report("COULD NOT RUN", "phone call", "no smart-turn model, which a cascade bot loads")
            return
        port = free_port()
        command = [self.python, "bot.py", "-t", "twilio", "--host", "127.0.0.1", "--port", str(port),
                   "-x", f"127.0.0.1:{port}"]
        log = self.logs / "phone_call.log"
        try:
            with server_process(command, server, self.bot_env(), port, log):
                status, twiml = send("POST", f"http://127.0.0.1:{port}/")
                if status != 200 or f"wss://127.0.0.1:{port}/ws" not in twiml:
                    report("FAILED", "phone call: Twilio webhook", f"{status} {twiml[:200]}")
                    return
                before = dict(self.fake.hits)
                result = run([self.python, "-c", TWILIO_CALL, f"ws://127.0.0.1:{port}/ws", "30"],
                             env=self.env, timeout=60)
                if result.returncode != 0:
                    report("FAILED", "phone call", last_error(result.stderr) + " / bot: " + tail(log))
                    return
                heard = json.loads(result.stdout.strip().splitlines()[-1])["media"]
                used = {k: v - before.get(k, 0) for k, v in self.fake.hits.items() if v > before.get(k, 0)}
                if heard:
                    report("RAN", "phone call", f"{heard} media messages back; fake vendor hits {used}")
                else:
                    report("FAILED", "phone call", f"no audio back; fake vendor hits {used}; bot: {tail(log)}")
        except RuntimeError as error:
            report("FAILED", "phone call", str(error))

    def websocket_session(self, server: Path, every_transport: bool = False):
        """`bot.py -t websocket`: /start gives a one-time token, and only a socket that brings it
        gets a session, which hears the bot's greeting as Pipecat's protobuf audio frames. With
        `every_transport`, `bot.py` alone, serving each of the bot's transports at once."""
        scenario = "websocket session" + (", every transport served" if every_transport else "")
        if not self.smart_turn.exists():
            report("COULD NOT RUN", scenario, "no smart-turn model, which a cascade bot loads")
            return
        port = free_port()
        only = [] if every_transport else ["-t", "websocket"]
        command = [self.python, "bot.py", *only, "--host", "127.0.0.1", "--port", str(port)]
        env = self.bot_env()
        env.pop("PIPECAT_WEBSOCKET_AUTH", None)
        log = self.logs / f"{scenario.replace(' ', '_').replace(',', '')}.log"
        try:
            with server_process(command, server, env, port, log):
                status, body = send("POST", f"http://127.0.0.1:{port}/start", {"transport": "websocket"})
                answer = json.loads(body) if status == 200 else {}
                if not answer.get("token") or not str(answer.get("wsUrl", "")).endswith("/ws-client"):
                    report("FAILED", f"{scenario}: /start", f"{status} {body[:200]}")
                    return
                before = dict(self.fake.hits)
                result = run([self.python, "-c", WEBSOCKET_SESSION, f"ws://127.0.0.1:{port}",
                              answer["token"], "30"], env=self.env, timeout=90)
                if result.returncode != 0:
                    report("FAILED", scenario, last_error(result.stderr) + " / bot: " + tail(log))
                    return
                seen = json.loads(result.stdout.strip().splitlines()[-1])
                used = {k: v - before.get(k, 0) for k, v in self.fake.hits.items() if v > before.get(k, 0)}
                # The runner closes a socket without a valid token with code 4003, before it is
                # accepted: a refused handshake.
                refused = ("close 4003", "http 403")
                ok = seen["audio"] > 0 and seen["without_token"] in refused and seen["token_again"] in refused
                report("RAN" if ok else "FAILED", scenario,
                       f"{seen['audio']} audio frames back; without a token: closed "
                       f"{seen['without_token']}; the token again: closed {seen['token_again']}; "
                       f"fake vendor hits {used}" + ("" if ok else f"; bot: {tail(log)}"))
        except RuntimeError as error:
            report("FAILED", scenario, str(error))
            return
        # The bot's log, whole now that it has stopped: uvicorn's lines name the socket's path, the
        # one-time token hidden.
        text = log.read_text(errors="replace")
        hidden = [line for line in text.splitlines() if "/ws-client?token=<hidden>" in line]
        leaked = answer["token"] in text
        report("FAILED" if leaked or not hidden else "RAN", f"{scenario}: no token in the bot's log",
               f"{len(hidden)} lines name /ws-client?token=<hidden>"
               + ("; the one-time token is in the log" if leaked else ""))

    def client_in_front(self, name: str, project: Path):
        """The web client's own dev server (`vite`, `next dev`) between a browser and the real bot,
        both with BOT_START_TOKEN: /api/start reaches the bot with the token, and a WebSocket session
        through /api/ws-client hears the greeting (the start token is not sent on the socket's
        upgrade, where the runner would take it for the one-time token). With the client's token
        left out, the bot refuses /api/start."""
        scenario = f"{name} dev server in front of the bot"
        client, server = project / "client", project / "server"
        if not (client / "node_modules").is_dir():
            report("COULD NOT RUN", scenario, "the client is not installed (npm install needs the registry, "
                   "before the network closes: check_pipecat_runtime.sh does it where npm is on PATH)")
            return
        if not self.smart_turn.exists():
            report("COULD NOT RUN", scenario, "no smart-turn model, which a cascade bot loads")
            return
        bot_port, dev_port = free_port(), free_port()
        bot = [self.python, "bot.py", "--host", "127.0.0.1", "--port", str(bot_port)]
        env = {**self.bot_env(), "BOT_START_TOKEN": "fake-token"}
        env.pop("PIPECAT_WEBSOCKET_AUTH", None)
        dev = (["node_modules/.bin/vite", "--host", "127.0.0.1", "--strictPort", "--port", str(dev_port)]
               if name == "vite" else ["node_modules/.bin/next", "dev", "--hostname", "127.0.0.1",
                                       "--port", str(dev_port)])
        dev_env = {**os.environ, "NEXT_TELEMETRY_DISABLED": "1"}
        dev_env.pop("BOT_START_TOKEN", None)
        start = f"http://127.0.0.1:{dev_port}/api/start"
        try:
            with server_process(bot, server, env, bot_port, self.logs / f"{name}_client_bot.log"):
                for token in ("fake-token", None):
                    # Each dev server reads client/.env when it starts.
                    (client / ".env").write_text(
                        f"BOT_URL=http://127.0.0.1:{bot_port}\n" + (f"BOT_START_TOKEN={token}\n" if token else ""))
                    label = f"{scenario}, " + ("both with BOT_START_TOKEN" if token else "the client without it")
                    log = self.logs / f"{name}_client_{'token' if token else 'none'}.log"
                    with server_process(dev, client, dev_env, dev_port, log):
                        # The first request waits for the dev server to compile (Next.js).
                        status, body = send("POST", start, {"transport": "websocket"}, timeout=120)
                        if not token:
                            report("RAN" if status == 401 else "FAILED", f"{label}: /api/start refused",
                                   f"{status} {body[:160]}")
                            continue
                        answer = json.loads(body) if status == 200 else {}
                        if not answer.get("token"):
                            report("FAILED", f"{label}: /api/start", f"{status} {body[:200]}")
                            continue
                        result = run([self.python, "-c", WEBSOCKET_SESSION, f"ws://127.0.0.1:{dev_port}/api",
                                      answer["token"], "30"], env=self.env, timeout=90)
                        if result.returncode != 0:
                            report("FAILED", f"{label}: WebSocket session", last_error(result.stderr))
                            continue
                        seen = json.loads(result.stdout.strip().splitlines()[-1])
                        refused = ("close 4003", "http 403")
                        ok = seen["audio"] > 0 and seen["token_again"] in refused
                        report("RAN" if ok else "FAILED", f"{label}: WebSocket session through /api/ws-client",
                               f"{seen['audio']} audio frames back; the token again: {seen['token_again']}")
                        status, body = send("POST", start, {"transport": "webrtc", "body": {}})
                        webrtc = f"{label}: SmallWebRTC's /api/start"
                        if status == 400 and "is disabled in this runner environment" in body:
                            report("COULD NOT RUN", webrtc, f"a dependency is missing: {body[:160]}")
                        else:
                            ok = status == 200 and "sessionId" in body
                            report("RAN" if ok else "FAILED", webrtc, f"{status} {body[:160]}")
        except RuntimeError as error:
            report("FAILED", scenario, str(error))

    def refusal(self, server: Path):
        """A phone-only bot given a browser session: a clear refusal, not an AttributeError."""
        code = (
            "import asyncio, bot\n"
            "from pipecat.runner.types import SmallWebRTCRunnerArguments\n"
            "class Connection:\n"
            "    async def disconnect(self):\n"
            "        print('disconnected')\n"
            "async def main():\n"
            "    args = SmallWebRTCRunnerArguments(webrtc_connection=Connection())\n"
            "    try:\n"
            "        await asyncio.wait_for(bot.bot(args), 20)\n"
            "    except Exception as error:\n"
            "        print(f'{type(error).__name__}: {error}')\n"
            "asyncio.run(main())\n"
        )
        result = run([self.python, "-c", code], env=self.bot_env(), cwd=server, timeout=60)
        said = (result.stdout + result.stderr).strip()
        if result.returncode != 0 or "AttributeError" in said or "TypeError" in said:
            report("FAILED", "refusal of a browser session by a phone bot", last_error(said))
        else:
            report("RAN", "refusal of a browser session by a phone bot", said.splitlines()[-1] if said else "")

    def browser_start(self, server: Path):
        ok, why = probe(self.python, self.env, "aiortc")
        if not ok:
            report("COULD NOT RUN", "browser /start", f"SmallWebRTC needs aiortc (pipecat-ai[webrtc]): {why}")
            return
        port = free_port()
        command = [self.python, "bot.py", "-t", "webrtc", "--host", "127.0.0.1", "--port", str(port)]
        log = self.logs / "browser_start.log"
        try:
            with server_process(command, server, self.bot_env(), port, log):
                status, body = send("POST", f"http://127.0.0.1:{port}/start", {"transport": "webrtc", "body": {}})
                if status == 400 and "is disabled in this runner environment" in body:
                    report("COULD NOT RUN", "browser /start", f"a dependency is missing: {body[:200]}")
                    return
                ok = status == 200 and "sessionId" in body
                report("RAN" if ok else "FAILED", "browser /start", f"{status} {body[:200]}")
        except RuntimeError as error:
            report("FAILED", "browser /start", str(error))

    def eval(self, server: Path):
        """The bot on its eval transport, and `pipecat eval run` on a text scenario that the fake
        model can pass: the greeting, checked without a judge. (The bot's own scenarios want a
        judge model, and answers a fake model does not give.)"""
        if not (server / "evals" / "text.yaml").exists():
            report("COULD NOT RUN", "pipecat eval run", "the bot has no text scenario")
            return
        scenario = self.logs / "greeting.yaml"
        scenario.write_text(
            "name: greeting\n"
            "turns:\n"
            "  - expect:\n"
            "      - event: response\n"
            f'        text_contains: "{GREETING.rstrip(".")}"\n'
        )
        ok, why = probe(self.python, self.env, "pipecat.cli.commands.eval")
        if not ok:
            report("COULD NOT RUN", "pipecat eval run", why)
            return
        # The bot's output goes through NLTK's sentence tokenizer, whose data Pipecat downloads at
        # first use: not here, without a network.
        punkt = "import nltk; nltk.data.find('tokenizers/punkt_tab/english/')"
        if run([self.python, "-c", punkt], env=self.env, timeout=60).returncode != 0:
            report("COULD NOT RUN", "pipecat eval run", "NLTK's punkt_tab data is not installed")
            return
        port = free_port()
        command = [self.python, "bot.py", "-t", "eval", "--host", "127.0.0.1", "--port", str(port)]
        log = self.logs / "eval.log"
        cli = "import sys; from pipecat.cli.main import run; sys.argv[0] = 'pipecat'; run()"
        try:
            with server_process(command, server, self.bot_env(), port, log):
                result = run(
                    [self.python, "-c", cli, "eval", "run", str(scenario), "--bot-url",
                     f"ws://127.0.0.1:{port}", "--timeout", "60"],
                    env=self.bot_env(), cwd=server, timeout=120,
                )
                said = result.stdout + result.stderr
                (self.logs / "eval_run.log").write_text(said)
                tally = re.findall(r"^\s*(\d+/\d+ passed.*)$", said, re.M)
                verdict = tally[-1].strip() if tally else last_error(said)
                report("RAN" if result.returncode == 0 else "FAILED", "pipecat eval run", verdict)
        except RuntimeError as error:
            report("FAILED", "pipecat eval run", str(error))

    def start_token(self, name: str, server: Path):
        """bot.py's middleware: with BOT_START_TOKEN set, a session route needs it; / stays open;
        Daily's dial-in webhook is closed to a bot that takes no dial-in."""
        tests = str(ROOT / "tests")
        for token_set in (True, False):
            env = {**self.env, "BOT_START_TOKEN": "fake-token"} if token_set else dict(self.env)
            env.pop("BOT_START_TOKEN", None) if not token_set else None
            result = run([self.python, "-c", START_TOKEN_APP, str(free_port()), tests],
                         env=env, cwd=server, timeout=90)
            label = f"start token of {name} ({'BOT_START_TOKEN set' if token_set else 'no BOT_START_TOKEN, from 127.0.0.1'})"
            if result.returncode != 0:
                report("COULD NOT RUN", label, last_error(result.stderr))
                continue
            statuses = json.loads(result.stdout.strip().splitlines()[-1])
            wrong = []
            for request, status in statuses.items():
                route, token = request.split(" ")[1], request.split("token=")[1]
                # "/" is the carrier's webhook: carriers send no token. Neither bot takes Daily
                # dial-in: its webhook is refused to everyone.
                if route == "/daily-dialin-webhook":
                    allowed = False
                else:
                    allowed = route == "/" or not token_set or token == "fake-token"
                if (status == 200) != allowed:
                    wrong.append(f"{request}: {status}")
            report("FAILED" if wrong else "RAN", label,
                   "; ".join(wrong) or f"{len(statuses)} requests as expected")

    def production_guard(self, server: Path):
        """The phone image's command stops, naming it, when BOT_PUBLIC_HOST or BOT_START_TOKEN is
        not set."""
        found = re.search(r"^CMD (\[.*\])$", (server / "Dockerfile").read_text(), re.M)
        command = json.loads(found.group(1)) if found else []
        shims = self.python_shim()
        for variable in ("BOT_PUBLIC_HOST", "BOT_START_TOKEN"):
            label = f"production phone command without {variable}"
            if variable not in " ".join(command):
                report("FAILED", label, f"CMD {command}")
                continue
            env = {
                **self.bot_env(),
                "PATH": f"{shims}{os.pathsep}{os.environ.get('PATH', '')}",
                "BOT_PUBLIC_HOST": "bot.example.com",
                "BOT_START_TOKEN": "fake-token",
            }
            env.pop(variable)
            result = run(command, env=env, cwd=server, timeout=30)
            said = (result.stdout + result.stderr).strip()
            ok = result.returncode != 0 and variable in said
            report("RAN" if ok else "FAILED", label,
                   f"exit {result.returncode}: {said.splitlines()[-1] if said else ''}")

    def python_shim(self) -> Path:
        """A directory whose `python` runs the bots' interpreter, as the image's `python` does. A
        script, not a symlink: a symlink to a virtualenv's python starts the base interpreter
        without the virtualenv's packages."""
        shims = self.logs / "bin"
        shims.mkdir(exist_ok=True)
        shim = shims / "python"
        shim.write_text(f'#!/bin/sh\nexec "{shutil.which(self.python) or self.python}" "$@"\n')
        shim.chmod(0o755)
        return shims

    def production(self, name: str, server: Path):
        dockerfile = (server / "Dockerfile").read_text()
        found = re.search(r"^CMD (\[.*\])$", dockerfile, re.M)
        if not found:
            report("COULD NOT RUN", f"production command of {name}", "no CMD [...] in server/Dockerfile")
            return
        port = free_port()
        # The image listens on every interface at 7860; here, on loopback at a free port, with
        # `python` the interpreter that has Pipecat's dependencies.
        command = [
            c.replace("0.0.0.0", "127.0.0.1").replace("--port 7860", f"--port {port}")
            for c in json.loads(found.group(1))
        ]
        command = [str(port) if c == "7860" else c for c in command]
        shims = self.python_shim()
        env = {
            **self.bot_env(),
            "PATH": f"{shims}{os.pathsep}{os.environ.get('PATH', '')}",
            "BOT_PUBLIC_HOST": f"127.0.0.1:{port}",
            "BOT_START_TOKEN": "fake-token",
        }
        log = self.logs / f"production_{name}.log"
        shown = " ".join(json.loads(found.group(1)))
        try:
            with server_process(command, server, env, port, log):
                if name == "phone":
                    status, twiml = send("POST", f"http://127.0.0.1:{port}/")
                    ok = status == 200 and "<Stream" in twiml
                    report("RAN" if ok else "FAILED", f"production `{shown}`: carrier webhook",
                           f"{status} {twiml[:160]}")
                else:
                    start = f"http://127.0.0.1:{port}/start"
                    transport = {"transport": "websocket" if name == "websocket" else "webrtc"}
                    # A WebSocket session's answer is the socket's URL and its one-time token.
                    answered = "token" if name == "websocket" else "sessionId"
                    status, body = send("POST", start, transport)
                    report("RAN" if status == 401 else "FAILED",
                           f"production `{shown}`: /start without the token", f"{status} {body[:160]}")
                    headers = {"Authorization": "Bearer fake-token"}
                    status, body = send("POST", start, transport, headers)
                    label = f"production `{shown}`: /start with the token"
                    if status == 400 and "is disabled in this runner environment" in body:
                        report("COULD NOT RUN", label, f"a dependency is missing: {body[:160]}")
                    else:
                        ok = status == 200 and bool(json.loads(body).get(answered))
                        report("RAN" if ok else "FAILED", label, f"{status} {body[:160]}")
        except RuntimeError as error:
            report("FAILED", f"production `{shown}`", str(error))


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repo", type=Path, required=True, help="Pipecat's git directory")
    parser.add_argument("--tag", default="v1.7.0")
    parser.add_argument("--python", default=sys.executable, help="the interpreter the bots run on")
    parser.add_argument("--keep", type=Path, help="work in this directory and keep it")
    parser.add_argument("--isolated", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    # Stopped (a test's time bound, Ctrl-C's SIGTERM from a wrapper): leave through the `finally`s,
    # which stop each bot and dev server, each in a session of its own, and remove the work.
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))

    work = args.keep or Path(tempfile.mkdtemp(prefix="voicebot-runtime-"))
    work.mkdir(parents=True, exist_ok=True)
    try:
        print(f"Pipecat {args.tag} from {args.repo}; Python {args.python}; work in {work}")
        print("network: " + ("a namespace of its own, loopback only" if args.isolated else "the host's"))
        source = Source.from_repo(args.repo, args.tag)
        pipecat_src, missing = extract_pipecat(args.repo, args.tag, work / "pipecat")
        env = {**os.environ, "PYTHONPATH": python_path(work, pipecat_src, args.python), "PYTHONDONTWRITEBYTECODE": "1"}
        env.pop("VIRTUAL_ENV", None)
        if missing:
            print(f"not in the git directory, so not written: {', '.join(missing)}")
        if SMART_TURN_MODEL in missing:
            model = pipecat_src / SMART_TURN_MODEL.removeprefix("src/")
            made = run([args.python, "-c", SMART_TURN_STAND_IN, str(model)], env=env, timeout=120)
            print("  smart-turn model: " + (
                "a stand-in (every pause ends the turn), made with onnx" if made.returncode == 0
                else f"none, so a cascade bot cannot run ({last_error(made.stderr)})"))

        print("\nPipecat's requirements (core and the runner, websocket, webrtc and cli extras):")
        check_requirements(args.python, env, source)

        print("\nScenarios:")
        type_check(work, args.python, env, pipecat_src)
        bots = generate(work / "projects")
        fake = FakeOpenAI()
        threading.Thread(target=fake.serve_forever, daemon=True).start()
        logs = work / "logs"
        logs.mkdir(exist_ok=True)
        smart_turn = pipecat_src / SMART_TURN_MODEL.removeprefix("src/")
        runtime = Runtime(args.python, env, logs, fake, smart_turn)
        try:
            if bots.get("phone"):
                runtime.production_guard(bots["phone"])
            for name, server in bots.items():
                runtime.start_token(name, server)
            scenarios_of = {
                "phone": [("phone call", runtime.phone_call), ("refusal", runtime.refusal)],
                "web": [("browser /start", runtime.browser_start), ("pipecat eval run", runtime.eval)],
                "websocket": [("websocket session", runtime.websocket_session)],
                "several": [
                    ("websocket session, every transport served",
                     lambda s: runtime.websocket_session(s, every_transport=True)),
                ],
            }
            for name, scenarios in scenarios_of.items():
                server = bots.get(name)
                ok = bool(server) and runtime.imports(name, server)
                production = (f"production {name}", lambda s, name=name: runtime.production(name, s))
                # A bot without the cloud deployment files has no image to start.
                deployed = not server or (server / "Dockerfile").exists()
                for label, scenario in [*scenarios, *([production] if deployed else [])]:
                    if ok:
                        scenario(server)
                    else:
                        report("COULD NOT RUN", label, "the bot's module does not load (above)")
            # The web clients' dev servers, made and installed by check_pipecat_runtime.sh.
            clients = os.environ.get("VOICEBOT_RUNTIME_CLIENTS")
            for name in ("vite", "next"):
                project = Path(clients) / name if clients else None
                if not project or not (project / "server" / "bot.py").exists():
                    report("COULD NOT RUN", f"{name} dev server in front of the bot",
                           "no client made (check_pipecat_runtime.sh makes them where npm is on PATH)")
                elif runtime.imports(f"{name}-client", project / "server"):
                    runtime.client_in_front(name, project)
        finally:
            fake.shutdown()
    finally:
        if not args.keep:
            shutil.rmtree(work, ignore_errors=True)
            if os.environ.get("VOICEBOT_RUNTIME_CLIENTS"):
                shutil.rmtree(os.environ["VOICEBOT_RUNTIME_CLIENTS"], ignore_errors=True)

    counts = {s: sum(1 for r in RESULTS if r[0] == s) for s in ("RAN", "FAILED", "COULD NOT RUN")}
    print(f"\nSummary: {counts['RAN']} ran, {counts['FAILED']} failed, {counts['COULD NOT RUN']} could not run")
    sys.exit(1 if counts["FAILED"] else 0)


if __name__ == "__main__":
    main()
