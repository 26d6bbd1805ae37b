#!/usr/bin/env python3
"""Checks generated bots against Pipecat's real source, statically (not part of CI).

For every server/bot.py under the projects directory, it checks with `ast` that:

- every `from pipecat... import X` (lazy ones inside functions too) resolves to a name that
  Pipecat's source defines, following re-exports and submodules;
- every keyword argument of a call to a Pipecat class or function is a parameter it takes: the
  class's `__init__`, followed through `**kwargs` into its base classes, or its fields when it is a
  dataclass or a pydantic model (`DailyParams`, `Cls.Settings`, ...);
- every attribute read from a Pipecat class (`ServiceType.LIVE_AVATAR`) or from an object the bot
  builds from one (`worker.queue_frames`) exists on that class or its bases;
- every `x.event_handler("on_...")` names an event that Pipecat registers (on x's class when known);

and for each project that:

- the `pipecat-ai[...]` extras of server/pyproject.toml exist in Pipecat's pyproject.toml, and
  `requires-python` is at least 3.12 when an extra installs only there;
- every variable .env.example asks for that bot.py does not read is read by Pipecat itself.

With --lint it also runs pyflakes and `ruff check`/`ruff format --check` when they are installed.

Usage:
  scripts/check_pipecat_api.py --repo /path/to/pipecat.git --tag v1.7.0 --generate
  scripts/check_pipecat_api.py --pipecat /path/to/pipecat-checkout PROJECTS_DIR

PROJECTS_DIR holds generated projects, e.g. from
`VOICEBOT_MATRIX_DIR=DIR deno test -A tests/project_matrix_test.ts`; --generate makes its own
matrix instead, with `deno run -A main.ts init` (every service, transport and feature once); without
`deno` on PATH, with the Deno that README.md pins, through npx.
"""

from __future__ import annotations

import argparse
import ast
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import tomllib
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

# ---------------------------------------------------------------------------------------------
# Pipecat's source


def git_files(repo: Path, tag: str, folder: str) -> list[str]:
    """The paths of the files under `folder` at `tag` in the git directory `repo`."""
    return subprocess.run(
        ["git", f"--git-dir={repo}", "ls-tree", "-r", "--name-only", tag, "--", folder],
        check=True,
        capture_output=True,
        text=True,
    ).stdout.splitlines()


def git_blobs(repo: Path, tag: str, paths: list[str]) -> dict[str, bytes | None]:
    """The content of each path at `tag`, in one `git cat-file --batch`; None for a path whose
    blob the git directory lacks (a mirror may leave out large files)."""
    batch = subprocess.run(
        ["git", f"--git-dir={repo}", "cat-file", "--batch"],
        input="".join(f"{tag}:{path}\n" for path in paths).encode(),
        check=True,
        capture_output=True,
    ).stdout
    blobs: dict[str, bytes | None] = {}
    offset = 0
    for path in paths:
        header_end = batch.index(b"\n", offset)
        header = batch[offset:header_end].split()
        if header[-1] == b"missing":
            blobs[path] = None
            offset = header_end + 1
            continue
        size = int(header[2])
        blobs[path] = batch[header_end + 1 : header_end + 1 + size]
        offset = header_end + 1 + size + 1
    return blobs


