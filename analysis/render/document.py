"""A document of sections, paragraphs and tables of exact values, rendered as Markdown, HTML
(one printable page), CSV and JSON per table. ``analysis.render.pdf`` renders the same document
as a PDF, so every form of a math report shows the same cells.

A table's cells are exact: ``int`` counts, ``Fraction`` figures, or text; each column says how
its numbers are shown to people (a count with separators, a decimal or a percentage to so many
places). CSV and JSON carry the exact values (a fraction as ``n/d``), for programs and diffs.

>>> t = Table("odds", "Odds", (Column("event"), Column("combinations", COUNT),
...           Column("probability", DECIMAL, 4)), (("win", 3, Fraction(3, 8)),
...           ("loss", 5, Fraction(5, 8)), ("total", 8, Fraction(1))), total=True)
>>> print(t.markdown())
| event | combinations | probability |
|:---|---:|---:|
| win | 3 | 0.3750 |
| loss | 5 | 0.6250 |
| **total** | **8** | **1.0000** |
>>> t.value("loss", "probability")
Fraction(5, 8)
>>> print(t.csv().strip())
event,combinations,probability
win,3,3/8
loss,5,5/8
total,8,1
"""

from __future__ import annotations

import csv
import html
import io
from collections.abc import Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Final, Literal

from analysis.render.formats import to_json

Kind = Literal["text", "count", "decimal", "percent"]
TEXT: Final = "text"
COUNT: Final = "count"
DECIMAL: Final = "decimal"
PERCENT: Final = "percent"


@dataclass(frozen=True)
class Figure:
    """An exact value shown as ``text``: a cell whose form is its own (a percentage in a
    column of mixed figures)."""

    value: Fraction | int
    text: str


Cell = int | Fraction | str | Figure | None  # None: no such figure (shown as "-")


@dataclass(frozen=True)
class Column:
    """A column: its name, how its numbers are shown and to how many places."""

    name: str
    kind: Kind = TEXT
    digits: int = 0

    def show(self, value: Cell) -> str:
        """The cell as people read it."""
        if value is None:
            return "-"
        if isinstance(value, Figure):
            return value.text
        if isinstance(value, str):
            return value
        x = Fraction(value)
        if self.kind == COUNT and x.denominator == 1:
            return f"{int(x):,}"
        if self.kind == PERCENT:
            return f"{float(100 * x):,.{self.digits}f}%"
        if self.kind in (COUNT, DECIMAL):
            return f"{float(x):,.{self.digits}f}"
        return str(value)


def exact_text(value: Cell) -> str:
    """A cell for programs: an integer, ``n/d``, or the text."""
    if value is None:
        return ""
    if isinstance(value, Figure):
        value = value.value
    if isinstance(value, Fraction):
        return str(value.numerator) if value.denominator == 1 else f"{value.numerator}/" \
            f"{value.denominator}"
    return str(value)


@dataclass(frozen=True)
class Table:
    """A titled table of exact cells. ``key`` names its CSV and JSON files and is how a
    report file addresses it; the first column names the rows; ``total``: the last row is a
    total (shown in bold)."""

    key: str
    title: str
    columns: tuple[Column, ...]
    rows: tuple[tuple[Cell, ...], ...]
    notes: tuple[str, ...] = ()
    total: bool = False

    def __post_init__(self) -> None:
        for row in self.rows:
            if len(row) != len(self.columns):
                raise AssertionError(f"table {self.key}: a row of {len(row)} cells, "
                                     f"{len(self.columns)} columns")  # fmt: skip

    @property
    def names(self) -> tuple[str, ...]:
        return tuple(c.name for c in self.columns)

    @property
    def row_names(self) -> tuple[str, ...]:
        return tuple(exact_text(row[0]) for row in self.rows)

    def value(self, row: str, column: str) -> Fraction | int | str | None:
        """The exact cell of the row named ``row`` (its first cell) and ``column``
        (``KeyError`` naming what there is when either is missing)."""
        if column not in self.names:
            raise KeyError(f"no column {column!r} (columns: {', '.join(self.names[1:])})")
        for r in self.rows:
            if exact_text(r[0]) == row:
                cell = r[self.names.index(column)]
                return cell.value if isinstance(cell, Figure) else cell
        raise KeyError(f"no row {row!r} (rows: {', '.join(self.row_names)})")

    def shown(self) -> list[list[str]]:
        return [[c.show(v) for c, v in zip(self.columns, row, strict=True)] for row in self.rows]

    def markdown(self) -> str:
        cells = self.shown()
        if self.total and cells:
            cells[-1] = [f"**{c}**" if c else c for c in cells[-1]]
        head = "| " + " | ".join(self.names) + " |"
        rule = "|" + "|".join(":---" if c.kind == TEXT else "---:" for c in self.columns) + "|"
        body = ["| " + " | ".join(c.replace("|", "\\|") for c in row) + " |" for row in cells]
        return "\n".join([head, rule, *body])

    def html(self) -> str:
        head = "".join(f"<th>{html.escape(n)}</th>" for n in self.names)
        body = []
        for i, row in enumerate(self.shown()):
            cls = ' class="total"' if self.total and i == len(self.rows) - 1 else ""
            cells = "".join(
                f'<td class="{"text" if c.kind == TEXT else "num"}">{html.escape(v)}</td>'
                for c, v in zip(self.columns, row, strict=True))  # fmt: skip
            body.append(f"<tr{cls}>{cells}</tr>")
        return (f'<table id="{html.escape(self.key)}"><thead><tr>{head}</tr></thead>'
                f"<tbody>{''.join(body)}</tbody></table>")  # fmt: skip

    def csv(self) -> str:
        out = io.StringIO()
        writer = csv.writer(out, lineterminator="\n")
        writer.writerow(self.names)
        writer.writerows([[exact_text(v) for v in row] for row in self.rows])
        return out.getvalue()

    def to_dict(self) -> dict[str, object]:
        return {"key": self.key, "title": self.title, "columns": list(self.names),
                "rows": [[_plain(v) for v in row] for row in self.rows],
                "exact": [[exact_text(v) for v in row] for row in self.rows],
                "notes": list(self.notes)}  # fmt: skip

    def json(self) -> str:
        return to_json(self.to_dict())


