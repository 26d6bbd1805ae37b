#!/usr/bin/env python3
"""Generate src/migrate/settings.gen.ts from Pipecat's source at a tag.

Pipecat deprecated each AI service's nested ``InputParams`` class and the ``__init__``
parameters that are settings, in favour of ``settings=<Service>.Settings(...)``. This script
reads Pipecat's source at a tag straight from a git repository (no checkout), finds every class
whose ``__init__`` (its own, or one inherited from a Pipecat base class) handles such deprecated
settings, and writes one ``SettingsMove`` (src/migrate/catalog.ts) per class:

- ``init``: ``__init__`` keyword -> Settings field, from the calls
  ``self._warn_init_param_moved_to_settings("param", "field")``; with one argument, the field is
  the one the same ``if`` block assigns the parameter to (``default_settings.field = param``); a
  parameter assigned nowhere (``params``, ``live_options``) is a whole object that moved.
- ``params``: InputParams field -> Settings field, for each ``default_settings.Y = params.X``
  inside the ``if params is not None:`` block (under ``if not settings:`` and
  ``if params.X is not None:`` at most).
- ``unmapped``: the InputParams fields not mapped that way, or used any other way.

Usage:
    python3 scripts/pipecat_settings.py --repo /path/to/pipecat.git [--tag v1.7.0] [--check]

Stdlib only. ``--check`` exits 1 when the file differs from what would be written.
"""

from __future__ import annotations

import argparse
import ast
import json
import os
import re
import subprocess
import sys
from dataclasses import dataclass, field
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from check_pipecat_api import _top_level  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
OUT = os.path.join(ROOT, "src", "migrate", "settings.gen.ts")
WARN = "_warn_init_param_moved_to_settings"
SINCE = "1.0.0"

# Words kept whole in ids (as in the catalog's hand-written ids: `elevenlabs`, `openai`).
BRANDS = [
    "OpenAI",
    "ElevenLabs",
    "AssemblyAI",
    "AsyncAI",
    "DeepSeek",
    "OpenRouter",
    "OpenPipe",
    "PlayHT",
    "NeuPhonic",
    "SambaNova",
    "LiveKit",
    "WhatsApp",
    "MiniMax",
    "HeyGen",
    "SpeechMatics",
    "GitHub",
    "OLLama",
    "ResembleAI",
    "SageMaker",
]


def kebab(name: str) -> str:
    """`CartesiaTTSService` -> `cartesia-tts-service`, `OpenAILLMService` -> `openai-llm-service`."""
    words: list[str] = []
    i = 0
    while i < len(name):
        for brand in BRANDS:
            if name.startswith(brand, i) and not name[i + len(brand) : i + len(brand) + 1].islower():
                words.append(brand.lower())
                i += len(brand)
                break
        else:
            m = re.compile(r"[A-Z]+(?=[A-Z][a-z])|[A-Z]?[a-z]+|[A-Z]+|\d+").match(name, i)
            if not m:
                i += 1
                continue
            words.append(m.group(0).lower())
            i = m.end()
    return "-".join(words)


# --- reading the source -------------------------------------------------------------------------


def read_sources(repo: str, tag: str) -> dict[str, str]:
    """Path -> text of every .py file under src/pipecat at `tag`."""
    names = subprocess.run(
        ["git", "-C", repo, "ls-tree", "-r", "--name-only", tag, "--", "src/pipecat"],
        check=True,
        capture_output=True,
        text=True,
    ).stdout.split()
    paths = [n for n in names if n.endswith(".py")]
    proc = subprocess.run(
        ["git", "-C", repo, "cat-file", "--batch"],
        input="".join(f"{tag}:{p}\n" for p in paths).encode(),
        check=True,
        capture_output=True,
    )
    data = proc.stdout
    out: dict[str, str] = {}
    pos = 0
    for p in paths:
        nl = data.index(b"\n", pos)
        header = data[pos:nl].decode().split()
        if header[-1] == "missing":
            pos = nl + 1
            continue
        size = int(header[2])
        out[p] = data[nl + 1 : nl + 1 + size].decode()
        pos = nl + 1 + size + 1
    return out


def module_name(path: str) -> str:
    parts = path[len("src/") : -len(".py")].split("/")
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


@dataclass
class Module:
    name: str
    is_pkg: bool
    tree: ast.Module
    classes: dict[str, ast.ClassDef] = field(default_factory=dict)
    # local name -> (module, name or None for a module)
    imports: dict[str, tuple[str, str | None]] = field(default_factory=dict)
    aliases: dict[str, ast.expr] = field(default_factory=dict)


