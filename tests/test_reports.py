"""paigow reports on a small deck: every table and plot is written and linked."""

import re
import shutil
from fractions import Fraction
from pathlib import Path
from urllib.parse import unquote, urlparse

import pytest

from analysis.games.variants import variant_names
from analysis.report.build import CASINO_WAYS, build_reports
from enumerate.rules import Deck

ENGINE_RUNS: list[object] = []  # the engine runs of the report below
LOG: list[str] = []  # its log
DECK = Deck.parse("23579JQA:cd+joker")
GAME_DEALS = 20_000  # Monte Carlo deals per mode of the game reports
CACHE: list[Path] = []  # the report's own cache folder


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    import enumerate.engine.pairs.run as engine_run

    out = tmp_path_factory.mktemp("reports") / "r"
    real = engine_run.run_engines

    def recorded(*args, **kwargs):
        ENGINE_RUNS.append(args)
        return real(*args, **kwargs)

    CACHE.append(tmp_path_factory.mktemp("report-cache"))
    with pytest.MonkeyPatch.context() as mp:  # a cache of its own: every count made here
        mp.setenv("PAIGOW_CACHE_DIR", str(CACHE[0]))
        mp.setattr(engine_run, "run_engines", recorded)
        return build_reports(out, deck=DECK, log=LOG.append, game_deals=GAME_DEALS)


def test_every_game_file_is_a_math_report_of_the_suite(built, monkeypatch):
    """Each game file of data/games is written under games/<name>/ (HTML, Markdown, PDF and
    its tables), linked from the index, and every table (but the timings) is the same file
    as that of the game's report priced on its own, from the game file alone: the suite's
    reuse of its steps' tables changes no figure."""
    from dataclasses import replace

    from analysis.mathreport.build import math_report
    from analysis.mathreport.game import load_game, shipped_games
    from analysis.render.document import tables_named

    monkeypatch.setenv("PAIGOW_CACHE_DIR", str(CACHE[0]))
    index = (built.out / "index.md").read_text()
    assert len(shipped_games()) == 5
    for path in shipped_games():
        game = replace(load_game(path), deck=DECK, simulate=GAME_DEALS)
        folder = built.out / "games" / game.name
        for form in ("html", "md", "pdf"):
            assert (folder / f"report.{form}").stat().st_size > 1000
            assert f"](games/{game.name}/report.{form})" in index
        alone = tables_named(math_report(game, "paigow reports", log=lambda _m: None)
                             .document.tables)  # fmt: skip
        files = {p.stem for p in (folder / "tables").glob("*.csv")}
        assert files == set(alone), game.name
        for key, table in alone.items():
            if key != "timings":
                assert (folder / "tables" / f"{key}.csv").read_text() == table.csv(), key
        assert "base-house-way" in alone and "hands" in alone
    # the suite's optimal strategies and per-dealer table served its reports: none solved again
    assert not any(line.startswith(("optimal strategy (per-hand table)",
                                    "per-dealer table (best-responding players)"))
                   for line in LOG)  # fmt: skip


