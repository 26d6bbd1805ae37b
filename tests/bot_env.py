"""Loads a generated bot.py as `uv run bot.py` would at start, without Pipecat installed.

Run from the bot's server/ directory as `python3 bot_env.py bot.py NAME [NAME ...]`: third-party
modules other than python-dotenv are stood in by mocks, the bot's module code runs (its
`load_dotenv` included, under the name `bot`, so that it does not start the runner), and then one
JSON line is printed: for each NAME, the SHA-256 of its value in the environment (or null), and
the names of the VOICEBOT_* variables present. Digests, never values: a test compares them.
"""

import hashlib
import importlib.abc
import importlib.machinery
import json
import os
import runpy
import sys
from unittest import mock

STOOD_IN = ("pipecat", "fastapi", "loguru", "aiohttp", "opentelemetry", "uvicorn", "numpy")


class StandIns(importlib.abc.MetaPathFinder, importlib.abc.Loader):
    """Any module under STOOD_IN imports as a mock, whatever is installed."""

    def find_spec(self, name, path, target=None):
        if name.split(".")[0] in STOOD_IN:
            return importlib.machinery.ModuleSpec(name, self, is_package=True)
        return None

    def create_module(self, spec):
        module = mock.MagicMock(name=spec.name)
        module.__path__ = []
        return module

    def exec_module(self, module):
        pass


sys.meta_path.insert(0, StandIns())
bot, names = sys.argv[1], sys.argv[2:]
runpy.run_path(bot, run_name="bot")


def digest(value):
    return None if value is None else hashlib.sha256(value.encode()).hexdigest()


print(
    json.dumps(
        {
            "digests": {name: digest(os.environ.get(name)) for name in names},
            "voicebot": sorted(name for name in os.environ if name.startswith("VOICEBOT_")),
        }
    )
)
