"""The tables of a math report made from exact results: a return table, its statistics, the
confidence intervals of a player's result, the envy by table size. Every cell is exact (or,
for the intervals and the standard deviation, cut from the exact variance), and each table's
rows are named as a report file addresses them (``analysis.mathreport.reportfile``).
"""

from __future__ import annotations

from fractions import Fraction
from statistics import NormalDist

from analysis.pricing.envy import EnvyByTable, EnvyTable
from analysis.pricing.returns import ReturnTable, exact_decimal
from analysis.pricing.volatility import sqrt_floor
from analysis.render.document import COUNT, DECIMAL, TEXT, Column, Figure, Table

SESSIONS = (100, 1_000, 10_000, 100_000)  # hands of the confidence intervals
LEVELS = (Fraction(90, 100), Fraction(95, 100), Fraction(99, 100))
SD_PLACES = 12  # the standard deviation is cut (not rounded) to this many places


def percent(x: Fraction, digits: int = 4) -> str:
    return f"{float(100 * x):.{digits}f}%"


def return_rows(key: str, title: str, t: ReturnTable) -> Table:
    """The return table: every outcome's pays, combinations, probability and return, and the
    total row."""
    rows = []
    for r in t.records:
        pays = None if r["pays"] is None else Figure(r["pays"], exact_decimal(r["pays"]))
        rows.append((r["event"], r["outcome"], pays, int(r["combinations"]), r["probability"],
                     r["return"]))  # fmt: skip
    cols = (Column("event"), Column("outcome"), Column("pays", DECIMAL, 4),
            Column("combinations", COUNT), Column("probability", DECIMAL, 10),
            Column("return", DECIMAL, 10))  # fmt: skip
    notes = tuple(t.heading()[1:])
    return Table(key, title, cols, tuple(rows), notes=notes, total=True)


def statistics(key: str, title: str, t: ReturnTable, side_bet: bool = False) -> Table:
    """A wager's figures, a row each, named as a report file names them: house edge, per
    resolved bet, the outcomes' probabilities, variance, standard deviation, hit frequency,
    the top award and its odds (and for a side bet the top award at which it breaks even)."""
    v = t.volatility
    he = t.house_edge

    def fig(x: Fraction | None, text: str) -> tuple[Figure | None, str]:
        if x is None:
            return None, ""
        return Figure(x, text), f"{x.numerator}/{x.denominator}"

    rows: list[tuple[str, Figure | None, str]] = [("house edge", *fig(he, percent(he)))]
    if not side_bet:
        e = v.edge_per_resolved
        rows.append(("house edge per resolved bet",
                     *fig(e, "-" if e is None else percent(e))))  # fmt: skip
        rows.append(("element of risk", *fig(he, percent(he))))
        for outcome in ("win", "push", "loss"):
            p = t.probability(outcome)
            rows.append((f"probability of a {outcome}", *fig(p, f"{float(p):.6f}")))
    sd = Fraction(sqrt_floor(v.variance, SD_PLACES), 10**SD_PLACES)
    rows += [
        ("variance", *fig(v.variance, f"{float(v.variance):.6f}")),
        ("standard deviation", Figure(sd, v.standard_deviation_text(4)), ""),
        ("hit frequency", *fig(v.hit_frequency, percent(v.hit_frequency))),
    ]
    if v.top_pays is not None and v.top_odds is not None:
        rows.append(("top award", Figure(v.top_pays, f"{v.top_event}: {exact_decimal(v.top_pays)}"
                                         " to 1"), ""))  # fmt: skip
        rows.append(("top award odds (1 in)",
                     *fig(v.top_odds, f"{float(v.top_odds):,.2f}")))  # fmt: skip
        if side_bet:
            even = v.top_pays + he / v.top_probability
            rows.append(("break-even top award", *fig(even, f"{float(even):,.2f} to 1")))
    cols = (Column("statistic"), Column("value", DECIMAL), Column("exact"))
    notes = ("element of risk: the house edge per amount risked; no wager here is ever raised,"
             " so it equals the house edge",) if not side_bet else (
        "break-even top award: what the top award would have to pay (to 1) for the bet to have"
        " no house edge, the other pays as they are: the progressive meter at break-even",)
    return Table(key, title, cols, tuple(rows), notes=notes)


