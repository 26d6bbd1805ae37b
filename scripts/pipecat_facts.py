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

Usage: scripts/pipecat_facts.py --repo /path/to/pipecat.git --tag v1.7.0 > tests/data/pipecat_facts.json
"""

from __future__ import annotations

import argparse
import ast
import json
import re
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from check_pipecat_api import Source  # noqa: E402

# Import names that differ from the name of the distribution that provides them.
DISTRIBUTION_OF_IMPORT = {
    "PIL": "pillow",
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
        candidates = {normalize(DISTRIBUTION_OF_IMPORT.get(parts[0], parts[0]))}
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

    def deprecated(self) -> list[str]:
        """Classes marked with Pipecat's `@deprecated(...)`, as module.Class."""
        found: list[str] = []
        for module in sorted(self.source.modules):
            for node in self.source.tree(module).body:
                if not isinstance(node, ast.ClassDef):
                    continue
                for decorator in node.decorator_list:
                    if isinstance(decorator, ast.Call) and ast.unparse(decorator.func) == "deprecated":
                        found.append(f"{module}.{node.name}")
        return found

    def session_token_parameters(self) -> dict[str, str]:
        """Service classes that take temporary AWS credentials' session token, and the keyword."""
        found: dict[str, str] = {}
        for module in sorted(self.source.modules):
            if not module.startswith("pipecat.services."):
                continue
            for node in self.source.tree(module).body:
                if not isinstance(node, ast.ClassDef):
                    continue
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
            "needs": {m: n for m, n in needs.items() if n},
            "optional": {m: o for m in sorted(facts.source.modules) if (o := facts.optional_extras(m))},
        },
        sys.stdout,
        indent=2,
        sort_keys=True,
    )
    print()


if __name__ == "__main__":
    main()
