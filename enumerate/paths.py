"""Where the toolkit's files are: the shipped data (rule cards, variants, bets, published
figures) and the cache.

In a checkout the data is the ``data/`` folder beside the packages; an installed package carries
it as package data in ``enumerate/data`` (``pyproject.toml`` maps one to the other), so the same
names work in both.

>>> (data_dir() / "variants").is_dir()
True
"""

from __future__ import annotations

import os
from pathlib import Path

_PACKAGE = Path(__file__).resolve().parent
SOURCE_ROOT = _PACKAGE.parent  # the folder holding the packages ``enumerate`` and ``analysis``


def data_dir() -> Path:
    """The shipped data: ``enumerate/data`` when installed, else ``data/`` of the checkout."""
    installed = _PACKAGE / "data"
    return installed if installed.is_dir() else SOURCE_ROOT / "data"


def cache_dir() -> Path:
    """``$PAIGOW_CACHE_DIR`` if set, else ``data/cache`` of the checkout, else (installed)
    ``~/.cache/paigow``; created if missing."""
    env = os.environ.get("PAIGOW_CACHE_DIR")
    if env:
        path = Path(env)
    elif (_PACKAGE / "data").is_dir():
        path = Path.home() / ".cache" / "paigow"
    else:
        path = SOURCE_ROOT / "data" / "cache"
    path.mkdir(parents=True, exist_ok=True)
    return path
