"""The browsable report: every markdown page of ``paigow reports`` as an HTML page, and
``index.html`` linking them, viewable from the folder itself (no network, no server).

Each ``X.md`` of the folder becomes ``X.html`` (``analysis.render.formats.markdown_html``:
the pages' tables rendered, their plots inline as images, sized to the page): links to
``Y.md`` point to ``Y.html``, and every page carries a bar of links to the index's sections.
A page's content has the style a notebook shows a table with (``formats.STYLE``, scoped to
the class ``paigow-report``), the page around it the rules below. The markdown files stay,
for readers and diffs; an ``X.html`` that a table's own renderer wrote is replaced by the
page made from its ``X.md``, which holds the same rows.
"""

from __future__ import annotations

import html
import re
from pathlib import Path

from analysis.render.formats import STYLE as CONTENT_STYLE
from analysis.render.formats import markdown_html

# the page around the content: a column of reading width (wide tables scroll inside it) and a
# bar of links that stays at the top
STYLE = """
body { margin: 0 auto; max-width: 72rem; padding: 0 1.25rem 3rem; background: #fff; }
nav { position: sticky; top: 0; z-index: 1; background: #f4f5f8; border-bottom: 1px solid #d6d9e2;
      padding: .45rem .5rem; font: .85rem system-ui, sans-serif; line-height: 1.6; }
nav a { margin-right: .9rem; color: #2450a6; text-decoration: none; white-space: nowrap; }
nav a:hover { text-decoration: underline; }
main { overflow-x: auto; }
""" + CONTENT_STYLE

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


def _title(text: str, stem: str) -> str:
    """A page's title: its first heading, else its first line of text (a table's pages start
    with what was priced), else the file's name."""
    lines = [line.strip() for line in text.splitlines() if line.strip()]
    heading = next((line for line in lines if line.startswith("# ")), None)
    first = heading or next((line for line in lines if not line.startswith("|")), stem)
    return first.lstrip("# ").strip()


def page(body_md: str, title: str, sections: list[tuple[str, str]]) -> str:
    """One HTML page: the navigation bar, then the markdown rendered."""
    body = markdown_html(body_md)
    body = _MD_LINK.sub(lambda m: f'href="{m.group(1)}.html{m.group(2) or ""}"', body)
    nav = ['<a href="index.html">Index</a>']
    nav += [f'<a href="index.html#{a}">{html.escape(t)}</a>' for t, a in sections]
    return (
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
        f"<title>{html.escape(title)}</title>\n<style>{STYLE}</style>\n</head>\n<body>\n"
        f"<nav>{' '.join(nav)}</nav>\n<main class=\"paigow-report\">\n{body}\n</main>\n</body>\n"
        "</html>\n"
    )


def write_site(out: Path) -> list[Path]:
    """Write ``X.html`` for every ``X.md`` in ``out`` (``index.md`` included); returns the
    pages written."""
    index = out / "index.md"
    sections = _sections(index.read_text()) if index.exists() else []
    written = []
    for md in sorted(out.glob("*.md")):
        text = md.read_text()
        title = _title(text, md.stem) if md.stem != "index" else "Pai gow poker: exact"
        target = md.with_suffix(".html")
        tmp = target.with_suffix(".html.tmp")
        tmp.write_text(page(text, title[:120], sections))
        tmp.replace(target)
        written.append(target)
    return written
