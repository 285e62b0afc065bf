"""Rendering tables for people and programs: markdown, CSV, JSON, HTML."""

from __future__ import annotations

import json
from fractions import Fraction
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # pandas only where a DataFrame is rendered: the CLI imports this module
    import pandas as pd

FORMATS = ("md", "csv", "json", "html")


def decimal(x: Fraction, digits: int = 10) -> str:
    """An exact fraction written as a rounded decimal (``digits`` places)."""
    return f"{float(x):.{digits}f}" if x.denominator != 1 else str(x.numerator)


def markdown(df: pd.DataFrame) -> str:
    """A GitHub-style markdown table, numbers right-aligned."""
    from pandas.api.types import is_numeric_dtype

    cells = [[str(v) for v in row] for row in df.itertuples(index=False)]
    return markdown_cells([str(c) for c in df.columns], cells,
                          [bool(is_numeric_dtype(df[c])) for c in df.columns])  # fmt: skip


def markdown_cells(cols: list[str], cells: list[list[str]], numeric: list[bool]) -> str:
    """``markdown`` of a table given as its header, its rows of cell texts and which columns
    are numbers (right-aligned).

    >>> print(markdown_cells(["hand", "n"], [["pair", "12"]], [False, True]))
    | hand |  n |
    |------|---:|
    | pair | 12 |
    """
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


def to_json(obj: Any) -> str:
    return json.dumps(obj, indent=2, default=_json_default)


def _json_default(x: Any) -> Any:
    if isinstance(x, Fraction):
        return f"{x.numerator}/{x.denominator}"
    if hasattr(x, "item"):
        return x.item()
    raise TypeError(f"cannot write {type(x).__name__} as JSON")