def intervals(key: str, title: str, t: ReturnTable) -> Table:
    """The player's net result over n hands (units bet): its expectation and the central
    intervals of 90, 95 and 99% by the normal approximation, from the exact mean and SD."""
    mean = -t.house_edge
    sd = Fraction(sqrt_floor(t.volatility.variance, SD_PLACES), 10**SD_PLACES)
    zs = [NormalDist().inv_cdf(float((1 + level) / 2)) for level in LEVELS]
    rows = []
    for n in SESSIONS:
        root = Fraction(sqrt_floor(Fraction(n), SD_PLACES), 10**SD_PLACES)
        cells: list[Figure | int] = [n, Figure(n * mean, f"{float(n * mean):,.2f}")]
        for z in zs:
            half = Fraction(z) * sd * root
            cells += [Figure(n * mean - half, f"{float(n * mean - half):,.2f}"),
                      Figure(n * mean + half, f"{float(n * mean + half):,.2f}")]  # fmt: skip
        rows.append(tuple(cells))
    cols = [Column("hands", COUNT), Column("expected result", DECIMAL, 2)]
    for level in LEVELS:
        pct = int(level * 100)
        cols += [Column(f"{pct}% low", DECIMAL, 2), Column(f"{pct}% high", DECIMAL, 2)]
    notes = ("the player's total net result in units bet after so many hands: mean n x (-house "
             "edge), half-width z x SD x sqrt(n) (normal approximation)",)
    return Table(key, title, tuple(cols), tuple(rows), notes=notes)


def envy_by_size(key: str, title: str, e: EnvyByTable) -> Table:
    """The overall house edge with the envy, by bet amount (rows) and other players."""
    rows = []
    for r in e.rows():
        amount = r["bet ($)"]
        cells: list[object] = [f"${exact_decimal(Fraction(amount))}"]
        cells += [Figure(v, percent(v)) for k, v in r.items() if k != "bet ($)"]
        per = e.per_other_player / Fraction(amount)
        rows.append((*cells, Figure(per, percent(per))))
    names = [k for k in e.rows()[0] if k != "bet ($)"] if e.rows() else []
    cols = (Column("bet"), *(Column(n, DECIMAL) for n in names),
            Column("envy per other player", DECIMAL))
    notes = (f"the bet's own house edge {percent(e.house_edge)}, less the envy it collects on "
             f"the other players' hands ({e.envy} table: ${float(e.per_other_player):.4f} "
             "expected per other player), over the amount bet",)
    return Table(key, title, cols, tuple(rows), notes=notes)  # type: ignore[arg-type]


def exact_appendix(key: str, title: str, t: ReturnTable) -> Table:
    """Every row's probability and return, and the house edge, as exact fractions."""

    def frac(x: Fraction) -> str:
        return f"{x.numerator}/{x.denominator}"

    rows = [(r["event"], int(r["combinations"]), frac(r["probability"]), frac(r["return"]))
            for r in t.records[:-1]]  # fmt: skip
    rows.append(("house edge", t.total, frac(t.house_edge), ""))
    cols = (Column("event"), Column("combinations", COUNT), Column("probability", TEXT),
            Column("return", TEXT))
    return Table(key, title, cols, tuple(rows))


def envy_rows(key: str, title: str, envy: EnvyTable) -> Table:
    """The envy paid on one other player's hand: each listed hand's dollars and odds."""
    rows = tuple((str(e["event"]), Figure(Fraction(e["amount"]), f"${float(e['amount']):,.2f}"),
                  int(e["combinations"]), Fraction(e["probability"]))
                 for e in envy.table.to_dict("records"))  # fmt: skip
    cols = (Column("event"), Column("amount", DECIMAL, 2), Column("combinations", COUNT),
            Column("probability", DECIMAL, 10))
    per = envy.per_other_player
    return Table(key, title, cols, rows, notes=(
        f"expected envy per other player: ${float(per):.6f} (exact: {per.numerator}/"
        f"{per.denominator})",))


def edges(key: str, title: str, rows: list[tuple[str, Fraction]]) -> Table:
    """Named house edges, a row each (a way, the best play against it, the difference)."""
    return Table(key, title, (Column("figure"), Column("house edge", DECIMAL)),
                 tuple((name, Figure(x, percent(x))) for name, x in rows))


def per_rule(key: str, title: str, records: list[dict], counts: tuple[str, str], cost: str,
             total: bool = False) -> Table:
    """A house way's rules, a row each: two hand counts and the house edge they cost."""
    rows = tuple((str(r["rule"]), int(r[counts[0]]), int(r[counts[1]]),
                  Figure(r[cost], percent(r[cost]))) for r in records)  # fmt: skip
    cols = (Column("rule"), Column(counts[0], COUNT), Column(counts[1], COUNT),
            Column(cost, DECIMAL))
    return Table(key, title, cols, rows, total=total)
