"""The exact pair engine (docs/design.md): every (player, dealer) deal counted by
inclusion-exclusion over shared cards and suit symmetry.

The names below load on first use: a command that only reads cached counts (``PairCounts``
from ``enumerate.engine.pairs.counts``) does not pay for the engine's modules.
"""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from enumerate.engine.keys import EngineKeys, build_keys
    from enumerate.engine.pairs.counts import PairCounts
    from enumerate.engine.pairs.run import run_engine

_WHERE = {
    "PairCounts": "enumerate.engine.pairs.counts",
    "EngineKeys": "enumerate.engine.keys",
    "build_keys": "enumerate.engine.keys",
    "run_engine": "enumerate.engine.pairs.run",
}

__all__ = ["EngineKeys", "PairCounts", "build_keys", "run_engine"]


def __getattr__(name: str) -> Any:
    if name in _WHERE:
        return getattr(import_module(_WHERE[name]), name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
