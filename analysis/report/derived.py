"""The report's pages of derived rule cards (``analysis.derive``): per game, the curve of exact
house edges against the number of rules, the cards at a few sizes as a casino posts them, the
largest as a card file, and the hands it still sets worse than the limit."""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction
from pathlib import Path
from typing import TYPE_CHECKING

import pandas as pd

from analysis.derive import Derivation
from analysis.derive.classes import forget
from analysis.derive.derive import derive_way
from analysis.games.variants import exposed_variants
from analysis.render.formats import decimal, markdown
from analysis.report.plots import WIDTH, plt, save
from analysis.waylab.wayedge import house_optimal, price_dealer_way
from analysis.waylab.ways import CASINO_WAYS

if TYPE_CHECKING:
    from analysis.waylab.wayedge import DealerLab, HouseOptimal

SECTION = "Derived rule cards"
REPORT_RULES = 12  # rules of the largest card the report derives
SHOWN = (3, 6, 12)  # the sizes of card a page prints


def _pct(x: Fraction) -> str:
    return f"{float(x) * 100:.4f}%"


def plot_curve(d: Derivation, path: Path, marks: dict[str, Fraction]) -> None:
    """The house edge against the number of rules, with the base, the limit and ``marks``
    (other cards' edges) as lines."""
    ks = list(range(len(d.steps) + 1))
    fig, ax = plt.subplots(figsize=(WIDTH, 3.6), layout="constrained")
    ax.plot(ks, [float(d.edge(k)) * 100 for k in ks], marker="o", color="#2a6f97")
    limit = "optimal play" if d.side == "strategy" else "house-optimal ceiling"
    ax.axhline(float(d.limit_edge) * 100, color="#3a7d44", linestyle="--", label=limit)
    same: dict[Fraction, list[str]] = {}  # ways of one edge share a line and a label
    for name, edge in marks.items():
        same.setdefault(edge, []).append(name)
    for i, (edge, names) in enumerate(sorted(same.items())):
        ax.axhline(float(edge) * 100, color="#999999", linewidth=0.8, linestyle=":")
        left = i % 2 == 1  # neighbouring labels at opposite ends, so close edges stay legible
        ax.annotate(", ".join(names), (0 if left else len(ks) - 1, float(edge) * 100),
                    fontsize=7, color="#666666", ha="left" if left else "right",
                    va="bottom")  # fmt: skip
    ax.set_xlabel(f"derived rules before {d.base.name}", fontsize=8)
    ax.set_ylabel("house edge (%)", fontsize=8)
    who = "player strategy" if d.side == "strategy" else "dealer's way"
    ax.set_title(f"Derived {who}, {d.game}, against {d.against}", fontsize=10)
    ax.legend(fontsize=7)
    ax.tick_params(labelsize=8)
    save(fig, path)


def _decimals(frame: pd.DataFrame) -> pd.DataFrame:
    return frame.assign(cost=[decimal(x, 8) for x in frame["cost"]],
                        **{"given up per hand": [decimal(x, 6)
                                                 for x in frame["given up per hand"]]})


def derived_page(out: Path, d: Derivation, casino: dict[str, Fraction] | None = None) -> str:
    """Write the page of one derivation (and its card file and plot); returns its index line.
    ``casino``: other ways' house edges in the game, to name the smallest card beating each."""
    stem = f"derived-{d.side}-{d.game}"
    k = len(d.steps)
    lines = [f"# Derived {'player strategy' if d.side == 'strategy' else 'dealer way'}: "
             f"{d.game}, against {d.against}", "",
             "Each card is its derived rules tried before the base card "
             f"{d.base.name}; each edge is exact, from the exact tables (docs/derive.md).", ""]
    lines += [f"- {line}" for line in d.summary()]
    beats = d.beating(casino or {})
    if beats:
        lines += ["", "The smallest derived card that beats each casino way in this game:", ""]
        lines += [f"- {b}" for b in beats]
    curve = d.curve()
    curve["house edge"] = [decimal(x, 8) for x in curve["house edge"]]
    curve["share of gain"] = [f"{float(x):.1%}" for x in curve["share of gain"]]
    lines += ["", f"![curve]({stem}.png)", "", markdown(curve), ""]
    for size in [s for s in SHOWN if s < k] + [k]:
        lines += [f"## The card of {size} rules", "", "```", d.posted(size).rstrip(), "```", ""]
    if k:
        (out / f"{stem}.toml").write_text(d.card_text(k))
        lines += [f"The card of {k} rules as a card file: [{stem}.toml]({stem}.toml) "
                  "(`paigow way check`, `--house-way` and `--player-way` read it).", "",
                  f"## Hands the card of {k} rules still sets worse than the limit", "",
                  "By rank pattern and the two settings, most given up first; `cost` is the "
                  "house edge they account for.", "",
                  markdown(_decimals(d.still_worse(k, 25))), ""]  # fmt: skip
    plot_curve(d, out / f"{stem}.png", casino or {})
    (out / f"{stem}.md").write_text("\n".join(lines) + "\n")
    n90 = d.rules_for(0.9)
    return (f"- [{d.game}, {'player' if d.side == 'strategy' else 'dealer'} against "
            f"{d.against}]({stem}.md): {_pct(d.base_edge)} by {d.base.name}, "
            f"{_pct(d.edge(k))} with {k} rules, {_pct(d.limit_edge)} at the limit; 90% of "
            "the gain " + (f"with {n90} rules" if n90 is not None else f"not within {k}"))


def dealer_pages(out: Path, lab: DealerLab, n_rules: int = REPORT_RULES,
                 games: dict[str, tuple[HouseOptimal, dict[str, Fraction]]] | None = None,
                 log: Callable[[str], None] = print) -> list[str]:  # fmt: skip
    """The derived dealer's cards of every exposed game against best-responding players, on
    ``lab`` (their per-dealer table): a page each in ``out``; returns their index lines.
    ``games``: each game's house-optimal dealer on ``lab`` and the casino ways' house edges,
    where at hand (else found here)."""

    lines = []
    for variant in exposed_variants():
        log(f"derived dealer's cards, {variant.name}")
        if games is not None and variant.name in games:
            ceiling, edges = games[variant.name]
        else:
            ceiling = house_optimal(lab, variant)
            edges = {w: price_dealer_way(variant, w, lab=lab).house_edge for w in CASINO_WAYS}
        lines.append(derived_page(out, derive_way(variant.name, n_rules, ceiling=ceiling),
                                  edges))  # fmt: skip
    forget()  # the choices, mapped again by the next derivation
    return lines
