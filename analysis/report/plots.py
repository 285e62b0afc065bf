"""Plots shared by the report pages (files only: no screen)."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt


def rule_bars(rules: Sequence[str], percents: Sequence[float], path: Path, title: str,
              xlabel: str, colour: str) -> None:  # fmt: skip
    """A horizontal bar per rule (its name cut to 70 characters), the largest on top."""
    fig, ax = plt.subplots(figsize=(10, max(3, len(rules) * 0.4)))
    ax.barh([r[:70] for r in rules], list(percents), color=colour)
    ax.set_xlabel(xlabel)
    ax.set_title(title)
    ax.invert_yaxis()
    ax.tick_params(axis="y", labelsize=7)
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)
