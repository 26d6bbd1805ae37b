"""Hands each generated bot every kind of session Pipecat's runner can give it, without Pipecat.

For each `bot.py` of the JSON list in argv[1] (with the runner argument classes it serves), it
loads the module with every third-party import replaced by a permissive stand-in, except:

- `pipecat.runner.types`: the runner argument classes, each with only its own attributes, as in
  Pipecat (a `SmallWebRTCRunnerArguments` has no `websocket`);
- `pipecat.runner.utils`: `create_transport` stops the session with `Reached` once the bot asks
  for a transport its params have, i.e. it has accepted the session; like Pipecat's, it fails with
  "Missing transport params" when they have none, which is a crash, not a refusal a user can
  read. `parse_telephony_websocket` names the carrier of the stand-in websocket;
- `loguru`: a logger that keeps what the bot says.

Then it calls `bot(args)` once per kind of session and prints, as JSON, how each session
ended: `accepted` (the bot asked for a transport, or ran through), or how it refused: the
exception it raised or the error it logged, with its message. A crash on an attribute, key or
type (`'SmallWebRTCRunnerArguments' object has no attribute 'websocket'`) is reported as such.
"""

import asyncio
import importlib.abc
import importlib.machinery
import importlib.util
import json
import sys
import types

# The sessions Pipecat's development runner makes (its -t choices at v1.7.0): a session type,
# and for a websocket the carrier whose media stream it carries, or "websocket" for /ws-client.
SESSIONS = [
    ("DailyRunnerArguments", None),
    ("SmallWebRTCRunnerArguments", None),
    ("WebSocketRunnerArguments", "websocket"),
    ("WebSocketRunnerArguments", "twilio"),
    ("WebSocketRunnerArguments", "telnyx"),
    ("WebSocketRunnerArguments", "plivo"),
    ("WebSocketRunnerArguments", "exotel"),
    ("EvalRunnerArguments", None),
    ("VonageRunnerArguments", None),
    ("MOQRunnerArguments", None),
]


class Anything:
    """Stands in for any name a stand-in module has: call it, await it, subclass it, use it."""

    def __init__(self, *args, **kwargs):
        pass

    def __getattr__(self, name):
        if name.startswith("__") and name.endswith("__"):
            raise AttributeError(name)
        return Anything()

    def __call__(self, *args, **kwargs):
        # A decorator gives back what it decorates.
        if len(args) == 1 and callable(args[0]) and not kwargs and not isinstance(args[0], Anything):
            return args[0]
        return Anything()

    def __await__(self):
        return Anything()
        yield

    async def __aenter__(self):
        return Anything()

    async def __aexit__(self, *exc):
        return False

    def __enter__(self):
        return Anything()

    def __exit__(self, *exc):
        return False

    def __iter__(self):
        return iter(())

    def __getitem__(self, key):
        return Anything()

    def __or__(self, other):
        return Anything()

    __ror__ = __or__

    def __mro_entries__(self, bases):
        return (Anything,)


class Reached(Exception):
    """The bot asked for a transport: it accepted the session."""


class MissingTransportParams(ValueError):
    """What Pipecat's create_transport raises for a transport the bot has no params for."""


class Logger:
    def __init__(self):
        self.said: list[tuple[str, str]] = []

    def __getattr__(self, level):
        return lambda message, *args, **kwargs: self.said.append((level, str(message)))


LOGGER = Logger()


def runner_types() -> types.ModuleType:
    module = types.ModuleType("pipecat.runner.types")

    class RunnerArguments:
        def __init__(self, **kwargs):
            self.handle_sigint = False
            self.handle_sigterm = False
            self.pipeline_idle_timeout_secs = 300
            self.session_id = "session"
            self.body = {}
            self.call_data = None
            self.cli_args = None
            self.__dict__.update(kwargs)

    module.RunnerArguments = RunnerArguments
    own = {
        "DailyRunnerArguments": {"room_url": "https://example.daily.co/room", "token": None},
        "SmallWebRTCRunnerArguments": {"webrtc_connection": Anything()},
        "WebSocketRunnerArguments": {"websocket": Anything(), "transport_type": None},
        "EvalRunnerArguments": {},
        "LiveKitRunnerArguments": {"room_name": "room", "url": "ws://127.0.0.1", "token": "t"},
        "VonageRunnerArguments": {"application_id": "a", "vonage_session_id": "s", "token": "t"},
        "MOQRunnerArguments": {},
    }
    for name, attributes in own.items():
        cls = type(name, (RunnerArguments,), {})
        original = cls.__init__

        def init(self, _original=original, _attributes=attributes, **kwargs):
            _original(self, **{**_attributes, **kwargs})

        cls.__init__ = init
        setattr(module, name, cls)
    module.__getattr__ = lambda name: Anything()
    return module


