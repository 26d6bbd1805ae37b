#!/usr/bin/env python3
"""Checks Python files' Pipecat imports against Pipecat's source at a tag, and finds the uses of
what that source deprecates (not part of CI; scripts/check_migrate_examples.ts runs it).

For every .py file under each directory given, it reports, with `ast`:

- whether the file parses;
- every `from pipecat... import X` and `import pipecat...` (lazy ones inside functions too) that
  does not resolve at the tag: the module is missing, or it neither defines, re-exports nor has
  as a submodule the name (check_pipecat_api.Resolver follows the re-exports);
- every use of a name Pipecat's source deprecates: a class or function (its imports and
  references), a method, property or nested class (`.name`), a parameter (`name=` in a call of its
  owner, or of a class derived from it), or a deprecated module (its imports).

The deprecations are read from the source, in its three forms: `@deprecated("...")` decorators,
`warnings.warn(..., DeprecationWarning)` calls, and `.. deprecated:: X.Y.Z` directives in
docstrings (a parameter's in its `Args:` entry). Each keeps its release and the replacement its
message names ("Use `Y` instead", "Moved to :mod:`y`"), or none ("No replacement.").

Usage:
  scripts/check_pipecat_imports.py --repo /path/to/pipecat.git [--tag v1.7.0] DIR...
  scripts/check_pipecat_imports.py --repo /path/to/pipecat.git --json LABEL=DIR...
"""

from __future__ import annotations

import argparse
import ast
import json
import re
import sys
from dataclasses import asdict, dataclass, field
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from check_pipecat_api import Resolver, Source, Symbol  # noqa: E402

VERSION = r"(\d+\.\d+\.\d+)"
# A reference in a message or a directive: a Sphinx role, a literal, a backticked or quoted name.
REFERENCE = re.compile(r":\w+:`~?([^`]+)`|``([^`]+)``|`([^`]+)`|'([\w.]+)'")
# The clause of a message or a directive that names what to use instead.
REPLACEMENT_CLAUSE = re.compile(
    r"\b(use|read|import from|moved to|merged into|replaced by|in favou?r of|switch to|pass|"
    r"now lives in|should import)\b"
    r"(?P<rest>.*)",
    re.IGNORECASE | re.DOTALL,
)
# Docstring sections whose entries are parameters or fields.
PARAM_SECTIONS = {"args", "arguments", "parameters", "params", "keyword args", "attributes"}


def is_pipecat(module: str) -> bool:
    return module == "pipecat" or module.startswith("pipecat.")


def version_tuple(version: str) -> tuple[int, ...]:
    return tuple(int(x) for x in version.split("."))


class CachedResolver(Resolver):
    """check_pipecat_api's Resolver, its answers kept: hundreds of files ask the same names."""

    def __init__(self, source: Source):
        super().__init__(source)
        parts = [m.split(".") for m in source.modules]
        self._packages = {".".join(p[:i]) for p in parts for i in range(1, len(p))}
        self._resolved: dict[tuple[str, str], Symbol | None] = {}
        self._mros: dict[int, list[Symbol]] = {}

    def is_package(self, module: str) -> bool:
        return module in self._packages

    def resolve(self, module: str, name: str, depth: int = 0) -> Symbol | None:
        if depth:
            return super().resolve(module, name, depth)
        key = (module, name)
        if key not in self._resolved:
            self._resolved[key] = super().resolve(module, name)
        return self._resolved[key]

    def mro(self, cls: Symbol, seen: set[int] | None = None) -> list[Symbol]:
        if seen is not None:
            return super().mro(cls, seen)
        if id(cls.node) not in self._mros:
            self._mros[id(cls.node)] = super().mro(cls)
        return self._mros[id(cls.node)]


# ---------------------------------------------------------------------------------------------
# What Pipecat deprecates