def test_the_report_counts_its_deals_without_an_engine_run(built):
    """The variants' and side bets' pair counts come from the lab's per-dealer table and one
    blind pass for both ways (``analysis.waylab.labpairs``), not from an engine run per way."""
    assert any(line.startswith("pair counts of gli, trump-plaza, foxwoods, golden-nugget, ballys, "
                               "flamingo-hilton, mgm-grand: one blind pass")
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
    # the written strategies beside the house way, the derived cards and optimal play
    assert "strategies-traditional-gli.md" in index
    page = (out / "strategies-traditional-gli.md").read_text()
    assert "| wong" in page and "| derived, 12 rules" in page and "banker's edge" in page
    assert "given up per hand" in (out / "optimal-traditional-gli-patterns.md").read_text()


def test_the_reconciliation_is_the_last_step_and_keeps_its_place(built):
    """The readings' reconciliation runs last (the child sets its hands at low priority,
    ``analysis.report.ahead``), and its section stays in its place in the report: before the
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
    resolves to a file (and every #anchor to an element), every image decodes and fits the
    page's column (48rem at most), every table of the page's markdown renders as a table with
    rows, numbers in tabular figures, and no markdown is left raw; the index shows no chart,
    and its first table is the summary."""
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
            widths = browser.execute_script(
                "return Array.from(document.images, i => i.getBoundingClientRect().width)")
            assert all(w <= 48 * 16 for w in widths), f"{page.name}: charts too wide {widths}"
            digits = browser.execute_script(
                "const td = document.querySelector('td'); "
                "return td ? getComputedStyle(td).fontVariantNumeric : 'tabular-nums'")
            assert digits == "tabular-nums", page.name
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
        browser.get((out / "index.html").as_uri())
        first = browser.execute_script(
            "const t = document.querySelector('table'); "
            "return [t.rows[0].innerText, t.querySelectorAll('a').length, t.rows.length, "
            "document.images.length]")  # fmt: skip
        assert "house edge" in first[0] and first[1] == first[2] - 1 and first[3] == 0, first
    finally:
        browser.quit()


def test_a_figure_missing_on_a_deck_is_shown_as_a_dash():
    """On 9TJQKA:cdhs+joker no hand wins Tiger 9 or Queen's Dragon, so their "top award 1 in"
    is None, and the summary shows a dash there instead of failing on it."""
    import pandas as pd

    from analysis.report.build import _frame_md

    df = pd.DataFrame({"bet": ["fortune", "tiger-9"], "top award 1 in": [Fraction(5, 2), None]})
    text = _frame_md(df)
    assert "2.50000000" in text and re.search(r"\|\s*-\s*\|", text)


def _first_table(text: str) -> list[list[str]]:
    """The cells of the first markdown table of ``text`` (header first, the rule left out)."""
    lines = text.splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith("|"))
    rows = []
    for line in lines[start:]:
        if not line.startswith("|"):
            break
        if not re.fullmatch(r"\|[-:| ]+\|", line):
            rows.append([cell.strip() for cell in line.strip("|").split("|")])
    return rows


def _figure(page: str, name: str) -> str:
    """The value of the figure ``name`` in a page's summary-figures table."""
    for line in page.splitlines():
        cells = [cell.strip() for cell in line.strip().strip("|").split("|")]
        if line.startswith("|") and cells[0] == name:
            return cells[1]
    raise AssertionError(f"no figure {name!r}")


def test_the_index_opens_with_one_summary_table(built):
    """The index's first table has a row per variant x house way x player mode, per optimal
    strategy, per side bet x paytable and per banker, each linking an existing page whose
    summary figures show the same house edge and standard deviation; the index shows no
    chart full size (they are links; each page shows its own)."""
    from analysis.bets.paytables import shipped_paytables
    from analysis.games.variants import get_variant
    from analysis.pricing.banking import BANKERS
    from analysis.pricing.sidebets import BETS

    out = built.out
    index = (out / "index.md").read_text()
    before = index[: index.index("\n|")]
    assert before.count("\n## ") == 1, "the summary comes before every other section"
    header, *rows = _first_table(index)
    assert header == ["wager", "house way or paytable", "player", "house edge",
                      "standard deviation", "hit frequency"]  # fmt: skip
    links = [re.fullmatch(r"\[(.+)\]\((.+\.md)\)", row[0]) for row in rows]
    assert all(links), rows
    pages = [m.group(2) for m in links if m]
    expected = {f"variant-{name}-{way}-{mode}.md" for way in CASINO_WAYS
                for name in variant_names()
                for mode in ("house-way", "best-response")
                if mode == "house-way" or get_variant(name).dealer_exposed}  # fmt: skip
    expected |= {f"variant-{name}-gli-optimal.md" for name in variant_names()
                 if not get_variant(name).dealer_exposed}  # fmt: skip
    expected |= {f"sidebet-{bet}-{pt.name}.md" for bet in BETS for pt in shipped_paytables(bet)}
    # the bet files that are no side bet under a paytable: one page each
    expected |= {f"bet-{name}.md" for name in ("emperors-challenge", "jackpot-pai-gow")}
    assert set(pages) == expected | {"banking-gli.md"}
    assert len(rows) == len(expected) + len(BANKERS)  # one row each, banking one per banker
    for row, page in zip(rows, pages, strict=True):
        assert (out / page).exists(), page
        text = (out / page).read_text()
        edge, sd = row[3], row[4]
        if page.endswith("-optimal.md"):  # the same edge as the strategy's own page
            name = page.removeprefix("variant-").removesuffix("-gli-optimal.md")
            strategy = (out / f"optimal-{name}-gli-by-rule.md").read_text()
            assert _figure(strategy, "house edge, optimal").startswith(f"{edge} (exact: ")
        if page.startswith("sidebet-envy-"):
            assert _figure(text, "standard deviation, one other player's envy") == sd
        elif not page.startswith("banking-"):  # a banking page holds one table per banker
            assert _figure(text, "house edge").startswith(f"{edge} (exact: ")
            assert _figure(text, "standard deviation") == f"{sd} per unit bet"
    assert "![" not in index  # charts are links on the index
    assert "![outcome probabilities](variants.png)" in (out / "variants.md").read_text()


