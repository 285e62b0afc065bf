"""Writing a document to a folder: ``report.md``, ``report.html`` (one printable page),
``report.pdf`` and ``tables/<key>.csv`` and ``.json`` for each table. The folder is built
beside its place and moved in at the end, so a failed run leaves the old folder as it was
and never a half-written one.
"""

from __future__ import annotations

import os
import shutil
import tempfile
from pathlib import Path

from analysis.render.document import Document, tables_named
from analysis.render.pdf import write_pdf

FORMATS = ("md", "html", "pdf")


def write_document(doc: Document, out: Path, stem: str = "report") -> list[Path]:
    """Write ``doc`` under ``out`` (replacing what was there); the files written."""
    out = Path(out)
    out.parent.mkdir(parents=True, exist_ok=True)
    tmp = Path(tempfile.mkdtemp(prefix=f".{out.name}.", dir=out.parent))
    try:
        (tmp / f"{stem}.md").write_text(doc.markdown())
        (tmp / f"{stem}.html").write_text(doc.html())
        write_pdf(doc, tmp / f"{stem}.pdf")
        tables = tmp / "tables"
        tables.mkdir()
        for key, table in tables_named(doc.tables).items():
            (tables / f"{key}.csv").write_text(table.csv())
            (tables / f"{key}.json").write_text(table.json())
        os.chmod(tmp, 0o755)
        if out.exists():
            old = out.with_name(f".{out.name}.old")
            shutil.rmtree(old, ignore_errors=True)
            out.rename(old)
            tmp.rename(out)
            shutil.rmtree(old, ignore_errors=True)
        else:
            tmp.rename(out)
    except BaseException:
        shutil.rmtree(tmp, ignore_errors=True)
        raise
    return sorted(p for p in out.rglob("*") if p.is_file())