def load_modules(sources: dict[str, str]) -> dict[str, Module]:
    mods: dict[str, Module] = {}
    for path, text in sources.items():
        name = module_name(path)
        m = Module(name, path.endswith("__init__.py"), ast.parse(text, filename=path))
        package = name if m.is_pkg else name.rpartition(".")[0]
        for s in _top_level(m.tree.body):
            if isinstance(s, ast.ClassDef):
                m.classes.setdefault(s.name, s)
            elif isinstance(s, ast.ImportFrom):
                base = s.module or ""
                if s.level:
                    pkg = package.split(".")
                    pkg = pkg[: len(pkg) - (s.level - 1)]
                    base = ".".join(pkg + ([s.module] if s.module else []))
                for a in s.names:
                    if a.name != "*":
                        m.imports.setdefault(a.asname or a.name, (base, a.name))
            elif isinstance(s, ast.Import):
                for a in s.names:
                    if a.asname:
                        m.imports.setdefault(a.asname, (a.name, None))
                    else:
                        top = a.name.split(".")[0]
                        m.imports.setdefault(top, (top, None))
            elif isinstance(s, ast.Assign) and len(s.targets) == 1:
                t = s.targets[0]
                if isinstance(t, ast.Name) and isinstance(s.value, (ast.Name, ast.Attribute)):
                    m.aliases.setdefault(t.id, s.value)
        mods[name] = m
    return mods


# A class is (module name, class name).
ClassRef = tuple[str, str]


class Index:
    def __init__(self, mods: dict[str, Module]):
        self.mods = mods
        self._mro: dict[ClassRef, list[ClassRef]] = {}

    def node(self, c: ClassRef) -> ast.ClassDef:
        return self.mods[c[0]].classes[c[1]]

    def resolve_name(self, mod: str, name: str, depth: int = 0):
        """A name in a module -> ("class", ClassRef) or ("module", name) or None."""
        if depth > 20:
            return None
        m = self.mods.get(mod)
        if m is None:
            return None
        if name in m.classes:
            return ("class", (mod, name))
        if name in m.aliases:
            return self.resolve_expr(mod, m.aliases[name], depth + 1)
        if name in m.imports:
            target, attr = m.imports[name]
            if attr is None:
                return ("module", target)
            sub = f"{target}.{attr}"
            if sub in self.mods:
                return ("module", sub)
            return self.resolve_name(target, attr, depth + 1)
        return None

    def resolve_expr(self, mod: str, e: ast.expr, depth: int = 0):
        if isinstance(e, ast.Name):
            return self.resolve_name(mod, e.id, depth)
        if isinstance(e, ast.Attribute):
            r = self.resolve_expr(mod, e.value, depth)
            if r is None:
                return None
            if r[0] == "module":
                sub = f"{r[1]}.{e.attr}"
                if sub in self.mods:
                    return ("module", sub)
                return self.resolve_name(r[1], e.attr, depth + 1)
            return self.class_attr(r[1], e.attr, depth + 1)
        if isinstance(e, ast.Subscript):  # Generic[...] bases
            return self.resolve_expr(mod, e.value, depth)
        return None

    def bases(self, c: ClassRef) -> list[ClassRef]:
        out = []
        for b in self.node(c).bases:
            r = self.resolve_expr(c[0], b)
            if r and r[0] == "class" and r[1] != c:
                out.append(r[1])
        return out

    def mro(self, c: ClassRef) -> list[ClassRef]:
        if c in self._mro:
            return self._mro[c]
        self._mro[c] = [c]  # guards against cycles
        seqs = [list(self.mro(b)) for b in self.bases(c)] + [self.bases(c)]
        result = [c]
        while True:
            seqs = [s for s in seqs if s]
            if not seqs:
                break
            for s in seqs:
                head = s[0]
                if not any(head in t[1:] for t in seqs):
                    break
            else:  # not C3-consistent: fall back to depth first
                for s in seqs:
                    for x in s:
                        if x not in result:
                            result.append(x)
                break
            result.append(head)
            for s in seqs:
                if s and s[0] == head:
                    s.pop(0)
        self._mro[c] = result
        return result

    def own_attr(self, c: ClassRef, attr: str):
        """`attr` as defined in the body of class `c`: a ClassDef, FunctionDef or expression."""
        for s in self.node(c).body:
            if isinstance(s, (ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)) and s.name == attr:
                return s
            if isinstance(s, ast.Assign):
                for t in s.targets:
                    if isinstance(t, ast.Name) and t.id == attr:
                        return s.value
            if isinstance(s, ast.AnnAssign) and isinstance(s.target, ast.Name):
                if s.target.id == attr and s.value is not None:
                    return s.value
        return None

    def lookup(self, c: ClassRef, attr: str):
        """(defining class, definition) of `attr` along the MRO of `c`."""
        for k in self.mro(c):
            d = self.own_attr(k, attr)
            if d is not None:
                return k, d
        return None

    def class_attr(self, c: ClassRef, attr: str, depth: int = 0):
        """A class-valued attribute of a class (`Base.InputParams`) -> ("class", ClassRef)."""
        found = self.lookup(c, attr)
        if found is None:
            return None
        k, d = found
        if isinstance(d, ast.ClassDef):
            return ("class", self.nested_ref(k, d))
        if isinstance(d, ast.expr):
            return self.resolve_expr(k[0], d, depth + 1)
        return None

    def nested_ref(self, owner: ClassRef, d: ast.ClassDef) -> ClassRef:
        """Nested classes are registered under `Owner.Nested` in their module."""
        key = f"{owner[1]}.{d.name}"
        self.mods[owner[0]].classes.setdefault(key, d)
        return (owner[0], key)