def _plain(value: Cell) -> int | float | str | None:
    """A cell for JSON readers: a number (float for a fraction) or text."""
    if isinstance(value, Figure):
        value = value.value
    if isinstance(value, Fraction):
        return value.numerator if value.denominator == 1 else float(value)
    return value


@dataclass(frozen=True)
class Section:
    """A numbered section: paragraphs, then bullet lines, then tables, in that order; or any
    order as ``blocks`` (a ``str`` a paragraph, a tuple of ``str`` bullets, a ``Table``)."""

    title: str
    blocks: tuple[str | tuple[str, ...] | Table, ...] = ()

    @property
    def tables(self) -> list[Table]:
        return [b for b in self.blocks if isinstance(b, Table)]


@dataclass(frozen=True)
class Document:
    """A titled document of sections; ``meta``: (label, value) lines under the title."""

    title: str
    sections: tuple[Section, ...]
    meta: tuple[tuple[str, str], ...] = field(default=())

    @property
    def tables(self) -> list[Table]:
        return [t for s in self.sections for t in s.tables]

    def table(self, key: str) -> Table:
        for t in self.tables:
            if t.key == key:
                return t
        raise KeyError(key)

    def contents(self) -> list[str]:
        """The table of contents: the numbered section titles."""
        return [f"{i}. {s.title}" for i, s in enumerate(self.sections, 1)]

    def markdown(self) -> str:
        out = [f"# {self.title}", ""]
        out += [f"- **{label}**: {value}" for label, value in self.meta]
        out += ["", "## Contents", "", *self.contents(), ""]
        for i, s in enumerate(self.sections, 1):
            out += [f"## {i}. {s.title}", ""]
            for b in s.blocks:
                if isinstance(b, Table):
                    out += [f"### {b.title}", "", b.markdown(), ""]
                    out += [f"*{note}*" + "\n" for note in b.notes]
                elif isinstance(b, tuple):
                    out += [f"- {line}" for line in b] + [""]
                else:
                    out += [b, ""]
        return "\n".join(out).rstrip() + "\n"

    def html(self) -> str:
        e = html.escape
        body = [f"<h1>{e(self.title)}</h1>", "<dl>"]
        body += [f"<dt>{e(label)}</dt><dd>{e(value)}</dd>" for label, value in self.meta]
        body += ["</dl>", "<h2>Contents</h2>", "<ol>"]
        body += [f'<li><a href="#s{i}">{e(s.title)}</a></li>'
                 for i, s in enumerate(self.sections, 1)]  # fmt: skip
        body.append("</ol>")
        for i, s in enumerate(self.sections, 1):
            body.append(f'<section id="s{i}"><h2>{i}. {e(s.title)}</h2>')
            for b in s.blocks:
                if isinstance(b, Table):
                    body.append(f"<h3>{e(b.title)}</h3>{b.html()}")
                    body += [f'<p class="note">{e(n)}</p>' for n in b.notes]
                elif isinstance(b, tuple):
                    body.append("<ul>" + "".join(f"<li>{e(x)}</li>" for x in b) + "</ul>")
                else:
                    body.append(f"<p>{e(b)}</p>")
            body.append("</section>")
        return (f"<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>{e(self.title)}"
                f"</title><style>{STYLE}</style></head><body>\n" + "\n".join(body)
                + "\n</body></html>\n")  # fmt: skip


STYLE = """
body { font-family: Georgia, serif; max-width: 60rem; margin: 2rem auto; padding: 0 1rem;
       color: #111; line-height: 1.4; }
h1 { font-size: 1.7rem; border-bottom: 2px solid #333; padding-bottom: .3rem; }
h2 { font-size: 1.3rem; margin-top: 2rem; border-bottom: 1px solid #999; }
h3 { font-size: 1.05rem; margin: 1.2rem 0 .4rem; }
dl { display: grid; grid-template-columns: max-content auto; gap: .1rem 1rem; }
dt { font-weight: bold; } dd { margin: 0; }
table { border-collapse: collapse; font-family: Helvetica, Arial, sans-serif;
        font-size: .85rem; margin-bottom: .5rem; }
th, td { border: 1px solid #bbb; padding: .15rem .5rem; }
th { background: #eee; } td.num { text-align: right; font-variant-numeric: tabular-nums; }
tr.total td { font-weight: bold; border-top: 2px solid #333; }
p.note { font-size: .85rem; color: #444; margin: .2rem 0; }
@media print { body { margin: 0; max-width: none; } section { break-inside: auto; }
               table, h3 { break-inside: avoid; } a { color: inherit; } }
"""


def tables_named(tables: Sequence[Table]) -> dict[str, Table]:
    """Tables by key; a key given twice is a bug of the builder."""
    out: dict[str, Table] = {}
    for t in tables:
        if t.key in out:
            raise AssertionError(f"two tables with the key {t.key!r}")
        out[t.key] = t
    return out
