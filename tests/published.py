"""Read the published figures in data/published/*.toml (for tests)."""

from __future__ import annotations

import tomllib
from pathlib import Path
from typing import Any

PUBLISHED = Path(__file__).resolve().parents[1] / "data" / "published"


def figures(name: str) -> dict[str, dict[str, Any]]:
    """Figures of one published file, by figure name, defaults applied."""
    data = tomllib.loads((PUBLISHED / f"{name}.toml").read_text())
    defaults = data.get("defaults", {})
    return {f["figure"]: {**defaults, **f} for f in data["figures"]}