# --- analysing an __init__ ----------------------------------------------------------------------


def is_none(e: ast.expr) -> bool:
    return isinstance(e, ast.Constant) and e.value is None


def is_not_none(test: ast.expr, name: str, attr: str | None = None) -> bool:
    """`name is not None` (or `name.attr is not None`)."""
    if not (
        isinstance(test, ast.Compare)
        and len(test.ops) == 1
        and isinstance(test.ops[0], ast.IsNot)
        and is_none(test.comparators[0])
    ):
        return False
    left = test.left
    if attr is None:
        return isinstance(left, ast.Name) and left.id == name
    return (
        isinstance(left, ast.Attribute)
        and left.attr == attr
        and isinstance(left.value, ast.Name)
        and left.value.id == name
    )


def is_no_settings(test: ast.expr) -> bool:
    """`not settings` or `settings is None`."""
    if isinstance(test, ast.UnaryOp) and isinstance(test.op, ast.Not):
        return isinstance(test.operand, ast.Name) and test.operand.id == "settings"
    return (
        isinstance(test, ast.Compare)
        and len(test.ops) == 1
        and isinstance(test.ops[0], ast.Is)
        and isinstance(test.left, ast.Name)
        and test.left.id == "settings"
        and is_none(test.comparators[0])
    )


def params_guard(test: ast.expr) -> bool:
    """`params is not None`, `not settings`, or both joined with `and`."""
    if isinstance(test, ast.BoolOp) and isinstance(test.op, ast.And):
        return all(params_guard(v) for v in test.values)
    return is_not_none(test, "params") or is_no_settings(test)


def ancestors(node, parents, stop):
    while node in parents and parents[node] is not stop:
        node = parents[node]
        yield node


def parents_of(fn: ast.AST) -> dict[ast.AST, ast.AST]:
    parents = {}
    for n in ast.walk(fn):
        for c in ast.iter_child_nodes(n):
            parents[c] = n
    return parents


def const_str(e: ast.expr) -> str | None:
    return e.value if isinstance(e, ast.Constant) and isinstance(e.value, str) else None


def docstring_versions(fn: ast.FunctionDef) -> dict[str, str]:
    """Arg name -> version of the `.. deprecated::` note under it in the docstring's Args."""
    doc = ast.get_docstring(fn) or ""
    out: dict[str, str] = {}
    lines = doc.splitlines()
    for i, line in enumerate(lines):
        if line.strip() == "Args:":
            section = len(line) - len(line.lstrip())
            break
    else:
        return out
    arg_indent = None
    current = None
    for line in lines[i + 1 :]:
        if not line.strip():
            continue
        indent = len(line) - len(line.lstrip())
        if indent <= section:
            break
        if arg_indent is None:
            arg_indent = indent
        m = re.match(r"\*{0,2}(\w+)(?: \(.*\))?:", line.strip())
        if indent == arg_indent and m:
            current = m.group(1)
            continue
        d = re.search(r"\.\. deprecated:: ([\d.]+)", line)
        if d and current and current not in out:
            out[current] = d.group(1)
    return out


@dataclass
class InitInfo:
    """What one class's `__init__` does with the deprecated settings."""

    # keyword -> (Settings field, version)
    init: dict[str, tuple[str, str | None]] = field(default_factory=dict)
    # whole objects moved (`params`, `live_options`) -> version
    whole: dict[str, str | None] = field(default_factory=dict)
    accepts_params: bool = False
    params_map: dict[str, str] = field(default_factory=dict)
    params_tainted: set[str] = field(default_factory=set)
    params_opaque: bool = False
    notes: list[str] = field(default_factory=list)
    # whether the InputParams warning came from a `_warn...("params")` call
    warns_params: bool = False
    # InputParams fields copied even when not given (no `if params.X is not None:`)
    unconditional: set[str] = field(default_factory=set)
    # Settings field -> its default in `default_settings = self.Settings(...)`
    settings_defaults: dict[str, str] = field(default_factory=dict)
    # the subclass passes `settings=` to a base that applies `params` only `if not settings`
    params_ignored: bool = False


