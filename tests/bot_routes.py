"""Sends HTTP requests through what a generated bot adds to Pipecat's runner app, without Pipecat.

argv[1] is a JSON file with a list of plans, one per bot:

    {"bot": "/path/server/bot.py", "env": {"NAME": "value"}, "requests": [
        {"method": "POST", "path": "/start", "query": "", "headers": {}, "client": "203.0.113.9",
         "body": "", "env": {"BOT_START_TOKEN": "x" | null}}]}

For each, it runs bot.py as `__main__` with every third-party import replaced by a permissive
stand-in (tests/bot_sessions.py's), except:

- `pipecat.runner.run`: `app` records the middleware and the routes bot.py adds to it, and `main`
  records that it was called;
- `pipecat.runner.daily`: `configure` records its keyword arguments and returns a room;
- `fastapi`: responses that keep their status, and background tasks that keep what they run;
- `pipecat.runner.utils`: `create_transport` returns a transport that records its event handlers
  and the calls it is asked to place; `pipecat.pipeline.worker`: a worker that records `cancel()`;
  `LLMContextAggregatorPair` gives a pair.

`env` is set for the whole bot, each request's `env` on top of it (null unsets a variable). Each
request goes through the recorded middleware to the route: one bot.py added (`reached: handler`)
or, for any other path, the runner's own (`reached: runner`, 200). It prints, as JSON, for each
bot: the routes bot.py added, how many middleware functions, whether `main()` ran (and the
runner's `--ws-auth` default it would read then, PIPECAT_WEBSOCKET_AUTH), and for each
request its status (500 when the route raised), what it reached, the `configure` calls it made
and the tasks it queued;
then, as `own_anonymous`, the same for a request to each route bot.py added, sent as the plan's
`anonymous` request says (a caller elsewhere, with no token) and a body of `{}`.

Then, when a request queued `bot(runner_args)` with dial-out settings in the body, it runs that
session: the bot joins (`on_joined`), and every call it places fails (`on_dialout_error`) until it
gives up (`worker.cancel()`) or 20 failures; `dialout` says how many calls it placed, whether it
gave up, and the pauses (`asyncio.sleep`) it took between them, which take no time here.
"""

import asyncio
import inspect
import json
import os
import runpy
import sys
import types
from pathlib import Path
from urllib.parse import parse_qsl

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bot_sessions import Anything, StandIns, runner_types  # noqa: E402

STATE: dict = {}


class Response:
    def __init__(self, content=None, status_code=200, media_type=None, **kwargs):
        self.content = content
        self.status_code = status_code
        self.media_type = media_type


class JSONResponse(Response):
    def __init__(self, content=None, status_code=200, **kwargs):
        super().__init__(content, status_code, "application/json")


class BackgroundTasks:
    def __init__(self):
        self.tasks: list = []

    def add_task(self, function, *args, **kwargs):
        self.tasks.append((function, args, kwargs))


def fastapi() -> types.ModuleType:
    module = types.ModuleType("fastapi")
    module.Request = type("Request", (), {})
    module.Response = Response
    module.BackgroundTasks = BackgroundTasks
    module.__getattr__ = lambda name: Anything()
    return module


def fastapi_responses() -> types.ModuleType:
    module = types.ModuleType("fastapi.responses")
    module.JSONResponse = JSONResponse
    module.Response = Response
    module.__getattr__ = lambda name: Anything()
    return module


class App:
    """The runner's FastAPI app, as far as bot.py uses it."""

    def __init__(self):
        self.middleware_functions: list = []
        self.routes: dict[str, tuple[list[str], object]] = {}

    def middleware(self, kind):
        assert kind == "http", kind
        return lambda function: self.middleware_functions.append(function) or function

    def add_middleware(self, *args, **kwargs):
        pass

    def add_api_route(self, path, endpoint, methods=None, **kwargs):
        self.routes[path] = (list(methods or ["GET"]), endpoint)

    def __getattr__(self, name):
        return Anything()


def runner_run() -> types.ModuleType:
    module = types.ModuleType("pipecat.runner.run")
    module.app = STATE["app"] = App()
    # The runner reads --ws-auth's default from the environment when main() parses its options.
    module.main = lambda *args, **kwargs: STATE.update(
        main=True, ws_auth=os.environ.get("PIPECAT_WEBSOCKET_AUTH")
    )
    module.__getattr__ = lambda name: Anything()
    return module


class Room:
    room_url = "https://example.daily.co/new-room"
    token = "room-token"
    sip_endpoint = "sip:new-room@example.sip.daily.co"


def simple(value):
    return value if isinstance(value, (str, int, float, bool, type(None))) else type(value).__name__


def runner_daily() -> types.ModuleType:
    module = types.ModuleType("pipecat.runner.daily")

    async def configure(session, **kwargs):
        STATE["configure"].append({k: simple(v) for k, v in kwargs.items()})
        return Room()

    module.configure = configure
    module.__getattr__ = lambda name: Anything()
    return module


class Transport:
    """A transport that keeps its event handlers and the calls it is asked to place."""

    def __init__(self):
        self.handlers: dict[str, object] = {}
        self.dialouts: list = []

    def event_handler(self, name):
        def register(function):
            self.handlers[name] = function
            return function

        return register

    async def start_dialout(self, settings=None):
        self.dialouts.append(settings)

    def __getattr__(self, name):
        return Anything()


def runner_utils() -> types.ModuleType:
    module = types.ModuleType("pipecat.runner.utils")

    async def create_transport(runner_args, transport_params=None, *args, **kwargs):
        STATE["transport"] = Transport()
        return STATE["transport"]

    module.create_transport = create_transport
    module.__getattr__ = lambda name: Anything()
    return module


