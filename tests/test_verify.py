"""paigow verify: computed figures against published entries, pass and fail."""

from math import comb

import pytest

from analysis.checks import verify as verify_mod
from analysis.cli.main import main


def _write(folder, body):
    (folder / "x.toml").write_text(body)


def test_pass_and_fail(tmp_path):
    total = comb(16, 7)  # the 16-card deck's hands, worked out by hand
    _write(tmp_path, f"""
[defaults]
deck = "TJQKA:cdh+joker"
source = "test"

[[figures]]
figure = "hands.total"
value = {total}

[[figures]]
figure = "hands.total"
value = {total + 1}
""")
    df = verify_mod.check_published(tmp_path)
    assert df["ok"].tolist() == [True, False]


def test_tolerance(tmp_path):
    _write(tmp_path, """
[[figures]]
figure = "hands.class.five aces"
deck = "TJQKA:cdh+joker"
value = 10
tolerance = 2
source = "test"
""")
    # five aces on T-A x 3 suits + joker: only 3 aces exist, so none
    df = verify_mod.check_published(tmp_path)
    assert df["computed"].tolist() == ["0"]
    assert df["ok"].tolist() == [False]


@pytest.mark.parametrize(
    "body,message",
    [
        ('[[figures]]\nfigure = "nope"\nvalue = 1\nsource = "s"\n', "unknown figure 'nope'"),
        ('[[figures]]\nfigure = "hands.total"\nsource = "s"\n', "has no 'value'"),
        ("[[figures]\n", "not valid TOML"),
    ],
)
def test_bad_files(tmp_path, body, message):
    _write(tmp_path, body)
    with pytest.raises(ValueError, match=message):
        verify_mod.check_published(tmp_path)


# hands of a 16-card deck, published wrong by 5
WRONG_TOTAL = f"""
[[figures]]
figure = "hands.total"
deck = "TJQKA:cdh+joker"
value = {comb(16, 7) + 5}
source = "test"
"""


def test_cli_exit_code(tmp_path, monkeypatch, capsys):
    _write(tmp_path, WRONG_TOTAL)
    assert _cli(tmp_path, monkeypatch) == 1
    assert "0 passed, 1 failed" in capsys.readouterr().out


def _cli(folder, monkeypatch) -> int:
    """``paigow verify`` over the published files of ``folder``."""
    monkeypatch.setattr(verify_mod, "PUBLISHED", folder)
    monkeypatch.setattr(verify_mod.check_published, "__defaults__", (folder, None))
    return main(["verify"])


def test_shipped_entries_are_known_figures():
    entries = verify_mod.published_entries()
    assert len(entries) >= 14
    assert all(e["source"] for e in entries)


def test_a_disagreement_on_record_is_shown_open(tmp_path, monkeypatch, capsys):
    _write(tmp_path, WRONG_TOTAL + 'open = "which edition the source counted"\n')
    df = verify_mod.check_published(tmp_path)
    assert df["status"].tolist() == ["open"] and df["ok"].tolist() == [False]
    assert "OPEN: which edition" in df["source"].iloc[0]
    assert _cli(tmp_path, monkeypatch) == 0
    assert "0 passed, 0 failed, 1 open" in capsys.readouterr().out


def test_volatility_figures(tmp_path):
    """Figures of the volatility kinds: the Fortune top award on the full deck is 1 in
    C(53,7)/32 (32 natural 7-card straight flushes: 8 runs of seven ranks in 4 suits, by
    hand); a main wager's hit frequency is its probability of winning both hands (the
    return table's, which test_pricing checks against brute force)."""
    from fractions import Fraction

    from analysis.pricing.returns import analyze
    from enumerate.rules import Deck

    deck = "TJQKA:cdh+joker"
    win = analyze("traditional", "gli", "house-way", Deck.parse(deck)).probability("win")
    _write(tmp_path, f"""
[defaults]
source = "test"

[[figures]]
figure = "sidebet.fortune-1.top_award_one_in"
deck = "full"
value = "{Fraction(comb(53, 7), 32)}"

[[figures]]
figure = "deals.gli.traditional.house-way.hit_frequency"
deck = "{deck}"
value = "{win}"

[[figures]]
figure = "deals.gli.traditional.house-way.hit_frequency"
deck = "{deck}"
value = "{win + Fraction(1, 10**6)}"
""")
    df = verify_mod.check_published(tmp_path)
    assert df["ok"].tolist() == [True, True, False]


@pytest.mark.parametrize("name", ["deals.gli.traditional.house-way.kurtosis",
                                  "sidebet.fortune-1.house_edge_per_resolved_bet",
                                  "deals.gli.traditional.variance"])  # fmt: skip
def test_unknown_statistics_are_unknown_figures(name):
    assert verify_mod.figure_of(name) is None