class Analyzer:
    def __init__(self, index: Index):
        self.ix = index
        self._memo: dict[ClassRef, InitInfo | None] = {}

    def init_owner(self, c: ClassRef) -> ClassRef | None:
        """The class along the MRO of `c` whose `__init__` `c` runs (Pipecat classes only)."""
        for k in self.ix.mro(c):
            d = self.ix.own_attr(k, "__init__")
            if isinstance(d, ast.FunctionDef):
                return k
        return None

    def info(self, c: ClassRef) -> InitInfo | None:
        """The analysis of the `__init__` that class `c` runs."""
        owner = self.init_owner(c)
        if owner is None:
            return None
        if owner not in self._memo:
            self._memo[owner] = None  # cycles
            self._memo[owner] = self.analyse(owner)
        return self._memo[owner]

    def next_info(self, owner: ClassRef) -> InitInfo | None:
        """The analysis of the `__init__` that `super().__init__` in `owner` runs."""
        mro = self.ix.mro(owner)
        for k in mro[1:]:
            if isinstance(self.ix.own_attr(k, "__init__"), ast.FunctionDef):
                return self.info(k)
        return None

    def analyse(self, owner: ClassRef) -> InitInfo:
        fn = self.ix.own_attr(owner, "__init__")
        assert isinstance(fn, ast.FunctionDef)
        where = f"{owner[0]}.{owner[1]}.__init__"
        parents = parents_of(fn)
        a = fn.args
        keywords = {x.arg for x in a.args[1:] + a.kwonlyargs}
        has_kwargs = a.kwarg is not None
        kwargs_name = a.kwarg.arg if a.kwarg else None
        versions = docstring_versions(fn)
        info = InitInfo(accepts_params="params" in keywords)

        settings_vars = {"default_settings"}
        for n in ast.walk(fn):
            if isinstance(n, ast.Assign) and isinstance(n.value, ast.Call):
                f = n.value.func
                if isinstance(f, ast.Attribute) and f.attr == "Settings":
                    for t in n.targets:
                        if isinstance(t, ast.Name):
                            settings_vars.add(t.id)
                    for k in n.value.keywords:
                        if k.arg:
                            info.settings_defaults.setdefault(k.arg, ast.unparse(k.value))

        def settings_target(t: ast.expr) -> str | None:
            if isinstance(t, ast.Attribute) and isinstance(t.value, ast.Name):
                if t.value.id in settings_vars:
                    return t.attr
            return None

        def block_of(stmt: ast.stmt) -> list[ast.stmt]:
            p = parents[stmt]
            for name in ("body", "orelse", "finalbody"):
                seq = getattr(p, name, None)
                if isinstance(seq, list) and stmt in seq:
                    return seq
            return [stmt]

        # 1. `self._warn_init_param_moved_to_settings(...)` calls.
        own_init: dict[str, tuple[str, str | None]] = {}
        own_whole: dict[str, str | None] = {}
        for n in ast.walk(fn):
            if not (
                isinstance(n, ast.Call)
                and isinstance(n.func, ast.Attribute)
                and n.func.attr == WARN
                and isinstance(n.func.value, ast.Name)
                and n.func.value.id == "self"
            ):
                continue
            given = list(n.args[:2])
            for k in n.keywords:
                if k.arg in ("param_name", "settings_field"):
                    given.insert(0 if k.arg == "param_name" else len(given), k.value)
            args = [const_str(x) for x in given]
            if not args or any(x is None for x in args):
                info.notes.append(f"{where}: {WARN} with a non-literal argument: skipped")
                continue
            param = args[0]
            if param not in keywords:
                info.notes.append(f"{where}: warns about `{param}`, not a keyword of __init__")
                continue
            stmt = n
            while not isinstance(stmt, ast.stmt):
                stmt = parents[stmt]
            block = block_of(stmt)
            assigned = []  # (field, value) of `default_settings.X = ...` in the block
            for s in block:
                for m in ast.walk(s):
                    if isinstance(m, ast.Assign) and len(m.targets) == 1:
                        t = settings_target(m.targets[0])
                        if t is not None:
                            assigned.append((t, m.value))
            direct = [t for t, v in assigned if isinstance(v, ast.Name) and v.id == param]
            version = versions.get(param)
            if param == "params":
                info.warns_params = True
                own_whole[param] = version
                continue
            if len(args) >= 2:
                fld = args[1]
                others = [v for t, v in assigned if t == fld]
                if others and not direct:
                    info.notes.append(
                        f"{where}: `{param}` -> `{fld}` is assigned a transformed value "
                        f"({ast.unparse(others[0])}): left out of `init`"
                    )
                    continue
                own_init[param] = (fld, version)
            elif param in direct:
                own_init[param] = (param, version)
            elif len(direct) == 1:
                own_init[param] = (direct[0], version)
            else:
                own_whole[param] = version

        # 2. The `super().__init__(...)` call: what it passes through.
        sup = None
        for n in ast.walk(fn):
            if (
                isinstance(n, ast.Call)
                and isinstance(n.func, ast.Attribute)
                and n.func.attr == "__init__"
            ):
                v = n.func.value
                if isinstance(v, ast.Call) and isinstance(v.func, ast.Name) and v.func.id == "super":
                    sup = n
                    break
                if n.args and isinstance(n.args[0], ast.Name) and n.args[0].id == "self":
                    sup = n
                    break
        passed: dict[str, ast.expr] = {}
        forwards_kwargs = False
        if sup is not None:
            for k in sup.keywords:
                if k.arg is None:
                    if isinstance(k.value, ast.Name) and k.value.id == kwargs_name:
                        forwards_kwargs = True
                else:
                    passed[k.arg] = k.value
        base = self.next_info(owner) if sup is not None else None

        def reaches_base(p: str) -> bool:
            if p in keywords:
                v = passed.get(p)
                return isinstance(v, ast.Name) and v.id == p
            return has_kwargs and forwards_kwargs and p not in passed

        if base is not None:
            for p, v in base.init.items():
                if p not in own_init and p not in own_whole and reaches_base(p):
                    info.init[p] = v
            for p, v in base.whole.items():
                if p != "params" and p not in own_init and p not in own_whole and reaches_base(p):
                    info.whole[p] = v
        info.init.update(own_init)
        info.whole.update({p: v for p, v in own_whole.items() if p != "params"})

        # 3. `params`: the fields this __init__ maps itself.
        own_refs = []
        passes_params = False
        for n in ast.walk(fn):
            if isinstance(n, ast.Name) and n.id == "params":
                p = parents.get(n)
                if isinstance(p, ast.keyword) and p.arg == "params" and sup is not None:
                    if p in sup.keywords:
                        passes_params = True
                        continue
                own_refs.append(n)
        if "params" not in keywords:
            if base is not None and reaches_base("params"):
                passes_params = True
            own_refs = []  # a local `params` is something else
            info.accepts_params = passes_params and base is not None and base.accepts_params

        mapped: dict[str, list[str]] = {}
        unconditional: set[str] = set()
        tainted: set[str] = set()
        opaque = False
        for n in own_refs:
            p = parents.get(n)
            if isinstance(p, ast.Compare) and p.left is n and is_not_none(p, "params"):
                continue  # the guard
            if isinstance(p, ast.Compare) and p.left is n and len(p.ops) == 1 and isinstance(
                p.ops[0], ast.Is
            ) and is_none(p.comparators[0]):
                continue  # `params is None`: a guard too
            if not (isinstance(p, ast.Attribute) and p.value is n and isinstance(p.ctx, ast.Load)):
                opaque = True
                info.notes.append(
                    f"{where}: `params` used as a whole ({ast.unparse(parents.get(p, p))[:60]}): "
                    "every field unmapped"
                )
                continue
            x = p.attr
            q = parents.get(p)
            # `if params.X is not None:` guarding an assignment: checked with the assignment.
            if isinstance(q, ast.Compare) and is_not_none(q, "params", x):
                gp = parents.get(q)
                if isinstance(gp, ast.If) and gp.test is q:
                    continue
                tainted.add(x)
                continue
            if (
                isinstance(q, ast.Assign)
                and q.value is p
                and len(q.targets) == 1
                and settings_target(q.targets[0]) is not None
                and self.clean_context(q, parents, fn, x)
            ):
                mapped.setdefault(x, []).append(settings_target(q.targets[0]))
                if not any(
                    isinstance(a, ast.If) and is_not_none(a.test, "params", x)
                    for a in ancestors(q, parents, fn)
                ):
                    unconditional.add(x)
                continue
            tainted.add(x)
        # A guard `if params.X is not None:` with an `else:` does something else with X.
        for n in ast.walk(fn):
            if isinstance(n, ast.If) and n.orelse and isinstance(n.test, ast.Compare):
                left = n.test.left
                if isinstance(left, ast.Attribute) and is_not_none(n.test, "params", left.attr):
                    tainted.add(left.attr)
        for x, ys in mapped.items():
            if len(set(ys)) != 1:
                tainted.add(x)
        own_map = {x: ys[0] for x, ys in mapped.items() if x not in tainted}

        if passes_params and base is not None:
            given = passed.get("settings")
            if given is not None and not (isinstance(given, ast.Name) and given.id == "settings"):
                if not is_none(given):
                    info.params_ignored = True
            info.params_ignored = info.params_ignored or base.params_ignored
            info.unconditional = set(base.unconditional)
            info.settings_defaults = dict(base.settings_defaults)
            info.params_map = dict(base.params_map)
            info.params_tainted = set(base.params_tainted)
            info.params_opaque = base.params_opaque
            info.warns_params = info.warns_params or base.warns_params
            if "params" in base.whole:
                info.whole.setdefault("params", base.whole["params"])
            if own_map or tainted or opaque:
                info.notes.append(f"{where}: maps `params` itself and passes it on: merged")
                for x, y in own_map.items():
                    if info.params_map.get(x, y) != y:
                        tainted.add(x)
                    info.params_map[x] = y
        else:
            info.params_map = own_map
            info.unconditional = unconditional
        info.params_tainted |= tainted
        info.params_opaque = info.params_opaque or opaque
        for x in info.params_tainted:
            info.params_map.pop(x, None)
        if "params" in own_whole:
            info.whole["params"] = own_whole["params"]
        if base is not None:
            info.notes.extend(n for n in base.notes if n not in info.notes)
        return info

    @staticmethod
    def clean_context(stmt: ast.stmt, parents, fn, x: str) -> bool:
        """Whether `stmt` runs when `params` (and `params.x`) is given, under no other condition.

        Its enclosing statements must all be `if`s (it in their body, not their `else`) up to the
        function, testing only `params.x is not None`, `params is not None` and `not settings`,
        with one of them testing `params is not None`.
        """
        guarded = False
        node = stmt
        while parents[node] is not fn:
            p = parents[node]
            if not isinstance(p, ast.If) or node not in p.body:
                return False
            if not (is_not_none(p.test, "params", x) or params_guard(p.test)):
                return False
            tests = p.test.values if isinstance(p.test, ast.BoolOp) else [p.test]
            guarded = guarded or any(is_not_none(t, "params") for t in tests)
            node = p
        return guarded


