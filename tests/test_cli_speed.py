"""What keeps the one-hand commands fast, checked without timing anything:

- importing the CLI, and running ``paigow hand``, ``set`` or ``best``, imports neither pandas
  nor matplotlib (each run in a fresh interpreter); ``hand`` and ``set`` start no numba kernel
  (they run the kernels' code as Python, ``enumerate.runtime.inpython``);
- the parser still lists every command, those defined by their own modules when named;
- the five-card table is cached on disk, verified when read, reported and rebuilt when damaged;
- ``set_one_hand`` (one hand, from Python) sets hands as ``apply_way`` (the kernels) does, the
  fallback included, ``describe`` classifies them as ``classify_all`` does, and
  ``set_report``'s frontier is ``frontier_of``'s.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from numba import njit

from analysis.cli.main import build_parser, main
from enumerate import evaluate
from enumerate.cache import save_arrays
from enumerate.cards import Card, parse_cards
from enumerate.classes import classify_all, describe, fortune_of_five
from enumerate.evaluate import five_card_table, settings
from enumerate.houseways import FALLBACK, HouseWay, apply_way, get_way, set_one_hand
from enumerate.houseways.facts import NONE, PAIR
from enumerate.rules import Rules, WheelOption
from enumerate.strategy import frontier_of, frontier_points
from enumerate.vocabulary import HandFlag

ROOT = Path(__file__).resolve().parents[1]
HEAVY = ("pandas", "matplotlib")


def _modules_after(code: str, heavy: tuple[str, ...] = HEAVY) -> dict[str, bool]:
    """Run ``code`` in a fresh interpreter; which of the ``heavy`` modules did it import?"""
    report = f"print(json.dumps({{m: m in sys.modules for m in {heavy!r}}}))"
    probe = f"{code}\nimport json, sys\n{report}"
    out = subprocess.run([sys.executable, "-c", probe], cwd=ROOT, capture_output=True,
                         text=True, check=True)  # fmt: skip
    return dict(json.loads(out.stdout.splitlines()[-1]))


def test_importing_the_cli_imports_no_heavy_module() -> None:
    loaded = _modules_after("import analysis.cli.main\nanalysis.cli.main.build_parser()",
                            (*HEAVY, "numba", "pyarrow"))  # fmt: skip
    assert not any(loaded.values()), loaded


@pytest.mark.parametrize("argv", [
    ["hand", "As Ks Qs Js Ts 2c Jk"],
    ["hand", "As Ks Qs Js Ts 2c Jk", "--format", "json"],
    ["set", "Ks Kh 9c 7d 5h 3s 2c"],
    ["set", "Ks Kh 9c 7d 5h 3s 2c", "--format", "json"],
])  # fmt: skip
def test_one_hand_commands_import_no_heavy_module(argv: list[str]) -> None:
    code = ("import contextlib, io\nfrom analysis.cli.main import main\n"
            "with contextlib.redirect_stdout(io.StringIO()):\n"
            f"    assert main({argv!r}) == 0")  # fmt: skip
    loaded = _modules_after(code)
    assert not any(loaded.values()), loaded


# a fresh interpreter runs the command, then lists every numba kernel of the project's modules
# that was compiled or read from numba's cache in it (the first one starts the JIT)
_KERNELS_STARTED = """
from numba.core.dispatcher import Dispatcher
started = sorted(f"{name}.{k}" for name, mod in list(sys.modules.items())
                 if name.split(".")[0] in ("enumerate", "analysis")
                 for k, v in vars(mod).items() if isinstance(v, Dispatcher) and v.overloads)
