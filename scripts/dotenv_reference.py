#!/usr/bin/env python3
"""What python-dotenv itself makes of dotenv texts: the reference that `src/secrets/dotenv.ts` is
tested against (tests/dotenv_reference_test.ts).

A generated bot calls `load_dotenv(override=True)`, which opens the file as UTF-8 text (Python's
universal newlines: CRLF and a bare CR read as LF), parses it, warns about each statement it
cannot parse and skips it, and resolves `${VAR}` / `${VAR:-default}` from the keys above and the
process's environment. For each text this prints, in the order the file defines them:

- `values`: what `dotenv_values` reads, with the environment empty (null: a key without `=`);
- `warnings`: how many statements python-dotenv warned about and skipped;
- `dependsOnEnvironment`: the keys whose value changes when the variables the file references
  are set in the environment (python-dotenv's own `parse_variables` lists them): a file whose
  meaning depends on the uploader's machine.

Reads a JSON list of {"name", "text"} on stdin (or from the file given) and writes
{"pythonDotenv": version, "cases": [...]} on stdout. Exits 3, naming it, when python-dotenv 1.x
is not importable:

    python3 scripts/dotenv_reference.py tests/data/dotenv_cases.json > tests/data/dotenv_reference.json
"""

import importlib.metadata
import json
import logging
import os
import sys
import tempfile


def require_dotenv_1x():
    try:
        version = importlib.metadata.version("python-dotenv")
        import dotenv  # noqa: F401
    except Exception:
        sys.exit("python-dotenv 1.x is needed (pip install 'python-dotenv>=1.0.1,<2'): not importable")
    if not version.startswith("1."):
        sys.exit(f"python-dotenv 1.x is needed (pip install 'python-dotenv>=1.0.1,<2'): found {version}")
    return version


class CountWarnings(logging.Handler):
    def __init__(self):
        super().__init__(logging.WARNING)
        self.count = 0

    def emit(self, record):
        self.count += 1


def read_case(path, text):
    from dotenv import dotenv_values
    from dotenv.parser import parse_stream
    from dotenv.variables import Variable, parse_variables

    with open(path, "wb") as file:
        file.write(text.encode("utf-8"))

    counter = CountWarnings()
    logger = logging.getLogger("dotenv.main")
    logger.addHandler(counter)
    logger.propagate = False
    try:
        os.environ.clear()
        values = dotenv_values(path)
    finally:
        logger.removeHandler(counter)

    with open(path, encoding="utf-8") as stream:
        names = {
            atom.name
            for binding in parse_stream(stream)
            if binding.value is not None
            for atom in parse_variables(binding.value)
            if isinstance(atom, Variable)
        }
    os.environ.clear()
    # Only names an environment can hold: python-dotenv reads the others as empty wherever it runs.
    settable = [name for name in names if name and "=" not in name and "\0" not in name]
    os.environ.update({name: f"<from the environment: {name}>" for name in settable})
    logger.disabled = True
    try:
        with_environment = dotenv_values(path)
    finally:
        logger.disabled = False
        os.environ.clear()
    return {
        "values": [[key, value] for key, value in values.items()],
        "warnings": counter.count,
        "dependsOnEnvironment": [
            key for key in values if values[key] != with_environment.get(key)
        ],
    }


def main():
    version = require_dotenv_1x()
    source = open(sys.argv[1], encoding="utf-8") if len(sys.argv) > 1 else sys.stdin
    cases = json.load(source)
    results = []
    with tempfile.TemporaryDirectory() as directory:
        path = os.path.join(directory, ".env")
        for case in cases:
            results.append({"name": case["name"], "text": case["text"], **read_case(path, case["text"])})
    json.dump({"pythonDotenv": version, "cases": results}, sys.stdout, indent=1, ensure_ascii=True)
    sys.stdout.write("\n")


if __name__ == "__main__":
    main()
