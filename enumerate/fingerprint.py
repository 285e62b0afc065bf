"""The code a cached table depends on: the import closure of the module that builds it.

A cache entry records ``code_fingerprint(builder)``: the hash of the syntax tree (comments,
docstrings and layout left out) of the builder module and of every first-party module it can
reach through ``import`` statements, at any depth and inside functions too, and through string
constants that name a first-party module (what ``importlib.import_module`` is given). Editing a
comment rebuilds nothing; changing any code a table is built with (a kernel, a grouping, a
choice rule) changes the key, so an old table is never served; code the builder cannot reach
(a report page, the command line) does not touch it.

Packages are followed only where they are imported from: ``from a.b import c`` reads ``a.b``'s
``__init__`` unless ``c`` is a submodule. Imports under ``if TYPE_CHECKING:`` do not run and are
not followed.

>>> closure = import_closure("enumerate.tables")
>>> "enumerate.tables" in closure and "enumerate.cards" in closure
True
>>> any(name.startswith("analysis.") for name in closure)
False
"""

from __future__ import annotations

import ast
import hashlib
import json
import os
import re
import tempfile
import threading
from functools import cache
from pathlib import Path
from typing import Any

from enumerate.paths import SOURCE_ROOT, cache_dir

FIRST_PARTY = ("enumerate", "analysis")
# a string naming a first-party submodule, as ``importlib.import_module`` is given one
_MODULE_NAME = re.compile(rf"(?:{'|'.join(FIRST_PARTY)})(?:\.[A-Za-z_][A-Za-z0-9_]*)+")


def module_file(name: str, root: Path = SOURCE_ROOT) -> Path | None:
    """The source file of first-party module ``name`` under ``root``, None if it is none."""
    parts = name.split(".")
    if parts[0] not in FIRST_PARTY or not all(p.isidentifier() for p in parts):
        return None
    base = root.joinpath(*parts)
    for path in (base.with_suffix(".py"), base / "__init__.py"):
        if path.is_file():
            return path
    return None


def imports_of(name: str, root: Path = SOURCE_ROOT) -> frozenset[str]:
    """The first-party modules that module ``name`` imports or names (see the module doc)."""
    path = module_file(name, root)
    if path is None:
        return frozenset()
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found: set[str] = set()
    for level, base, names in _source_facts(path)["imports"]:
        if level < 0:  # ``import a.b`` or a string naming a module
            found.add(base)
            continue
        if level:
            parts = package.split(".")
            base = ".".join([*parts[: len(parts) - level + 1], *([base] if base else [])])
        subs = {f"{base}.{n}" for n in names}
        modules = {m for m in subs if module_file(m, root) is not None}
        found.update(modules)
        if modules != subs:  # some names come from the package itself
            found.add(base)
    return frozenset(m for m in found if m != name and module_file(m, root) is not None)


def import_closure(name: str, root: Path = SOURCE_ROOT) -> tuple[str, ...]:
    """``name`` and every first-party module reachable from it, sorted."""
    seen = {name}
    todo = [name]
    while todo:
        for module in imports_of(todo.pop(), root):
            if module not in seen:
                seen.add(module)
                todo.append(module)
    return tuple(sorted(m for m in seen if module_file(m, root) is not None))


@cache
def code_fingerprint(builder: str, root: Path = SOURCE_ROOT) -> str:
    """Hash of the code of ``builder``'s import closure, as Python reads it."""
    h = hashlib.sha256()
    for module in import_closure(builder, root):
        path = module_file(module, root)
        assert path is not None
        h.update(module.encode())
        h.update(_source_facts(path)["code"].encode())
    return h.hexdigest()[:16]


