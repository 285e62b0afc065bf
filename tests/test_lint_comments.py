"""The comment lint (``tests/lint_comments.py``): commit hashes and dates in comments and
docstrings are flagged on their own line; code, other string literals, numbers, card strings
and English words are not; the command exits 1 with one line per hit, 0 when clean."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.lint_comments import check_source, main

# Sources that must be flagged: (source, line of the hit, what the hit names). The samples live
# in string literals of this file, which the lint itself does not read.
FLAGGED = [
    ("x = 1  # made fast in e69d082\n", 1, "commit hash 'e69d082' in a comment"),
    ('"""Module: see 4fe213e for the figures."""\n', 1, "commit hash '4fe213e' in a docstring"),
    (
        "def f():\n    '''Kernel.\n\n    Sped up by d657418a9c0b1e2f3a4b5c6d7e8f90123456789a.\n"
        "    '''\n",
        4,
        "commit hash 'd657418a9c0b1e2f3a4b5c6d7e8f90123456789a' in a docstring",
    ),
    ("class C:\n    '''Rebuilt for 204bc62.'''\n", 2, "commit hash '204bc62' in a docstring"),
    ("y = 2\n# the measurements until 2026-12-03\n", 2, "date '2026-12-03' in a comment"),
    ("# fresh clones of 4 December 2026\n", 1, "date '4 December 2026' in a comment"),
    ('"""Measured on December 4, 2026."""\n', 1, "date 'December 4, 2026' in a docstring"),
    ("def g():\n    '''As of Dec 2026.'''\n", 2, "date 'Dec 2026' in a docstring"),
    ("# since Sept. 3rd 1999\n", 1, "date 'Sept. 3rd 1999' in a comment"),
]

# Sources that must not be flagged: hashes and dates in code or in string literals that are
# not docstrings, hex literals, numbers, card strings and words of hex letters only.
CLEAN = [
    "MASK = 0x1f2e3d4c5b6a  # one suit's rank bits, as a hex literal\n",
    "DIGEST = 'e69d082f00d1'  # a string literal in code is not checked\n",
    "def f():\n    x = 1\n    'e69d082 2026-12-04 is a string, not a docstring'\n    return x\n",
    "SEED = 20261130\nWHEN = '2026-12-04'\n",
    "# 6,972,147 classes, 223,896 groups, C(46,7) = 53,524,680 and 154143080 hands\n",
    '"""A deadbeef, a facade, a decade: English words with no digit."""\n',
    "# the hands As Ks Qs Js Ts 2c Jk and Ad Kd 2c 3d, a float 1234567e8, ids 0..90\n",
    "# May the best hand win; 2026 hands of the deck in March\n",
    "# a 64-bit mask, the int64 records, bits 0-13, a 2-D grid, 128 MB\n",
    "# floats 1.7976931348623157e+308 and 2.5e-10, a binary 0b10110110\n",
]


@pytest.mark.parametrize(("source", "line", "what"), FLAGGED)
def test_flags_hashes_and_dates_in_comments_and_docstrings(source: str, line: int,
                                                           what: str) -> None:  # fmt: skip
    hits = check_source(source)
    assert [(hit.line, hit.what) for hit in hits] == [(line, what)]


@pytest.mark.parametrize("source", CLEAN)
def test_leaves_code_literals_numbers_and_words_alone(source: str) -> None:
    assert check_source(source) == []


def test_reports_each_hit_of_a_line() -> None:
    hits = check_source("# e69d082 and 4fe213e, 2026-12-04\n")
    assert [hit.what.split(" '")[0] for hit in hits] == ["commit hash", "commit hash", "date"]


def test_the_command_exits_1_with_one_line_per_hit(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    pkg = tmp_path / "pkg"
    pkg.mkdir()
    (pkg / "clean.py").write_text(CLEAN[0])
    (pkg / "dirty.py").write_text("x = 1\n# see e69d082\n# on 2026-12-04\n")
    assert main([str(pkg)]) == 1
    out = capsys.readouterr().out.splitlines()
    assert out == [
        f"{pkg / 'dirty.py'}:2: commit hash 'e69d082' in a comment",
        f"{pkg / 'dirty.py'}:3: date '2026-12-04' in a comment",
    ]
    (pkg / "dirty.py").write_text("x = 1  # clean now\n")
    assert main([str(pkg)]) == 0
    assert capsys.readouterr().out == ""
