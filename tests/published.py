"""Read the published figures of data/published (report files, docs/games.md) for tests."""

from __future__ import annotations

import tomllib
from fractions import Fraction
from pathlib import Path
from typing import Any

from analysis.render.printed import parse_printed

PUBLISHED = Path(__file__).resolve().parents[1] / "data" / "published"


def lines(name: str) -> list[dict[str, Any]]:
    """The lines of one published report file, defaults applied: ``event`` (rows joined by
    " + "), ``figure``, ``value`` (exact, as printed) and ``tolerance`` (the stated one, else
    half a unit of the last printed digit)."""
    data = tomllib.loads((PUBLISHED / f"{name}.toml").read_text())
    defaults = data.get("defaults", {})
    out = []
    for raw in data["line"]:
        line = {**defaults, **raw}
        event = line.get("event", "")
        printed = parse_printed(line["value"], name)
        stated = line.get("tolerance")
        tolerance = (parse_printed(stated, name).value if stated is not None
                     else printed.unit / 2 if printed.unit != 1 else Fraction(0))  # fmt: skip
        out.append({**line, "event": " + ".join(event) if isinstance(event, list) else event,
                    "value": printed.value, "tolerance": tolerance})  # fmt: skip
    return out


def class_counts() -> dict[str, int]:
    """The published seven-card class counts, by event (``total``; the combined lines as
    their rows joined by " + ")."""
    return {line["event"]: int(line["value"]) for line in lines("seven_card_classes")}
