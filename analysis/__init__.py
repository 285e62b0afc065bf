"""Exact pai gow poker analysis: the public API.

Everything a notebook or a script needs is importable from here::

    from analysis import Player, return_table, side_bet, optimal_strategy

    t = return_table("face-up", way="trump-plaza", player=Player.BEST_RESPONSE)
    t                # in Jupyter: the report's HTML table with its summary
    t.house_edge     # an exact Fraction
    t.table          # a DataFrame with the exact columns

The functions are those of ``analysis.api`` (their docstrings say what each returns). Each
imports its machinery when called, so ``import analysis`` (and the command line) stays light.
"""

from analysis.api import *  # noqa: F403
from analysis.api import __all__ as __all__
