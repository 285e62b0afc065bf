"""Rendering tables for people and programs: markdown, CSV, JSON, HTML.

Markdown and HTML are for people: counts carry thousands separators, number columns are
right-aligned. CSV and JSON are for programs: plain digits, exact fractions, never touched by
the formatting here (reports are diffed on them). Under ``figure_tables`` a table writes its
summary figures (house edge, standard deviation, ...) as a small two-column table, as the
report's pages and notebooks show them; without it, as lines of text (the command line).
``html_fragment`` turns such markdown into the HTML of the report's pages, with their style.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from contextvars import ContextVar
from fractions import Fraction
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # pandas only where a DataFrame is rendered: the CLI imports this module
    import pandas as pd

FORMATS = ("md", "csv", "json", "html")
FIGURE_COLUMNS = ("figure", "value")  # the header of a summary-figures table
_INTEGER = re.compile(r"-?\d+")
# a cell that reads as a number: 12, -0.25, 1,615.00, 2.7343%, $5, 3/8 (or "-": none here)
_NUMBER = re.compile(r"-|[-+]?\$?(\d[\d,]*)?\.?\d+(e[-+]?\d+)?%?|[-+]?\d+/\d+")
_FIGURE_TABLES: ContextVar[bool] = ContextVar("figure_tables", default=False)


def count(n: int) -> str:
    """A count (of deals, hands, combinations) with thousands separators.

    >>> count(8250459031214400)
    '8,250,459,031,214,400'
    """
    return f"{n:,}"


@contextmanager
def figure_tables() -> Iterator[None]:
    """Inside it, tables render their summary figures as a two-column table (``summary_md``):
    the report's pages and notebooks. Outside, as lines of text: the command line, whose
    output is read line by line."""
    token = _FIGURE_TABLES.set(True)
    try:
        yield
    finally:
        _FIGURE_TABLES.reset(token)


def summary_md(lines: Sequence[str], figures: Sequence[tuple[str, str]]) -> str:
    """A table's summary in markdown: ``figures`` (figure, value) as a two-column table under
    ``figure_tables``, else ``lines``, one a line.

    >>> print(summary_md(["house edge: 1%"], [("house edge", "1%")]))
    house edge: 1%
    >>> with figure_tables():
    ...     print(summary_md(["house edge: 1%"], [("house edge", "1%")]))
    | figure     | value |
    |------------|-------|
    | house edge | 1%    |
    """
    if not _FIGURE_TABLES.get():
        return "\n".join(lines)
    return markdown_cells(list(FIGURE_COLUMNS), [[f, v] for f, v in figures], [False, False])


def title_md(line: str) -> str:
    """A table's title line (what was priced, on which deck): a heading under
    ``figure_tables``, else the line as it is."""
    return f"## {line}" if _FIGURE_TABLES.get() else line


def decimal(x: Fraction, digits: int = 10) -> str:
    """An exact fraction written as a rounded decimal (``digits`` places)."""
    return f"{float(x):.{digits}f}" if x.denominator != 1 else str(x.numerator)


def markdown(df: pd.DataFrame) -> str:
    """A GitHub-style markdown table, numbers right-aligned: columns of a numeric type, and
    columns of text whose every cell reads as a number (decimals, percentages, fractions)."""
    from pandas.api.types import is_numeric_dtype

    cells = [[str(v) for v in row] for row in df.itertuples(index=False)]
    numeric = [bool(is_numeric_dtype(df[c])) or numbers_only([r[i] for r in cells])
               for i, c in enumerate(df.columns)]  # fmt: skip
    return markdown_cells([str(c) for c in df.columns], cells, numeric)


def numbers_only(texts: Sequence[str]) -> bool:
    """Every non-empty text reads as a number (``-`` for a figure that does not exist counts
    as one), and one at least is a number.

    >>> numbers_only(["0.25", "-", "2.7343%"]), numbers_only(["-"]), numbers_only(["5-12-40"])
    (True, False, False)
    """
    shown = [t for t in texts if t]
    return (all(_NUMBER.fullmatch(t) for t in shown)
            and any(t != "-" for t in shown))  # fmt: skip


def markdown_cells(cols: list[str], cells: list[list[str]], numeric: list[bool]) -> str:
    """``markdown`` of a table given as its header, its rows of cell texts and which columns
    are numbers (right-aligned; their whole numbers, counts, get thousands separators).

    >>> print(markdown_cells(["hand", "n"], [["pair", "12"], ["trips", "1234"]], [False, True]))
    | hand  |     n |
    |-------|------:|
    | pair  |    12 |
    | trips | 1,234 |
    """
    cells = [[count(int(v)) if num and _INTEGER.fullmatch(v) else v
              for v, num in zip(row, numeric, strict=True)] for row in cells]  # fmt: skip
    widths = [max([len(c)] + [len(r[i]) for r in cells]) for i, c in enumerate(cols)]

    def line(values: list[str]) -> str:
        out = []
        for v, w, num in zip(values, widths, numeric, strict=True):
            out.append(v.rjust(w) if num else v.ljust(w))
        return "| " + " | ".join(out) + " |"

    rule = (
        "|"
        + "|".join(
            ("-" * (w + 1) + ":") if num else ("-" * (w + 2))
            for w, num in zip(widths, numeric, strict=True)
        )
        + "|"
    )
    return "\n".join([line(cols), rule, *(line(r) for r in cells)])


# The style of the report's tables, charts and summary figures: every rule under the class of
# the element that holds the rendered markdown (a page's <main>, a notebook's <div>), so a
# notebook's own style is left alone and the notebook's is overridden inside it.
STYLE = """
.paigow-report { font-family: system-ui, -apple-system, "Segoe UI", sans-serif; color: #1d1d1f;
                 line-height: 1.45; }
