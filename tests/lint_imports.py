"""Check the layers of the packages: who may import whom, no import cycle, no private name
imported from another module.

``enumerate`` is the engine and never imports ``analysis``. The folders of ``analysis`` are
layers, each importing only its own folder and those below it (``LAYERS``, lowest first):

| layer | folders | what it is |
|---|---|---|
| 0 | ``render`` | markdown, CSV, JSON and HTML of a table: no result types |
| 1 | ``games`` | variants, paytables, players: the rules as data |
| 2 | ``bets`` | bet files, their scopes, the shipped paytables |
| 3 | ``pricing`` | exact counts and return tables of a game and its bets |
| 4 | ``waylab`` | house ways measured against each other and the house-optimal setting |
| 5 | ``derive``, ``checks`` | derived strategy cards; simulation and published figures |
| 6 | ``report``, ``mathreport`` | the report's pages; a game's math report, report files |
| 7 | ``api`` (``analysis.api``, ``analysis``) | the public API |
| 8 | ``cli`` (and ``analysis.__main__``) | the command line |

Every import counts, at any depth (one inside a function too: a deferred import may keep start-
up light, never hide a cycle), except those under ``if TYPE_CHECKING:``. The import graph of
the modules, all imports counted, has no cycle.

Run as ``python -m tests.lint_imports``: one line per problem, exit status 1 when there is any.
"""

from __future__ import annotations

import ast
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("enumerate", "analysis")
LAYERS: tuple[tuple[str, ...], ...] = (
    ("render",),
    ("games",),
    ("bets",),
    ("pricing",),
    ("waylab",),
    ("derive", "checks"),
    ("report", "mathreport"),
    ("api",),
    ("cli",),
)
_RANK = {folder: i for i, folders in enumerate(LAYERS) for folder in folders}


@dataclass(frozen=True)
class Import:
    module: str  # the importing module
    target: str  # the first-party module imported
    names: tuple[str, ...]  # the names taken from it (``from target import ...``)
    line: int
    path: Path


def module_name(path: Path) -> str:
    parts = path.relative_to(ROOT).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def modules() -> dict[str, Path]:
    return {
        module_name(p): p for package in PACKAGES for p in sorted((ROOT / package).rglob("*.py"))
    }


def _resolve(
    target: str, names: tuple[str, ...], known: dict[str, Path]
) -> list[tuple[str, tuple[str, ...]]]:
    """``from target import names``: the submodules among ``names`` and, for the other names,
    the module ``target`` itself."""
    subs = [n for n in names if f"{target}.{n}" in known]
    out = [(f"{target}.{n}", ()) for n in subs]
    rest = tuple(n for n in names if n not in subs)
    if rest or not names:
        out.append((target, rest))
    return out


def imports(known: dict[str, Path]) -> Iterator[Import]:
    for name, path in known.items():
        tree = ast.parse(path.read_text())
        package = name if path.name == "__init__.py" else name.rpartition(".")[0]
        for node in _runtime_nodes(tree):
            if isinstance(node, ast.Import):
                for alias in node.names:
                    if alias.name in known:
                        yield Import(name, alias.name, (), node.lineno, path)
            elif isinstance(node, ast.ImportFrom):
                base = node.module or ""
                if node.level:
                    parts = package.split(".")
                    base = ".".join([*parts[: len(parts) - node.level + 1], *filter(None, [base])])
                if base.split(".")[0] not in PACKAGES:
                    continue
                names = tuple(a.name for a in node.names)
                for target, taken in _resolve(base, names, known):
                    yield Import(name, target, taken, node.lineno, path)


def _runtime_nodes(tree: ast.AST) -> Iterator[ast.AST]:
    """Every node but those under ``if TYPE_CHECKING:``."""
    todo = [tree]
    while todo:
        node = todo.pop()
        yield node
        for child in ast.iter_child_nodes(node):
            test = getattr(child, "test", None) if isinstance(child, ast.If) else None
            if (
                getattr(test, "id", None) == "TYPE_CHECKING"
                or getattr(test, "attr", None) == "TYPE_CHECKING"
            ):
                todo.extend(child.orelse)
                continue
            todo.append(child)


def layer(module: str) -> int | None:
    """The layer of an ``analysis`` module (None for ``enumerate``)."""
    parts = module.split(".")
    if parts[0] != "analysis":
        return None
    if len(parts) == 1 or parts[1] == "api":
        return _RANK["api"]
    if parts[1] == "__main__":
        return _RANK["cli"]
    return _RANK[parts[1]]


def problems() -> list[str]:
    known = modules()
    found = list(imports(known))
    out = []
    for imp in found:
        where = f"{imp.path.relative_to(ROOT)}:{imp.line}"
        if imp.module.startswith("enumerate") and imp.target.startswith("analysis"):
            out.append(f"{where}: the engine imports {imp.target}")
        mine, theirs = layer(imp.module), layer(imp.target)
        if mine is not None and theirs is not None and theirs > mine:
            out.append(
                f"{where}: {imp.module} (layer {mine}) imports {imp.target} (layer {theirs})"
            )
        private = [n for n in imp.names if n.startswith("_") and not n.startswith("__")]
        if private and imp.target != imp.module:
            out.append(f"{where}: private {', '.join(private)} of {imp.target}")
    for cycle in cycles({(i.module, i.target) for i in found if i.module != i.target}):
        out.append(f"import cycle: {' -> '.join(cycle)}")
    return out


def cycles(edges: set[tuple[str, str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan), each as a path."""
    graph: dict[str, list[str]] = {}
    for a, b in sorted(edges):
        graph.setdefault(a, []).append(b)
        graph.setdefault(b, [])
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on: set[str] = set()
    out: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on.add(v)
        for w in graph[v]:
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                out.append(sorted(comp))

    sys.setrecursionlimit(max(10_000, sys.getrecursionlimit()))
    for v in sorted(graph):
        if v not in index:
            visit(v)
    return out


def main() -> int:
    found = problems()
    for line in found:
        print(line)
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main())