class Source:
    """The .py files under src/pipecat and the pyproject.toml of one Pipecat version."""

    def __init__(self, files: dict[str, str], pyproject: str):
        self.modules: dict[str, str] = {}
        for path, text in files.items():
            parts = path.removeprefix("src/").removesuffix(".py").split("/")
            if parts[-1] == "__init__":
                parts.pop()
            self.modules[".".join(parts)] = text
        self.pyproject = tomllib.loads(pyproject)
        self._trees: dict[str, ast.Module] = {}

    @classmethod
    def from_checkout(cls, root: Path) -> Source:
        files = {
            str(p.relative_to(root)): p.read_text()
            for p in (root / "src" / "pipecat").rglob("*.py")
        }
        return cls(files, (root / "pyproject.toml").read_text())

    @classmethod
    def from_repo(cls, repo: Path, tag: str) -> Source:
        paths = [n for n in git_files(repo, tag, "src/pipecat") if n.endswith(".py")]
        blobs = git_blobs(repo, tag, [*paths, "pyproject.toml"])
        return cls(
            {path: blobs[path].decode() for path in paths}, blobs["pyproject.toml"].decode()
        )

    def tree(self, module: str) -> ast.Module:
        if module not in self._trees:
            self._trees[module] = ast.parse(self.modules[module])
        return self._trees[module]

    def registered_events(self) -> set[str]:
        pattern = re.compile(r"_register_event_handler\(\s*[\"']([a-z_]+)[\"']")
        return {e for text in self.modules.values() for e in pattern.findall(text)}

    def reads_env(self, name: str) -> bool:
        pattern = re.compile(rf"os\.(getenv|environ(\.get)?)[\[(]\s*\"{name}\"")
        return any(pattern.search(text) for text in self.modules.values())


# ---------------------------------------------------------------------------------------------
# Resolving names in it


@dataclass
class Symbol:
    kind: str  # "class", "function", "module", "value" or "external"
    module: str
    node: ast.AST | None = None
    external: str = ""  # the dotted name of an external symbol, e.g. pydantic.BaseModel


def _top_level(body: list[ast.stmt]):
    """Statements that run when a module (or class body) loads, inside if/try/with blocks too."""
    for stmt in body:
        yield stmt
        if isinstance(stmt, ast.If):
            yield from _top_level(stmt.body)
            yield from _top_level(stmt.orelse)
        elif isinstance(stmt, ast.Try):
            for block in (stmt.body, stmt.orelse, stmt.finalbody):
                yield from _top_level(block)
            for handler in stmt.handlers:
                yield from _top_level(handler.body)
        elif isinstance(stmt, ast.With):
            yield from _top_level(stmt.body)


def _absolute(module: str, node: ast.ImportFrom, is_package: bool) -> str:
    if not node.level:
        return node.module or ""
    base = module.split(".")
    base = base[: len(base) - node.level + (1 if is_package else 0)]
    return ".".join(base + ([node.module] if node.module else []))


