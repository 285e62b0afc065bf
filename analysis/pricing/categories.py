"""The seven-card class table: how many of the deck's hands fall in each Fortune class."""

from __future__ import annotations

from fractions import Fraction

import pandas as pd

from enumerate.classes import SevenCardClass
from enumerate.rules import Deck, Rules
from enumerate.tables import hand_table


def category_table(deck: Deck | None = None, rules: Rules | None = None) -> pd.DataFrame:
    """Exact counts of the seven-card classes, strongest first, with a total row.

    Columns: ``class``, ``combinations`` (int), ``probability`` (``Fraction``).
    """
    table = hand_table(deck, rules)
    counts = table.class_counts()
    total = table.total
    rows = [
        {"class": c.label, "combinations": counts[c], "probability": Fraction(counts[c], total)}
        for c in sorted(SevenCardClass, reverse=True)
    ]
    rows.append({"class": "total", "combinations": total, "probability": Fraction(1)})
    return pd.DataFrame(rows)