print(json.dumps(started))
"""


@pytest.mark.parametrize("argv", [
    ["hand", "Jk Kd 9c 7h 5s 3d 2c"],
    ["set", "Ks Kh 9c 7d 5h 3s 2c"],
    ["set", "Jk 2h 3h 4h 5h 9c 9d", "--house-way", "foxwoods"],
    ["set", "As Ad Ah Ac Kd Kh 2c", "--house-way", "trump-plaza"],
])  # fmt: skip
def test_one_hand_commands_start_no_kernel(argv: list[str]) -> None:
    """``paigow hand`` and ``set`` run the kernels' code as Python (``enumerate.runtime.inpython``):
    no kernel of the project is compiled or read from numba's cache in the process."""
    code = ("import contextlib, io, json, sys\nfrom analysis.cli.main import main\n"
            "with contextlib.redirect_stdout(io.StringIO()):\n"
            f"    assert main({argv!r}) == 0\n{_KERNELS_STARTED}")  # fmt: skip
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True,
                         text=True, check=True)  # fmt: skip
    assert json.loads(out.stdout.splitlines()[-1]) == []


def test_a_kernel_run_in_python_reports_itself() -> None:
    """The probe above can fail: a kernel called compiled is listed."""
    code = ("import json, sys\nimport numpy as np\nfrom enumerate.evaluate import two_card_id_of\n"
            f"two_card_id_of(0, 4)\n{_KERNELS_STARTED}")  # fmt: skip
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True,
                         text=True, check=True)  # fmt: skip
    assert json.loads(out.stdout.splitlines()[-1]) == ["enumerate.evaluate.two_card_id_of"]


@pytest.mark.parametrize("extra", [["--method", "direct"], ["--format", "csv"]])
def test_best_imports_no_heavy_module(extra: list[str]) -> None:
    """``paigow best`` prints its rows without pandas (a heavy import). The
    first run builds the small deck's tables (their Parquet files: pandas), the second reads
    them."""
    argv = ["best", "Jk Ad Qc Qd 9c Td Kd", "--deck", "9TJQKA:cdhs+joker", *extra]
    code = ("import contextlib, io\nfrom analysis.cli.main import main\n"
            "with contextlib.redirect_stdout(io.StringIO()):\n"
            f"    assert main({argv!r}) == 0")  # fmt: skip
    _modules_after(code)
    loaded = _modules_after(code)
    assert not any(loaded.values()), loaded


