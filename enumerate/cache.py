"""Parquet caches with provenance: a cached table is served only when it was built by the same
code, for the same rules and deck; otherwise it is rebuilt. Writes are atomic.

The provenance is a JSON object kept in the Parquet schema metadata under ``paigow``. It holds
the schema version of the table, the package version, a fingerprint of the enumerator's source
code and whatever the caller adds (rules, deck, house way...).
"""

from __future__ import annotations

import hashlib
import json
import os
import tempfile
from collections.abc import Callable, Mapping
from functools import cache
from importlib import metadata
from pathlib import Path
from typing import Any

import pyarrow as pa
import pyarrow.parquet as pq

_META_KEY = b"paigow"
_PACKAGE_DIR = Path(__file__).resolve().parent


def cache_dir() -> Path:
    """``$PAIGOW_CACHE_DIR`` if set, else ``data/cache`` beside the packages."""
    env = os.environ.get("PAIGOW_CACHE_DIR")
    path = Path(env) if env else _PACKAGE_DIR.parent / "data" / "cache"
    path.mkdir(parents=True, exist_ok=True)
    return path


@cache
def code_fingerprint() -> str:
    """Hash of every source file of the ``enumerate`` package: any change of the code that
    builds tables invalidates their caches."""
    h = hashlib.sha256()
    for path in sorted(_PACKAGE_DIR.rglob("*.py")):
        h.update(path.relative_to(_PACKAGE_DIR).as_posix().encode())
        h.update(path.read_bytes())
    return h.hexdigest()[:16]


def package_version() -> str:
    try:
        return metadata.version("paigow-exact")
    except metadata.PackageNotFoundError:
        return "unknown"


def provenance(schema: int, **extra: Any) -> dict[str, Any]:
    """The provenance record of a table built now by this code."""
    return {
        "schema": schema,
        "package": package_version(),
        "code": code_fingerprint(),
        **extra,
    }


def read_provenance(path: Path) -> dict[str, Any] | None:
    """Provenance stored in a Parquet file, or None if there is none or the file is unreadable."""
    try:
        meta = pq.read_schema(path).metadata or {}
        raw = meta.get(_META_KEY)
        return None if raw is None else dict(json.loads(raw))
    except (OSError, pa.ArrowInvalid, ValueError):
        return None


def write_atomic(table: pa.Table, path: Path, prov: Mapping[str, Any]) -> None:
    """Write ``table`` with its provenance to a temporary file beside ``path``, then rename."""
    path.parent.mkdir(parents=True, exist_ok=True)
    meta = dict(table.schema.metadata or {})
    meta[_META_KEY] = json.dumps(prov, sort_keys=True).encode()
    table = table.replace_schema_metadata(meta)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    os.close(fd)
    try:
        pq.write_table(table, tmp)
        os.chmod(tmp, 0o644)  # mkstemp makes it private; caches are shared files
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def load_or_build(
    path: Path, prov: Mapping[str, Any], build: Callable[[], pa.Table], use_cache: bool = True
) -> tuple[pa.Table, bool]:
    """The table at ``path`` if its provenance equals ``prov``, else ``build()`` written there.

    Returns the table and whether it came from the cache.
    """
    if use_cache and path.exists() and read_provenance(path) == dict(prov):
        try:
            return pq.read_table(path), True
        except (OSError, pa.ArrowInvalid):
            pass  # a damaged file is rebuilt
    table = build()
    if use_cache:
        write_atomic(table, path, prov)
    return table, False
