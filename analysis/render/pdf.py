"""A ``Document`` as a PDF, with fpdf2: a title page block (title, meta, contents), then the
sections, each table with its title, header row repeated on every page it spans, numbers
right-aligned, the total row in bold. The font is DejaVu (it ships with matplotlib, a
dependency), so any text of a rule card or a bet file prints as written.
"""

from __future__ import annotations

from pathlib import Path

from analysis.render.document import TEXT, Document, Table

MARGIN = 15  # mm
BODY, SMALL, TABLE_SIZE = 10, 8, 7.5
LONGEST_WORD = 0.3  # of the page's width: a text column's narrowest


def _fonts() -> dict[str, Path]:
    import matplotlib

    ttf = Path(matplotlib.get_data_path()) / "fonts" / "ttf"
    return {"": ttf / "DejaVuSans.ttf", "B": ttf / "DejaVuSans-Bold.ttf",
            "I": ttf / "DejaVuSans-Oblique.ttf"}  # fmt: skip


def _widths(table: Table, usable: float, pdf: object) -> list[float]:
    """Column widths: each column its longest text where the page has room; else number
    columns keep theirs and the text columns give up what they hold beyond their longest word,
    in proportion, so they wrap at words."""
    from fpdf import FPDF

    assert isinstance(pdf, FPDF)
    pdf.set_font("dejavu", "B", TABLE_SIZE)  # the header and the total row are bold
    head = [pdf.get_string_width(n) + 3 for n in table.names]
    pdf.set_font("dejavu", "", TABLE_SIZE)
    shown = table.shown()
    longest = [max([head[i], *(pdf.get_string_width(row[i]) * 1.08 + 3 for row in shown)])
               for i in range(len(table.names))]  # fmt: skip
    if sum(longest) <= usable:
        return longest
    least = [max([head[i], *(pdf.get_string_width(word) * 1.08 + 3
                             for row in shown for word in row[i].split())])
             if c.kind == TEXT else longest[i]
             for i, c in enumerate(table.columns)]  # fmt: skip
    # a word longer than this (an exact fraction of many digits) breaks across lines
    least = [min(m, usable * LONGEST_WORD) for m in least]
    spare = usable - sum(least)
    extra = [w - m for w, m in zip(longest, least, strict=True)]
    if spare <= 0 or not sum(extra):
        return [m * usable / sum(least) for m in least]
    return [m + e * spare / sum(extra) for m, e in zip(least, extra, strict=True)]


def _drop_import_traceback() -> None:
    """fpdf2 keeps the ImportError of its optional ``cryptography`` import; the error's
    traceback holds the frames that first imported fpdf, and with them every table those
    frames held (a report's per-dealer table, for the rest of a run): the traceback goes."""
    import fpdf.encryption

    error = getattr(fpdf.encryption, "import_error", None)
    if isinstance(error, BaseException):
        error.with_traceback(None)


def write_pdf(doc: Document, path: Path) -> None:
    """Write ``doc`` to ``path`` as a PDF."""
    from fpdf import FPDF
    from fpdf.fonts import FontFace

    _drop_import_traceback()

    pdf = FPDF(format="A4")
    pdf.set_margins(MARGIN, MARGIN, MARGIN)
    pdf.set_auto_page_break(True, MARGIN)
    for emphasis, file in _fonts().items():
        pdf.add_font("dejavu", emphasis, str(file))
    pdf.set_title(doc.title)
    pdf.set_creator("paigow-exact")
    pdf.alias_nb_pages()
    title = doc.title

    def footer() -> None:
        pdf.set_y(-10)
        pdf.set_font("dejavu", "", SMALL)
        pdf.cell(0, 5, f"{title} - page {pdf.page_no()} of {{nb}}", align="C")

    pdf.footer = footer  # type: ignore[method-assign]
    pdf.add_page()
    usable = pdf.w - 2 * MARGIN

    def lines(height: float, text: str, markdown: bool = False) -> None:
        pdf.multi_cell(usable, height, text, markdown=markdown, align="L", new_x="LMARGIN",
                       new_y="NEXT")

    pdf.set_font("dejavu", "B", 16)
    lines(8, doc.title)
    pdf.ln(2)
    pdf.set_font("dejavu", "", SMALL + 1)
    for label, value in doc.meta:
        lines(4.5, f"**{label}**: {value}", markdown=True)
    pdf.ln(3)
    pdf.set_font("dejavu", "B", 12)
    pdf.cell(usable, 7, "Contents", new_x="LMARGIN", new_y="NEXT")
    pdf.set_font("dejavu", "", BODY)
    for line in doc.contents():
        lines(5, line)
    for i, section in enumerate(doc.sections, 1):
        pdf.ln(4)
        if pdf.get_y() > pdf.h - 50:
            pdf.add_page()
        pdf.set_font("dejavu", "B", 13)
        lines(7, f"{i}. {section.title}")
        pdf.ln(1)
        for block in section.blocks:
            if isinstance(block, Table):
                if pdf.get_y() > pdf.h - 45:
                    pdf.add_page()
                pdf.set_font("dejavu", "B", BODY)
                lines(5, block.title)
                pdf.ln(1)
                pdf.set_font("dejavu", "", TABLE_SIZE)
                widths = _widths(block, usable, pdf)
                align = tuple("LEFT" if c.kind == TEXT else "RIGHT" for c in block.columns)
                with pdf.table(col_widths=tuple(widths), width=min(sum(widths), usable),
                               text_align=align, align="LEFT", line_height=3.6,
                               headings_style=FontFace(emphasis="BOLD", fill_color=(235, 235,
                                                                                    235)),
                               first_row_as_headings=True, repeat_headings=1) as t:
                    rows = [list(block.names), *block.shown()]
                    for j, cells in enumerate(rows):
                        bold = block.total and j == len(rows) - 1
                        style = FontFace(emphasis="BOLD") if bold else None
                        row = t.row(style=style)
                        for cell in cells:
                            row.cell(cell)
                pdf.set_font("dejavu", "I", SMALL)
                for note in block.notes:
                    lines(4, note)
                pdf.ln(3)
            elif isinstance(block, tuple):
                pdf.set_font("dejavu", "", BODY)
                for line in block:
                    lines(5, f"\u2022 {line}")
                pdf.ln(1)
            else:
                pdf.set_font("dejavu", "", BODY)
                lines(5, block)
                pdf.ln(1)
    pdf.output(str(path))