# --- the entries --------------------------------------------------------------------------------


def inputparams_of(ix: Index, c: ClassRef) -> ClassRef | None:
    r = ix.class_attr(c, "InputParams")
    return r[1] if r and r[0] == "class" else None


def params_class(ix: Index, c: ClassRef) -> ClassRef | None:
    """The class named by the `params` annotation of the `__init__` `c` runs (`X | None`)."""
    for k in ix.mro(c):
        fn = ix.own_attr(k, "__init__")
        if not isinstance(fn, ast.FunctionDef):
            continue
        for a in fn.args.args + fn.args.kwonlyargs:
            if a.arg != "params" or a.annotation is None:
                continue
            ann = a.annotation
            if isinstance(ann, ast.Constant) and isinstance(ann.value, str):
                ann = ast.parse(ann.value, mode="eval").body
            if isinstance(ann, ast.Subscript) and getattr(ann.value, "id", "") == "Optional":
                ann = ann.slice
            parts = []
            while isinstance(ann, ast.BinOp) and isinstance(ann.op, ast.BitOr):
                parts.append(ann.right)
                ann = ann.left
            parts.append(ann)
            parts = [p for p in parts if not is_none(p)]
            if len(parts) != 1:
                return None
            r = ix.resolve_expr(k[0], parts[0])
            return r[1] if r and r[0] == "class" else None
    return None


