"""The exact pair engine (DESIGN.md): every (player, dealer) deal counted by
inclusion-exclusion over shared cards and suit symmetry."""

from enumerate.engine.counts import PairCounts
from enumerate.engine.keys import EngineKeys, build_keys
from enumerate.engine.run import run_engine

__all__ = ["EngineKeys", "PairCounts", "build_keys", "run_engine"]
