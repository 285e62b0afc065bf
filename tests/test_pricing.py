"""Variant return tables from independent truth.

(a) On small decks, every variant's rows equal the plain double loop (``pairs_by_brute_force``)
with the variant's rule applied by a deliberately simple function written out here, one per
variant; (b) hand-derived checks from the raw counts; (c) the JSON layout and the command line;
(d) pricing that needs counts already cached never runs the engine again.
"""

from __future__ import annotations

import json
from fractions import Fraction
from math import comb

import pytest

import analysis.pricing.counts as engine_mod  # where pair_counts calls the engine
from analysis.cli.main import main
from analysis.games.variants import get_variant
from analysis.pricing.counts import pair_counts
from analysis.pricing.returns import analyze, price
from analysis.pricing.sidebets import price_sidebet
from enumerate.bruteforce import pairs_by_brute_force
from enumerate.houseways import get_way
from enumerate.rules import Deck, Rules
from enumerate.vocabulary import ACE_HIGH_PAI_GOW_EVENTS, ALL_DEALER_EVENTS, DealerEvent

# every special dealer event happens on the first two (ace-high pai gow with and without the
# joker, two jacks, queen-high pai gow, nine-high low hands); the third has many jacks; the
# last two have four suits (suit orbits of 24 hands): royals, five aces and two jacks; the
# joker's wheel and no special event at all
EVERY_EVENT_DECKS = ["23569JQA:cd+joker", "2569TJQA:cd+joker"]
JACKS_DECKS = ["TJQKA:cdh+joker", "JQKA:cdhs+joker"]  # two jacks, no pai gow
DECKS = [*EVERY_EVENT_DECKS, *JACKS_DECKS, "A234:cdhs+joker"]
RAW_BITS = range(ALL_DEALER_EVENTS + 1)  # every combination of dealer events
ACE_HIGH_PAI_GOW = int(ACE_HIGH_PAI_GOW_EVENTS)  # face-up's dealer flags (plain ints)
TWO_JACKS = int(DealerEvent.TWO_JACKS)
WIN = "player wins both hands"
PUSH = "each side wins one hand"
LOSS = "dealer wins both hands (copies to the dealer)"


@pytest.fixture(scope="module", params=DECKS)
def deck_brute(request):
    deck = Deck.parse(request.param)
    gli = get_way("gli")
    brute = pairs_by_brute_force(deck, Rules(), gli, gli, list(RAW_BITS))  # column = raw bits
    pair_counts(deck, flag_mask=ALL_DEALER_EVENTS)  # cached once: every variant below reads it
    return deck, brute


def totals(brute, mode: str, holds) -> tuple[int, int, int]:
    """Player wins, pushes, losses over the dealer hands whose flags satisfy ``holds``."""
    if mode == "house-way":
        w, p, lo = brute.blind_win, brute.blind_push, brute.blind_loss
    else:
        w, p, lo = brute.br_win, brute.br_push, brute.br_loss
    cols = [b for b in RAW_BITS if holds(b)]
    return int(w[cols].sum()), int(p[cols].sum()), int(lo[cols].sum())


def deals(brute, holds) -> int:
    return sum(int(brute.joint[:, b].sum()) for b in RAW_BITS if holds(b))


def traditional(brute, mode):
    w, p, lo = totals(brute, mode, lambda b: True)
    return {WIN: w, PUSH: p, LOSS: lo}


def face_up(brute, mode):
    def ace_high(b):
        return b & ACE_HIGH_PAI_GOW_EVENTS  # joker or natural ace: every bet pushes

    w, p, lo = totals(brute, mode, lambda b: not ace_high(b))
    return {WIN: w, PUSH: p, LOSS: lo, "dealer ace-high pai gow: push": deals(brute, ace_high)}


def dealer_open(brute, mode):
    def jacks(b):
        return b & DealerEvent.TWO_JACKS  # the dealer wins at once

    w, p, lo = totals(brute, mode, lambda b: not jacks(b))
    return {WIN: w, PUSH: p, LOSS: lo, "dealer two or more jacks: dealer wins": deals(brute, jacks)}


