"""paigow reports on a small deck: every table and plot is written and linked."""

from analysis.reports import build_reports
from analysis.variants import variant_names
from enumerate.rules import Deck


def test_reports_small_deck(tmp_path):
    rep = build_reports(tmp_path / "r", deck=Deck.parse("23579JQA:cd+joker"), log=lambda m: None)
    out = rep.out
    index = (out / "index.md").read_text()
    for name in variant_names():
        assert f"variant-{name}-gli-house-way.md" in index
        assert (out / f"variant-{name}-gli-house-way.json").exists()
    for png in ("variants.png", "sidebets.png", "optimal-traditional-gli.png"):
        assert (out / png).stat().st_size > 1000
    assert "Optimal blind strategy" in index
    assert "TEMPLATE" in (out / "sidebet-jacks-beat-template.md").read_text()
    assert "House-way lab" in index
    for name in ("face-up", "dealer-open"):
        for way in ("gli", "trump-plaza", "foxwoods"):
            assert f"waylab-{name}-{way}-by-rule.md" in index
            assert (out / f"waylab-{name}-{way}-patterns.md").exists()
            assert (out / f"waylab-{name}-{way}.png").stat().st_size > 1000
    assert "house-optimal (ceiling)" in (out / "waylab.md").read_text()
    assert "banking-gli.md" in index
    assert "NOT exact" in (out / "banking-gli.md").read_text()
    assert "standard deviation" in (out / "variant-traditional-gli-house-way.md").read_text()
    assert (out / "envy-by-table-fortune-1-5000.md").exists()
    assert "envy-by-table-chan-chu-template-template.md" in index
    assert "optimal-traditional-gli-patterns.md" in index
    assert "given up per hand" in (out / "optimal-traditional-gli-patterns.md").read_text()
