"""The browsable report: every markdown page of ``paigow reports`` as an HTML page, and
``index.html`` linking them, viewable from the folder itself (no network, no server).

Each ``X.md`` of the folder becomes ``X.html`` (Python-Markdown with its ``tables``, ``toc``
and ``nl2br`` extensions: the pages' tables rendered, their plots inline as images): links
to ``Y.md`` point to ``Y.html``, and every page carries a bar of links to the index's
sections. The markdown files stay, for readers and diffs; an ``X.html`` that a table's own
renderer wrote is replaced by the page made from its ``X.md``, which holds the same rows.
"""

from __future__ import annotations

import html
import re
from pathlib import Path

import markdown

STYLE = """
body { font-family: system-ui, sans-serif; margin: 0 auto; max-width: 78rem; padding: 0 1rem 3rem;
       color: #1d1d1f; line-height: 1.4; }
nav { position: sticky; top: 0; background: #f4f4f6; border-bottom: 1px solid #ccd;
      padding: .5rem 0; font-size: .9rem; }
nav a { margin-right: 1rem; }
table { border-collapse: collapse; margin: 1rem 0; font-size: .85rem; }
th, td { border: 1px solid #ccd; padding: .2rem .5rem; }
th { background: #eef; }
td { font-variant-numeric: tabular-nums; }
img { max-width: 100%; height: auto; display: block; margin: 1rem 0; }
"""

_MD_LINK = re.compile(r'href="([^":#?/]+)\.md(#[^"]*)?"')


def _sections(index_md: str) -> list[tuple[str, str]]:
    """(title, anchor) of every section of the index, as the toc extension names them."""
    out = []
    for line in index_md.splitlines():
        if line.startswith("## "):
            title = line[3:].strip()
            out.append((title, _slug(title)))
    return out


def _slug(title: str) -> str:
    """The anchor Python-Markdown's toc extension gives a heading."""
    from markdown.extensions.toc import slugify

    return str(slugify(title, "-"))


def page(body_md: str, title: str, sections: list[tuple[str, str]]) -> str:
    """One HTML page: the navigation bar, then the markdown rendered."""
    body = markdown.markdown(body_md, extensions=["tables", "toc", "nl2br"])
    body = _MD_LINK.sub(lambda m: f'href="{m.group(1)}.html{m.group(2) or ""}"', body)
    nav = ['<a href="index.html">Index</a>']
    nav += [f'<a href="index.html#{a}">{html.escape(t)}</a>' for t, a in sections]
    return (
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
        f"<title>{html.escape(title)}</title>\n<style>{STYLE}</style>\n</head>\n<body>\n"
        f"<nav>{' '.join(nav)}</nav>\n<main>\n{body}\n</main>\n</body>\n</html>\n"
    )


def write_site(out: Path) -> list[Path]:
    """Write ``X.html`` for every ``X.md`` in ``out`` (``index.md`` included); returns the
    pages written."""
    index = out / "index.md"
    sections = _sections(index.read_text()) if index.exists() else []
    written = []
    for md in sorted(out.glob("*.md")):
        text = md.read_text()
        first = next((line for line in text.splitlines() if line.strip()), md.stem)
        title = first.lstrip("# ").strip() if md.stem != "index" else "Pai gow poker: exact"
        target = md.with_suffix(".html")
        tmp = target.with_suffix(".html.tmp")
        tmp.write_text(page(text, title[:120], sections))
        tmp.replace(target)
        written.append(target)
    return written