def runner_utils() -> types.ModuleType:
    module = types.ModuleType("pipecat.runner.utils")

    # The key of transport_params that Pipecat's create_transport looks up, by session type.
    keys = {
        "DailyRunnerArguments": "daily",
        "SmallWebRTCRunnerArguments": "webrtc",
        "EvalRunnerArguments": "eval",
        "LiveKitRunnerArguments": "livekit",
        "VonageRunnerArguments": "vonage",
        "MOQRunnerArguments": "moq",
    }

    async def parse_telephony_websocket(websocket):
        """The carrier the stream's first messages name (Pipecat caches the parse likewise)."""
        return websocket.carrier, Anything()

    async def create_transport(runner_args, transport_params=None, *args, **kwargs):
        key = keys.get(type(runner_args).__name__)
        if type(runner_args).__name__ == "WebSocketRunnerArguments":
            key = runner_args.transport_type
            if key != "websocket":
                key, runner_args.call_data = await parse_telephony_websocket(runner_args.websocket)
                runner_args.transport_type = key
        if key in (transport_params or {}):
            raise Reached(f"create_transport: {key}")
        raise MissingTransportParams(f"Missing transport params for '{key}'")

    module.create_transport = create_transport
    module.parse_telephony_websocket = parse_telephony_websocket
    module.__getattr__ = lambda name: Anything()
    return module


class StandIns(importlib.abc.MetaPathFinder, importlib.abc.Loader):
    """Every module outside the standard library (and `real`) is a stand-in, or one of those above."""

    SPECIAL = {"pipecat.runner.types": runner_types, "pipecat.runner.utils": runner_utils}

    def __init__(self, real=()):
        self.real = real

    def find_spec(self, name, path=None, target=None):
        top = name.split(".")[0]
        if top in sys.stdlib_module_names or top in ("bot", "__main__", *self.real):
            return None
        return importlib.machinery.ModuleSpec(name, self, is_package=True)

    def create_module(self, spec):
        if spec.name in self.SPECIAL:
            return self.SPECIAL[spec.name]()
        if spec.name == "loguru":
            module = types.ModuleType("loguru")
            module.logger = LOGGER
            return module
        module = types.ModuleType(spec.name)
        module.__getattr__ = lambda name: Anything()
        return module

    def exec_module(self, module):
        module.__path__ = []


class WebSocket(Anything):
    def __init__(self, carrier):
        self.carrier = carrier


async def session(bot, cls, carrier) -> dict:
    LOGGER.said.clear()
    if carrier is None:
        args = cls()
    else:
        transport_type = "websocket" if carrier == "websocket" else None
        args = cls(websocket=WebSocket(carrier), transport_type=transport_type)
    try:
        await asyncio.wait_for(bot.bot(args), 10)
    except Reached:
        return {"outcome": "accepted"}
    except (AttributeError, KeyError, TypeError, NameError, MissingTransportParams) as error:
        return {"outcome": "crashed", "message": f"{type(error).__name__}: {error}"}
    except Exception as error:
        return {"outcome": "refused", "message": f"{type(error).__name__}: {error}"}
    errors = [m for level, m in LOGGER.said if level in ("error", "warning", "critical")]
    if errors:
        return {"outcome": "refused", "message": errors[0]}
    return {"outcome": "accepted"}


def main():
    sys.meta_path.insert(0, StandIns())
    results = {}
    for path in json.load(open(sys.argv[1])):
        spec = importlib.util.spec_from_file_location("bot", path)
        bot = importlib.util.module_from_spec(spec)
        sys.modules["bot"] = bot
        spec.loader.exec_module(bot)
        types_module = sys.modules["pipecat.runner.types"]
        results[path] = {
            f"{name}:{carrier}" if carrier else name: asyncio.run(
                session(bot, getattr(types_module, name), carrier)
            )
            for name, carrier in SESSIONS
        }
        del sys.modules["bot"]
    print(json.dumps(results))


if __name__ == "__main__":
    main()