def source_fingerprint(source: str) -> str:
    r"""The code of a module without its comments, docstrings and layout (its syntax tree).

    >>> a = source_fingerprint('def f(x):\n    "Twice x."\n    return 2 * x  # doubled\n')
    >>> a == source_fingerprint("def f(x):\n    return 2*x\n")
    True
    >>> a == source_fingerprint("def f(x):\n    return 3 * x\n")
    False
    """
    tree = _parse(source)
    for node in ast.walk(tree):
        body = getattr(node, "body", None)
        if isinstance(node, _DOCUMENTED) and body and _is_docstring(body[0]):
            node.body = body[1:] or [ast.Pass()]
    return hashlib.sha256(ast.dump(tree).encode()).hexdigest()


# CPython 3.11's parser keeps its recursion depth in shared state: two threads parsing at once
# can fail with "AST constructor recursion depth mismatch" (the report keys tables in threads)
_PARSING = threading.Lock()


def _parse(source: str) -> ast.Module:
    with _PARSING:
        return ast.parse(source)


_DOCUMENTED = (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)


def _is_docstring(statement: ast.stmt) -> bool:
    return (isinstance(statement, ast.Expr) and isinstance(statement.value, ast.Constant)
            and isinstance(statement.value.value, str))  # fmt: skip


def _source_facts(path: Path) -> dict[str, Any]:
    """What a source file's key needs: its code's fingerprint and its imports as written (level,
    module, names: level -1 for ``import`` and for a module named by a string). Kept per
    content hash in memory and in the cache's ``code`` folder (each file with a digest of its
    content, checked when read), so that a process keys its tables without parsing the
    sources again."""
    return _facts_of(hashlib.sha256(path.read_bytes()).hexdigest(), path)


@cache
def _facts_of(digest: str, path: Path) -> dict[str, Any]:
    memo = cache_dir() / "code" / f"{digest[:32]}.json"
    try:
        facts = json.loads(memo.read_text())
        if facts["source"] == digest and _well_formed(facts) and facts["check"] == _check(facts):
            return dict(facts)
    except (OSError, ValueError, KeyError, TypeError, AttributeError):
        pass  # missing or damaged: parsed again and written anew, never served
    source = path.read_text()
    tree = _parse(source)
    _drop_type_checking(tree)
    imports: list[tuple[int, str, list[str]]] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            imports += [(-1, alias.name, []) for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            imports.append((node.level, node.module or "", [a.name for a in node.names]))
        elif isinstance(node, ast.Constant) and isinstance(node.value, str):
            if _MODULE_NAME.fullmatch(node.value):
                imports.append((-1, node.value, []))
    facts = {"source": digest, "code": source_fingerprint(source), "imports": imports}
    facts["check"] = _check(facts)
    _write_memo(memo, facts)
    return facts


def _check(facts: dict[str, Any]) -> str:
    """The digest a memo carries of its own content, checked when it is read."""
    body = json.dumps([facts["source"], facts["code"], facts["imports"]])
    return hashlib.sha256(body.encode()).hexdigest()


def _well_formed(facts: Any) -> bool:
    return (isinstance(facts.get("code"), str) and isinstance(facts.get("imports"), list)
            and all(isinstance(i, list) and len(i) == 3 and isinstance(i[0], int)
                    and isinstance(i[1], str) and isinstance(i[2], list)
                    for i in facts["imports"]))  # fmt: skip


def _write_memo(memo: Path, facts: dict[str, Any]) -> None:
    """Written atomically; a cache folder that cannot be written only costs the next process a
    parse."""
    try:
        memo.parent.mkdir(parents=True, exist_ok=True)
        with tempfile.NamedTemporaryFile("w", dir=memo.parent, delete=False,
                                         suffix=".tmp") as f:  # fmt: skip
            json.dump(facts, f)
        os.replace(f.name, memo)
    except OSError:
        pass


def _drop_type_checking(tree: ast.Module) -> None:
    for node in ast.walk(tree):
        for field in ("body", "orelse"):
            body = getattr(node, field, None)
            if isinstance(body, list):
                setattr(node, field, [s for s in body if not _is_type_checking(s)])


def _is_type_checking(statement: ast.stmt) -> bool:
    test = getattr(statement, "test", None) if isinstance(statement, ast.If) else None
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING")
