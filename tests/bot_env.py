"""Loads a generated bot.py as `uv run bot.py` would at start, without Pipecat installed.

Run from the bot's server/ directory as `python3 bot_env.py bot.py NAME [NAME ...]`: every
third-party module but python-dotenv is stood in (bot_sessions.py's stand-ins), the bot's module
code runs (its `load_dotenv` included, under the name `bot`, so that it does not start the
runner), and then one JSON line is printed: for each NAME, the SHA-256 of its value in the
environment (or null), and the names of the VOICEBOT_* variables present. Digests, never values:
a test compares them.
"""

import hashlib
import json
import os
import runpy
import sys

from bot_sessions import StandIns

sys.meta_path.insert(0, StandIns(real=("dotenv",)))
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