def test_counts_have_thousands_separators_in_the_pages_only(built):
    """Counts of deals and hands carry thousands separators in the markdown and HTML pages;
    the CSV and JSON files keep plain integers and exact fractions, in the same layout."""
    import csv
    import io
    import json
    from math import comb

    out = built.out
    deals = comb(17, 7) * comb(10, 7)  # the deck 23579JQA:cd+joker has 17 cards
    stem = "variant-traditional-gli-house-way"
    md = (out / f"{stem}.md").read_text()
    header, *rows = _first_table(md)
    assert rows[-1][0] == "total" and rows[-1][header.index("combinations")] == f"{deals:,}"
    assert all(re.fullmatch(r"\d{1,3}(,\d{3})*", r[header.index("combinations")])
               for r in rows)  # fmt: skip
    assert f"{deals:,}" in (out / f"{stem}.html").read_text()
    assert "| house edge " in md and "house edge: " not in md  # the figures are a table
    hands = _first_table((out / "categories.md").read_text())
    assert any("," in row[1] for row in hands[1:])  # C(17, 7) = 19,448 hands
    # CSV: plain integers, the figures' block after an empty line, as before
    text = (out / f"{stem}.csv").read_text()
    table, figures = text.split("\n\n")
    lines = list(csv.reader(io.StringIO(table)))
    assert lines[0] == ["event", "outcome", "pays", "combinations", "probability", "return"]
    assert lines[-1][:4] == ["total", "", "", str(deals)]
    assert all(re.fullmatch(r"\d+", line[3]) for line in lines[1:])
    assert figures.splitlines()[0] == "statistic,value,exact"
    data = json.loads((out / f"{stem}.json").read_text())
    assert data["total"] == deals and isinstance(data["rows"][0]["combinations"], int)
    assert re.fullmatch(r"-?\d+/\d+", data["house_edge_fraction"])
    assert "," not in (out / "variants.csv").read_text().splitlines()[1].split(",")[3]


def _table() -> object:
    """A small return table built from its rows (no counting)."""
    from analysis.pricing.returns import Line, ReturnTable

    lines = [Line("win", "win", Fraction(1), 4000), Line("push", "push", Fraction(0), 1490),
             Line("loss", "loss", Fraction(-1), 4510)]  # fmt: skip
    return ReturnTable.from_lines(lines, 10000, game="demo", deck="test")


def test_figures_are_a_table_in_pages_and_lines_on_the_command_line():
    """Under ``figure_tables`` (the report, notebooks) a table's summary figures are a
    two-column table; without it (the command line) they stay lines of text."""
    from analysis.render.formats import figure_tables

    t = _table()
    plain = t.render("md")  # type: ignore[attr-defined]
    assert "house edge: 5.1000% (exact: 51/1000)" in plain and "| figure" not in plain
    assert "10,000" in plain
    with figure_tables():
        page = t.render("md")  # type: ignore[attr-defined]
        assert t.render("csv") == _table().render("csv")  # type: ignore[attr-defined]
    assert _figure(page, "house edge") == "5.1000% (exact: 51/1000)"
    assert _figure(page, "hit frequency (returns more than it cost)") == "40.0000% (1 in 2.50)"
    assert page.startswith("## demo, deck test: 10,000 deals counted")


def test_html_fragment_is_the_pages_html_with_its_style():
    """``html_fragment``: a table's markdown as the report pages show it, in a ``<div>`` whose
    style is scoped to it (what a notebook shows)."""
    from analysis.render.formats import figure_tables, html_fragment
    from analysis.report.site import page

    with figure_tables():
        md = _table().render("md")  # type: ignore[attr-defined]
    html = html_fragment(md)
    assert html.startswith('<div class="paigow-report">\n<style>')
    style = html[html.index("<style>") + 7 : html.index("</style>")]
    rules = [r.split("{")[0].strip() for r in style.split("}") if "{" in r]
    assert rules and all(r.startswith(".paigow-report") for r in rules), rules
    assert '<table class="figures">' in html and "10,000" in html
    assert html[html.index("</style>") + 9 :].rstrip().removesuffix("</div>").strip() in page(
        md, "demo", [])  # fmt: skip
    assert _table()._repr_html_() == html  # type: ignore[attr-defined]  # a notebook's view