class Resolver:
    def __init__(self, source: Source):
        self.source = source

    def is_package(self, module: str) -> bool:
        return any(m.startswith(module + ".") for m in self.source.modules)

    def resolve(self, module: str, name: str, depth: int = 0) -> Symbol | None:
        """What `name` is in `module`; None when the module does not define it."""
        if module not in self.source.modules or depth > 20:
            return None
        found: Symbol | None = None
        for stmt in _top_level(self.source.tree(module).body):
            if isinstance(stmt, ast.ClassDef) and stmt.name == name:
                found = Symbol("class", module, stmt)
            elif isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef)) and stmt.name == name:
                found = Symbol("function", module, stmt)
            elif isinstance(stmt, ast.Assign) and any(
                isinstance(t, ast.Name) and t.id == name for t in stmt.targets
            ):
                found = self.evaluate(module, stmt.value, depth + 1) or Symbol("value", module)
            elif (
                isinstance(stmt, ast.AnnAssign)
                and isinstance(stmt.target, ast.Name)
                and stmt.target.id == name
            ):
                found = Symbol("value", module)
            elif isinstance(stmt, ast.ImportFrom):
                origin = _absolute(module, stmt, self.is_package(module))
                for alias in stmt.names:
                    if (alias.asname or alias.name) == name:
                        found = self.imported(origin, alias.name, depth)
            elif isinstance(stmt, ast.Import):
                for alias in stmt.names:
                    if (alias.asname or alias.name.split(".")[0]) == name:
                        found = Symbol("module", alias.name)
            if found is not None:
                return found
        if f"{module}.{name}" in self.source.modules:
            return Symbol("module", f"{module}.{name}")
        return None

    def imported(self, origin: str, name: str, depth: int) -> Symbol | None:
        if origin.split(".")[0] != "pipecat":
            return Symbol("external", origin, external=f"{origin}.{name}")
        return self.resolve(origin, name, depth + 1)

    def evaluate(self, module: str, expr: ast.expr, depth: int = 0) -> Symbol | None:
        """A Name or dotted Attribute expression in `module`, e.g. `Base.Settings`."""
        if isinstance(expr, ast.Name):
            return self.resolve(module, expr.id, depth)
        if isinstance(expr, ast.Attribute):
            owner = self.evaluate(module, expr.value, depth + 1)
            if owner is None:
                return None
            if owner.kind == "module":
                return self.resolve(owner.module, expr.attr, depth + 1)
            if owner.kind == "class":
                return self.class_attribute(owner, expr.attr)
            if owner.kind == "external":
                return Symbol("external", owner.module, external=f"{owner.external}.{expr.attr}")
        if isinstance(expr, ast.Subscript):
            return self.evaluate(module, expr.value, depth + 1)
        return None

    def bases(self, cls: Symbol) -> list[Symbol]:
        assert isinstance(cls.node, ast.ClassDef)
        found = []
        for base in cls.node.bases:
            symbol = self.evaluate(cls.module, base)
            if symbol is not None:
                found.append(symbol)
        return found

    def mro(self, cls: Symbol, seen: set[int] | None = None) -> list[Symbol]:
        """The class and its bases, depth first; external bases are kept as they are."""
        seen = set() if seen is None else seen
        if id(cls.node) in seen:
            return []
        seen.add(id(cls.node))
        order = [cls]
        for base in self.bases(cls):
            order.extend(self.mro(base, seen) if base.kind == "class" else [base])
        return order

    def class_attribute(self, cls: Symbol, attr: str) -> Symbol | None:
        """An attribute of a class: its body, `self.x` set in its methods, then its bases."""
        for klass in self.mro(cls):
            if klass.kind == "external":
                if klass.external.endswith("Enum") and attr in ("value", "name"):
                    return Symbol("value", klass.module)
                continue
            if klass.kind != "class":
                continue
            for stmt in _top_level(klass.node.body):
                if isinstance(stmt, (ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)):
                    if stmt.name == attr:
                        kind = "class" if isinstance(stmt, ast.ClassDef) else "function"
                        return Symbol(kind, klass.module, stmt)
                elif isinstance(stmt, ast.Assign):
                    if any(isinstance(t, ast.Name) and t.id == attr for t in stmt.targets):
                        return self.evaluate(klass.module, stmt.value) or Symbol(
                            "value", klass.module
                        )
                elif isinstance(stmt, ast.AnnAssign):
                    if isinstance(stmt.target, ast.Name) and stmt.target.id == attr:
                        return Symbol("value", klass.module)
            for node in ast.walk(klass.node):
                if (
                    isinstance(node, ast.Attribute)
                    and isinstance(node.ctx, ast.Store)
                    and isinstance(node.value, ast.Name)
                    and node.value.id == "self"
                    and node.attr == attr
                ):
                    return Symbol("value", klass.module)
        return None

    def parameters(self, target: Symbol) -> set[str] | None:
        """The keyword arguments a call to `target` takes; None when it takes any."""
        if target.kind == "function":
            args = target.node.args
            return None if args.kwarg else self._names(args)
        if target.kind != "class":
            return None
        accepted: set[str] = set()
        for klass in self.mro(target):
            if klass.kind == "external":
                if klass.external.rsplit(".", 1)[-1] in ("BaseModel", "object", "ABC", "Generic"):
                    continue  # pydantic's parameters are the fields, gathered from the bodies
                return None  # an __init__ outside Pipecat, which we cannot see
            if klass.kind != "class":
                continue
            init = next(
                (
                    s
                    for s in klass.node.body
                    if isinstance(s, ast.FunctionDef) and s.name == "__init__"
                ),
                None,
            )
            if init is None:
                accepted |= self._fields(klass)
                continue
            accepted |= self._names(init.args)
            if init.args.kwarg is None:
                return accepted  # what **kwargs would pass on to the bases ends here
        return accepted

    @staticmethod
    def _names(args: ast.arguments) -> set[str]:
        return {a.arg for a in [*args.posonlyargs, *args.args, *args.kwonlyargs]} - {"self"}

    @staticmethod
    def _fields(klass: Symbol) -> set[str]:
        """Dataclass or pydantic fields declared in a class body."""
        names = set()
        for stmt in klass.node.body:
            if not isinstance(stmt, ast.AnnAssign) or not isinstance(stmt.target, ast.Name):
                continue
            if stmt.target.id.startswith("_") or "ClassVar" in ast.unparse(stmt.annotation):
                continue
            value = stmt.value
            if isinstance(value, ast.Call) and any(
                k.arg == "init" and isinstance(k.value, ast.Constant) and k.value.value is False
                for k in value.keywords
            ):
                continue
            names.add(stmt.target.id)
        return names


