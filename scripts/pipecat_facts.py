#!/usr/bin/env python3
"""Derives, from Pipecat's own source at a release, the facts that tests/project_matrix_test.ts
checks generated projects against, so that the test does not take them from voicebot's catalog:

- `needs`: for each Pipecat module, the extras that importing it needs. Each need is a list of
  extras any one of which will do. Loading a module (its own top-level imports, those of the
  Pipecat modules it loads and of its parent packages) needs an extra when it imports a package
  that only an extra installs: the extras that list the package, or the loaded module's own extra
  (`pipecat.services.simli` -> `simli`), whose dependencies bring in more than it names. A module
  also needs its own extra, the one named after its package (`pipecat.audio.vad.silero` ->
  `silero`, even though it installs nothing: it is how Pipecat says to install it). An import in
  a `try` whose handler does not raise, or under an `if`, is optional.
- `optional`: for each Pipecat module, the further extras that install what it imports only
  when it can (a `try` whose handler does not raise, an `if`, a function body): allowed, not
  needed.
- `runner_transports`: for each transport name of the development runner, the extras any one of
  which installs it, from the runner's own "install pipecat-ai[...]" hints.
- `python312_extras`: extras that install only on Python 3.12 and later.
- `aws_sdk_extras`: extras that install an AWS SDK.
- `requires_python`: Pipecat's own Python floor.
- `runner_env`: the variables each module of `pipecat.runner` reads.
- `deprecated`: the classes Pipecat marks `@deprecated(...)`.
- `session_token_parameters`: service classes whose `__init__` takes an AWS session token, and
  the keyword (`aws_session_token` or `session_token`).
- `scaffold_models`: the service classes whose model Pipecat's own scaffold
  (`pipecat.cli.registry._configs`) reads from an environment variable.
- `scaffold_services`: the service ids of Pipecat's own scaffolder (`pipecat init`), by kind, each
  with the class it builds (module.Class), from its registry (`pipecat.cli.registry`), so that
  voicebot can be shown to accept every one of them for the same service.
- `scaffold_transports`: the transport ids of that scaffolder.
- `deprecation_messages`: for each class of `deprecated`, the message of its `@deprecated(...)`.
- `runner_flags`: the development runner's command-line options (`pipecat.runner.run.main`), by
  their long name: every name of the option, its choices, whether it takes a value, and its
  default where it is a constant.
- `runner_routes`: the HTTP routes the runner mounts on its app: path, methods, whether the route
  starts a session (its handler, or a handler it calls, gets the bot module or makes a Daily room),
  and the conditions it is mounted under (`args.dialin`, `args.whatsapp`, ...).
- `runner_websockets`: the websocket routes the runner mounts: path, whether the route starts a
  session, and whether it asks for `/start`'s one-time token under `--ws-auth token`.
- `runner_carrier_env`: for each carrier, the variables the runner reads when it builds the
  carrier's transport (`_create_telephony_transport` in `pipecat.runner.utils`).
- `daily_configure_new_room`: the keyword arguments of `pipecat.runner.daily.configure` that make
  it create a new room even when DAILY_ROOM_URL names an existing one (a keyword `k` such that the
  flag the DAILY_ROOM_URL branch tests is `k is not None`).
- `camera_classes`: the service classes whose frame processing (their own or a base class's)
  takes the user's camera, i.e. handles `InputImageRawFrame`.
- `model_defaults`: for each service class whose `__init__` builds `self.Settings(model="...")`,
  that default model.
- `model_downloads`: the classes (services, audio filters and analyzers) whose construction
  fetches model files, with the calls that fetch them and, where Pipecat's source names it, the
  directory they go to (a home-relative path, or `cwd`); see `Facts.model_downloads`.

Usage: scripts/pipecat_facts.py --repo /path/to/pipecat.git --tag v1.7.0 > tests/data/pipecat_facts.json
"""

from __future__ import annotations

import argparse
import ast
import contextlib
import json
import re
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from check_pipecat_api import Resolver, Source  # noqa: E402

