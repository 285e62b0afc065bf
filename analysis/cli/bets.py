"""``paigow sidebet`` and ``paigow banking``: side bets under a paytable, the envy by table, and
the banking player (defined when named: ``analysis.cli.main`` defers them)."""

from __future__ import annotations

import argparse
from fractions import Fraction
from typing import Any

from analysis import api
from analysis.cli.options import UsageError, deck_of, rules_of, tell
from analysis.render.formats import markdown, to_json


def cmd_sidebet(args: argparse.Namespace) -> int:
    if args.list:
        if args.name is not None:
            raise UsageError("--list takes no side bet name")
        df = api.side_bets()
        if args.format == "json":
            print(to_json(df.to_dict("records")))
        elif args.format in ("csv", "html"):
            print(df.to_csv(index=False) if args.format == "csv" else df.to_html(index=False))
        else:
            print(markdown(df))
        return 0
    if args.name is None:
        raise UsageError("name a side bet (see: paigow sidebet --list)")
    if args.by_table:
        if args.players is not None:
            raise UsageError("--by-table gives every number of players; leave out --players")
        table = api.envy_by_table(args.name, paytable=args.paytable, envy=args.envy,
                                  amounts=_amounts(args.bets), deck=deck_of(args),
                                  rules=rules_of(args))  # fmt: skip
        print(table.render(args.format), end="")
        return 0
    report = api.side_bet(args.name, paytable=args.paytable, players=args.players, envy=args.envy,
                          way=args.house_way, deck=deck_of(args), rules=rules_of(args),
                          on_run=tell)  # fmt: skip
    print(report.render(args.format), end="")
    return 0


def _amounts(text: str) -> tuple[Fraction, ...]:
    """``--bets 5,10,25,100``: positive dollar amounts."""
    out = []
    for part in text.split(","):
        try:
            x = Fraction(part.strip())
        except (ValueError, ZeroDivisionError):
            raise UsageError(
                f"--bets: {part.strip()!r} is not an amount (e.g. 5,10,25,100)"
            ) from None
        if x <= 0:
            raise UsageError(f"--bets: {part.strip()} is not a positive amount")
        out.append(x)
    return tuple(out)


def cmd_banking(args: argparse.Namespace) -> int:
    if args.rounds < 2:
        raise UsageError("--rounds must be at least 2")
    if args.every < 1:
        raise UsageError("--every must be at least 1")
    report = api.banking(way=args.house_way, rounds=args.rounds, seed=args.seed, every=args.every,
                         deck=deck_of(args), rules=rules_of(args))  # fmt: skip
    print(report.render(args.format), end="")
    return 0


def add_bet_commands(sub: Any) -> None:
    """Define the commands of this module on the subcommands action ``sub``."""
    p = sub.add_parser("banking", help="player banking: exact one on one, simulated 1..6 "
                       "opponents, the house's edge when a player banks")  # fmt: skip
    p.add_argument("--house-way", "--way", default="gli", help="everyone's house way (default gli)")
    p.add_argument("--rounds", type=int, default=200_000, help="simulated rounds per table size")
    p.add_argument("--seed", type=int, default=1, help="random seed (reproducible)")
    p.add_argument("--every", type=int, default=7, metavar="N",
                   help="a player banks one round in N (default 7: a full table in turn)")
    p.add_argument("--format", choices=("md", "csv", "json", "html"), default="md")
    p.add_argument("--deck", default="full", help="deck, e.g. full or 23569JQA:cd+joker")
    p.set_defaults(func=cmd_banking)

    p = sub.add_parser("sidebet", help="exact return table of a side bet under a paytable")
    p.add_argument("name", nargs="?", default=None,
                   help="a side bet (see --list), or a bet file: a name of data/bets or a path")
    p.add_argument("--list", action="store_true", help="list the side bets and their paytables")
    p.add_argument(
        "--paytable", default=None, metavar="NAME|FILE",
        help="a table of the bet (data/bets/BET-NAME.toml) or a .toml file (a bet file or a "
        "paytable)",
    )  # fmt: skip
    p.add_argument(
        "--players", type=int, default=None, metavar="N",
        help="players at the table, the bettor included (the dealer not): the envy bonus is"
        " paid for each of the N-1 others",
    )  # fmt: skip
    p.add_argument(
        "--envy", default=None, metavar="NAME|FILE",
        help="envy table (default: the paytable's own, else 5000 for fortune)",
    )  # fmt: skip
    p.add_argument(
        "--house-way", "--way", default=None,
        help="the dealer's way, for bets on its setting (dealer-bonus, tiger-9)",
    )  # fmt: skip
    p.add_argument(
        "--by-table", action="store_true",
        help="fortune, chan-chu: the house edge with the envy included, by bet amount and "
        "number of other players",
    )  # fmt: skip
    p.add_argument("--bets", default="5,10,25,100", metavar="AMOUNTS",
                   help="bet amounts in dollars for --by-table (default 5,10,25,100)")
    p.add_argument("--format", choices=("md", "csv", "json", "html"), default="md")
    p.add_argument("--deck", default="full", help="deck, e.g. full or 23569JQA:cd+joker")
    p.set_defaults(func=cmd_sidebet)