def _whole_bet_push(event: str, bit: int):
    """The dealer hand ``bit`` pushes every bet (ez, commission-free: the rule cards)."""

    def rule(brute, mode):
        w, p, lo = totals(brute, mode, lambda b: not b & bit)
        return {WIN: w, PUSH: p, LOSS: lo, f"dealer {event}: push": deals(brute, lambda b: b & bit)}

    return rule


def _winning_bets_push(event: str, bit: int):
    """The reading ``winning-bets-push``: on the dealer hand ``bit`` only the player's wins
    push; his pushes and losses stand."""

    def rule(brute, mode):
        w, _, _ = totals(brute, mode, lambda b: not b & bit)
        pushed, _, _ = totals(brute, mode, lambda b: b & bit)
        _, p_all, lo_all = totals(brute, mode, lambda b: True)
        return {WIN: w, PUSH: p_all, LOSS: lo_all, f"player win pushed: dealer {event}": pushed}

    return rule


QUEEN, NINE = DealerEvent.QUEEN_HIGH, DealerEvent.NINE_HIGH_LOW
SIMPLE = {
    "traditional": (traditional, Fraction(19, 20)),
    "face-up": (face_up, Fraction(1)),
    "dealer-open": (dealer_open, Fraction(1)),
    "ez": (_whole_bet_push("queen-high pai gow", QUEEN), Fraction(1)),
    "commission-free": (_whole_bet_push("nine-high low hand", NINE), Fraction(1)),
    "ez[winning-bets-push]": (_winning_bets_push("queen-high pai gow", QUEEN), Fraction(1)),
    "commission-free[winning-bets-push]": (_winning_bets_push("nine-high low hand", NINE),
                                           Fraction(1)),
}
CASES = [(v, "house-way") for v in SIMPLE] + [("face-up", "best-response"),
                                              ("dealer-open", "best-response")]  # fmt: skip


@pytest.mark.parametrize("name,mode", CASES)
def test_variant_equals_brute_force(deck_brute, name, mode):
    deck, brute = deck_brute
    variant = get_variant(name)
    table = analyze(variant, player=mode, deck=deck)
    rule, win_pays = SIMPLE[name]
    expected = rule(brute, mode)
    got = dict(zip(table.rows["event"], table.rows["combinations"], strict=True))
    assert got == expected
    n = deck.size
    assert table.total == comb(n, 7) * comb(n - 7, 7) == sum(expected.values())
    loss = sum(v for k, v in expected.items() if k == LOSS or k.endswith("dealer wins"))
    edge = -(win_pays * expected[WIN] - loss) / Fraction(table.total)
    assert table.house_edge == edge
    assert table.table["return"].iloc[-1] == -edge  # the total row
    assert (table.player, table.house_way, table.deck) == (mode, "gli", deck.name)


def test_a_variant_file_with_two_rules(deck_brute, tmp_path):
    """A new game is a file: queen-high pai gow -> the dealer wins, else nine-high low ->
    every bet pushes (first rule first), 2.5% commission; no engine code involved."""
    deck, brute = deck_brute
    path = tmp_path / "house-special.toml"
    path.write_text(
        'name = "house-special"\ndealer_exposed = false\ncommission = "2.5%"\n[dealer_rules]\n'
        '"queen-high pai gow" = "dealer-wins"\n"nine-high low hand" = "push"\n'
    )
    table = analyze(str(path), deck=deck)

    def queen(b):
        return b & DealerEvent.QUEEN_HIGH

    def nine_only(b):
        return b & DealerEvent.NINE_HIGH_LOW and not b & DealerEvent.QUEEN_HIGH

    w, p, lo = totals(brute, "house-way", lambda b: not queen(b) and not nine_only(b))
    expected = {WIN: w, PUSH: p, LOSS: lo,
                "dealer queen-high pai gow: dealer wins": deals(brute, queen),
                "dealer nine-high low hand: push": deals(brute, nine_only)}  # fmt: skip
    assert dict(zip(table.rows["event"], table.rows["combinations"], strict=True)) == expected
    loss = expected[LOSS] + expected["dealer queen-high pai gow: dealer wins"]
    assert table.house_edge == -(Fraction(39, 40) * w - loss) / table.total


