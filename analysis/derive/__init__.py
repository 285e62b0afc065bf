"""Derived rule cards: the shortest player strategies and the strongest dealer ways, found from
the exact tables by a greedy exact search and priced exactly (docs/derive.md).

>>> from enumerate.rules import Deck
>>> d = derive_strategy("traditional", "gli", 3, deck=Deck.parse("23569JQA:cd+joker"),
...                     use_cache=False)
>>> len(d.steps), d.edge(3) <= d.edge(2) <= d.edge(1) <= d.base_edge
(3, True)
"""

from analysis.derive.derive import MAX_RULES, Derivation, derive_strategy, derive_way

__all__ = ["MAX_RULES", "Derivation", "derive_strategy", "derive_way"]