@dataclass
class Deprecation:
    kind: str  # "name", "member", "param" or "module"
    module: str
    owner: str  # the class (or function, for a parameter) a member or parameter belongs to
    name: str
    since: str
    replacement: str | None
    structural: bool
    where: str
    message: str
    # The definition a use must resolve to (a class, function or the owner), when there is one.
    node: ast.AST | None = field(default=None, repr=False)
    owner_node: ast.AST | None = field(default=None, repr=False)
    # For a method's parameter, the method's class.
    owner_class: ast.AST | None = field(default=None, repr=False)

    @property
    def key(self) -> str:
        if self.kind == "module":
            return self.module
        owner = f"{self.owner}." if self.owner else ""
        return f"{self.module}:{owner}{self.name}" + ("=" if self.kind == "param" else "")

    def public(self) -> dict:
        hidden = ("node", "owner_node", "owner_class")
        return {"key": self.key, **{k: v for k, v in vars(self).items() if k not in hidden}}


def string_of(node: ast.expr) -> str | None:
    """A string literal, or an f-string's literal parts (its placeholders as `{}`)."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value
    if isinstance(node, ast.JoinedStr):
        return "".join(v.value if isinstance(v, ast.Constant) else "{}" for v in node.values)
    return None


def replacement_of(text: str) -> str | None:
    """The name a deprecation message or directive body says to use instead, if it names one."""
    if re.search(r"no replacement", text, re.IGNORECASE):
        return None
    clause = REPLACEMENT_CLAUSE.search(text)
    if clause is None:
        return None
    for match in REFERENCE.finditer(clause.group("rest")):
        target = next(g for g in match.groups() if g is not None).strip()
        # A name (or a call of one), not a signature like ``(connection, call)``.
        if re.match(r"[A-Za-z_]", target):
            return target
    return None


def since_of(text: str) -> str | None:
    match = re.search(rf"(?:deprecated::|since|deprecated in|as of)\s+v?{VERSION}", text)
    return match.group(1) if match else None


def is_structural(name: str, message: str) -> bool:
    """A service's `InputParams` (for its `Settings`), a setter (for an update frame)."""
    if name == "InputParams":
        return True
    return name.startswith("set_") and bool(re.search(r"Settings|Update\w*Frame", message))


