"""paigow reports on a small deck: every table and plot is written and linked."""

import re
import shutil
from fractions import Fraction
from pathlib import Path
from urllib.parse import unquote, urlparse

import pytest

from analysis.games.variants import variant_names
from analysis.report.build import build_reports
from enumerate.rules import Deck

ENGINE_RUNS: list[object] = []  # the engine runs of the report below
LOG: list[str] = []  # its log


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    import enumerate.engine.pairs.run as engine_run

    out = tmp_path_factory.mktemp("reports") / "r"
    real = engine_run.run_engines

    def recorded(*args, **kwargs):
        ENGINE_RUNS.append(args)
        return real(*args, **kwargs)

    with pytest.MonkeyPatch.context() as mp:  # a cache of its own: every count made here
        mp.setenv("PAIGOW_CACHE_DIR", str(tmp_path_factory.mktemp("report-cache")))
        mp.setattr(engine_run, "run_engines", recorded)
        return build_reports(out, deck=Deck.parse("23579JQA:cd+joker"), log=LOG.append)


def test_the_report_counts_its_deals_without_an_engine_run(built):
    """The variants' and side bets' pair counts come from the lab's per-dealer table and one
    blind pass for both ways (``analysis.pricing.labpairs``), not from an engine run per way."""
    assert any(line.startswith("pair counts of gli, trump-plaza: one blind pass")
               for line in LOG)  # fmt: skip
    assert ENGINE_RUNS == []


def test_reports_small_deck(built):
    out = built.out
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


def test_the_reconciliation_is_the_last_step_and_keeps_its_place(built):
    """The readings' reconciliation runs last (the child sets its hands at low priority,
    ``analysis.report.ahead``), its section still where the lab step used to write it: before the
    house-way lab's."""
    assert list(built.seconds)[-1] == "reconciliation"
    titles = [title for title, _lines in built.sections]
    at = titles.index("The reference way against its math report")
    assert titles[at + 1] == "House-way lab (exposed dealer, best-responding player)"
    assert "closest `gli" in (built.out / "index.md").read_text()


def _browser():
    """Headless Chromium driven by Selenium, or a skip saying why there is none."""
    chromium = shutil.which("chromium") or shutil.which("chromium-browser")
    driver = shutil.which("chromedriver")
    if chromium is None or driver is None:
        pytest.skip("no headless Chromium here (chromium and chromedriver not on PATH; "
                    "`make browser` installs them where apt-get runs as root)")  # fmt: skip
    from selenium import webdriver

    opts = webdriver.ChromeOptions()
    for flag in ("--headless=new", "--no-sandbox", "--disable-gpu", "--window-size=1200,900"):
        opts.add_argument(flag)
    opts.binary_location = chromium
    return webdriver.Chrome(options=opts, service=webdriver.ChromeService(executable_path=driver))


def _path(url: str) -> Path:
    return Path(unquote(urlparse(url).path))


def test_the_browsable_report_in_a_real_browser(built):
    """Open index.html in headless Chromium and follow every page it links: every link
    resolves to a file (and every #anchor to an element), every image decodes, every table of
    the page's markdown renders as a table with rows, and no markdown is left raw."""
    out = built.out
    assert (out / "index.html").exists()
    browser = _browser()
    try:
        todo, seen = [out / "index.html"], set()
        while todo:
            page = todo.pop()
            if page in seen:
                continue
            seen.add(page)
            browser.get(page.as_uri())
            links = browser.execute_script("return Array.from(document.links, a => a.href)")
            for url in links:
                target = _path(url)
                assert target.exists(), f"{page.name}: link to missing {target.name}"
                if target.suffix == ".html" and target.parent == out:
                    todo.append(target)
                anchor = urlparse(url).fragment
                if anchor and target == page:
                    assert browser.find_elements("id", anchor), f"{page.name}: no #{anchor}"
            images = browser.execute_script(
                "return Array.from(document.images, i => [i.getAttribute('src'), "
                "i.complete && i.naturalWidth > 0])")  # fmt: skip
            bad = [src for src, ok in images if not ok]
            assert not bad, f"{page.name}: images that do not load: {bad}"
            tables = browser.execute_script(
                "return Array.from(document.querySelectorAll('table'), "
                "t => [t.rows.length, t.getBoundingClientRect().height])")  # fmt: skip
            source = page.with_suffix(".md").read_text()
            expected = len(re.findall(r"^\|[-:| ]+\|$", source, flags=re.MULTILINE))
            assert len(tables) == expected, f"{page.name}: {len(tables)} of {expected} tables"
            assert all(rows >= 2 and height > 0 for rows, height in tables), page.name
            text = browser.execute_script("return document.body.innerText")
            assert "|---" not in text and "](" not in text, f"{page.name}: raw markdown"
        # every markdown page of the folder is reachable from the index
        assert {p.with_suffix(".md") for p in seen} == set(out.glob("*.md"))
    finally:
        browser.quit()


def test_a_figure_missing_on_a_deck_is_shown_as_a_dash():
    """On 9TJQKA:cdhs+joker no hand wins Tiger 9 or Queen's Dragon, so their "top award 1 in"
    is None; the summary showed the figures of the bets before it, then failed on it."""
    import pandas as pd

    from analysis.report.build import _frame_md

    df = pd.DataFrame({"bet": ["fortune", "tiger-9"], "top award 1 in": [Fraction(5, 2), None]})
    text = _frame_md(df)
    assert "2.50000000" in text and re.search(r"\| -\s*\|", text)