def field_defaults(ix: Index, ip: ClassRef) -> dict[str, str]:
    """InputParams field -> its default, as source (`Field(default_factory=lambda: X)` -> X)."""
    out: dict[str, str] = {}
    for k in reversed(ix.mro(ip)):
        for s in ix.node(k).body:
            if isinstance(s, ast.AnnAssign) and isinstance(s.target, ast.Name) and s.value:
                v = s.value
                if isinstance(v, ast.Call) and getattr(v.func, "id", "") == "Field":
                    v = next((a for a in v.args), None)
                    for kw in s.value.keywords:
                        if kw.arg == "default":
                            v = kw.value
                        elif kw.arg == "default_factory":
                            v = kw.value.body if isinstance(kw.value, ast.Lambda) else None
                if v is not None:
                    out[s.target.id] = ast.unparse(v)
    return out


def fields_of(ix: Index, ip: ClassRef) -> list[str]:
    out: list[str] = []
    for k in reversed(ix.mro(ip)):
        for s in ix.node(k).body:
            if isinstance(s, ast.AnnAssign) and isinstance(s.target, ast.Name):
                name = s.target.id
                if name.startswith("_") or name == "model_config":
                    continue
                if "ClassVar" in ast.unparse(s.annotation):
                    continue
                if name not in out:
                    out.append(name)
    return out