class Deprecations:
    """Every deprecation in the source, from its decorators, warnings and docstrings."""

    def __init__(self, source: Source, resolver: Resolver):
        self.source = source
        self.resolver = resolver
        self.found: dict[str, Deprecation] = {}
        self.unparsed: list[str] = []  # warnings whose subject could not be told
        for module in sorted(source.modules):
            if module == "pipecat.utils.deprecation":
                continue  # its docstring shows the conventions, with made-up names
            try:
                tree = source.tree(module)
            except SyntaxError:
                continue
            self._module(module, tree)

    def _add(self, dep: Deprecation):
        known = self.found.get(dep.key)
        if known is None:
            self.found[dep.key] = dep
            return
        # The decorator, the warning and the directive of one name: the earliest release, and any
        # replacement one of them names.
        if version_tuple(dep.since) < version_tuple(known.since):
            known.since = dep.since
        known.replacement = known.replacement or dep.replacement
        known.structural = known.structural or dep.structural
        known.node = known.node or dep.node
        known.owner_node = known.owner_node or dep.owner_node
        known.owner_class = known.owner_class or dep.owner_class

    def _module(self, module: str, tree: ast.Module):
        parents = {child: node for node in ast.walk(tree) for child in ast.iter_child_nodes(node)}
        path = module.replace(".", "/")

        def enclosing(node: ast.AST) -> list[ast.AST]:
            chain = []
            while node in parents:
                node = parents[node]
                if isinstance(node, (ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)):
                    chain.append(node)
            return chain

        def qualname(node: ast.AST) -> str:
            return ".".join([n.name for n in reversed(enclosing(node))] + [node.name])

        def record(kind, owner, name, since, text, line, node=None, owner_node=None, cls=None):
            if since is None:
                return
            self._add(
                Deprecation(
                    kind=kind,
                    module=module,
                    owner=owner,
                    name=name,
                    since=since,
                    replacement=replacement_of(text),
                    structural=is_structural(name, text),
                    where=f"src/{path}.py:{line}",
                    message=" ".join(text.split())[:300],
                    node=node,
                    owner_node=owner_node,
                    owner_class=cls,
                )
            )

        def definition(node, text, line):
            """A deprecated class, function, method, property or nested class."""
            chain = enclosing(node)
            since = since_of(text)
            if not chain:
                record("name", "", node.name, since, text, line, node)
            elif isinstance(chain[0], ast.ClassDef):
                record("member", qualname(chain[0]), node.name, since, text, line, node, chain[0])

        def parameter(owner_def, name, text, line):
            """A deprecated parameter of a function, a method, a class (`__init__`) or a field."""
            chain = enclosing(owner_def)
            since = since_of(text)
            if isinstance(owner_def, ast.ClassDef):
                record("param", qualname(owner_def), name, since, text, line, None, owner_def)
            elif owner_def.name == "__init__" and chain and isinstance(chain[0], ast.ClassDef):
                record("param", qualname(chain[0]), name, since, text, line, None, chain[0])
            elif not chain or isinstance(chain[0], ast.ClassDef):
                cls = chain[0] if chain else None
                record("param", qualname(owner_def), name, since, text, line, None, owner_def, cls)

        self._docstring(tree, record, definition, parameter)
        doc = ast.get_docstring(tree) or ""
        if doc.lower().startswith("deprecated module") and ".. deprecated::" not in doc:
            # No release given (pipecat/pipeline/runner.py): that of the names it keeps.
            messages = [
                string_of(s.args[0]) or ""
                for s in ast.walk(tree)
                if isinstance(s, ast.Call) and ast.unparse(s.func).endswith("deprecated") and s.args
            ]
            releases = [v for v in map(since_of, messages) if v]
            if releases:
                record("module", "", "", min(releases, key=version_tuple), doc, 1)
            else:
                self.unparsed.append(f"src/{path}.py: a deprecated module, no release given")
        for node in ast.walk(tree):
            if isinstance(node, (ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)):
                for decorator in node.decorator_list:
                    if (
                        isinstance(decorator, ast.Call)
                        and (ast.unparse(decorator.func).split(".")[-1] == "deprecated")
                        and decorator.args
                    ):
                        text = string_of(decorator.args[0])
                        if text is not None:
                            definition(node, text, decorator.lineno)
                self._docstring(node, record, definition, parameter)
            elif isinstance(node, ast.Call) and ast.unparse(node.func) in ("warnings.warn", "warn"):
                self._warning(node, module, enclosing, record, definition, parameter)

    def _docstring(self, node, record, definition, parameter):
        doc = ast.get_docstring(node)
        if not doc or ".. deprecated::" not in doc:
            return
        lines = doc.splitlines()
        line = getattr(node, "lineno", 1)
        for i, text in enumerate(lines):
            if ".. deprecated::" not in text:
                continue
            indent = len(text) - len(text.lstrip())
            body = [text]
            for following in lines[i + 1 :]:
                if following.strip() and len(following) - len(following.lstrip()) <= indent:
                    break
                body.append(following)
            directive = "\n".join(body)
            entry = self._entry(lines, i, indent)
            if entry is not None:
                if not isinstance(node, ast.Module):
                    parameter(node, entry, directive, line)
            elif isinstance(node, ast.Module):
                record("module", "", "", since_of(directive), directive, 1)
            else:
                definition(node, directive, line)

    @staticmethod
    def _entry(lines: list[str], at: int, indent: int) -> str | None:
        """The `Args:` (or `Parameters:`...) entry a directive at line `at` belongs to, if any."""
        for j in range(at - 1, -1, -1):
            text = lines[j]
            if not text.strip():
                continue
            own = len(text) - len(text.lstrip())
            if own >= indent:
                continue
            match = re.match(r"\s*\**(\w+)\s*(\(.*\))?\s*:", text)
            if match is None or text.strip().lower().rstrip(":") in PARAM_SECTIONS:
                return None
            # The entry must sit in a parameters section: the next line above, less indented.
            for k in range(j - 1, -1, -1):
                above = lines[k]
                if above.strip() and len(above) - len(above.lstrip()) < own:
                    section = above.strip().lower().rstrip(":")
                    return match.group(1) if section in PARAM_SECTIONS else None
            return None
        return None

    def _warning(self, call, module, enclosing, record, definition, parameter):
        category = [*call.args[1:2], *(k.value for k in call.keywords if k.arg == "category")]
        if not any(ast.unparse(c).endswith("DeprecationWarning") for c in category):
            return
        text = string_of(call.args[0]) if call.args else None
        if text is None:
            return
        since = since_of(text)
        subject = REFERENCE.search(text.split("deprecated")[0])
        where = f"src/{module.replace('.', '/')}.py:{call.lineno}"
        if subject is None or since is None or "{}" in subject.group(0):
            if since is not None and version_tuple(since) >= (1, 1, 0):
                self.unparsed.append(f"{where}: {' '.join(text.split())[:120]}")
            return
        name = next(g for g in subject.groups() if g is not None)
        call_form = re.match(r"([\w.]+)\((\w+)=", name)  # `Owner(param=...)`
        if call_form:
            name = f"{call_form.group(1)}.{call_form.group(2)}"
        chain = enclosing(call)
        function = next((n for n in chain if not isinstance(n, ast.ClassDef)), None)
        if name in self.source.modules:
            record("module", "", "", since, text, call.lineno)
            return
        if "." in name:
            owner_name, attr = name.rsplit(".", 1)
            try:
                expr = ast.parse(owner_name, mode="eval").body
            except SyntaxError:
                expr = None
            owner = None if expr is None else self.resolver.evaluate(module, expr)
            if owner is None or owner.kind != "class":
                self.unparsed.append(f"{where}: {' '.join(text.split())[:120]}")
                return
            is_param = attr in (self.resolver.parameters(owner) or set())
            if is_param and function is not None and function.name in ("__init__", "__post_init__"):
                parameter(owner.node, attr, text, call.lineno)
            elif self.resolver.class_attribute(owner, attr) is not None:
                self._add_member(owner, attr, since, text, where)
            elif is_param:
                parameter(owner.node, attr, text, call.lineno)
            else:
                self.unparsed.append(f"{where}: {' '.join(text.split())[:120]}")
            return
        if function is not None and name in Resolver._names(function.args):
            parameter(function, name, text, call.lineno)
        elif function is not None and function.name == "__getattr__" and len(chain) == 1:
            record("name", "", name, since, text, call.lineno)
        elif any(getattr(n, "name", None) == name for n in chain):
            definition(next(n for n in chain if n.name == name), text, call.lineno)
        elif not chain:
            record("module", "", "", since, text, call.lineno)
        else:
            self.unparsed.append(f"{where}: {' '.join(text.split())[:120]}")

    def _add_member(self, owner: Symbol, attr: str, since: str, text: str, where: str):
        member = self.resolver.class_attribute(owner, attr)
        self._add(
            Deprecation(
                kind="member",
                module=owner.module,
                owner=owner.node.name,
                name=attr,
                since=since,
                replacement=replacement_of(text),
                structural=is_structural(attr, text),
                where=where,
                message=" ".join(text.split())[:300],
                node=member.node if member is not None else None,
                owner_node=owner.node,
            )
        )

    def selected(self, since: str) -> list[Deprecation]:
        """Those made at `since` or later, and the structural ones whenever they were made."""
        floor = version_tuple(since)
        return [
            d
            for d in self.found.values()
            if d.structural or version_tuple(d.since) >= floor
        ]


