"""Flag commit hashes and dates in the comments and docstrings of Python files.

Comments and docstrings say what the code does and why. Measurements live in the benchmarks'
output and in docs/performance.md, history lives in git; so a commit hash or a date in a comment
or docstring is a sign of a diary entry that went stale the day it was written.

Run as ``python -m tests.lint_comments enumerate analysis tests benchmarks notebooks``: one line
``path:line: what`` per hit, exit status 1 when there is any hit and 0 when there is none.

Only comments (read with :mod:`tokenize`) and module, class and function docstrings (read with
:mod:`ast`) are checked; code and other string literals are not, so a hex literal, a digest
held in a test's expected value or a date format string are never flagged.

What is flagged:

- a commit hash: a standalone word of 7 to 40 lower-case hex digits with at least one digit and
  one letter a-f (git writes hashes in lower case). A word of letters only (``deadbeef`` needs
  a digit, ``facade`` too), a number (no letter), a ``0x...`` literal (the ``x`` joins it to a
  longer word), a card string (``As Ks``), a float in exponent form (``1234567e8``,
  ``1.5e+30``) or a binary literal (``0b1011001``) is not;
- a date: an ISO date ``YYYY-MM-DD`` with a year from 1990 to 2099, or a month name or its
  abbreviation with such a year, written day month year, month day year (a comma allowed
  before the year) or month year.

>>> [hit.what.split(" '")[0] for hit in check_source("x = 0x1f2e3d4c5b  # see 4ab" + "c0de\\n")]
['commit hash']
>>> check_source("'''Fast: 2,869,685 hands, the As Ks case, 1234567e8.'''\\n")
[]
"""

from __future__ import annotations

import ast
import io
import re
import sys
import tokenize
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path

_HEX_WORD = re.compile(r"(?<![0-9A-Za-z_])[0-9a-f]{7,40}(?![0-9A-Za-z_])")
# numbers written with hex digits: a float in exponent form (``1234567e8``, and the digits
# before the "e+" or "e-" of ``1.7976931348623157e+308``) and a binary literal (``0b10110110``)
_NUMBER = re.compile(r"\d+e\d*|0b[01]+")

_YEAR = r"(?:199\d|20\d\d)"
_MONTH = (
    r"(?:Jan(?:uary)?|Feb(?:ruary)?|Mar(?:ch)?|Apr(?:il)?|May|June?|July?|Aug(?:ust)?"
    r"|Sep(?:t(?:ember)?)?|Oct(?:ober)?|Nov(?:ember)?|Dec(?:ember)?)\.?"
)
_DAY = r"(?:[12]\d|3[01]|0?[1-9])(?:st|nd|rd|th)?"
_DATES = (
    re.compile(rf"(?<![\w-]){_YEAR}-(?:0[1-9]|1[0-2])-(?:0[1-9]|[12]\d|3[01])(?![\w-])"),
    re.compile(rf"(?<!\w){_DAY} {_MONTH},? {_YEAR}(?!\w)"),
    re.compile(rf"(?<!\w){_MONTH} {_DAY},? {_YEAR}(?!\w)"),
    re.compile(rf"(?<!\w){_MONTH},? {_YEAR}(?!\w)"),
)


@dataclass(frozen=True)
class Hit:
    """One finding: the line it is on (1-based) and what was found."""

    line: int
    what: str


def _hits_in_text(text: str, where: str) -> Iterator[str]:
    """What is wrong with one line of a comment or docstring (`where` names which)."""
    for match in _HEX_WORD.finditer(text):
        word = match.group()
        if not (re.search(r"\d", word) and re.search(r"[a-f]", word)):
            continue  # all letters (an English word) or all digits (a number)
        after = text[match.end() : match.end() + 1]  # "+" or "-" after "...e": an exponent's sign
        if _NUMBER.fullmatch(word) and (not word.endswith("e") or (after and after in "+-")):
            continue
        yield f"commit hash {word!r} in {where}"
    seen: set[tuple[int, int]] = set()
    for pattern in _DATES:
        for match in pattern.finditer(text):
            span = match.span()
            # a longer date pattern already matched this text (a day, month and year holds a
            # month and year): report it once
            if any(start <= span[0] and span[1] <= end for start, end in seen):
                continue
            seen.add(span)
            yield f"date {match.group()!r} in {where}"


def _docstring_nodes(tree: ast.Module) -> Iterator[ast.Constant]:
    """The string constants that are module, class or function docstrings."""
    owners: Iterable[ast.AST] = (tree, *ast.walk(tree))
    for node in owners:
        if not isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef):
            continue
        body = node.body
        if (
            body
            and isinstance(body[0], ast.Expr)
            and isinstance(body[0].value, ast.Constant)
            and isinstance(body[0].value.value, str)
        ):
            yield body[0].value


def check_source(source: str) -> list[Hit]:
    """The hits in one file's text, by line, comments and docstrings only.

    A docstring is read from the source text between its node's start and end, so every hit
    carries the physical line it is on.
    """
    hits: list[Hit] = []
    lines = source.splitlines()
    tree = ast.parse(source)
    seen: set[int] = set()
    for node in _docstring_nodes(tree):
        if id(node) in seen or node.end_lineno is None or node.end_col_offset is None:
            continue
        seen.add(id(node))
        for number in range(node.lineno, node.end_lineno + 1):
            # ast's column offsets count UTF-8 bytes, not characters
            raw = lines[number - 1].encode("utf-8")
            if number == node.end_lineno:
                raw = raw[: node.end_col_offset]
            if number == node.lineno:
                raw = raw[node.col_offset :]
            text = raw.decode("utf-8", errors="replace")
            hits.extend(Hit(number, what) for what in _hits_in_text(text, "a docstring"))
    for token in tokenize.generate_tokens(io.StringIO(source).readline):
        if token.type == tokenize.COMMENT:
            hits.extend(
                Hit(token.start[0], what) for what in _hits_in_text(token.string, "a comment")
            )
    return sorted(hits, key=lambda hit: hit.line)


def python_files(paths: Iterable[str]) -> Iterator[Path]:
    """The Python files named, or under the directories named, in a stable order."""
    for name in paths:
        path = Path(name)
        if path.is_dir():
            yield from sorted(
                file
                for file in path.rglob("*.py")
                if not any(
                    part.startswith(".") or part == "__pycache__"
                    for part in file.relative_to(path).parts
                )
            )
        else:
            yield path


def main(argv: list[str] | None = None) -> int:
    """Check the files and directories named on the command line; 1 when anything is found."""
    args = sys.argv[1:] if argv is None else argv
    if not args:
        print("usage: python -m tests.lint_comments PATH [PATH ...]", file=sys.stderr)
        return 2
    found = 0
    for path in python_files(args):
        try:
            hits = check_source(path.read_text(encoding="utf-8"))
        except (SyntaxError, tokenize.TokenError, UnicodeDecodeError) as error:
            line = getattr(error, "lineno", None) or 1
            hits = [Hit(line, f"cannot read the file: {error.__class__.__name__}")]
        for hit in hits:
            print(f"{path}:{hit.line}: {hit.what}")
        found += len(hits)
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main())