class Worker(Anything):
    async def cancel(self):
        STATE["cancelled"] = True


def pipeline_worker() -> types.ModuleType:
    module = types.ModuleType("pipecat.pipeline.worker")
    module.PipelineWorker = Worker
    module.__getattr__ = lambda name: Anything()
    return module


def aggregators() -> types.ModuleType:
    module = types.ModuleType("pipecat.processors.aggregators.llm_response_universal")
    module.LLMContextAggregatorPair = lambda *args, **kwargs: (Anything(), Anything())
    module.__getattr__ = lambda name: Anything()
    return module


class RouteStandIns(StandIns):
    SPECIAL = {
        "pipecat.runner.types": runner_types,
        "pipecat.runner.utils": runner_utils,
        "pipecat.runner.run": runner_run,
        "pipecat.runner.daily": runner_daily,
        "pipecat.pipeline.worker": pipeline_worker,
        "pipecat.processors.aggregators.llm_response_universal": aggregators,
        "fastapi": fastapi,
        "fastapi.responses": fastapi_responses,
    }


class Headers(dict):
    def get(self, name, default=None):
        return super().get(name.lower(), default)


class Request:
    def __init__(self, spec: dict):
        self.method = spec.get("method", "POST")
        query = spec.get("query", "")
        self.url = types.SimpleNamespace(path=spec["path"], query=query)
        self.query_params = dict(parse_qsl(query, keep_blank_values=True))
        self.headers = Headers({k.lower(): v for k, v in spec.get("headers", {}).items()})
        self.client = types.SimpleNamespace(host=spec.get("client", "203.0.113.9"), port=40000)
        self._body = spec.get("body", "")

    async def json(self):
        return json.loads(self._body)

    async def body(self):
        return self._body.encode()


async def send(spec: dict) -> dict:
    app: App = STATE["app"]
    STATE["configure"] = []
    reached: list[str] = []
    tasks = BackgroundTasks()

    async def endpoint(request):
        route = app.routes.get(request.url.path)
        if route is None or request.method not in route[0]:
            reached.append("runner")
            return Response("the runner's route", 200)
        reached.append("handler")
        arguments = {}
        for name in inspect.signature(route[1]).parameters:
            arguments[name] = tasks if name == "background_tasks" else request
        return await route[1](**arguments)

    call = endpoint
    for middleware in app.middleware_functions:
        call = (lambda m, inner: lambda request: m(request, inner))(middleware, call)
    try:
        response = await call(Request(spec))
    except Exception as error:  # what the server answers when a handler raises
        response = Response(f"{type(error).__name__}: {error}", 500)
    queued = []
    for function, args, _ in tasks.tasks:
        body = getattr(args[0], "body", None) if args else None
        queued.append({"function": getattr(function, "__name__", "?"), "body": body})
        STATE.setdefault("queued", []).append((function, args))
    return {
        "status": response.status_code,
        "reached": reached[-1] if reached else None,
        "configure": STATE["configure"],
        "tasks": queued,
    }


async def dialout_session(function, args) -> dict | None:
    """Runs a dial-out session whose every call fails, until the bot gives up."""
    pauses: list[float] = []
    real_sleep = asyncio.sleep

    async def sleep(delay, *rest, **kwargs):
        pauses.append(delay)
        await real_sleep(0)

    STATE["cancelled"] = False
    asyncio.sleep = sleep
    try:
        await function(*args)
        transport: Transport = STATE["transport"]
        await transport.handlers["on_joined"](transport, {})
        failures = 0
        while not STATE["cancelled"] and failures < 20:
            failures += 1
            await transport.handlers["on_dialout_error"](transport, {"error": "busy"})
    finally:
        asyncio.sleep = real_sleep
    return {"calls": len(transport.dialouts), "gave_up": STATE["cancelled"], "pauses": pauses}


def run(plan: dict) -> dict:
    saved = dict(os.environ)
    os.environ.pop("PIPECAT_WEBSOCKET_AUTH", None)
    os.environ.update(plan.get("env", {}))
    STATE.clear()
    STATE["main"] = False
    try:
        runpy.run_path(plan["bot"], run_name="__main__")
        app: App = STATE["app"]
        responses = []
        for spec in plan["requests"]:
            for name, value in spec.get("env", {}).items():
                if value is None:
                    os.environ.pop(name, None)
                else:
                    os.environ[name] = value
            responses.append(asyncio.run(send(spec)))
        # Then each route bot.py added, asked by anyone.
        anonymous = plan.get("anonymous", {})
        os.environ.update({k: v for k, v in anonymous.get("env", {}).items() if v is not None})
        own_anonymous = [
            asyncio.run(send({"method": methods[0], "path": path, "body": "{}", **anonymous}))
            for path, (methods, _) in sorted(app.routes.items())
        ]
        dialout = None
        for function, args in STATE.get("queued", []):
            body = getattr(args[0], "body", None) or {}
            if "dialout_settings" in body:
                dialout = asyncio.run(dialout_session(function, args))
                break
        return {
            "routes": [{"path": p, "methods": m} for p, (m, _) in sorted(app.routes.items())],
            "middleware": len(app.middleware_functions),
            "main": STATE["main"],
            "ws_auth": STATE.get("ws_auth"),
            "responses": responses,
            "own_anonymous": own_anonymous,
            "dialout": dialout,
        }
    finally:
        os.environ.clear()
        os.environ.update(saved)
        for name in [m for m in sys.modules if m.split(".")[0] in ("pipecat", "fastapi")]:
            del sys.modules[name]


def main():
    sys.meta_path.insert(0, RouteStandIns())
    plans = json.load(open(sys.argv[1]))
    print(json.dumps({plan["bot"]: run(plan) for plan in plans}))


if __name__ == "__main__":
    main()