# ---------------------------------------------------------------------------------------------
# Checking a bot


@dataclass
class Report:
    problems: list[str] = field(default_factory=list)
    imports: int = 0
    calls: int = 0
    keywords: int = 0
    attributes: int = 0
    events: int = 0
    unverifiable: set[str] = field(default_factory=set)

    def fail(self, where: str, message: str):
        self.problems.append(f"{where}: {message}")


def check_bot(path: Path, resolver: Resolver, events: set[str], report: Report):
    tree = ast.parse(path.read_text())
    names: dict[str, Symbol] = {}  # imported Pipecat names, and variables built from them
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and (node.module or "").startswith("pipecat"):
            for alias in node.names:
                report.imports += 1
                symbol = resolver.resolve(node.module, alias.name)
                if symbol is None:
                    report.fail(f"{path}:{node.lineno}", f"{node.module} has no {alias.name}")
                else:
                    names[alias.asname or alias.name] = symbol

    def target_of(expr: ast.expr) -> Symbol | None:
        if isinstance(expr, ast.Name):
            return names.get(expr.id)
        if isinstance(expr, ast.Attribute):
            owner = target_of(expr.value)
            if owner is not None and owner.kind == "class":
                return resolver.class_attribute(owner, expr.attr)
        return None

    # Variables assigned the result of constructing a Pipecat class, e.g. `worker = ...`, by the
    # function (or module) they belong to; a parameter of the same name hides an outer one.
    parents = {child: node for node in ast.walk(tree) for child in ast.iter_child_nodes(node)}

    def scopes(node: ast.AST):
        while node in parents:
            node = parents[node]
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.Module)):
                yield node

    built: dict[tuple[ast.AST, str], Symbol] = {}
    for node in ast.walk(tree):
        if (
            isinstance(node, ast.Assign)
            and len(node.targets) == 1
            and isinstance(node.targets[0], ast.Name)
            and isinstance(node.value, ast.Call)
        ):
            symbol = target_of(node.value.func)
            if symbol is not None and symbol.kind == "class":
                scope = next(scopes(node))
                built[(scope, node.targets[0].id)] = Symbol("instance", symbol.module, symbol.node)

    def variable(name: str, at: ast.AST) -> Symbol | None:
        for scope in scopes(at):
            if (scope, name) in built:
                return built[(scope, name)]
            if not isinstance(scope, ast.Module) and name in Resolver._names(scope.args):
                return None
        return names.get(name)

    for node in ast.walk(tree):
        where = f"{path}:{getattr(node, 'lineno', '?')}"
        if isinstance(node, ast.Call):
            target = target_of(node.func)
            if target is None or target.kind not in ("class", "function"):
                continue
            report.calls += 1
            accepted = resolver.parameters(target)
            label = ast.unparse(node.func)
            if accepted is None:
                report.unverifiable.add(label)
                continue
            for keyword in node.keywords:
                if keyword.arg is None:
                    continue
                report.keywords += 1
                if keyword.arg not in accepted:
                    report.fail(where, f"{label}() takes no argument {keyword.arg}")
        elif isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name):
            owner = variable(node.value.id, node)
            if owner is None or owner.kind not in ("class", "instance"):
                continue
            report.attributes += 1
            klass = Symbol("class", owner.module, owner.node)
            if resolver.class_attribute(klass, node.attr) is None:
                report.fail(where, f"{owner.node.name} has no attribute {node.attr}")

    # Event handlers: the event must be one Pipecat registers, on the object's class if known.
    for node in ast.walk(tree):
        if not (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Attribute)
            and node.func.attr == "event_handler"
            and node.args
            and isinstance(node.args[0], ast.Constant)
        ):
            continue
        report.events += 1
        event = node.args[0].value
        where = f"{path}:{node.lineno}"
        owner = None
        if isinstance(node.func.value, ast.Name):
            owner = variable(node.func.value.id, node)
        if owner is not None and owner.kind == "instance":
            klass = Symbol("class", owner.module, owner.node)
            registered = {
                e
                for k in resolver.mro(klass)
                if k.kind == "class"
                for e in re.findall(
                    r"_register_event_handler\(\s*[\"']([a-z_]+)[\"']", ast.unparse(k.node)
                )
            }
            if event not in registered:
                report.fail(where, f"{owner.node.name} registers no event {event}")
        elif event not in events:
            report.fail(where, f"no Pipecat class registers the event {event}")