def deprecation_of(ix: Index, c: ClassRef, ip: ClassRef | None) -> tuple[bool, str | None]:
    """Whether `c`'s InputParams is deprecated, and since which version."""
    if ip is None:
        return False, None
    node = ix.node(ip)
    for d in node.decorator_list:
        f = d.func if isinstance(d, ast.Call) else d
        name = f.id if isinstance(f, ast.Name) else getattr(f, "attr", "")
        if name == "deprecated":
            text = " ".join(
                x.value for x in ast.walk(d) if isinstance(x, ast.Constant) and isinstance(x.value, str)
            )
            m = re.search(r"since ([\d.]+)", text)
            return True, m.group(1) if m else None
    doc = ast.get_docstring(node) or ""
    m = re.search(r"^\.\. deprecated:: ([\d.]+)", doc, re.M)  # the class's, not a field's
    if m:
        return True, m.group(1)
    for k in ix.mro(c):
        doc = ast.get_docstring(ix.node(k)) or ""
        for para in re.split(r"\n\s*\n", doc):
            if "InputParams" in para and "deprecated" in para.lower():
                m = re.search(r"(?:since|deprecated::) ([\d.]+)", para)
                return True, m.group(1) if m else None
    return False, None


def code(s: str) -> str:
    return f"`{s}`"


def words(items: list[str]) -> str:
    items = [code(x) for x in items]
    if len(items) <= 2:
        return " and ".join(items)
    return ", ".join(items[:-1]) + " and " + items[-1]


def build(repo: str, tag: str) -> tuple[list[dict], list[str], list[str]]:
    mods = load_modules(read_sources(repo, tag))
    ix = Index(mods)
    an = Analyzer(ix)
    entries: list[dict] = []
    skipped: list[str] = []
    notes: list[str] = []
    for mname in sorted(mods):
        for cname in sorted(list(mods[mname].classes)):
            if "." in cname:
                continue
            c = (mname, cname)
            info = an.info(c)
            ip = inputparams_of(ix, c)
            ip_label = f"{cname}.InputParams"
            if ip is None and info is not None and info.accepts_params:
                # A deprecated class of its own (`GladiaInputParams`), not a nested InputParams.
                ip = params_class(ix, c)
                ip_label = ip[1] if ip else ip_label
            ip_deprecated, ip_version = deprecation_of(ix, c, ip)
            warns = info is not None and (info.init or info.whole or info.warns_params)
            if not warns and not ip_deprecated:
                continue
            if cname.startswith("_"):
                skipped.append(f"{mname}.{cname}: private")
                continue
            if info is None:
                skipped.append(f"{mname}.{cname}: deprecated InputParams but no __init__ in Pipecat")
                continue
            if ix.lookup(c, "Settings") is None:
                skipped.append(f"{mname}.{cname}: no Settings class")
                continue
            takes_params = info.accepts_params and ip is not None
            if not info.init and not info.whole and not takes_params:
                skipped.append(
                    f"{mname}.{cname}: InputParams deprecated but __init__ takes no `params` "
                    "and no init parameter moved"
                )
                continue
            params: dict[str, str] = {}
            unmapped: list[str] = []
            if takes_params:
                for f in fields_of(ix, ip):
                    if info.params_opaque or f in info.params_tainted or f not in info.params_map:
                        unmapped.append(f)
                    else:
                        params[f] = info.params_map[f]
            for n in info.notes:
                if n not in notes:
                    notes.append(n)
            if takes_params and info.params_ignored:
                notes.append(
                    f"{mname}.{cname}: passes `settings=` to its base, which applies `params` only "
                    "`if not settings`: Pipecat ignores `params` here; the mapping is kept"
                )
            if takes_params:
                norm = lambda v: re.sub(r"\b_?NOT_GIVEN\b", "NOT_GIVEN", v)  # noqa: E731
                fdefaults = field_defaults(ix, ip)
                for x, y in params.items():
                    if x not in info.unconditional:
                        continue
                    a, b = fdefaults.get(x), info.settings_defaults.get(y)
                    if a is not None and b is not None and norm(a) != norm(b):
                        notes.append(
                            f"{mname}.{cname}: `{x}` is copied even when not given: "
                            f"InputParams default {a}, Settings default {b}"
                        )
            # Where rewriting `params=` would change what the service does (Pipecat ignores it
            # here, or copies a field the user did not give with a default other than Settings'),
            # no field of it is rewritten: a call that gives `params=` is reported instead.
            differs = any("is copied even when not given" in n and n.startswith(f"{mname}.{cname}:")
                          for n in notes)
            if takes_params and (info.params_ignored or differs):
                unmapped = sorted(set(unmapped) | set(params))
                params = {}
            whole = [w for w in info.whole if w != "params"]
            version = ip_version or info.whole.get("params")
            if takes_params:
                summary = (
                    f"{code(ip_label)} is deprecated"
                    + (f" since {version}" if version else "")
                    + f"; use {code(f'settings={cname}.Settings(...)')}."
                )
            else:
                moved = list(info.init) + whole
                vs = sorted({v for _, v in info.init.values() if v} | {v for v in info.whole.values() if v})
                since = f" since {vs[0]}" if vs else ""
                if len(moved) == 1 and moved[0] in info.init:
                    hint = f"settings={cname}.Settings({info.init[moved[0]][0]}=...)"
                else:
                    hint = f"settings={cname}.Settings(...)"
                summary = (
                    f"The {words(moved)} parameter{'s' if len(moved) > 1 else ''} of {code(cname)} "
                    f"{'are' if len(moved) > 1 else 'is'} deprecated{since}; use {code(hint)}."
                )
            settings_call = code(f"settings={cname}.Settings(...)")
            instead = [code("params=")] if takes_params else []
            if info.init:
                instead.append("the init parameters that moved")
            objects = words([w + "=" for w in whole])
            rest = "give those that are not settings as `__init__` parameters"
            if instead:
                action = f"Pass {settings_call} with these values instead of {' and '.join(instead)}."
                if whole:
                    action += f" Move the fields of {objects} into it too, and {rest}."
            else:
                action = f"Pass {settings_call} with the fields of {objects} instead, and {rest}."
            entries.append(
                {
                    "id": f"1.0.0-settings-{kebab(cname)}",
                    "since": SINCE,
                    "kind": "settings",
                    "summary": summary,
                    "service": {"module": mname, "name": cname},
                    "init": {p: v[0] for p, v in info.init.items()},
                    "params": params,
                    "unmapped": unmapped,
                    "whole": whole,
                    "action": action,
                }
            )
    entries.sort(key=lambda e: e["id"])
    ids = [e["id"] for e in entries]
    dupes = {i for i in ids if ids.count(i) > 1}
    if dupes:
        raise SystemExit(f"duplicate ids: {sorted(dupes)}")
    return entries, skipped, notes