def shims(source: Source, deprecations: list[Deprecation]) -> set[str]:
    """Deprecated modules whose body only re-exports (and warns): nothing but imports left."""
    found = set()
    for dep in deprecations:
        if dep.kind != "module":
            continue
        body = source.tree(dep.module).body
        allowed = (ast.Import, ast.ImportFrom, ast.Expr, ast.Assign, ast.If, ast.Try, ast.With)
        if all(isinstance(s, allowed) for s in body):
            found.add(dep.module)
    return found


# ---------------------------------------------------------------------------------------------
# A file: its imports and its uses of what is deprecated


@dataclass
class FileReport:
    syntax_error: str | None = None
    imports: int = 0
    unresolved: list[dict] = field(default_factory=list)
    uses: list[dict] = field(default_factory=list)


class Checker:
    def __init__(self, resolver: Resolver, deprecations: list[Deprecation]):
        self.resolver = resolver
        self.modules = {d.module: d for d in deprecations if d.kind == "module"}
        self.names: dict[str, list[Deprecation]] = {}
        self.members: dict[str, list[Deprecation]] = {}
        self.params: dict[str, list[Deprecation]] = {}
        for dep in deprecations:
            table = {"name": self.names, "member": self.members, "param": self.params}.get(dep.kind)
            if table is not None:
                table.setdefault(dep.name, []).append(dep)
        self._mro: dict[int, set[int]] = {}
        # Parameters that can be given by position (`runner.run(worker)`), with their index.
        self.positional: list[tuple[Deprecation, int]] = []
        for dep in deprecations:
            function = dep.owner_node
            if dep.kind != "param" or function is None:
                continue
            if isinstance(function, ast.ClassDef):
                function = next(
                    (
                        s
                        for s in function.body
                        if isinstance(s, ast.FunctionDef) and s.name == "__init__"
                    ),
                    None,
                )
            if function is None:
                continue
            names = [a.arg for a in [*function.args.posonlyargs, *function.args.args]]
            names = [n for n in names if n not in ("self", "cls")]
            if dep.name in names:
                self.positional.append((dep, names.index(dep.name)))

    def derives(self, cls: Symbol, owner: ast.AST | None) -> bool:
        if owner is None:
            return True
        if id(cls.node) not in self._mro:
            self._mro[id(cls.node)] = {
                id(k.node) for k in self.resolver.mro(cls) if k.kind == "class"
            }
        return id(owner) in self._mro[id(cls.node)]

    def check(self, text: str) -> FileReport:
        report = FileReport()
        try:
            tree = ast.parse(text)
        except SyntaxError as error:
            report.syntax_error = f"line {error.lineno}: {error.msg}"
            return report
        bindings: dict[str, tuple[str, str]] = {}  # local name -> (module, name) or (module, "")
        plain: set[str] = set()  # `import pipecat.x.y`: chains from `pipecat` are module paths
        foreign: set[str] = set()  # names other imports bind (`asyncio`): never Pipecat's objects

        def use(dep: Deprecation, node: ast.AST, how: str):
            report.uses.append({"line": node.lineno, "key": dep.key, "how": how})

        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom):
                module = (node.module or "") if node.level == 0 else ""
                if not is_pipecat(module):
                    foreign.update(a.asname or a.name for a in node.names)
                    continue
                report.imports += 1
                self._import_from(node, module, report, use)
                for alias in node.names:
                    bindings[alias.asname or alias.name] = (module, alias.name)
            elif isinstance(node, ast.Import):
                for alias in node.names:
                    if not is_pipecat(alias.name):
                        foreign.add(alias.asname or alias.name.split(".")[0])
                        continue
                    report.imports += 1
                    if alias.name not in self.resolver.source.modules:
                        report.unresolved.append(
                            {"line": node.lineno, "module": alias.name, "name": None}
                        )
                    shim = self._shim(alias.name)
                    if shim is not None:
                        use(shim, node, "import")
                    if alias.asname:
                        bindings[alias.asname] = (alias.name, "")
                    else:
                        plain.add(alias.name)

        cache: dict[int, Symbol | None] = {}

        def symbol(expr: ast.expr) -> Symbol | None:
            if id(expr) in cache:
                return cache[id(expr)]
            found = None
            if isinstance(expr, ast.Name) and expr.id in bindings:
                module, name = bindings[expr.id]
                found = (
                    self.resolver.resolve(module, name) if name else Symbol("module", module)
                )
            elif isinstance(expr, ast.Attribute):
                dotted = ast.unparse(expr)
                if any(dotted == p or p.startswith(dotted + ".") for p in plain):
                    found = Symbol("module", dotted)
                else:
                    owner = symbol(expr.value)
                    if owner is not None and owner.kind == "module":
                        found = self.resolver.resolve(owner.module, expr.attr)
                    elif owner is not None and owner.kind == "class":
                        found = self.resolver.class_attribute(owner, expr.attr)
            cache[id(expr)] = found
            return found

        # Variables assigned an instance of a Pipecat class (`llm = OpenAILLMService(...)`), by
        # name across the file; a name assigned two different classes is left unknown.
        instances: dict[str, Symbol | None] = {}
        for node in ast.walk(tree):
            if isinstance(node, ast.Assign) and isinstance(node.value, ast.Call):
                cls = symbol(node.value.func)
                for target in node.targets:
                    key = ast.unparse(target)
                    if cls is None or cls.kind != "class":
                        if key in instances:
                            instances[key] = None
                        continue
                    known = instances.get(key, cls)
                    instances[key] = cls if known is not None and known.node is cls.node else None

        def class_of(expr: ast.expr) -> Symbol | None:
            found = symbol(expr)
            if found is not None and found.kind == "class":
                return found
            return instances.get(ast.unparse(expr))

        # The file's classes, each with the Pipecat classes it derives from (through the file's
        # own classes too): `self.x` in their methods is Pipecat's `x` only when one of them has it.
        parents = {child: node for node in ast.walk(tree) for child in ast.iter_child_nodes(node)}
        own = {n.name: n for n in ast.walk(tree) if isinstance(n, ast.ClassDef)}
        bases_of: dict[str, list[Symbol]] = {}

        def pipecat_bases(cls: ast.ClassDef, seen: frozenset = frozenset()) -> list[Symbol]:
            if cls.name not in bases_of:
                found = []
                for base in cls.bases:
                    local = own.get(base.id) if isinstance(base, ast.Name) else None
                    if local is not None and local.name not in seen and local is not cls:
                        found += pipecat_bases(local, seen | {cls.name})
                    elif (symbol_ := class_of(base)) is not None:
                        found.append(symbol_)
                bases_of[cls.name] = found
            return bases_of[cls.name]

        def enclosing_class(node: ast.AST) -> ast.ClassDef | None:
            while node in parents:
                node = parents[node]
                if isinstance(node, ast.ClassDef):
                    return node
            return None

        imported = [
            found
            for module, name in bindings.values()
            if name and (found := self.resolver.resolve(module, name)) is not None
            and found.kind == "class"
        ]

        def member_of(owner_class: ast.AST | None, receiver: ast.expr) -> bool:
            """Whether `receiver.x` is likely the member `x` of Pipecat's class `owner_class`."""
            root = receiver
            while isinstance(root, (ast.Attribute, ast.Call, ast.Subscript)):
                root = root.func if isinstance(root, ast.Call) else root.value
            if isinstance(root, ast.Name) and root.id in foreign:
                return False
            if isinstance(receiver, ast.Name) and receiver.id in ("self", "cls"):
                cls = enclosing_class(receiver)
                bases = pipecat_bases(cls) if cls is not None else []
                return any(self.derives(b, owner_class) for b in bases)
            owner = class_of(receiver)
            if owner is not None:
                return self.derives(owner, owner_class)
            if symbol(receiver) is not None:
                return False  # a Pipecat module or name that is not the owner's class
            # An object the file does not say the class of: when the file uses the owner's family.
            classes = imported + [b for c in own.values() for b in pipecat_bases(c)]
            return any(self.derives(c, owner_class) for c in classes)

        for node in ast.walk(tree):
            if isinstance(node, ast.Name) and node.id in bindings:
                module, name = bindings[node.id]
                for dep in self.names.get(name, []):
                    found = symbol(node)
                    if dep.node is None or found is None or found.node is dep.node:
                        use(dep, node, "name")
            elif isinstance(node, ast.Attribute):
                for dep in self.names.get(node.attr, []):
                    found = symbol(node)
                    if found is not None and found.node is dep.node:
                        use(dep, node, "name")
                for dep in self.members.get(node.attr, []):
                    if member_of(dep.owner_node, node.value):
                        use(dep, node, "attribute")
            elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                # A method that overrides a deprecated one (`reset` of a turn strategy).
                cls = parents.get(node)
                for dep in self.members.get(node.name, []) if isinstance(cls, ast.ClassDef) else []:
                    if any(self.derives(b, dep.owner_node) for b in pipecat_bases(cls)):
                        use(dep, node, "override")
            elif isinstance(node, ast.Call):
                callee = symbol(node.func)
                if callee is None and isinstance(node.func, ast.Attribute):
                    cls = class_of(node.func.value)
                    if cls is not None:
                        callee = self.resolver.class_attribute(cls, node.func.attr)
                for keyword in node.keywords:
                    for dep in self.params.get(keyword.arg or "", []):
                        if self._calls(dep, node, callee, member_of):
                            use(dep, keyword, "keyword")
                given = len(node.args)
                if any(isinstance(a, ast.Starred) for a in node.args):
                    given = 0
                for dep, index in self.positional:
                    if index < given and self._calls(dep, node, callee, member_of):
                        use(dep, node.args[index], "argument")
        report.uses.sort(key=lambda u: (u["line"], u["key"]))
        return report

    def _calls(self, dep: Deprecation, call: ast.Call, callee: Symbol | None, member_of) -> bool:
        """Whether `call` calls the owner of the parameter `dep` (or a class derived from it)."""
        owner = dep.owner_node
        if callee is not None:
            if callee.kind == "class" and isinstance(owner, ast.ClassDef):
                return self.derives(callee, owner)
            return callee.node is owner
        # A method, on an object the file does not say the class of: by the method's name.
        if isinstance(owner, (ast.FunctionDef, ast.AsyncFunctionDef)) and dep.owner_class:
            return (
                isinstance(call.func, ast.Attribute)
                and call.func.attr == owner.name
                and member_of(dep.owner_class, call.func.value)
            )
        return False

    def _shim(self, module: str) -> Deprecation | None:
        for shim, dep in self.modules.items():
            if module == shim or module.startswith(shim + "."):
                return dep
        return None

    def _import_from(self, node: ast.ImportFrom, module: str, report: FileReport, use):
        shim = self._shim(module)
        if shim is not None:
            use(shim, node, "import")
        if module not in self.resolver.source.modules:
            for alias in node.names:
                report.unresolved.append(
                    {"line": node.lineno, "module": module, "name": alias.name, "why": "module"}
                )
            return
        for alias in node.names:
            if alias.name == "*":
                continue
            found = self.resolver.resolve(module, alias.name)
            if found is None:
                report.unresolved.append(
                    {"line": node.lineno, "module": module, "name": alias.name, "why": "name"}
                )
                continue
            if found.kind == "module":
                sub = self._shim(found.module)
                if sub is not None and sub is not shim:
                    use(sub, node, "import")
            for dep in self.names.get(alias.name, []):
                if found.node is dep.node:
                    use(dep, node, "import")