def check_project(project: Path, source: Source, report: Report):
    server = project / "server"
    pyproject = tomllib.loads((server / "pyproject.toml").read_text())
    optional = source.pyproject["project"]["optional-dependencies"]
    dependency = pyproject["project"]["dependencies"][0]
    extras = re.match(r"pipecat-ai\[([^\]]*)\]", dependency).group(1).split(",")
    floor = tuple(
        int(x) for x in pyproject["project"]["requires-python"].removeprefix(">=").split(".")
    )
    for extra in extras:
        if extra not in optional:
            report.fail(str(server / "pyproject.toml"), f"pipecat-ai has no extra {extra}")
            continue
        if any("python_version>='3.12'" in r.replace(" ", "") for r in optional[extra]):
            if floor < (3, 12):
                report.fail(str(server / "pyproject.toml"), f"{extra} needs Python 3.12")

    code = "\n".join(p.read_text() for p in server.rglob("*.py"))
    for line in (server / ".env.example").read_text().splitlines():
        match = re.match(r"([A-Z][A-Z0-9_]*)=", line)
        if match and not re.search(rf"\"{match.group(1)}\"", code):
            if not source.reads_env(match.group(1)):
                report.fail(str(server / ".env.example"), f"nothing reads {match.group(1)}")


def lint(projects: list[Path], report: Report):
    bots = [str(p / "server" / "bot.py") for p in projects]
    try:
        import pyflakes  # noqa: F401

        result = subprocess.run([sys.executable, "-m", "pyflakes", *bots], capture_output=True)
        if result.returncode:
            report.fail("pyflakes", result.stdout.decode())
    except ImportError:
        print("pyflakes is not installed: skipped")
    ruff = shutil.which("ruff")
    if ruff is None:
        print("ruff is not installed: skipped")
        return
    for args in (["check", "--select", "E,F,W,I,UP,B"], ["format", "--check"]):
        for bot in bots:
            result = subprocess.run(
                [ruff, *args, "--line-length", "100", bot], capture_output=True, text=True
            )
            if result.returncode:
                report.fail(f"ruff {args[0]} {bot}", result.stdout + result.stderr)


# ---------------------------------------------------------------------------------------------
# A matrix of its own



def deno_command() -> list[str]:
    """Deno: VOICEBOT_DENO, `deno` on PATH, or the version README.md pins, through npx."""
    if os.environ.get("VOICEBOT_DENO"):
        return [os.environ["VOICEBOT_DENO"]]
    if shutil.which("deno"):
        return ["deno"]
    pinned = re.search(r"npx --yes deno@([\d.]+)", (ROOT / "README.md").read_text())
    return ["npx", "--yes", f"deno@{pinned.group(1) if pinned else '2.9.6'}"]

