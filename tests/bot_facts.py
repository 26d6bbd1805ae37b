"""Reads generated bots with Python's own parser, apart from the generator's code.

For each path of the JSON list in argv[1] it prints, as JSON, what tests/project_matrix_test.ts
compares with the project's other files:

- `pipecat_modules`: every Pipecat module the file imports, anywhere (`from pipecat.a import b`
  gives `pipecat.a` and `pipecat.a.b`, which may be a submodule);
- `env`: every variable it reads from the environment: `os.environ["X"]` is required,
  `os.getenv("X", default)` and `os.environ.get("X", default)` are optional, with their defaults
  (a string, or null when there is none or it is not a string literal);
- `transports`: the keys of the dict given to Pipecat's `create_transport`, i.e. the runner
  transports the bot builds;
- `session_types`: the runner argument classes the bot tells apart (`isinstance(x, C)`) or
  annotates a parameter with;
- `constructions`: each call of a class (`OpenAILLMService(...)`, `X.Settings(...)`) with, for
  each keyword argument, the variable its value is read from (`os.getenv("X", ...)`,
  `os.environ.get("X", ...)`, `os.environ["X"]`), or null.
"""

import ast
import json
import sys


def keywords(call: ast.Call) -> dict[str, str | None]:
    """A call's keyword arguments, each with the variable its value is read from, or None."""
    found: dict[str, str | None] = {}
    for keyword in call.keywords:
        value, variable = keyword.value, None
        if isinstance(value, ast.Call) and ast.unparse(value.func) in ("os.getenv", "os.environ.get"):
            if value.args and isinstance(value.args[0], ast.Constant):
                variable = value.args[0].value
        elif isinstance(value, ast.Subscript) and ast.unparse(value.value) == "os.environ":
            if isinstance(value.slice, ast.Constant):
                variable = value.slice.value
        if keyword.arg:
            found[keyword.arg] = variable
    return found


def facts(path: str) -> dict:
    tree = ast.parse(open(path).read())
    modules: set[str] = set()
    env: dict[str, dict] = {}
    dicts: dict[str, ast.Dict] = {}
    transport_arguments: list[ast.expr] = []
    session_types: set[str] = set()
    constructions: list[dict] = []

    def read(name: str, required: bool, default: ast.expr | None):
        entry = env.setdefault(name, {"required": False, "defaults": []})
        if required:
            entry["required"] = True
            return
        value = default.value if isinstance(default, ast.Constant) else None
        if isinstance(value, str) or value is None:
            if value not in entry["defaults"]:
                entry["defaults"].append(value)

    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and (node.module or "").startswith("pipecat"):
            modules.add(node.module)
            modules.update(f"{node.module}.{alias.name}" for alias in node.names)
        elif isinstance(node, ast.Import):
            modules.update(a.name for a in node.names if a.name.startswith("pipecat"))
        elif isinstance(node, ast.Subscript) and ast.unparse(node.value) == "os.environ":
            if isinstance(node.slice, ast.Constant):
                read(node.slice.value, True, None)
        elif isinstance(node, ast.Call):
            function = ast.unparse(node.func)
            if function in ("os.getenv", "os.environ.get") and isinstance(
                node.args[0], ast.Constant
            ):
                read(node.args[0].value, False, node.args[1] if len(node.args) > 1 else None)
            elif function == "create_transport" and len(node.args) > 1:
                transport_arguments.append(node.args[1])
            if function[:1].isupper():
                constructions.append({"callee": function, "keywords": keywords(node)})
            if function == "isinstance" and len(node.args) == 2:
                classes = node.args[1]
                for c in classes.elts if isinstance(classes, ast.Tuple) else [classes]:
                    session_types.add(ast.unparse(c))
        elif isinstance(node, ast.Assign) and isinstance(node.value, ast.Dict):
            for target in node.targets:
                if isinstance(target, ast.Name):
                    dicts[target.id] = node.value
        elif isinstance(node, ast.arg) and node.annotation is not None:
            session_types.add(ast.unparse(node.annotation))

    transports: set[str] = set()
    for argument in transport_arguments:
        literal = dicts.get(argument.id) if isinstance(argument, ast.Name) else argument
        if isinstance(literal, ast.Dict):
            transports.update(k.value for k in literal.keys if isinstance(k, ast.Constant))
    return {
        "pipecat_modules": sorted(modules),
        "env": env,
        "transports": sorted(transports),
        "session_types": sorted(t for t in session_types if t.endswith("RunnerArguments")),
        "constructions": constructions,
    }


print(json.dumps({path: facts(path) for path in json.load(open(sys.argv[1]))}))