def test_special_events_happen_on_the_test_decks(deck_brute):
    """The checks above mean something: each special rule fires on the first two decks; two
    jacks on the next two; nothing special on the last (four ranks: every hand has a pair)."""
    deck, brute = deck_brute
    if deck.name in _names(EVERY_EVENT_DECKS):
        events = list(DealerEvent)
    elif deck.name in _names(JACKS_DECKS):
        events = [DealerEvent.TWO_JACKS]
        assert deals(brute, lambda b: b & ~DealerEvent.TWO_JACKS) == 0
    else:
        events = []
        assert deals(brute, lambda b: b) == 0
    for event in events:
        assert deals(brute, lambda b, event=event: b & event) > 0


def _names(decks: list[str]) -> set[str]:
    return {Deck.parse(d).name for d in decks}


def test_traditional_edge_by_hand():
    """-(0.95 * win - loss) / total from the raw counts."""
    deck = Deck.parse("23569JQA:cd+joker")
    c = pair_counts(deck, flag_mask=0).counts
    win, loss = int(c.blind_win.sum()), int(c.blind_loss.sum())
    total = comb(17, 7) * comb(10, 7)
    table = analyze("traditional", deck=deck)
    assert table.house_edge == -(Fraction(95, 100) * win - loss) / total
    assert table.house_edge_percent() == f"{100 * float(table.house_edge):.4f}%"


def test_face_up_push_row_is_the_dealer_ace_high_joint_count():
    deck = Deck.parse("2569TJQA:cd+joker")
    deal = pair_counts(deck, flag_mask=ACE_HIGH_PAI_GOW)
    ace = sum(int(deal.counts.joint[:, d].sum()) for d in deal.dealer_classes(ACE_HIGH_PAI_GOW))
    for mode in ("house-way", "best-response"):
        table = price(deal, "face-up", mode)
        assert table.combinations("dealer ace-high pai gow: push") == ace > 0


def test_player_modes():
    deck = Deck.parse("TJQKA:cdh+joker")
    with pytest.raises(ValueError) as err:
        analyze("face-up", player="optimal", deck=deck)
    assert str(err.value) == (
        "player optimal is priced from per-hand counts: use analysis.pricing.optimal."
        "optimal_return_table (the CLI does)"
    )
    with pytest.raises(ValueError) as err:
        analyze("ez", player="best-response", deck=deck)
    assert str(err.value) == (
        "variant ez hides the dealer's hand: the player cannot respond to it "
        "(use --player house-way)"
    )
    message = f"needs dealer flags {ACE_HIGH_PAI_GOW}; the counts keep only {TWO_JACKS}"
    with pytest.raises(ValueError, match=message):
        price(pair_counts(deck, flag_mask=TWO_JACKS), "face-up")


def test_coarsened_counts_equal_a_direct_run():
    deck = Deck.parse("2569TJQA:cd+joker")
    full = pair_counts(deck, flag_mask=ALL_DEALER_EVENTS, use_cache=False)
    for mask in (0, ACE_HIGH_PAI_GOW, TWO_JACKS | int(DealerEvent.NINE_HIGH_LOW)):
        direct = pair_counts(deck, flag_mask=mask, use_cache=False)
        coarse = full.coarsened(mask)
        assert coarse.counts == direct.counts
        assert coarse.dealer_class_bits == direct.dealer_class_bits


def test_priced_from_the_cache_never_re_enumerates(tmp_path, monkeypatch):
    """One engine run (flags 3) serves face-up in both modes, both Push Ace High tables and,
    by merging dealer classes, the traditional game."""
    monkeypatch.setenv("PAIGOW_CACHE_DIR", str(tmp_path))
    deck = Deck.parse("23569JQA:cd+joker")
    expected_traditional = price(pair_counts(deck, flag_mask=0, use_cache=False), "traditional")
    runs = []
    real = engine_mod.run_engine

    def once(*args, **kwargs):
        if runs:
            raise AssertionError("the engine ran again")
        runs.append(1)
        return real(*args, **kwargs)

    monkeypatch.setattr(engine_mod, "run_engine", once)
    first = analyze("face-up", deck=deck)
    assert runs == [1]
    assert analyze("face-up", deck=deck, player="house-way").total == first.total
    for name in ("5-15-40", "5-12-40"):
        assert price_sidebet("push-ace-high", name, deck=deck).total == first.total
    again = analyze("face-up", deck=deck)
    assert again.table.equals(first.table)
    traditional = analyze("traditional", deck=deck)
    assert traditional.table.equals(expected_traditional.table)
    assert pair_counts(deck, flag_mask=0).source == f"cache (flags {ACE_HIGH_PAI_GOW})"
    assert runs == [1]
    assert len(list((tmp_path / "pairs").glob("*.parquet"))) == 1
    # another house way is other counts: it must run
    with pytest.raises(AssertionError, match="the engine ran again"):
        analyze("face-up", house_way="trump-plaza", deck=deck)