def generate(directory: Path) -> list[Path]:
    """Projects that cover every service, transport, mode and feature, made by `voicebot init`."""
    deno = [*deno_command(), "run", "-A", str(ROOT / "main.ts"), "init"]
    options = json.loads(
        subprocess.run([*deno, "--list-options"], check=True, capture_output=True).stdout
    )
    transports = [
        (["hosted", "lightweb"], {}),
        (["carrier1", "carrier2", "carrier3", "carrier4"], {}),
        (["hosted_pstn"], {"daily_pstn_mode": "dial-in"}),
        (["carrier1_hosted_sip"], {"twilio_daily_sip_mode": "dial-out"}),
        (["hosted_pstn"], {"daily_pstn_mode": "dial-out"}),
        (["carrier1_hosted_sip"], {"twilio_daily_sip_mode": "dial-in"}),
        (["websocket"], {}),
    ]
    count = max(len(options[k]) for k in ("stt", "llm", "tts")) + len(options["realtime"])
    configs = []
    for i in range(count):
        chosen, modes = transports[i % len(transports)]
        web = chosen == ["hosted", "lightweb"]
        config = {"transports": chosen, **modes}
        cascade = i < count - len(options["realtime"])
        if cascade:
            config |= {
                "mode": "cascade",
                **{f"{k}_service": options[k][i % len(options[k])] for k in ("stt", "llm", "tts")},
            }
        else:
            realtime = options["realtime"][i - (count - len(options["realtime"]))]
            config |= {"mode": "realtime", "realtime_service": realtime}
        for k, flag in enumerate(
            ["recording", "transcription", "enable_observability", "eval", "deploy_to_cloud"]
        ):
            config[flag] = ((i >> (k % 3)) + k) % 2 == 1
        config["enable_denoise"] = config["deploy_to_cloud"] and i % 2 == 0
        if web:
            video = (options["video"] + [None])[
                (i // len(transports)) % (len(options["video"]) + 1)
            ]
            if video:
                config["video_service"] = video
            config["video_input"] = i % 4 == 0 and not cascade  # a cascade LLM sees no camera
        configs.append(config)
    projects = []
    for i, config in enumerate(configs):
        project = directory / f"bot-{i:02d}"
        config_file = directory / f"bot-{i:02d}.json"
        config_file.write_text(json.dumps(config))
        subprocess.run(
            [*deno, str(project), "--config", str(config_file)],
            check=True,
            capture_output=True,
        )
        projects.append(project)
    return projects


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    where = parser.add_mutually_exclusive_group(required=True)
    where.add_argument("--pipecat", type=Path, help="a Pipecat checkout")
    where.add_argument("--repo", type=Path, help="a Pipecat git repository (bare is fine)")
    parser.add_argument("--tag", default="v1.7.0", help="the tag to read from --repo")
    parser.add_argument("--generate", action="store_true", help="generate the projects to check")
    parser.add_argument("--lint", action="store_true", help="also run pyflakes and ruff")
    parser.add_argument("projects", nargs="?", type=Path, help="a directory of projects")
    args = parser.parse_args()

    source = (
        Source.from_checkout(args.pipecat)
        if args.pipecat
        else Source.from_repo(args.repo, args.tag)
    )
    with tempfile.TemporaryDirectory() as scratch:
        if args.generate:
            projects = generate(Path(scratch))
        elif args.projects:
            projects = sorted(p.parent.parent for p in args.projects.glob("*/server/bot.py"))
        else:
            parser.error("give a directory of projects, or --generate")
        resolver = Resolver(source)
        events = source.registered_events()
        report = Report()
        for project in projects:
            check_bot(project / "server" / "bot.py", resolver, events, report)
            check_project(project, source, report)
        if args.lint:
            lint(projects, report)

    version = args.tag if args.repo else os.fspath(args.pipecat)
    print(
        f"Checked {len(projects)} projects against Pipecat {version}: {report.imports} imports, "
        f"{report.calls} calls with {report.keywords} keyword arguments, "
        f"{report.attributes} attributes, {report.events} event handlers."
    )
    if report.unverifiable:
        print(f"Calls whose parameters come from outside Pipecat: {sorted(report.unverifiable)}")
    for problem in report.problems:
        print(f"PROBLEM {problem}")
    sys.exit(1 if report.problems else 0)


if __name__ == "__main__":
    main()
