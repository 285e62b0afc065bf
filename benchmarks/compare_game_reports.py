"""The shipped games' math reports, each priced on its own (``paigow report``), against the
suite of ``paigow reports``: every return table of a game's report (base wager per mode, the
banking player, each side bet) must hold the same rows, combinations and exact house edge as
the suite's page of the same wager, and every table of the report (but its timings) must be
the same file as the one of the suite's own report of the game (``games/<name>/tables``,
priced from the suite's tables in memory).

    python benchmarks/compare_game_reports.py [--reports reports] [--games /tmp/games]

Builds each game's report (the tables read from the cache) unless ``--games`` holds them
already; prints one line per table compared and exits 1 on a difference.
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
from fractions import Fraction
from pathlib import Path

from analysis import api
from analysis.mathreport.game import shipped_games


def _rows(page: dict) -> list[tuple[str, str, int]]:
    return [(r["event"], r["outcome"], int(r["combinations"])) for r in page["rows"]]


def _table_rows(table: dict) -> tuple[list[tuple[str, str, int]], Fraction]:
    """A report table's rows (without the total) and its exact house edge (-sum of returns)."""
    exact = table["exact"][:-1]
    rows = [(r[0], r[1], int(r[3])) for r in exact]
    return rows, -sum((Fraction(r[5]) for r in exact), Fraction(0))


def suite_page(reports: Path, game: str, way: str, key: str) -> dict | None:
    """The suite's page of the wager ``key`` (``base-<mode>``, ``side-<bet>``)."""
    if key.startswith("base-banking"):
        banker = "optimal" if key.endswith("optimal") else "house-way"
        page = json.loads((reports / f"banking-{way}.json").read_text())
        one = page["one_on_one"][banker]
        return {"rows": one["rows"], "house_edge_fraction": one["house_edge_fraction"]}
    if key.startswith("base-"):
        path = reports / f"variant-{game}-{way}-{key.removeprefix('base-')}.json"
    else:
        bet = key.removeprefix("side-")
        path = reports / f"sidebet-{bet}.json"
        if not path.is_file():
            path = reports / f"bet-{bet}.json"
    return json.loads(path.read_text()) if path.is_file() else None


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--reports", default="reports", help="the suite's folder")
    parser.add_argument("--games", default=None, help="folder of the games' reports")
    args = parser.parse_args()
    reports, bad, compared = Path(args.reports), 0, 0
    games = Path(args.games or tempfile.mkdtemp(prefix="game-reports-"))
    for path in shipped_games():
        game = api.game(str(path))
        folder = games / game.name
        if not (folder / "tables").is_dir():
            api.game_report(game, out=folder, log=lambda _m: None)
        suite = reports / "games" / game.name / "tables"
        mine = sorted(p.name for p in (folder / "tables").iterdir())
        theirs_files = sorted(p.name for p in suite.iterdir()) if suite.is_dir() else []
        differ = [name for name in mine if not name.startswith("timings.") and (
            name not in theirs_files or (suite / name).read_text()
            != (folder / "tables" / name).read_text())]  # fmt: skip
        same_files = mine == theirs_files and not differ
        compared += 1
        bad += not same_files
        print(f"{game.name}: {len(mine)} table files, the suite's report "
              + ("the same" if same_files else f"DIFFERENT ({', '.join(differ) or 'file sets'})"))
        for table_path in sorted((folder / "tables").glob("*.json")):
            key = table_path.stem
            if not (key.startswith(("base-", "side-"))) or key.endswith(
                    ("-statistics", "-intervals", "-exact", "-envy", "-by-table")):
                continue
            page = suite_page(reports, game.variant.name, game.way, key)
            if page is None:
                print(f"{game.name} {key}: no page in {reports}/")
                bad += 1
                continue
            rows, edge = _table_rows(json.loads(table_path.read_text()))
            theirs = Fraction(str(page["house_edge_fraction"]))
            same = rows == _rows(page) and edge == theirs
            compared += 1
            bad += not same
            print(f"{game.name} {key}: {'same' if same else 'DIFFERENT'} ({len(rows)} rows, "
                  f"house edge {float(edge) * 100:.4f}%)")
    print(f"{compared} tables compared, {bad} different or missing")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