# ---------------------------------------------------------------------------------------------


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repo", type=Path, required=True, help="Pipecat's git directory")
    parser.add_argument("--tag", default="v1.7.0", help="the release to check against")
    parser.add_argument(
        "--since", default="1.1.0", help="count the deprecations made at this release or later"
    )
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.add_argument("dirs", nargs="+", help="DIR, or LABEL=DIR")
    args = parser.parse_args()

    source = Source.from_repo(args.repo, args.tag)
    resolver = CachedResolver(source)
    registry = Deprecations(source, resolver)
    selected = registry.selected(args.since)
    shim_modules = shims(source, selected)
    checker = Checker(resolver, selected)
    trees = {}
    for spec in args.dirs:
        label, _, directory = spec.rpartition("=")
        root = Path(directory)
        files = {}
        for path in sorted(root.rglob("*.py")):
            report = checker.check(path.read_text(errors="replace"))
            files[str(path.relative_to(root))] = asdict(report)
        trees[label or directory] = files

    if args.json:
        deprecations = []
        for dep in selected:
            data = dep.public()
            data["shim"] = dep.module in shim_modules and dep.kind == "module"
            deprecations.append(data)
        json.dump(
            {"tag": args.tag, "deprecations": deprecations, "unparsed": registry.unparsed,
             "trees": trees},
            sys.stdout,
        )
        return
    print(f"{len(selected)} deprecations at {args.tag} since {args.since} (or structural)")
    for label, files in trees.items():
        unresolved = [(p, u) for p, f in files.items() for u in f["unresolved"]]
        errors = [(p, f["syntax_error"]) for p, f in files.items() if f["syntax_error"]]
        uses = sum(len(f["uses"]) for f in files.values())
        print(
            f"{label}: {len(files)} files, {len(errors)} that do not parse, "
            f"{len(unresolved)} unresolved imports, {uses} uses of deprecated names"
        )
        for path, error in errors:
            print(f"  SYNTAX {path}: {error}")
        for path, u in unresolved:
            print(f"  UNRESOLVED {path}:{u['line']}: {u['module']} {u['name'] or ''}")


if __name__ == "__main__":
    main()