def test_the_help_lists_every_command_in_order(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(["--help"])
    out = capsys.readouterr().out
    listed = [line.split()[0] for line in out.splitlines() if line.startswith("    ")]
    names = ["hand", "categories", "set", "ways", "diff-ways", "analyze", "simulate", "verify",
             "reports", "best", "sweep", "way-edge", "way-costs", "sidebet"]  # fmt: skip
    assert [n for n in listed if n in names] == names
    assert "house edges over a grid" in out  # sweep's own help line, from its module


def test_deferred_commands_parse_as_before() -> None:
    args = build_parser().parse_args(["way-costs", "face-up", "--way", "gli", "--top", "5"])
    assert (args.command, args.variant, args.way, args.top) == ("way-costs", "face-up", "gli", 5)
    assert build_parser().parse_args(["sweep"]).command == "sweep"


def test_bad_input_is_one_line_and_exit_2(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["nosuch"]) == 2
    assert main(["hand", "As Ks"]) == 2
    err = capsys.readouterr().err.splitlines()
    assert len(err) == 2 and all(line.startswith("paigow: error: ") for line in err)
    assert "'sweep'" in err[0] and "'sidebet'" in err[0]  # every command among the choices


# --------------------------------------------------------------------------- five-card cache


@pytest.fixture
def fresh_cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    monkeypatch.setenv("PAIGOW_CACHE_DIR", str(tmp_path))
    five_card_table.cache_clear()
    yield tmp_path / "fivecard"
    five_card_table.cache_clear()


def _same(a: evaluate.FiveCardTable, b: evaluate.FiveCardTable) -> bool:
    return all(np.array_equal(getattr(a, n), getattr(b, n)) for n in ("ids", "keys", "category",
                                                                    "max_low"))  # fmt: skip


def _notice(capfd: pytest.CaptureFixture[str], path: Path) -> None:
    err = capfd.readouterr().err
    lines = [x for x in err.splitlines() if "failed verification" in x]
    assert len(lines) == 1 and str(path) in lines[0] and "rebuilding it" in lines[0], err


def test_five_card_table_is_cached_verified_and_rebuilt(fresh_cache: Path, capfd) -> None:
    built = five_card_table()
    stem = fresh_cache / "wheel_second"
    assert stem.with_suffix(".json").exists()
    five_card_table.cache_clear()
    assert _same(five_card_table(), built)  # read back: no notice
    assert "failed verification" not in capfd.readouterr().err

    # a flipped byte inside the ids: the digest tells
    ids = fresh_cache / "wheel_second-ids.npy"
    data = bytearray(ids.read_bytes())
    data[len(data) // 2] ^= 0xFF
    ids.write_bytes(bytes(data))
    five_card_table.cache_clear()
    assert _same(five_card_table(), built)
    _notice(capfd, ids)
    five_card_table.cache_clear()
    assert _same(five_card_table(), built)  # rebuilt, written and served again
    assert "failed verification" not in capfd.readouterr().err

    # numbers with intact digests that break an invariant (a max_low one off, as a bug or an
    # edit would make it): the check tells
    arrays = {n: np.array(getattr(built, n)) for n in ("ids", "keys", "category", "max_low")}
    arrays["max_low"][0] += 1
    prov = json.loads(stem.with_suffix(".json").read_text())
    del prov["arrays"]
    save_arrays(fresh_cache, "wheel_second", arrays, prov)
    five_card_table.cache_clear()
    assert _same(five_card_table(), built)
    _notice(capfd, stem.with_suffix(".json"))


def test_a_five_card_table_built_wrong_is_a_bug(fresh_cache: Path, monkeypatch) -> None:
    real = evaluate._build_five_card_table

    def wrong(rules: Rules) -> evaluate.FiveCardTable:
        t = real(rules)
        return evaluate.FiveCardTable(rules, t.ids, t.keys[::-1].copy(), t.category, t.max_low)

    monkeypatch.setattr(evaluate, "_build_five_card_table", wrong)
    with pytest.raises(AssertionError, match="five-card table"):
        five_card_table()
    assert not (fresh_cache / "wheel_second.json").exists()  # never written


# --------------------------------------------------------------------------- one hand


@njit
def _choose_badly(f):
    # NONE without a pair, else the two highest cards in front (often not valid)
    if f.best_cat == PAIR:
        return 20, 1
    if f.n_pairs == 0:
        return NONE, 0
    return 0, 2


BAD_WAY = HouseWay("test-badly", "1", "falls back often", ("a", "b", "c"), _choose_badly)


def _random_rows(n: int, seed: int) -> np.ndarray:
    rng = np.random.default_rng(seed)
    rows = [np.sort(rng.choice(53, 7, replace=False)) for _ in range(n)]
    return np.array(rows, dtype=np.int64)


RARE = ["Jk As Ad Ah Ac Kd 2c", "As Ad Ah Ac Kd Kh Ks", "Ks Kh Kd 5s 5h 5d 2c",
        "Jk 2h 3h 4h 5h 6h 7h", "Ks Kh 9c 9d 5h 5s 2c", "Qs Qh Qd Qc 9d 9h 3c",
        "Jk 9s Ts Js Qs 2d 2c", "2s 2h 3d 3c 4s 4h 5d", "Jk Ac Kd Qh Jc 9s 8d"]


def _rows_of_every_rule(way: HouseWay, n: int = 40_000, each: int = 3) -> np.ndarray:
    """Up to ``each`` hands of every rule the way (compiled) sets ``n`` random hands by."""
    rng = np.random.default_rng(21)
    rows = np.sort(np.argsort(rng.random((n, 53)), axis=1)[:, :7], axis=1).astype(np.int64)
    rule = apply_way(way, rows).rule
    return rows[np.concatenate([np.flatnonzero(rule == r)[:each] for r in np.unique(rule)])]


@pytest.mark.parametrize("way", [BAD_WAY, get_way("gli"), get_way("gli[two-pair=or]"),
                                 get_way("trump-plaza"), get_way("foxwoods"),
                                 get_way("max-back")])  # fmt: skip
def test_set_hand_sets_as_apply_way_does(way: HouseWay) -> None:
    """``set_one_hand`` runs the way's kernels as Python: the same settings as compiled, on random
    hands, on a few hands of every rule the way sets 40,000 random hands by, and on hands for
    the rare rules (five aces, quads with trips, two trips, a seven-card straight flush)."""
    rows = np.concatenate([_random_rows(300, 13), _rows_of_every_rule(way),
                           [sorted(c.id for c in parse_cards(h)) for h in RARE]])
    col = apply_way(way, rows)
    fallbacks = 0
    for k, row in enumerate(rows):
        s = set_one_hand(way, [Card(int(c)) for c in row])
        want = (int(col.high[k]), int(col.low[k]), way.rule_names[int(col.rule[k])])
        assert (s.high_id, s.low_id, s.rule) == want, [str(Card(int(c))) for c in row]
        fallbacks += s.rule == FALLBACK
    assert (fallbacks > 0) == (way is BAD_WAY)


def test_describe_classifies_as_the_kernel_does() -> None:
    """``describe`` runs ``classify`` as Python: the same classes, best fives, flags and jacks
    as ``classify_all`` compiled, over random hands and hands chosen for the seven-card straight
    flushes, the royal match and three pairs."""
    chosen = ["Jk 2h 3h 4h 5h 6h 7h", "As 2s 3s 4s 5s 6s 7s", "Jk As Ks Qs Js Ts 9s",
              "As Ks Qs Js Ts Ad Kd", "Jk Kd Kh 9c 9h 5s 5d", "Jk Qd Jh 9c 7h 5s 3d"]
    rows = np.concatenate([_random_rows(1500, 5),
                           [sorted(c.id for c in parse_cards(h)) for h in chosen]])
    t = five_card_table()
    fortune5 = fortune_of_five(t)
    want = classify_all(rows, t.ids, fortune5, t.category)
    for k, row in enumerate(rows):
        d = describe([Card(int(c)) for c in row])
        flags = (d.pai_gow * HandFlag.PAI_GOW | d.ace_high_pai_gow * HandFlag.ACE_HIGH_PAI_GOW
                 | d.joker_is_ace * HandFlag.JOKER_IS_ACE
                 | d.queen_high_pai_gow * HandFlag.QUEEN_HIGH_PAI_GOW)  # fmt: skip
        got = (int(d.seven_card_class), d.best_five_id, int(flags), d.jacks)
        assert got == tuple(int(w[k]) for w in want), [str(Card(int(c))) for c in row]


@pytest.mark.parametrize("wheel", ["second", "low"])
def test_set_report_frontier_is_frontier_of(wheel: WheelOption) -> None:
    rules = Rules(wheel=wheel)
    for row in _random_rows(400, 7):
        hand = [Card(int(c)) for c in row]
        assert frontier_points(settings(hand, rules)) == frontier_of(hand, rules)


@pytest.mark.parametrize("fmt", ["md", "csv", "json"])
def test_analyze_from_cached_counts_imports_no_heavy_module(fresh_cache: Path, fmt: str) -> None:
    """A return table priced from cached counts is read and printed without pandas (which
    pyarrow's compute functions and ``to_numpy`` import) or matplotlib. (The subprocesses
    inherit the fixture's PAIGOW_CACHE_DIR.)"""
    argv = ["analyze", "face-up", "--deck", "TJQKA:cdh+joker", "--format", fmt]
    code = ("import contextlib, io\nfrom analysis.cli.main import main\n"
            "with contextlib.redirect_stdout(io.StringIO()):\n"
            f"    assert main({argv!r}) == 0")  # fmt: skip
    _modules_after(code)  # the first run counts the deals, into the cache
    loaded = _modules_after(code)
    assert not any(loaded.values()), loaded
