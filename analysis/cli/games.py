"""``paigow report`` and ``paigow verify``: a game's math report from its game file, and a
math report's lines checked against the exact tables (defined when named: ``analysis.cli.main``
defers them)."""

from __future__ import annotations

import argparse
import shlex
import sys
import time
from pathlib import Path
from typing import Any

from analysis import api
from analysis.render.formats import markdown, to_json


def _log(start: float) -> Any:
    def log(message: str) -> None:
        print(f"[{time.perf_counter() - start:6.1f} s] {message}", file=sys.stderr, flush=True)

    return log


def cmd_report(args: argparse.Namespace) -> int:
    game = api.game(args.game)
    command = "paigow " + " ".join(shlex.quote(a) for a in sys.argv[1:])
    out = Path(args.out) if args.out else Path("reports") / "games" / game.name
    report = api.game_report(game, out=out, deck=args.deck, command=command,
                             log=_log(time.perf_counter()))  # fmt: skip
    print(f"math report of {game.name} written to {out}/ (report.html, report.md, report.pdf, "
          "tables/)")
    for line in report.document.contents():
        print(f"  {line}")
    return 0


def cmd_verify(args: argparse.Namespace) -> int:
    result = api.verify(*args.reports, only=args.only, out=args.out)
    if args.format == "json":
        print(to_json(result.rows()))
    elif args.format == "csv":
        import pandas as pd

        print(pd.DataFrame(result.rows()).to_csv(index=False), end="")
    else:
        import pandas as pd

        rows = result.rows()
        df = pd.DataFrame(rows)
        if len(df):
            print(markdown(df.drop(columns=["source", "open"])))
            print()
            for i, r in enumerate(rows, 1):
                why = f" OPEN: {r['open']}" if r["status"] == "open" else ""
                print(f"{i}. {r['file']} line {r['line']}: {r['source']}{why}")
    if args.out:
        print(f"\nverification report written to {args.out}/ (report.html, report.md, "
              "report.pdf, tables/)")
    print(f"\n{result.summary()}")
    return 1 if result.failed else 0


def add_game_commands(sub: Any) -> None:
    p = sub.add_parser("report", help="a game's complete math report from its game file")
    p.add_argument("game", help="a game file (docs/games.md) or a shipped game's name")
    p.add_argument("--out", default=None, help="output folder (default reports/games/NAME)")
    p.add_argument("--deck", default=None, help="price on another deck than the game's (a "
                   "reduced deck such as TJQKA:cdh+joker, for a quick look)")
    p.set_defaults(func=cmd_report)

    p = sub.add_parser("verify", help="check a math report's lines (report files; default: "
                       "data/published)")
    p.add_argument("reports", nargs="*", help="report files (docs/games.md); none: every file "
                   "of data/published")
    p.add_argument("--only", default=None, help="only lines whose wager, event or figure "
                   "contains this text")
    p.add_argument("--out", default=None, help="also write the verification report (HTML, "
                   "Markdown, PDF, tables) to this folder")
    p.add_argument("--format", choices=("md", "csv", "json"), default="md")
    p.set_defaults(func=cmd_verify)