# Import names that differ from the name of the distribution that provides them.
DISTRIBUTION_OF_IMPORT = {
    "PIL": "pillow",
    "google.protobuf": "protobuf",
    "cv2": "opencv-python-headless",
    "dotenv": "python-dotenv",
    "gi": "pygobject",
    "jwt": "pyjwt",
    "riva": "nvidia-riva-client",
    "yaml": "pyyaml",
}


def normalize(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower()


def distribution(requirement: str) -> str:
    return normalize(re.match(r"[A-Za-z0-9_.-]+", requirement).group(0))


class Facts:
    def __init__(self, source: Source):
        self.source = source
        project = source.pyproject["project"]
        self.core = {distribution(r) for r in project["dependencies"]}
        self.optional: dict[str, list[str]] = project["optional-dependencies"]
        self.packages = {extra: self.expand(extra) for extra in self.optional}
        self.imports = {m: self.top_level_imports(m) for m in source.modules}

    def expand(self, extra: str) -> set[str]:
        """The distributions an extra installs, through `pipecat-ai[other]` references."""
        found: set[str] = set()
        for requirement in self.optional[extra]:
            nested = re.match(r"pipecat-ai\[([^\]]+)\]", requirement)
            if nested:
                for other in nested.group(1).split(","):
                    found |= self.expand(other)
            else:
                found.add(distribution(requirement))
        return found

    def top_level_imports(self, module: str) -> tuple[set[str], set[str]]:
        """The Pipecat modules and the external names a module imports whenever it loads."""
        tree = self.source.tree(module)
        pipecat: set[str] = set()
        external: set[str] = set()

        def visit(body: list[ast.stmt]):
            for node in body:
                if isinstance(node, ast.Try):
                    handlers_raise = any(
                        isinstance(n, ast.Raise) for h in node.handlers for n in ast.walk(h)
                    )
                    if handlers_raise:
                        visit(node.body)
                elif isinstance(node, ast.Import):
                    for alias in node.names:
                        add(alias.name)
                elif isinstance(node, ast.ImportFrom):
                    base = self.absolute(module, node)
                    add(base)
                    for alias in node.names:
                        add(f"{base}.{alias.name}")

        def add(name: str):
            if name.split(".")[0] == "pipecat":
                if name in self.source.modules:
                    pipecat.add(name)
            elif name.split(".")[0] not in sys.stdlib_module_names:
                external.add(name)

        visit(tree.body)
        return pipecat, external

    def absolute(self, module: str, node: ast.ImportFrom) -> str:
        if not node.level:
            return node.module or ""
        parts = module.split(".")
        base = parts[: len(parts) - node.level + (1 if self.is_package(module) else 0)]
        return ".".join(base + ([node.module] if node.module else []))

    def is_package(self, module: str) -> bool:
        return any(m.startswith(module + ".") for m in self.source.modules)

    def loaded(self, module: str) -> set[str]:
        """Every Pipecat module that loading `module` loads, parent packages included."""
        seen: set[str] = set()
        todo = [module]
        while todo:
            current = todo.pop()
            if current in seen or current not in self.source.modules:
                continue
            seen.add(current)
            todo.extend(self.imports[current][0])
            parts = current.split(".")
            todo.extend(".".join(parts[:i]) for i in range(1, len(parts)))
        return seen

    def distributions_of(self, name: str) -> set[str]:
        """The distributions, core or optional, that may provide an imported name."""
        parts = name.split(".")
        mapped = [
            DISTRIBUTION_OF_IMPORT[prefix]
            for i in range(len(parts), 0, -1)
            if (prefix := ".".join(parts[:i])) in DISTRIBUTION_OF_IMPORT
        ]
        if mapped:
            # `google.protobuf` is protobuf's, not one of the google-* distributions'.
            candidates = {normalize(mapped[0])}
        else:
            candidates = {normalize(parts[0])}
            candidates |= {normalize("-".join(parts[:i])) for i in range(2, len(parts) + 1)}
        every = self.core.union(*self.packages.values())
        return {
            d for d in every if d in candidates or any(d.startswith(c + "-") for c in candidates)
        }

    def own_extra(self, module: str) -> str | None:
        """The extra named after a module's package: the longest run of its path that is one."""
        parts = module.split(".")
        if len(parts) < 3 or parts[1] not in ("services", "transports", "audio", "utils"):
            return None
        names = [p.replace("_", "-") for p in parts[2:]]
        best: tuple[tuple[int, int], str] | None = None
        for start in range(len(names)):
            for end in range(start + 1, len(names) + 1):
                name = "-".join(names[start:end])
                if name in self.optional and (best is None or (end - start, start) > best[0]):
                    best = ((end - start, start), name)
        return best[1] if best else None

    def covering(self, extra: str) -> list[str]:
        """Extras that install everything `extra` does (itself included); for an empty one, itself."""
        if not self.packages[extra]:
            return [extra]
        return sorted(e for e, p in self.packages.items() if p >= self.packages[extra])

    def needs(self, module: str) -> list[list[str]]:
        found: set[tuple[str, ...]] = set()
        for loaded in self.loaded(module):
            own = self.own_extra(loaded)
            for name in self.imports[loaded][1]:
                provided_by = self.distributions_of(name)
                if not provided_by or provided_by & self.core:
                    continue  # core, or a dependency of a dependency
                extras = {e for e, p in self.packages.items() if p & provided_by}
                if own:
                    extras.add(own)
                found.add(tuple(sorted(extras)))
        own = self.own_extra(module)
        if own:
            found.add((own,))
        return [list(n) for n in sorted(found)]

    def optional_extras(self, module: str) -> list[str]:
        """Extras that install what a module imports only when it can (`try`, `if`, functions)."""
        found: set[str] = set()
        for node in ast.walk(self.source.tree(module)):
            names = []
            if isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom) and not node.level and node.module:
                names = [node.module]
            for name in names:
                if name.split(".")[0] in ("pipecat", *sys.stdlib_module_names):
                    continue
                provided_by = self.distributions_of(name) - self.core
                found |= {e for e, p in self.packages.items() if p & provided_by}
        needed = {e for need in self.needs(module) for e in need}
        return sorted(found - needed)

    def runner_transports(self) -> dict[str, list[str]]:
        """The runner's "install pipecat-ai[X]" hint for each of its transport names."""
        found: dict[str, list[str]] = {}
        for node in ast.walk(self.source.tree("pipecat.runner.run")):
            if not isinstance(node, ast.Dict):
                continue
            for key, value in zip(node.keys, node.values, strict=True):
                if isinstance(key, ast.Constant) and isinstance(value, ast.Constant):
                    hint = re.fullmatch(r"install pipecat-ai\[([a-z0-9-]+)\]", str(value.value))
                    if hint:
                        found[key.value] = self.covering(hint.group(1))
        return found

    def python312_extras(self) -> list[str]:
        return sorted(
            extra
            for extra, requirements in self.optional.items()
            if requirements and all("python_version>='3.12'" in r for r in requirements)
        )

    def aws_sdk_extras(self) -> list[str]:
        """Extras that install an AWS SDK, which reads the AWS_* credentials by itself."""
        sdk = re.compile(r"^(aws-sdk-|aiobotocore$|boto3$|botocore$)")
        return sorted(e for e, p in self.packages.items() if any(sdk.match(d) for d in p))

    def classes(self, prefix: str = "pipecat."):
        """Every top-level class of the modules under `prefix`, as (module, node), in order."""
        for module in sorted(self.source.modules):
            if module.startswith(prefix):
                for node in self.source.tree(module).body:
                    if isinstance(node, ast.ClassDef):
                        yield module, node

    def deprecations(self):
        """Each class marked with Pipecat's `@deprecated(...)`: (module.Class, the decorator call)."""
        for module, node in self.classes():
            for decorator in node.decorator_list:
                if isinstance(decorator, ast.Call) and ast.unparse(decorator.func) == "deprecated":
                    yield f"{module}.{node.name}", decorator

    def deprecated(self) -> list[str]:
        """Classes marked with Pipecat's `@deprecated(...)`, as module.Class."""
        return [name for name, _ in self.deprecations()]

    def session_token_parameters(self) -> dict[str, str]:
        """Service classes that take temporary AWS credentials' session token, and the keyword."""
        found: dict[str, str] = {}
        for module, node in self.classes("pipecat.services."):
            for item in node.body:
                if isinstance(item, ast.FunctionDef) and item.name == "__init__":
                    names = [a.arg for a in item.args.args + item.args.kwonlyargs]
                    for name in ("aws_session_token", "session_token"):
                        if name in names:
                            found[f"{module}.{node.name}"] = name
        return found

    def scaffold_models(self) -> list[str]:
        """Classes whose model Pipecat's own scaffold reads from an environment variable."""
        tree = self.source.tree("pipecat.cli.registry._configs")
        found: set[str] = set()
        for node in ast.walk(tree):
            if not (isinstance(node, ast.Constant) and isinstance(node.value, str)):
                continue
            try:
                snippet = ast.parse(node.value.strip())
            except SyntaxError:
                continue
            for call in ast.walk(snippet):
                if not isinstance(call, ast.Call):
                    continue
                for keyword in call.keywords:
                    value = keyword.value
                    if keyword.arg == "model" and isinstance(value, ast.Call):
                        if ast.unparse(value.func) == "os.getenv":
                            found.add(ast.unparse(call.func).removesuffix(".Settings"))
        return sorted(found)

    def scaffold_registry(self) -> tuple[dict[str, dict[str, str]], list[str]]:
        """Pipecat's scaffolder's service ids by kind (with their classes), and its transport ids."""
        imports = ast.literal_eval(
            next(
                node.value
                for node in self.source.tree("pipecat.cli.registry._imports").body
                if isinstance(node, ast.Assign) and ast.unparse(node.targets[0]) == "IMPORTS"
            )
        )
        registry = next(
            node
            for node in self.source.tree("pipecat.cli.registry.service_metadata").body
            if isinstance(node, ast.ClassDef) and node.name == "ServiceRegistry"
        )
        services: dict[str, dict[str, str]] = {}
        transports: list[str] = []
        for node in registry.body:
            if not (isinstance(node, ast.AnnAssign) and isinstance(node.value, ast.List)):
                continue
            name = ast.unparse(node.target)
            for call in node.value.elts:
                fields = {k.arg: ast.literal_eval(k.value) for k in call.keywords}
                if name.endswith("_TRANSPORTS"):
                    transports.append(fields["value"])
                    continue
                kind = name.removesuffix("_SERVICES").lower()
                main_class = fields["class_name"][0]
                module = next(
                    line.split()[1]
                    for line in imports[fields["value"]]
                    if re.search(rf"\bimport\b.*\b{main_class}\b", line)
                )
                services.setdefault(kind, {})[fields["value"]] = f"{module}.{main_class}"
        return services, transports

    def deprecation_messages(self) -> dict[str, str]:
        """The message of each `@deprecated(...)` class decorator, by module.Class."""
        return {
            name: str(call.args[0].value)
            for name, call in self.deprecations()
            if call.args and isinstance(call.args[0], ast.Constant)
        }

    def constants(self, module: str) -> dict[str, object]:
        """The module-level names of `module` bound to a literal."""
        found: dict[str, object] = {}
        for node in self.source.tree(module).body:
            if isinstance(node, ast.Assign) and len(node.targets) == 1:
                target = node.targets[0]
                if isinstance(target, ast.Name):
                    try:
                        found[target.id] = ast.literal_eval(node.value)
                    except ValueError:
                        pass
        return found

    def literal(self, node: ast.expr, constants: dict[str, object]) -> object:
        """A literal, where `*NAME` and `NAME` may name a module-level literal."""
        if isinstance(node, ast.List):
            items: list[object] = []
            for element in node.elts:
                if isinstance(element, ast.Starred) and isinstance(element.value, ast.Name):
                    items.extend(constants[element.value.id])  # type: ignore[arg-type]
                else:
                    items.append(self.literal(element, constants))
            return items
        if isinstance(node, ast.Name) and node.id in constants:
            return constants[node.id]
        return ast.literal_eval(node)

    def runner_flags(self) -> dict[str, dict]:
        """The runner's options, from the `parser.add_argument(...)` calls of its `main`."""
        module = "pipecat.runner.run"
        constants = self.constants(module)
        main = next(
            n
            for n in self.source.tree(module).body
            if isinstance(n, ast.FunctionDef) and n.name == "main"
        )
        found: dict[str, dict] = {}
        for node in ast.walk(main):
            if not (isinstance(node, ast.Call) and ast.unparse(node.func) == "parser.add_argument"):
                continue
            names = [a.value for a in node.args if isinstance(a, ast.Constant)]
            keywords = {k.arg: k.value for k in node.keywords if k.arg}
            action = ast.unparse(keywords["action"]) if "action" in keywords else None
            flag: dict[str, object] = {"names": names}
            if action and action.endswith("BooleanOptionalAction"):
                flag["names"] = names + [
                    n.replace("--", "--no-", 1) for n in names if n.startswith("--")
                ]
            flag["takes_value"] = action is None
            if "choices" in keywords:
                flag["choices"] = self.literal(keywords["choices"], constants)
            if "default" in keywords:
                with contextlib.suppress(ValueError, KeyError):
                    flag["default"] = self.literal(keywords["default"], constants)
            long_name = next((n for n in names if n.startswith("--")), names[0])
            found[long_name] = flag
        return found

    def runner_routes(self) -> list[dict]:
        """The runner's HTTP routes, whether each starts a session, and what mounts it."""
        module = "pipecat.runner.run"
        tree = self.source.tree(module)
        functions = {
            n.name: n
            for n in ast.walk(tree)
            if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef))
        }
        # Which setup function is called under which condition, in _configure_server_app.
        call_conditions: dict[str, list[str]] = {}

        def conditions_of_calls(body: list[ast.stmt], tests: list[str]):
            for stmt in body:
                if isinstance(stmt, ast.If):
                    conditions_of_calls(stmt.body, [*tests, ast.unparse(stmt.test)])
                    conditions_of_calls(stmt.orelse, [*tests, f"not ({ast.unparse(stmt.test)})"])
                elif isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Call):
                    call_conditions[ast.unparse(stmt.value.func)] = tests

        conditions_of_calls(functions["_configure_server_app"].body, [])

        def calls(function: ast.AST) -> set[str]:
            return {
                ast.unparse(n.func).split(".")[-1]
                for n in ast.walk(function)
                if isinstance(n, ast.Call)
            }

        routes: list[dict] = []

        def visit(body: list[ast.stmt], setup: str, tests: list[str]):
            for stmt in body:
                if isinstance(stmt, ast.If):
                    visit(stmt.body, setup, [*tests, ast.unparse(stmt.test)])
                    visit(stmt.orelse, setup, [*tests, f"not ({ast.unparse(stmt.test)})"])
                elif isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef)):
                    for decorator in stmt.decorator_list:
                        if not (
                            isinstance(decorator, ast.Call)
                            and isinstance(decorator.func, ast.Attribute)
                        ):
                            continue
                        if ast.unparse(decorator.func.value) != "app":
                            continue
                        method = decorator.func.attr
                        if method not in ("get", "post", "put", "patch", "delete", "api_route"):
                            continue
                        methods = [method.upper()]
                        for keyword in decorator.keywords:
                            if keyword.arg == "methods":
                                methods = list(ast.literal_eval(keyword.value))
                        routes.append(
                            {
                                "path": ast.literal_eval(decorator.args[0]),
                                "methods": methods,
                                "handler": stmt.name,
                                "when": [*call_conditions.get(setup, []), *tests],
                            }
                        )

        for name, function in functions.items():
            if name.startswith("_setup_"):
                visit(function.body, name, [])
        # A route starts a session when its handler, or a route handler it calls, gets the bot
        # module (to call bot()) or makes a Daily room.
        handlers = {r["handler"] for r in routes}
        starting = {"_get_bot_module", "configure"}
        starts = {h for h in handlers if calls(functions[h]) & starting}
        while True:
            more = {h for h in handlers - starts if calls(functions[h]) & starts}
            if not more:
                break
            starts |= more
        for route in routes:
            route["starts_session"] = route.pop("handler") in starts
        return sorted(routes, key=lambda r: (r["path"], r["methods"]))

    def runner_websockets(self) -> list[dict]:
        """The runner's websocket routes: whether each starts a session, and whether it asks for
        the one-time token of `/start` when `--ws-auth token` is given (its handler, or a function
        the handler calls, tests `args.ws_auth`)."""
        tree = self.source.tree("pipecat.runner.run")
        functions = {
            n.name: n
            for n in ast.walk(tree)
            if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef))
        }

        def reached(name: str) -> set[str]:
            """The functions of the module a function calls, itself included, transitively."""
            seen: set[str] = set()
            todo = [name]
            while todo:
                current = todo.pop()
                if current in seen or current not in functions:
                    continue
                seen.add(current)
                todo.extend(
                    ast.unparse(n.func).split(".")[-1]
                    for n in ast.walk(functions[current])
                    if isinstance(n, ast.Call)
                )
            return seen

        def tests_ws_auth(name: str) -> bool:
            return any(
                isinstance(n, ast.Compare) and ast.unparse(n.left) == "args.ws_auth"
                for n in ast.walk(functions[name])
            )

        routes = []
        for name, function in functions.items():
            if not name.startswith("_setup_"):
                continue
            for stmt in ast.walk(function):
                if not isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef)):
                    continue
                for decorator in stmt.decorator_list:
                    if (
                        isinstance(decorator, ast.Call)
                        and ast.unparse(decorator.func) == "app.websocket"
                    ):
                        calls = reached(stmt.name)
                        routes.append(
                            {
                                "path": ast.literal_eval(decorator.args[0]),
                                "starts_session": "_get_bot_module" in calls,
                                "token_with_ws_auth": any(tests_ws_auth(f) for f in calls),
                            }
                        )
        return sorted(routes, key=lambda r: r["path"])

    def runner_carrier_env(self) -> dict[str, list[str]]:
        """The variables the runner reads for each carrier in `_create_telephony_transport`."""
        tree = self.source.tree("pipecat.runner.utils")
        function = next(
            n
            for n in ast.walk(tree)
            if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef))
            and n.name == "_create_telephony_transport"
        )
        found: dict[str, list[str]] = {}
        for node in ast.walk(function):
            if not isinstance(node, ast.If):
                continue
            test = node.test
            if (
                isinstance(test, ast.Compare)
                and ast.unparse(test.left) == "transport_type"
                and isinstance(test.comparators[0], ast.Constant)
            ):
                names: set[str] = set()
                for stmt in node.body:
                    for call in ast.walk(stmt):
                        if isinstance(call, ast.Call) and ast.unparse(call.func) in (
                            "os.getenv",
                            "os.environ.get",
                        ):
                            names |= {a.value for a in call.args[:1] if isinstance(a, ast.Constant)}
                found[test.comparators[0].value] = sorted(names)
        return found

    def daily_configure_new_room(self) -> list[str]:
        """Keywords of runner.daily.configure given which it makes a room despite DAILY_ROOM_URL."""
        function = next(
            n
            for n in self.source.tree("pipecat.runner.daily").body
            if isinstance(n, ast.AsyncFunctionDef) and n.name == "configure"
        )
        parameters = {a.arg for a in function.args.args + function.args.kwonlyargs}
        # The branch that reuses the room: `if <existing room> and not <flag>:`.
        flags: set[str] = set()
        for node in ast.walk(function):
            if isinstance(node, ast.If) and isinstance(node.test, ast.BoolOp):
                names = ast.unparse(node.test)
                if "existing_room_url" in names:
                    for value in node.test.values:
                        if isinstance(value, ast.UnaryOp) and isinstance(value.operand, ast.Name):
                            flags.add(value.operand.id)
        found: set[str] = set()
        for node in ast.walk(function):
            if (
                isinstance(node, ast.Assign)
                and any(isinstance(t, ast.Name) and t.id in flags for t in node.targets)
                and isinstance(node.value, ast.Compare)
                and isinstance(node.value.ops[0], ast.IsNot)
                and isinstance(node.value.left, ast.Name)
                and node.value.left.id in parameters
            ):
                found.add(node.value.left.id)
        return sorted(found)

    def camera_classes(self) -> list[str]:
        """Service classes that handle InputImageRawFrame, themselves or through a base class."""
        resolver = Resolver(self.source)

        def handles_camera(cls) -> bool:
            for node in ast.walk(cls.node):
                if (
                    isinstance(node, ast.Call)
                    and ast.unparse(node.func) == "isinstance"
                    and "InputImageRawFrame" in ast.unparse(node.args[1])
                ):
                    return True
            return False

        found: list[str] = []
        for module, node in self.classes("pipecat.services."):
            symbol = resolver.resolve(module, node.name)
            if symbol is None or symbol.kind != "class":
                continue
            if any(k.kind == "class" and handles_camera(k) for k in resolver.mro(symbol)):
                found.append(f"{module}.{node.name}")
        return found

    def model_defaults(self) -> dict[str, str]:
        """The model each service class sets in its __init__ with `self.Settings(model="...")`."""
        found: dict[str, str] = {}
        for module, node in self.classes("pipecat.services."):
            init = next(
                (
                    n
                    for n in node.body
                    if isinstance(n, ast.FunctionDef) and n.name == "__init__"
                ),
                None,
            )
            if init is None:
                continue
            for call in ast.walk(init):
                if isinstance(call, ast.Call) and ast.unparse(call.func) == "self.Settings":
                    for keyword in call.keywords:
                        if keyword.arg == "model" and isinstance(keyword.value, ast.Constant):
                            if isinstance(keyword.value.value, str):
                                found[f"{module}.{node.name}"] = keyword.value.value
        return found

    def model_downloads(self) -> dict[str, dict]:
        """Classes that fetch model files while they are constructed, and how.

        A class's construction is its `__init__` (the first in its MRO), the `self.<method>()`
        calls it makes (each resolved in the MRO, so an override that does nothing counts as
        nothing) and the functions of Pipecat's modules those call, transitively; calls into a
        base class's `__init__` are not followed. A construction fetches when it calls a function
        named `*download*`, or when a function of it (or the class) says in its docstring that it
        downloads, and it calls into a package that only an extra installs (the loader). The fact
        names the calls that fetch (`fetch`: the `*download*` calls, else the extra's calls), and
        where the files go when Pipecat's source says so (`cache`: a home-relative path from
        `os.path.expanduser`, or `cwd` for `Path.cwd()`); `null` when the package decides.
        """
        resolver = Resolver(self.source)
        every = set().union(*self.packages.values())
        found: dict[str, dict] = {}
        for module, node in self.classes("pipecat."):
            if not module.startswith(("pipecat.services.", "pipecat.audio.")):
                continue
            symbol = resolver.resolve(module, node.name)
            if symbol is None or symbol.kind != "class":
                continue
            mro = [k for k in resolver.mro(symbol) if k.kind == "class"]

            def method(name: str, mro=mro):
                for klass in mro:
                    for item in klass.node.body:
                        if (
                            isinstance(item, (ast.FunctionDef, ast.AsyncFunctionDef))
                            and item.name == name
                        ):
                            return klass.module, item
                return None

            init = method("__init__")
            if init is None:
                continue
            todo, seen = [init], set()
            fetch: set[str] = set()
            loaders: set[str] = set()
            says_download = bool(re.search(r"\bdownload", ast.get_docstring(node) or "", re.I))
            cache: str | None = None
            while todo:
                where, function = todo.pop()
                if id(function) in seen:
                    continue
                seen.add(id(function))
                if re.search(r"\bdownload", ast.get_docstring(function) or "", re.I):
                    says_download = True
                for call in ast.walk(function):
                    if not isinstance(call, ast.Call):
                        continue
                    text = ast.unparse(call.func)
                    if text == "Path.cwd":
                        cache = "cwd"
                    if text.startswith("self.") and text.count(".") == 1:
                        target = method(text.removeprefix("self."))
                        if target:
                            todo.append(target)
                        continue
                    target = resolver.evaluate(where, call.func)
                    if target is None:
                        continue
                    if target.kind == "function":
                        todo.append((target.module, target.node))
                        name = f"{target.module}.{target.node.name}"
                    elif target.kind == "external":
                        name = target.external
                        if self.distributions_of(name) & every - self.core:
                            loaders.add(name)
                    else:
                        continue
                    if "download" in name.rsplit(".", 1)[-1].lower():
                        fetch.add(name)
                # Module constants the construction reads: a home-relative cache directory.
                for name in ast.walk(function):
                    if isinstance(name, ast.Name):
                        home = self.home_path(where, name.id)
                        if home:
                            cache = home
            if loaders and (fetch or says_download):
                found[f"{module}.{node.name}"] = {
                    "fetch": sorted(fetch or loaders),
                    "cache": cache,
                }
        return found

    def home_path(self, module: str, name: str) -> str | None:
        """The path a module-level `name = ...os.path.expanduser("~/...")...` names, if it does."""
        for stmt in self.source.tree(module).body:
            if (
                isinstance(stmt, ast.Assign)
                and any(isinstance(t, ast.Name) and t.id == name for t in stmt.targets)
            ):
                for call in ast.walk(stmt.value):
                    if (
                        isinstance(call, ast.Call)
                        and ast.unparse(call.func) == "os.path.expanduser"
                        and isinstance(call.args[0], ast.Constant)
                    ):
                        return call.args[0].value
        return None

    def runner_env(self) -> dict[str, list[str]]:
        found: dict[str, list[str]] = {}
        for module in sorted(self.source.modules):
            if not module.startswith("pipecat.runner."):
                continue
            names: set[str] = set()
            for node in ast.walk(self.source.tree(module)):
                if isinstance(node, ast.Call) and ast.unparse(node.func) in (
                    "os.getenv",
                    "os.environ.get",
                ):
                    names |= {a.value for a in node.args[:1] if isinstance(a, ast.Constant)}
                elif isinstance(node, ast.Subscript) and ast.unparse(node.value) == "os.environ":
                    if isinstance(node.slice, ast.Constant):
                        names.add(node.slice.value)
            if names:
                found[module] = sorted(names)
        return found


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repo", type=Path, required=True, help="Pipecat's git directory")
    parser.add_argument("--tag", required=True)
    args = parser.parse_args()
    facts = Facts(Source.from_repo(args.repo, args.tag))
    needs = {m: facts.needs(m) for m in sorted(facts.source.modules)}
    scaffold_services, scaffold_transports = facts.scaffold_registry()
    json.dump(
        {
            "tag": args.tag,
            "extras": sorted(facts.optional),
            "python312_extras": facts.python312_extras(),
            "aws_sdk_extras": facts.aws_sdk_extras(),
            "requires_python": facts.source.pyproject["project"]["requires-python"],
            "runner_transports": facts.runner_transports(),
            "runner_env": facts.runner_env(),
            "deprecated": facts.deprecated(),
            "session_token_parameters": facts.session_token_parameters(),
            "scaffold_models": facts.scaffold_models(),
            "scaffold_services": scaffold_services,
            "scaffold_transports": scaffold_transports,
            "deprecation_messages": facts.deprecation_messages(),
            "runner_flags": facts.runner_flags(),
            "runner_routes": facts.runner_routes(),
            "runner_websockets": facts.runner_websockets(),
            "runner_carrier_env": facts.runner_carrier_env(),
            "daily_configure_new_room": facts.daily_configure_new_room(),
            "camera_classes": facts.camera_classes(),
            "model_defaults": facts.model_defaults(),
            "model_downloads": facts.model_downloads(),
            "needs": {m: n for m, n in needs.items() if n},
            "optional": {
                m: o for m in sorted(facts.source.modules) if (o := facts.optional_extras(m))
            },
        },
        sys.stdout,
        indent=2,
        sort_keys=True,
    )
    print()


if __name__ == "__main__":
    main()