def test_json_layout(capsys):
    assert main(["analyze", "dealer-open", "--deck", "TJQKA:cdh+joker", "--format", "json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert list(data) == ["game", "house_way", "player", "deck", "total", "rows", "house_edge",
                          "house_edge_fraction", "variance", "variance_fraction",
                          "standard_deviation", "hit_frequency", "hit_frequency_fraction",
                          "top_award", "house_edge_per_resolved_bet",
                          "house_edge_per_resolved_bet_fraction"]  # fmt: skip
    assert (data["game"], data["house_way"], data["player"], data["deck"]) == (
        "dealer-open", "gli", "best-response", "TJQKA:cdh+joker"
    )
    assert data["total"] == comb(16, 7) * comb(9, 7)
    for row in data["rows"]:
        assert list(row) == ["event", "outcome", "pays", "combinations", "probability", "return"]
        assert row["outcome"] in ("win", "push", "loss")
        assert isinstance(row["combinations"], int)
    assert sum(r["combinations"] for r in data["rows"]) == data["total"]
    num, den = map(int, data["house_edge_fraction"].split("/"))
    edge = Fraction(num, den)
    assert edge == -sum(Fraction(r["pays"]) * Fraction(r["combinations"], data["total"])
                        for r in data["rows"])  # fmt: skip
    assert data["house_edge"] == float(edge)


def test_json_pays_commission(capsys):
    assert main(["analyze", "traditional", "--deck", "TJQKA:cdh+joker", "--format", "json"]) == 0
    rows = json.loads(capsys.readouterr().out)["rows"]
    assert [(r["event"], r["pays"]) for r in rows] == [(WIN, 0.95), (PUSH, 0), (LOSS, -1)]


@pytest.mark.parametrize("fmt", ["md", "csv", "html"])
def test_renderings(capsys, fmt):
    assert main(["analyze", "face-up", "--deck", "TJQKA:cdh+joker", "--format", fmt]) == 0
    out = capsys.readouterr().out
    assert "dealer ace-high pai gow: push" in out
    if fmt == "csv":
        lines = out.splitlines()
        assert lines[0] == "event,outcome,pays,combinations,probability,return"
        table = out.split("\n\n")[0].splitlines()  # the figures follow after an empty line
        assert table[-1].startswith(f"total,,,{comb(16, 7) * comb(9, 7)},1,")
    elif fmt == "md":
        assert "| event" in out and "house edge: " in out and "(exact: " in out
        assert "player: best-response" in out
    else:
        assert "<table" in out and "house edge: " in out


@pytest.mark.parametrize(
    "argv,message",
    [
        (["analyze", "pai-gow-deluxe"], "unknown variant 'pai-gow-deluxe' (known: "
         "commission-free, dealer-open, ez, face-up, traditional)"),
        (["analyze", "face-up", "--player", "optimal"],
         "variant face-up exposes the dealer's hand: its best play is the best response"),
        (["analyze", "face-up", "--player", "genius"],
         "--player genius: expected one of house-way, best-response, optimal, banking, "
         "banking-optimal"),
        (["analyze", "traditional", "--player", "best-response"],
         "variant traditional hides the dealer's hand"),
        (["analyze", "ez", "--house-way", "nope"], "unknown house way 'nope'"),
        (["analyze", "ez", "--deck", "QKA:cdh"], "deck QKA:cdh has 9 cards; a deal needs 14"),
        (["analyze", "ez", "--format", "xml"], "invalid choice"),
    ],
)  # fmt: skip
def test_analyze_errors_are_one_line(capsys, argv, message):
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith("paigow: error: ")
    assert message in err
