"""The ``paigow`` command line.

Every error the user can cause (a bad card, a wrong count, an unknown option value) ends with
one line on stderr and exit code 2, never a traceback.

Importing this module and building the parser import nothing heavy (no pandas, numba, pyarrow
or matplotlib): each command imports what it uses, so that a one-hand command starts at once
(``benchmarks/bench_cli.py``).
"""

from __future__ import annotations

import argparse
import gc
import importlib
import os
import sys
import time
from collections.abc import Iterable, Sequence
from fractions import Fraction
from typing import TYPE_CHECKING, Any, NoReturn, cast

from analysis import api
from analysis.cli.options import UsageError, deck_of, rules_of, tell
from analysis.render.formats import decimal, markdown, to_json
from enumerate.cards import parse_cards
from enumerate.runtime.allocator import no_huge_pages_by_default

if TYPE_CHECKING:

    pass

EXIT_USAGE = 2


class _Commands(argparse._SubParsersAction):
    """The subcommands. Those of a module of their own that imports pandas and the engine
    (``defer``) are defined by it only when one of them is named, or when the help lists them
    all."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._deferred: dict[str, str] = {}  # command -> "module:function" that defines it

    def defer(self, names: Sequence[str], adder: str) -> None:
        """Reserve ``names``, in this place of the list, for the commands that ``adder``
        (``"module:function"``, called with this action) defines."""
        for name in names:
            self._deferred[name] = adder
            self._name_parser_map[name] = self._parser_class()  # a placeholder

    def define(self, names: Iterable[str]) -> None:
        """Import and run the adders of the deferred commands among ``names``."""
        for adder in dict.fromkeys(self._deferred[n] for n in names if n in self._deferred):
            order = list(self._name_parser_map)
            for name in [n for n, a in self._deferred.items() if a == adder]:
                del self._deferred[name], self._name_parser_map[name]
            module, _, function = adder.partition(":")
            getattr(importlib.import_module(module), function)(self)
            # back in their reserved places: in the choices (the same dict) and in the help
            parsers = dict(self._name_parser_map)
            self._name_parser_map.clear()
            self._name_parser_map.update({n: parsers.pop(n) for n in order if n in parsers})
            self._name_parser_map.update(parsers)
            place = {n: i for i, n in enumerate(self._name_parser_map)}
            self._choices_actions.sort(key=lambda a: place.get(a.dest, len(place)))

    def __call__(self, parser: argparse.ArgumentParser, namespace: argparse.Namespace,
                 values: Any, option_string: str | None = None) -> None:  # fmt: skip
        self.define(values[:1])
        super().__call__(parser, namespace, values, option_string)


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> NoReturn:
        raise UsageError(message)

    def format_help(self) -> str:
        for action in self._actions:
            if isinstance(action, _Commands):
                action.define(list(action.choices or ()))
        return super().format_help()


def cmd_hand(args: argparse.Namespace) -> int:
    print(api.hand(args.cards, rules=rules_of(args)).render(args.format), end="")
    return 0


def cmd_categories(args: argparse.Namespace) -> int:
    deck = deck_of(args)
    df = api.seven_card_classes(deck=deck, rules=rules_of(args))
    total = int(df["combinations"].iloc[-1])
    if args.format == "json":
        rows = [
            {
                "class": r["class"],
                "combinations": int(r["combinations"]),
                "probability": float(r["probability"]),
                "probability_fraction": r["probability"],
            }
            for r in df.to_dict("records")
            if r["class"] != "total"
        ]
        print(to_json({"deck": deck.name, "total": total, "rows": rows}))
        return 0
    shown = df.assign(probability=[decimal(Fraction(p), 10) for p in df["probability"]])
    if args.format == "csv":
        print(shown.to_csv(index=False), end="")
    else:
        print(f"Seven-card classes, deck {deck.name}: {total:,} hands\n")
        print(markdown(shown.assign(combinations=df["combinations"])))
    return 0


def cmd_set(args: argparse.Namespace) -> int:
    r = api.set_hand(args.cards, way=api.get_way(args.house_way), rules=rules_of(args))
    print(r.render(args.format), end="")
    return 0


def cmd_analyze(args: argparse.Namespace) -> int:
    variant = api.get_variant(args.variant)
    if args.house_way is not None:
        api.get_way(args.house_way)  # an unknown way fails here, before any counting
    try:
        player = None if args.player is None else api.Player(args.player)
    except ValueError:
        known = ", ".join(p.value for p in api.Player)
        raise UsageError(f"--player {args.player}: expected one of {known}") from None
    if player == api.Player.BANKING_OPTIMAL:
        tell("the per-hand table, with every setting counted as the banker (cached once "
             "it is built; the optimal player reads the same table)")
    elif player == api.Player.OPTIMAL and not variant.dealer_exposed:
        tell(f"exact per-hand counts of every class ({variant.name}, optimal blind play)")
    if args.player_way is not None:
        api.get_way(args.player_way)
    table = api.return_table(variant, way=args.house_way, player=player,
                             player_way=args.player_way, deck=deck_of(args),
                             rules=rules_of(args), on_run=tell)  # fmt: skip
    print(table.render(args.format), end="")
    return 0


def cmd_simulate(args: argparse.Namespace) -> int:
    if args.deals < 1:
        raise UsageError("--deals must be at least 1")
    if args.house_way is not None:
        api.get_way(args.house_way)
    sim = api.simulate(args.variant, deals=args.deals, seed=args.seed, way=args.house_way,
                       player=args.player, deck=deck_of(args), rules=rules_of(args))  # fmt: skip
    print(sim.render(args.format), end="")
    return 0


def cmd_reports(args: argparse.Namespace) -> int:
    from enumerate.houseways import split_way_names

    ways = split_way_names(args.ways) if args.ways else []
    for w in ways:
        api.get_way(w)
    t0 = time.perf_counter()

    def log(message: str) -> None:  # each line with the seconds since the start
        print(f"[{time.perf_counter() - t0:6.1f} s] {message}", file=sys.stderr, flush=True)

    rep = api.reports(args.out, deck=deck_of(args), rules=rules_of(args), ways=ways,
                      optimal=not args.no_optimal, log=log)  # fmt: skip
    print(f"reports written to {rep.out}/ (index.md)")
    return 0


def cmd_best(args: argparse.Namespace) -> int:
    parse_cards(args.cards, count=7)
    variant = api.get_variant(args.variant)
    if args.house_way is not None:
        api.get_way(args.house_way)
    got = api.best_settings(args.cards, variant=variant, way=args.house_way, deck=deck_of(args),
                            rules=rules_of(args), method=args.method)  # fmt: skip
    print(got.render(args.format), end="")
    return 0


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(prog="paigow", description="Exact pai gow poker analysis.")
    parser.add_argument(
        "--wheel", choices=("second", "low"), default="second",
        help="rank of A-2-3-4-5: second-highest straight (default) or lowest",
    )  # fmt: skip
    parser.add_argument(
        "--way-module", action="append", default=[], metavar="PATH_OR_MODULE",
        help="import a module of house ways that registers them (a .py file or a module name;"
        " repeatable; also $PAIGOW_WAY_MODULES, colon-separated)",
    )  # fmt: skip
    sub = cast(_Commands, parser.add_subparsers(
        dest="command", required=True, parser_class=_Parser, action=_Commands))  # fmt: skip

    p = sub.add_parser("hand", help="the 21 settings of a seven-card hand")
    p.add_argument("cards", help='seven cards, e.g. "As Ks Qs Js Ts 2c Jk"')
    p.add_argument("--format", choices=("text", "json"), default="text")
    p.set_defaults(func=cmd_hand)

    p = sub.add_parser("categories", help="exact seven-card class table")
    p.add_argument("--format", choices=("md", "csv", "json"), default="md")
    p.add_argument("--deck", default="full", help="deck, e.g. full or A2345:cdh+joker")
    p.set_defaults(func=cmd_categories)

    p = sub.add_parser("set", help="set a hand by a house way, with the non-dominated settings")
    p.add_argument("cards", help='seven cards, e.g. "As Ks Qs Js Ts 2c Jk"')
    p.add_argument("--house-way", "--way", default="gli",
                   help="a registered way (see: paigow ways)")
    p.add_argument("--format", choices=("text", "json"), default="text")
    p.set_defaults(func=cmd_set)

    sub.defer(("ways", "diff-ways", "way"), "analysis.cli.ways:add_way_commands")

    p = sub.add_parser("analyze", help="exact return table of a game variant's main wager")
    p.add_argument("variant", help="traditional, face-up, dealer-open, ez, commission-free"
                   " (data/variants) or a variant .toml file")  # fmt: skip
    p.add_argument("--house-way", "--way", default=None,
                   help="the dealer's way (default: the variant's)")
    p.add_argument(
        "--player", default=None, metavar="MODE",
        help="house-way (blind, by the house way), best-response (sees the exposed dealer), "
        "optimal (blind, highest exact EV per hand), banking (traditional: the player banks "
        "against one opponent, both by the house way) or banking-optimal (the banker sets for "
        "his highest EV); default: best-response when the dealer is exposed, else house-way",
    )  # fmt: skip
    p.add_argument("--player-way", default=None, metavar="CARD",
                   help="a blind player sets by this card or way (a strategy) instead of the "
                   "dealer's")  # fmt: skip
    p.add_argument("--format", choices=("md", "csv", "json", "html"), default="md")
    p.add_argument("--deck", default="full", help="deck, e.g. full or 23569JQA:cd+joker")
    p.set_defaults(func=cmd_analyze)

    p = sub.add_parser("simulate", help="Monte Carlo of real deals, with standard errors")
    p.add_argument("variant", help="a variant name or .toml file")
    p.add_argument("--deals", type=int, default=1_000_000, help="number of deals")
    p.add_argument("--seed", type=int, default=1, help="random seed (reproducible)")
    p.add_argument("--house-way", "--way", default=None,
                   help="the dealer's way (default: the variant's)")
    p.add_argument("--player", default=None, metavar="MODE", help="house-way or best-response")
    p.add_argument("--format", choices=("md", "csv", "json", "html"), default="md")
    p.add_argument("--deck", default="full", help="deck, e.g. full or 23579JQA:cd+joker")
    p.set_defaults(func=cmd_simulate)

    sub.defer(("banking",), "analysis.cli.bets:add_bet_commands")

    sub.defer(("report", "verify"), "analysis.cli.games:add_game_commands")

    p = sub.add_parser("reports", help="every variant, side bet and paytable, with plots")
    p.add_argument("--out", default="reports", help="output folder (default reports/)")
    p.add_argument("--deck", default="full", help="deck, e.g. full or 23579JQA:cdh+joker")
    p.add_argument("--ways", default=None, help="house ways, comma-separated (default: every "
                   "casino way of data/ways, gli first)")
    p.add_argument("--no-optimal", action="store_true", help="skip the optimal-strategy tables")
    p.set_defaults(func=cmd_reports)

    p = sub.add_parser("best", help="every non-dominated setting of a hand with exact EVs")
    p.add_argument("cards", help='seven cards, e.g. "As Ks Qs Js Ts 2c Jk"')
    p.add_argument("--variant", default="traditional", help="a blind variant (default traditional)")
    p.add_argument("--house-way", "--way", default=None,
                   help="the dealer's way (default: the variant's)")
    p.add_argument("--format", choices=("md", "csv", "json"), default="md")
    p.add_argument("--deck", default="full", help="deck, e.g. full or 23579JQA:cd+joker")
    p.add_argument(
        "--method", choices=("auto", "table", "direct"), default="auto",
        help="table: read the hand from the per-hand table (built first if not cached, minutes); "
        "direct: count its dealer hands one by one (seconds); auto (default): table if cached",
    )  # fmt: skip
    p.set_defaults(func=cmd_best)

    sub.defer(("sweep",), "analysis.pricing.sweep:add_sweep_command")
    sub.defer(("way-edge", "way-costs"), "analysis.cli.waylab:add_way_lab_commands")

    sub.defer(("sidebet",), "analysis.cli.bets:add_bet_commands")
    sub.defer(("derive", "strategies"), "analysis.cli.derive:add_derive_commands")
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the CLI; returns the exit code.

    Run as the program (no ``argv``: ``paigow``, ``python -m analysis``), it freezes the
    garbage collector before returning, so that the interpreter's teardown does not sweep once
    more the hundred thousand objects numba made, a cost every command would pay."""
    code = _run(argv)
    if argv is None:
        gc.freeze()
    return code


def _run(argv: Sequence[str] | None) -> int:
    # numpy, imported later by the commands that need it: first touched, huge pages cost more
    # than they give (``enumerate.runtime.allocator``)
    no_huge_pages_by_default(os.environ)
    parser = build_parser()
    try:
        args = parser.parse_args(argv)
        api.load_way_modules(args.way_module)
        return int(args.func(args))
    except (UsageError, ValueError) as err:
        print(f"paigow: error: {err}", file=sys.stderr)
        return EXIT_USAGE
    except BrokenPipeError:
        return 0


if __name__ == "__main__":
    sys.exit(main())