.paigow-report h1 { font-size: 1.6rem; margin: 1.2rem 0 .6rem; }
.paigow-report h2 { font-size: 1.25rem; margin: 1.6rem 0 .5rem; padding-bottom: .2rem;
                    border-bottom: 1px solid #dde0e8; }
.paigow-report table { border-collapse: collapse; margin: .6rem 0 1.2rem; font-size: .85rem;
                       width: auto; }
.paigow-report th, .paigow-report td { border: 1px solid #d6d9e2; padding: .22rem .6rem;
                                        text-align: left; vertical-align: top; }
.paigow-report th { background: #eef0f6; font-weight: 600; white-space: nowrap; }
.paigow-report td { font-variant-numeric: tabular-nums; }
.paigow-report tbody tr:nth-child(even) { background: #f8f9fb; }
.paigow-report tbody tr:hover { background: #eef4ff; }
.paigow-report table.figures { font-size: .9rem; }
.paigow-report table.figures thead { display: none; }
.paigow-report table.figures td:first-child { background: #f4f5f9; font-weight: 600;
                                              white-space: nowrap; }
.paigow-report table.figures td:last-child { max-width: 44rem; overflow-wrap: anywhere; }
.paigow-report img { display: block; max-width: min(100%, 48rem); height: auto;
                     margin: 1rem auto; }
.paigow-report code { font-size: .85em; background: #f1f2f6; padding: 0 .2em;
                      border-radius: 3px; }
"""
_FIGURES_HEAD = re.compile(
    r"<table>(\s*<thead>\s*<tr>\s*<th[^>]*>{}</th>\s*<th[^>]*>{}</th>\s*</tr>)".format(
        *FIGURE_COLUMNS))  # fmt: skip


def markdown_html(markdown_text: str) -> str:
    """Markdown as HTML (Python-Markdown, its ``tables``, ``toc`` and ``nl2br`` extensions);
    summary-figure tables (``summary_md``) get the class ``figures``."""
    import markdown as md  # here: the command line imports this module and needs no HTML

    body = md.markdown(markdown_text, extensions=["tables", "toc", "nl2br"])
    return _FIGURES_HEAD.sub(r'<table class="figures">\1', body)


def html_fragment(markdown_text: str) -> str:
    """A table's markdown (rendered under ``figure_tables``: its rows and its summary
    figures as a table) as the HTML the report's pages show, in a ``<div>`` carrying the
    pages' style scoped to it: what a notebook's ``_repr_html_`` returns.

    >>> html = html_fragment("| figure | value |\\n|---|---|\\n| house edge | 1% |")
    >>> html.startswith('<div class="paigow-report">'), '<table class="figures">' in html
    (True, True)
    """
    return (f'<div class="paigow-report">\n<style>{STYLE}</style>\n'
            f"{markdown_html(markdown_text)}\n</div>\n")  # fmt: skip


def to_json(obj: Any) -> str:
    return json.dumps(obj, indent=2, default=_json_default)


def _json_default(x: Any) -> Any:
    if isinstance(x, Fraction):
        return f"{x.numerator}/{x.denominator}"
    if hasattr(x, "item"):
        return x.item()
    raise TypeError(f"cannot write {type(x).__name__} as JSON")
