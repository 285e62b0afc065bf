"""Cache keys come from the code a table is built with: in a temp copy of the packages, a
comment edit leaves every key alone, a code change in a grouping or choice rule changes the keys
of exactly the tables built with it, and a cached table keyed by the old code is not current."""

from __future__ import annotations

import shutil
from pathlib import Path

import numpy as np
import pyarrow as pa
import pytest

from enumerate.cache import is_current, write_atomic
from enumerate.fingerprint import code_fingerprint, import_closure, imports_of
from enumerate.paths import SOURCE_ROOT

BUILDERS = ("enumerate.tables", "enumerate.waytables", "analysis.pricing.betfiles",
            "analysis.derive.classes", "analysis.pricing.counts")  # fmt: skip


@pytest.fixture
def copy(tmp_path: Path) -> Path:
    for package in ("enumerate", "analysis"):
        shutil.copytree(SOURCE_ROOT / package, tmp_path / package,
                        ignore=shutil.ignore_patterns("__pycache__"))  # fmt: skip
    return tmp_path


def _keys(root: Path) -> dict[str, str]:
    code_fingerprint.cache_clear()
    return {b: code_fingerprint(b, root) for b in BUILDERS}


def _append(path: Path, text: str) -> None:
    path.write_text(path.read_text() + text)


def test_the_copy_keys_as_the_checkout(copy):
    assert _keys(copy) == _keys(SOURCE_ROOT)


def test_a_comment_or_docstring_edit_rebuilds_nothing(copy):
    before = _keys(copy)
    scopes = copy / "analysis" / "bets" / "scopes.py"
    scopes.write_text(scopes.read_text().replace('"""What a bet', '"""# edited\nWhat a bet', 1))
    _append(copy / "enumerate" / "evaluate.py", "\n# a comment\n")
    _append(copy / "analysis" / "derive" / "classes.py", '\n\ndef _f():\n    "Doc."\n    pass\n')
    after = _keys(copy)
    # the docstring-only function still adds code: only the derive key moves
    assert {b for b in BUILDERS if before[b] != after[b]} == {"analysis.derive.classes"}


@pytest.mark.parametrize(
    ("module", "changed"),
    [
        # the bets' grouping: the bet-groups table and nothing of the engine
        ("analysis/bets/scopes.py", {"analysis.pricing.betfiles"}),
        # the derived cards' choice rule: its choices table only
        ("analysis/derive/classes.py", {"analysis.derive.classes"}),
        # the five-card evaluator: every table
        ("enumerate/evaluate.py", set(BUILDERS)),
        # a report page: no table
        ("analysis/report/site.py", set()),
    ],
)
def test_a_code_change_rebuilds_what_is_built_with_it(copy, module, changed):
    before = _keys(copy)
    _append(copy / module, "\n_EDITED = 1\n")
    after = _keys(copy)
    assert {b for b in BUILDERS if before[b] != after[b]} == changed


def test_a_table_of_the_old_code_is_not_served(copy, tmp_path):
    path = tmp_path / "t.parquet"
    code_fingerprint.cache_clear()
    bets = "analysis.pricing.betfiles"
    old = {"builder": bets, "code": code_fingerprint(bets, copy)}
    write_atomic(pa.table({"x": np.arange(3)}), path, old)
    assert is_current(path, old)
    _append(copy / "analysis" / "bets" / "scopes.py", "\n_EDITED = 1\n")
    code_fingerprint.cache_clear()
    new = {"builder": bets, "code": code_fingerprint(bets, copy)}
    assert not is_current(path, new)


def test_imports_are_followed_inside_functions_and_by_name(copy):
    module = copy / "enumerate" / "probe.py"
    module.write_text(
        "from typing import TYPE_CHECKING\n"
        "if TYPE_CHECKING:\n    from enumerate import strategy\n"
        "def f():\n    from enumerate.cards import parse_cards\n"
        "NAME = 'enumerate.symmetry'\n"
        "from enumerate.engine import keys\n"
    )
    assert imports_of("enumerate.probe", copy) == {
        "enumerate.cards", "enumerate.symmetry", "enumerate.engine.keys"}  # fmt: skip
    closure = import_closure("enumerate.probe", copy)
    assert set(import_closure("enumerate.engine.keys", copy)) < set(closure)


def test_a_damaged_code_memo_is_parsed_again_not_served(copy, tmp_path, monkeypatch):
    import json

    from enumerate import fingerprint

    monkeypatch.setenv("PAIGOW_CACHE_DIR", str(tmp_path / "cache"))
    fingerprint._facts_of.cache_clear()
    code_fingerprint.cache_clear()
    want = code_fingerprint("enumerate.tables", copy)
    memos = sorted((tmp_path / "cache" / "code").glob("*.json"))
    assert memos
    for memo in memos:  # valid JSON, wrong content: a changed fingerprint, the check unchanged
        facts = json.loads(memo.read_text())
        facts["code"] = "0" * 64
        memo.write_text(json.dumps(facts))
    fingerprint._facts_of.cache_clear()
    code_fingerprint.cache_clear()
    assert code_fingerprint("enumerate.tables", copy) == want
    memos[0].write_text("not json")
    fingerprint._facts_of.cache_clear()
    code_fingerprint.cache_clear()
    assert code_fingerprint("enumerate.tables", copy) == want
    assert json.loads(memos[0].read_text())["code"] != "0" * 64  # written anew