def ts_value(v, indent: str = "") -> str:
    """A TypeScript literal: JSON, with identifier keys unquoted as in changes.ts."""
    inner = indent + "  "
    if isinstance(v, dict):
        if not v:
            return "{}"
        items = []
        for k, x in v.items():
            key = k if re.fullmatch(r"[A-Za-z_$][\w$]*", k) else json.dumps(k)
            items.append(f"{inner}{key}: {ts_value(x, inner)},")
        return "{\n" + "\n".join(items) + f"\n{indent}}}"
    if isinstance(v, list):
        if not v:
            return "[]"
        return "[\n" + "\n".join(f"{inner}{ts_value(x, inner)}," for x in v) + f"\n{indent}]"
    return json.dumps(v, ensure_ascii=False)


def render(entries: list[dict], tag: str) -> str:
    return (
        f"// Generated by scripts/pipecat_settings.py from Pipecat {tag}'s source: do not edit.\n"
        'import type { SettingsMove } from "./catalog.ts";\n\n'
        f"export const SETTINGS_CHANGES: readonly SettingsMove[] = {ts_value(entries)};\n"
    )


def deno_fmt(text: str) -> str:
    """The text as `deno fmt` formats it (run from the repository, so deno.json applies)."""
    deno = os.environ.get("DENO", "deno")
    proc = subprocess.run(
        [deno, "fmt", "--quiet", "--ext=ts", "-"],
        input=text,
        cwd=ROOT,
        capture_output=True,
        text=True,
    )
    if proc.returncode != 0:
        raise SystemExit(f"deno fmt failed: {proc.stderr.strip()}")
    return proc.stdout


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repo", required=True, help="Pipecat git repository (bare is fine)")
    ap.add_argument("--tag", default="v1.7.0")
    ap.add_argument("--check", action="store_true", help="exit 1 if the output file differs")
    ap.add_argument("--verbose", action="store_true", help="list skipped classes and notes")
    args = ap.parse_args()
    entries, skipped, notes = build(args.repo, args.tag)
    text = deno_fmt(render(entries, args.tag))
    if args.verbose:
        for s in skipped:
            print("skipped:", s, file=sys.stderr)
        for n in notes:
            print("note:", n, file=sys.stderr)
        print(f"{len(entries)} entries", file=sys.stderr)
    if args.check:
        try:
            with open(OUT) as f:
                current = f.read()
        except FileNotFoundError:
            current = None
        if current != text:
            print(f"{os.path.relpath(OUT, ROOT)} is out of date: run scripts/pipecat_settings.py")
            return 1
        return 0
    with open(OUT, "w") as f:
        f.write(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
