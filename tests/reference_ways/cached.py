"""The shipped ways' kernels for setting every hand, which numba caches (``HouseWay.kernel``).

``base.set_range`` and ``base.set_range_read`` take the way's ``choose`` as an argument, whose type
is the function object, new in every process, so numba compiles them again in every process that
sets hands, a long compile (longest for gli's readings). A kernel here calls them with one way's
``choose``, read as an attribute of the way's module: numba then compiles the call in with no
address of this process in it, and caches the kernel (a ``choose`` imported by name would be such an
address, and keep it out of the cache; ``tests/test_waytables.py`` checks that a second process
reads the kernel from the cache).
"""

from __future__ import annotations

from numba import njit

from enumerate.houseways.apply import set_range, set_range_read
from tests.reference_ways import foxwoods, gli, max_back, trump_plaza


@njit(cache=True, nogil=True)
def set_gli(lo, hi, cards, ids5, max_low, category5, royal_id, n_rules, params, same, setting,
            rule, high, low):  # fmt: skip
    """Every reading of gli in ``params`` (``set_range_read``)."""
    set_range_read(lo, hi, cards, ids5, max_low, category5, royal_id, n_rules, gli.choose_read,
                   gli.clauses_read, params, same, setting, rule, high, low)  # fmt: skip


@njit(cache=True, nogil=True)
def set_trump_plaza(lo, hi, cards, ids5, max_low, category5, royal_id, n_rules, setting, rule,
                    high, low):  # fmt: skip
    set_range(lo, hi, cards, ids5, max_low, category5, royal_id, n_rules, trump_plaza.choose,
              setting, rule, high, low)  # fmt: skip


@njit(cache=True, nogil=True)
def set_foxwoods(lo, hi, cards, ids5, max_low, category5, royal_id, n_rules, setting, rule,
                 high, low):  # fmt: skip
    set_range(lo, hi, cards, ids5, max_low, category5, royal_id, n_rules, foxwoods.choose,
              setting, rule, high, low)  # fmt: skip


@njit(cache=True, nogil=True)
def set_max_back(lo, hi, cards, ids5, max_low, category5, royal_id, n_rules, setting, rule,
                 high, low):  # fmt: skip
    set_range(lo, hi, cards, ids5, max_low, category5, royal_id, n_rules, max_back.choose,
              setting, rule, high, low)  # fmt: skip
