"""The lines of a math report beyond the house edge, exact: variance and standard deviation
per unit bet, hit frequency, the odds of the top award and the house edge per resolved bet.

A return table's rows partition what was counted (deals, or hands), and every counted deal of
a row pays that row's ``pays`` (net, to 1). So the result ``X`` of a unit bet takes the value
``pays_i`` with probability ``p_i``, and with ``mean = sum p_i pays_i`` (minus the house edge):

- variance ``sum p_i pays_i^2 - mean^2``, an exact fraction; the standard deviation is its
  square root, irrational in general, so it is given as a decimal cut from the exact variance
  by integer square roots (every digit shown is right);
- hit frequency ``P(X > 0)``: the bet returns more than it cost (a push is not a hit);
- the top award: the row that pays most, its probability as "1 in N" with ``N = 1 / p``;
- the house edge per resolved bet ``-mean / (1 - P(push))``: pushes (rows of outcome "push")
  left out, the figure the reports of games with many pushes also quote.

>>> v = volatility([(Fraction(1), Fraction(1, 4), "win"), (Fraction(0), Fraction(1, 2), "push"),
...                 (Fraction(-1), Fraction(1, 4), "loss")])
>>> v.variance, v.hit_frequency, v.edge_per_resolved
(Fraction(1, 2), Fraction(1, 4), Fraction(0, 1))
>>> v.standard_deviation_text(6), v.top_odds
('0.707106', Fraction(4, 1))
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from fractions import Fraction
from math import isqrt
from typing import Any


@dataclass(frozen=True)
class Volatility:
    """The figures of one wager's outcome distribution (per unit bet, exact)."""

    mean: Fraction  # expected net result: minus the house edge
    second_moment: Fraction  # E[X^2]
    hit_frequency: Fraction  # P(X > 0)
    push_probability: Fraction  # P(outcome "push")
    top_event: str  # the row that pays the most ("" when nothing pays)
    top_pays: Fraction | None
    top_probability: Fraction

    @property
    def variance(self) -> Fraction:
        return self.second_moment - self.mean**2

    @property
    def standard_deviation(self) -> Fraction:
        """The square root of the variance, cut (not rounded) to 12 decimal places."""
        return Fraction(sqrt_floor(self.variance, 12), 10**12)

    def standard_deviation_text(self, digits: int = 4) -> str:
        """The standard deviation cut to ``digits`` places (each digit exact)."""
        whole, frac = divmod(sqrt_floor(self.variance, digits), 10**digits)
        return f"{whole}.{frac:0{digits}d}" if digits else str(whole)

    def hit_frequency_text(self) -> str:
        """The hit frequency as a percentage (4 places), as every rendering shows it."""
        return _percent(self.hit_frequency)

    @property
    def top_odds(self) -> Fraction | None:
        """N of "1 in N" for the top award (None when nothing pays)."""
        return None if not self.top_probability else 1 / self.top_probability

    @property
    def edge_per_resolved(self) -> Fraction | None:
        """House edge per bet that did not push; None when every bet pushes."""
        resolved = 1 - self.push_probability
        return None if not resolved else -self.mean / resolved

    def lines(self, main_wager: bool = True, dollars: bool = False) -> list[str]:
        """The figures for people, one per line (``main_wager``: with the edge per resolved
        bet, the figure of wagers that push; ``dollars``: the values are amounts paid, as the
        envy bonus's, not net results per unit bet)."""
        sd = self.standard_deviation_text()
        hit = "some amount paid" if dollars else "returns more than it cost"
        out = [
            (f"standard deviation: ${sd}" if dollars else f"standard deviation: {sd} per unit bet")
            + f" (variance {_decimal(self.variance, 6)}, exact: {_exact(self.variance)})",
            f"hit frequency ({hit}): {_percent(self.hit_frequency)}"
            + (f" (1 in {_decimal(1 / self.hit_frequency, 2)})" if self.hit_frequency else ""),
        ]
        if self.top_pays is not None and self.top_odds is not None:
            pays = (f"${_decimal(self.top_pays, 2)}" if dollars
                    else f"{_decimal(self.top_pays, 4)} to 1")  # fmt: skip
            out.append(f"top award: {self.top_event} pays {pays}, 1 in "
                       f"{_decimal(self.top_odds, 2)} (exact: {_exact(self.top_probability)})")
        if main_wager:
            e = self.edge_per_resolved
            out.append("house edge per resolved bet (pushes left out): "
                       + ("no bet resolves" if e is None else
                          f"{_percent(e)} (exact: {_exact(e)})"))  # fmt: skip
        return out

    def figures(self, main_wager: bool = True, dollars: bool = False,
                of: str = "") -> list[tuple[str, str]]:  # fmt: skip
        """The figures of ``lines`` as (figure, value) pairs, a row each: the summary table
        of a report page (``analysis.render.formats.summary_md``); ``of`` follows each
        figure's name (whose figures they are, when not the table's own)."""
        sd = self.standard_deviation_text()
        hit = "some amount paid" if dollars else "returns more than it cost"
        out = [
            ("standard deviation", f"${sd}" if dollars else f"{sd} per unit bet"),
            ("variance", f"{_decimal(self.variance, 6)} (exact: {_exact(self.variance)})"),
            (f"hit frequency ({hit})", self.hit_frequency_text()
             + (f" (1 in {_decimal(1 / self.hit_frequency, 2)})" if self.hit_frequency
                else "")),
        ]  # fmt: skip
        if self.top_pays is not None and self.top_odds is not None:
            pays = (f"${_decimal(self.top_pays, 2)}" if dollars
                    else f"{_decimal(self.top_pays, 4)} to 1")  # fmt: skip
            out += [("top award", f"{self.top_event} pays {pays}"),
                    ("top award odds", f"1 in {_decimal(self.top_odds, 2)} (exact: "
                                       f"{_exact(self.top_probability)})")]  # fmt: skip
        if main_wager:
            e = self.edge_per_resolved
            out.append(("house edge per resolved bet (pushes left out)",
                        "no bet resolves" if e is None else
                        f"{_percent(e)} (exact: {_exact(e)})"))  # fmt: skip
        return [(f"{name}{of}", value) for name, value in out]

    def to_dict(self, main_wager: bool = True) -> dict[str, Any]:
        """The JSON fields: floats for reading, ``*_fraction`` exact."""
        out: dict[str, Any] = {
            "variance": float(self.variance),
            "variance_fraction": self.variance,
            "standard_deviation": float(self.standard_deviation),
            "hit_frequency": float(self.hit_frequency),
            "hit_frequency_fraction": self.hit_frequency,
            "top_award": None if self.top_pays is None else {
                "event": self.top_event, "pays": float(self.top_pays),
                "probability_fraction": self.top_probability,
                "one_in": None if self.top_odds is None else float(self.top_odds),
            },
        }  # fmt: skip
        if main_wager:
            e = self.edge_per_resolved
            out["house_edge_per_resolved_bet"] = None if e is None else float(e)
            out["house_edge_per_resolved_bet_fraction"] = e
        return out

    def rows(self, main_wager: bool = True) -> list[tuple[str, str, str]]:
        """(statistic, decimal, exact) rows: the CSV block under the table."""
        out = [
            ("variance", _decimal(self.variance, 10), _exact(self.variance)),
            ("standard deviation", self.standard_deviation_text(10), ""),
            ("hit frequency", _decimal(self.hit_frequency, 10), _exact(self.hit_frequency)),
        ]
        if self.top_pays is not None and self.top_odds is not None:
            out.append((f"top award ({self.top_event}) 1 in", _decimal(self.top_odds, 4),
                        _exact(self.top_odds)))  # fmt: skip
        if main_wager and self.edge_per_resolved is not None:
            e = self.edge_per_resolved
            out.append(("house edge per resolved bet", _decimal(e, 10), _exact(e)))
        return out


