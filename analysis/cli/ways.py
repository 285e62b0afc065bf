"""``paigow ways`` and ``paigow diff-ways``: the registered house ways and where two of them set
hands differently (defined when named: ``analysis.cli.main`` defers them)."""

from __future__ import annotations

import argparse
from fractions import Fraction
from typing import TYPE_CHECKING, Any

from analysis.cli.main import _deck, _rules, get_way
from analysis.report.formats import decimal, markdown, to_json

if TYPE_CHECKING:
    import pandas as pd

    from analysis.waylab.ways import WayDiff


def cmd_ways(args: argparse.Namespace) -> int:
    from analysis.waylab.ways import clause_listing, reading_listing, way_listing, way_records

    if args.format == "json":
        print(to_json(way_records()))
    elif args.format == "csv":
        print(way_listing().to_csv(index=False), end="")
    else:
        print(markdown(way_listing()))
        clauses = clause_listing()
        if len(clauses):
            print("\nAmbiguous clauses, read by name: way[clause=reading,...], e.g. "
                  "--house-way 'gli[two-pair=or]'\n")  # fmt: skip
            print(markdown(clauses))
            print()
            print(markdown(reading_listing()))
    return 0


def _percent(x: Fraction) -> str:
    return f"{100 * float(x):.4f}%"


def _diff_labels(d: WayDiff) -> tuple[str, str]:
    return (f"{d.a} (a)", f"{d.b} (b)") if d.a == d.b else (d.a, d.b)


def _diff_markdown(d: WayDiff, dominated: pd.DataFrame) -> None:
    import pandas as pd

    la, lb = _diff_labels(d)
    print(f"House ways {d.a} and {d.b}, deck {d.deck.name}, wheel {d.rules.wheel}: "
          f"{d.total:,} hands")  # fmt: skip
    print(f"set differently: {d.different:,} hands ({_percent(Fraction(d.different, d.total))}); "
          f"set alike: {d.same:,}")  # fmt: skip
    if len(d.rows):
        print("\nWhere they differ, by the rule of each way that fired:\n")
        shown = pd.DataFrame(
            {
                f"{la} rule": d.rows["a_rule"],
                f"{lb} rule": d.rows["b_rule"],
                "hands": d.rows["hands"],
                "share": [_percent(x) for x in d.rows["share"]],
                "example": d.rows["example"],
                f"{la} front": d.rows["a_front"],
                f"{lb} front": d.rows["b_front"],
            }
        )
        print(markdown(shown))
    print("\nHands set on a dominated setting (another valid setting is as strong in both")
    print("hands and stronger in one):\n")
    print(markdown(dominated.assign(share=[_percent(x) for x in dominated["share"]])))


def _diff_csv(d: WayDiff, dominated: pd.DataFrame) -> None:
    """One table: a row per pair of rules, the hands set alike, the total, then each way's
    dominated hands."""
    import pandas as pd

    la, lb = _diff_labels(d)
    rows = [
        {"kind": "different", "a_rule": r["a_rule"], "b_rule": r["b_rule"], "hands": r["hands"],
         "share": r["share"], "example": r["example"], "a_front": r["a_front"],
         "b_front": r["b_front"]}
        for r in d.rows.to_dict("records")
    ]  # fmt: skip
    rows.append({"kind": "same setting", "hands": d.same, "share": Fraction(d.same, d.total)})
    rows.append({"kind": "total", "hands": d.total, "share": Fraction(1)})
    rows += [
        {"kind": f"dominated: {r['way']}", "hands": r["hands"], "share": r["share"],
         "example": r["example"], "a_front" if r["way"] == d.a else "b_front": r["front"]}
        for r in dominated.to_dict("records")
    ]  # fmt: skip
    df = pd.DataFrame(
        rows,
        columns=["kind", "a_rule", "b_rule", "hands", "share", "example", "a_front", "b_front"],
    )
    df["share"] = [decimal(x, 10) for x in df["share"]]
    df = df.rename(
        columns={"a_rule": f"{la} rule", "b_rule": f"{lb} rule", "a_front": f"{la} front",
                 "b_front": f"{lb} front"}
    )  # fmt: skip
    print(df.to_csv(index=False), end="")


def _share_json(x: Fraction) -> dict[str, object]:
    return {"probability": float(x), "probability_fraction": x}


def _diff_row_json(r: dict[Any, Any]) -> dict[str, object]:
    return {
        "a_rule": r["a_rule"],
        "b_rule": r["b_rule"],
        "hands": r["hands"],
        "classes": r["classes"],
        **_share_json(r["share"]),
        "example": {
            "hand": r["example"].split(),
            "a_front": r["a_front"].split(),
            "b_front": r["b_front"].split(),
        },
    }


def _dominated_json(r: dict[Any, Any]) -> dict[str, object]:
    return {
        "way": r["way"],
        "hands": r["hands"],
        "classes": r["classes"],
        **_share_json(r["share"]),
        "example": {"hand": r["example"].split(), "front": r["front"].split()},
    }


def _diff_json(d: WayDiff, dominated: pd.DataFrame) -> None:
    out = {
        "a": d.a,
        "b": d.b,
        "deck": d.deck.name,
        "wheel": d.rules.wheel,
        "total": d.total,
        "same": d.same,
        "different": d.different,
        "rows": [_diff_row_json(r) for r in d.rows.to_dict("records")],
        "dominated": [_dominated_json(r) for r in dominated.to_dict("records")],
    }
    print(to_json(out))


def cmd_diff_ways(args: argparse.Namespace) -> int:
    from analysis.waylab.ways import diff_ways, dominated_counts

    a, b = get_way(args.a), get_way(args.b)
    deck, rules = _deck(args), _rules(args)
    d = diff_ways(a, b, deck, rules)
    dominated = dominated_counts([a] if a.name == b.name else [a, b], deck, rules)
    {"md": _diff_markdown, "csv": _diff_csv, "json": _diff_json}[args.format](d, dominated)
    return 0


def add_way_commands(sub: Any) -> None:
    """Define the commands of this module on the subcommands action ``sub``."""
    p = sub.add_parser("ways", help="the registered house ways")
    p.add_argument("--format", choices=("md", "csv", "json"), default="md")
    p.set_defaults(func=cmd_ways)

    p = sub.add_parser(
        "diff-ways", help="hands two house ways set differently; dominated settings of each"
    )
    p.add_argument("a", help="a registered way, e.g. gli")
    p.add_argument("b", help="another, e.g. trump-plaza")
    p.add_argument("--format", choices=("md", "csv", "json"), default="md")
    p.add_argument("--deck", default="full", help="deck, e.g. full or 9TJQKA:cdhs+joker")
    p.set_defaults(func=cmd_diff_ways)
