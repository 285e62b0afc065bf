"""A figure as a report prints it: its value, and the precision its printed digits carry.

>>> parse_printed("2.73%", "x")
Printed(value=Fraction(273, 10000), unit=Fraction(1, 10000), odds=False, text='2.73%')
>>> parse_printed("1 in 3,427.5", "x").odds
True
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from fractions import Fraction

from enumerate.errors import ReportFileError

_NUMBER = re.compile(r"[-+]?\d+(\.\d+)?")


@dataclass(frozen=True)
class Printed:
    """A value as a report prints it: the number, the unit of its last digit, whether it was
    printed as odds ("1 in N"), and the text."""

    value: Fraction
    unit: Fraction
    odds: bool
    text: str


def parse_printed(raw: object, where: str) -> Printed:
    """A printed value: an integer (exact), or text as printed (its digits are its
    precision); a float has lost its precision and is refused."""
    if isinstance(raw, bool | float):
        raise ReportFileError(f"{where}: value {raw!r} has no precision: write it as printed, "
                              f'in quotes ("{raw}", "{raw}%")')  # fmt: skip
    if isinstance(raw, int):
        return Printed(Fraction(raw), Fraction(1), False, str(raw))
    if not isinstance(raw, str):
        raise ReportFileError(f"{where}: value: expected the figure as printed, got {raw!r}")
    text = raw.strip()
    body = text
    odds = body.lower().startswith("1 in ")
    if odds:
        body = body[5:]
    percent = body.endswith("%")
    body = body.rstrip("%").strip().lstrip("$").replace(",", "").replace("_", "")
    if not _NUMBER.fullmatch(body):
        raise ReportFileError(f"{where}: value {raw!r} is not a number as printed (0.2855, "
                              "2.73%, 1 in 3,427.5, 12,345)")  # fmt: skip
    places = len(body.partition(".")[2])
    value, unit = Fraction(body), Fraction(1, 10**places)
    if percent:
        value, unit = value / 100, unit / 100
    return Printed(value, unit, odds, text)
