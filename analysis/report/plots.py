"""Plots shared by the report pages (files only: no screen).

Every chart is drawn ``WIDTH`` inches wide at ``DPI``: about the width a page shows it at
(``analysis.render.formats.STYLE``: at most 48rem), so its text keeps its size on the page;
figures use matplotlib's constrained layout, which fits long labels inside that width rather
than cutting them off, and ``save`` trims the margins to what is drawn."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt
from matplotlib.figure import Figure

WIDTH = 7.0  # inches
DPI = 110  # 770 pixels wide: 48rem


def save(fig: Figure, path: Path) -> None:
    """Write ``fig`` as a PNG, its margins trimmed to what is drawn, and free it."""
    fig.savefig(path, dpi=DPI, bbox_inches="tight")
    plt.close(fig)


def rule_bars(rules: Sequence[str], percents: Sequence[float], path: Path, title: str,
              xlabel: str, colour: str) -> None:  # fmt: skip
    """A horizontal bar per rule (its name cut to 70 characters), the largest on top."""
    fig, ax = plt.subplots(figsize=(WIDTH, max(2.5, len(rules) * 0.3)), layout="constrained")
    ax.barh([r[:70] for r in rules], list(percents), color=colour)
    ax.set_xlabel(xlabel, fontsize=8)
    ax.set_title(title, fontsize=10)
    ax.invert_yaxis()
    ax.tick_params(labelsize=8)
    save(fig, path)