def volatility(rows: Iterable[tuple[Fraction, Fraction, str]],
               events: Iterable[str] | None = None) -> Volatility:  # fmt: skip
    """The figures of rows ``(pays, probability, outcome)`` that partition the outcomes
    (probabilities summing to 1); ``events`` name the rows (for the top award)."""
    rows = list(rows)
    names = list(events) if events is not None else [""] * len(rows)
    total = sum((p for _pays, p, _o in rows), Fraction(0))
    if total != 1:
        raise AssertionError(f"the rows' probabilities sum to {total}, not 1")
    mean = sum((pays * p for pays, p, _o in rows), Fraction(0))
    second = sum((pays * pays * p for pays, p, _o in rows), Fraction(0))
    hit = sum((p for pays, p, _o in rows if pays > 0), Fraction(0))
    push = sum((p for _pays, p, o in rows if o == "push"), Fraction(0))
    paying = [(pays, name) for (pays, p, _o), name in zip(rows, names, strict=True) if p]
    top = max((pays for pays, _n in paying), default=None)
    if top is None or top <= 0:
        return Volatility(mean, second, hit, push, "", None, Fraction(0))
    # several rows may pay the top award (a paytable line by more than one event): together
    top_p = sum((p for pays, p, _o in rows if pays == top), Fraction(0))
    top_names = [name for pays, name in paying if pays == top]
    return Volatility(mean, second, hit, push, " / ".join(dict.fromkeys(top_names)), top, top_p)


def sqrt_floor(x: Fraction, digits: int) -> int:
    """``floor(sqrt(x) * 10**digits)`` exactly, for ``x >= 0``.

    >>> sqrt_floor(Fraction(2), 6), sqrt_floor(Fraction(1, 4), 3)
    (1414213, 500)
    """
    if x < 0:
        raise ValueError(f"square root of a negative number {x}")
    # floor(sqrt(n/d) * 10^k) = floor(sqrt(n * d * 10^2k) / d) = isqrt(n * d * 10^2k) // d
    n, d = x.numerator, x.denominator
    return isqrt(n * d * 10 ** (2 * digits)) // d


def _decimal(x: Fraction, digits: int) -> str:
    return f"{float(x):,.{digits}f}" if abs(x) >= 1000 else f"{float(x):.{digits}f}"


def _percent(x: Fraction) -> str:
    return f"{float(x) * 100:.4f}%"


def _exact(x: Fraction) -> str:
    return f"{x.numerator}/{x.denominator}"
