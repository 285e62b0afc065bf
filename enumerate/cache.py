"""Parquet caches with provenance and verification: a cached table is served only when it was
built by the same code, for the same rules and deck, and when it reads back intact; otherwise it
is rebuilt. Writes are atomic.

The provenance is a JSON object kept in the Parquet schema metadata under ``paigow``. It holds
the module that built the table, the fingerprint of the code that module can reach
(``enumerate.fingerprint``: a comment edit changes nothing, a code change anywhere the builder
reaches rebuilds) and whatever the caller adds (rules, deck, house way...).

Verification, on every read:

- content: every Parquet data page is written with its CRC-32 (``write_page_checksum``) and read
  with ``page_checksum_verification``, so a flipped byte in the data fails the read (also when
  only some columns or row groups are read); arrays kept as ``.npy`` files carry an xxHash-128
  digest in their sidecar (``array_digest``);
- numbers: each cache kind passes a ``check`` of the invariants its numbers must meet (totals,
  signs, per-class sums), which raises ``CacheInvariantError``.

A file that fails either is reported on stderr in one line (``report_damaged``), rebuilt and
never served; a file written by other code or for other inputs is stale and silently rebuilt.
A freshly built table that fails its own check is a bug, not damage: ``AssertionError``.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import hashlib
import json
import mmap
import os
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from functools import cache
from pathlib import Path
from typing import Any, Generic, TypeVar

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq
import xxhash

from enumerate.fingerprint import code_fingerprint
from enumerate.paths import cache_dir as cache_dir
from enumerate.runtime.allocator import trim

_META_KEY = b"paigow"

Check = Callable[[pa.Table], None]
T = TypeVar("T")


class CacheInvariantError(ValueError):
    """A cached table's numbers break an invariant they must meet (the file is damaged)."""


def require(ok: bool | np.bool_, what: str) -> None:
    """Raise ``CacheInvariantError(what)`` unless ``ok``: the invariant checks read as a list
    of what must hold."""
    if not ok:
        raise CacheInvariantError(what)


def report_damaged(path: Path, reason: object) -> None:
    """The one-line notice of a cache file that failed verification; the file is removed (so
    that it is reported once), and whoever needs it builds it again."""
    text = " ".join(str(reason).split()) or type(reason).__name__
    print(f"paigow: cache file {path} failed verification ({text[:200]}); rebuilding it",
          file=sys.stderr, flush=True)  # fmt: skip
    path.unlink(missing_ok=True)


def array_digest(arr: np.ndarray) -> str:
    """xxHash-128 of an array's bytes, dtype and shape. A file mapped read-only is hashed a
    slice at a time, each slice's pages given back after it (``release_pages``), so checking
    a level of a gigabyte never holds all of it resident."""
    h = xxhash.xxh3_128()
    h.update(f"{arr.dtype.str}{arr.shape}".encode())
    flat = (arr if arr.flags.c_contiguous else np.ascontiguousarray(arr)).reshape(-1)
    step = max(1, _DIGEST_SLICE // max(1, flat.itemsize))
    for a in range(0, len(flat), step):
        h.update(flat[a : a + step].data)
        release_pages(flat, a, a + step)
    return h.hexdigest()


_DIGEST_SLICE = 1 << 26  # bytes hashed between two releases
_MADV_DONTNEED = getattr(mmap, "MADV_DONTNEED", None)


@cache
def _madvise() -> Callable[..., int] | None:
    """The C library's ``madvise``, or None where there is none (then nothing is released)."""
    name = ctypes.util.find_library("c")
    if name is None or _MADV_DONTNEED is None:
        return None
    fn = getattr(ctypes.CDLL(name, use_errno=True), "madvise", None)
    if fn is not None:
        fn.argtypes = (ctypes.c_void_p, ctypes.c_size_t, ctypes.c_int)
    return fn


def release_pages(arr: np.ndarray, start: int = 0, stop: int | None = None) -> None:
    """Give back the resident pages of ``arr[start:stop]`` when ``arr`` maps a file read-only
    (a 1-D ``np.memmap`` opened with mode "r"): the data stays in the page cache and is mapped
    again when read. Pages the range shares with its neighbours are kept. Any other array is
    left alone: its memory is its only copy."""
    if not isinstance(arr, np.memmap) or arr.mode != "r" or arr.ndim != 1:
        return
    if not arr.flags.c_contiguous:
        return
    madvise = _madvise()
    if madvise is None:
        return
    stop = len(arr) if stop is None else min(stop, len(arr))
    page = mmap.PAGESIZE
    lo = arr.ctypes.data + max(0, start) * arr.itemsize
    hi = arr.ctypes.data + stop * arr.itemsize
    lo, hi = -(-lo // page) * page, hi // page * page
    if hi > lo:
        madvise(lo, hi - lo, _MADV_DONTNEED)


def release_unused(drop_held: bool = False) -> None:
    """Give back to the system the memory freed so far: Arrow's memory pool and the C
    allocator keep what a Parquet read freed for reuse (much of it after building the engine
    keys of the full deck), and the big passes that come next allocate through numpy instead.

    ``drop_held``: also let go of the tables held for reuse (``LastRead``), before a pass
    allocates its counts: the frontier table is 440 MB on the full deck, and a pass that
    needs it holds it through its keys, until they are freed with it."""
    import gc

    if drop_held:
        for held in _HOLDERS:
            held.drop()
    gc.collect()
    pa.default_memory_pool().release_unused()
    trim()


def replace_atomic(path: Path, write: Callable[[Any], object]) -> None:
    """``write(file)`` into a temporary file beside ``path``, then rename it to ``path``."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "wb") as f:
            write(f)
        os.chmod(tmp, 0o644)
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def save_arrays(folder: Path, stem: str, arrays: Mapping[str, np.ndarray],
                prov: Mapping[str, Any]) -> Path:  # fmt: skip
    """Write each array as ``<stem>-<name>.npy``, then the sidecar ``<stem>.json`` that makes
    them valid: the provenance and each array's shape, dtype and xxHash-128 digest. (Arrays
    read memory-mapped: for tables too big to decode from Parquet on every read.)"""
    meta: dict[str, Any] = {**prov, "arrays": {}}
    for name, values in arrays.items():
        arr = np.ascontiguousarray(values)

        def write(f: Any, a: np.ndarray = arr) -> None:
            np.save(f, a)

        replace_atomic(folder / f"{stem}-{name}.npy", write)
        meta["arrays"][name] = {
            "shape": list(arr.shape), "dtype": arr.dtype.str, "xxh3_128": array_digest(arr),
        }  # fmt: skip
    sidecar = folder / f"{stem}.json"
    text = json.dumps(meta, sort_keys=True).encode()
    replace_atomic(sidecar, lambda f: f.write(text))
    return sidecar


def arrays_current(folder: Path, stem: str, prov: Mapping[str, Any]) -> bool:
    """Is there a sidecar for ``stem`` with this provenance? (Its arrays are verified when
    read.)"""
    try:
        meta = json.loads((folder / f"{stem}.json").read_text())
        meta.pop("arrays")
    except (OSError, ValueError, KeyError, AttributeError):
        return False
    return bool(meta == dict(prov))


def read_only(a: np.ndarray) -> np.ndarray:
    """A read-only view of ``a``, as the arrays memory-mapped from the cache are: numba
    compiles a kernel once per argument type, and writability is part of it, so a check or a
    pass that meets both a table just built and one read back compiles once.

    >>> a = np.arange(3)
    >>> read_only(a).flags.writeable, a.flags.writeable
    (False, True)
    """
    view = a.view()
    view.flags.writeable = False
    return view


def load_arrays(
    folder: Path,
    stem: str,
    prov: Mapping[str, Any],
    check: Callable[[dict[str, np.ndarray]], None] | None = None,
) -> dict[str, np.ndarray] | None:
    """The arrays ``save_arrays`` wrote, memory-mapped, if the sidecar has this provenance and
    every array verifies (shape, dtype, digest) and passes ``check`` (its invariants); None
    when stale or missing, and when damaged after a one-line notice naming the file (the
    sidecar is removed too, so the set is rebuilt as a whole). A set this process verified
    and whose files are unchanged since is mapped without the digests and ``check``
    (``_VERIFIED``): a caller makes its value from the arrays returned, never inside
    ``check``."""
    sidecar = folder / f"{stem}.json"
    if not sidecar.exists():
        return None
    failed = sidecar
    try:
        meta = json.loads(sidecar.read_text())
        shapes = meta.pop("arrays")
        if meta != dict(prov):
            return None  # made by other code or for other inputs: stale
        files = {name: folder / f"{stem}-{name}.npy" for name in shapes}
        stamps = tuple(file_stamp(p) for p in (sidecar, *files.values()))
        if _VERIFIED.get(sidecar) == stamps:  # verified by this process, unchanged since
            return {name: _map(path) for name, path in files.items()}
        arrays = {}
        for name, want in shapes.items():
            failed = files[name]
            arr = _map(failed)
            require(list(arr.shape) == want["shape"] and arr.dtype.str == want["dtype"],
                    "shape or dtype differs from the sidecar")  # fmt: skip
            require(array_digest(arr) == want["xxh3_128"], "checksum mismatch")
            arrays[name] = arr
        failed = sidecar
        if check is not None:
            check(arrays)
    except READ_ERRORS as err:
        report_damaged(failed, err)
        sidecar.unlink(missing_ok=True)
        return None
    for arr in arrays.values():  # checked: read again from the page cache when used
        release_pages(arr)
    if _settled(stamps):
        _VERIFIED[sidecar] = stamps
    return arrays


# Array sets this process verified, by sidecar: the stamps of the sidecar and its arrays
# then. A report maps each level four times (two engine runs, the per-hand and per-dealer
# passes), and verifying one costs a pass over all its bytes (the digest) and its invariants.
_VERIFIED: dict[Path, tuple[tuple[int, int, int] | None, ...]] = {}
SETTLED_NS = 2 * 10**9  # files written at least this long before they were verified


def _settled(stamps: tuple[tuple[int, int, int] | None, ...]) -> bool:
    """Were all these files last written ``SETTLED_NS`` or more ago? Only then is an unchanged
    stamp proof of unchanged content: a file's mtime moves in clock ticks, so a rewrite of
    the same size within the tick of the verification would keep its stamp."""
    now = time.time_ns()
    return all(s is not None and now - s[2] >= SETTLED_NS for s in stamps)


def _map(path: Path) -> np.ndarray:
    try:
        return np.load(path, mmap_mode="r")
    except ValueError:  # an empty file cannot be mapped
        return np.load(path)


# what reading and checking a damaged file can raise (CacheInvariantError is a ValueError)
READ_ERRORS: tuple[type[BaseException], ...] = (OSError, pa.ArrowException, ValueError, KeyError,
                                                IndexError, TypeError)  # fmt: skip


def provenance(builder: str, **extra: Any) -> dict[str, Any]:
    """The provenance record of a table built now by module ``builder``: the fingerprint of the
    code it can reach (``enumerate.fingerprint``) and the inputs ``extra``."""
    return {"builder": builder, "code": code_fingerprint(builder), **extra}


def read_provenance(path: Path) -> dict[str, Any] | None:
    """Provenance stored in a Parquet file, or None if there is none or the file is unreadable."""
    try:
        return _provenance_of(path)
    except READ_ERRORS:
        return None


def _provenance_of(path: Path) -> dict[str, Any] | None:
    meta = pq.read_schema(path).metadata or {}
    raw = meta.get(_META_KEY)
    return None if raw is None else dict(json.loads(raw))


def is_current(path: Path, prov: Mapping[str, Any]) -> bool:
    """Does ``path`` exist with this provenance? A file whose footer cannot be read at all is
    reported as damaged (and counts as not current)."""
    if not path.exists():
        return False
    try:
        return _provenance_of(path) == dict(prov)
    except READ_ERRORS as err:
        report_damaged(path, err)
        return False


def open_verified(path: Path) -> pq.ParquetFile:
    """A Parquet file whose pages are checked against their CRC as they are read."""
    return pq.ParquetFile(path, page_checksum_verification=True)


def load_verified(
    path: Path,
    prov: Mapping[str, Any],
    parse: Callable[[pa.Table], T],
    columns: Sequence[str] | None = None,
) -> T | None:
    """``parse`` of the table at ``path`` if it is current (provenance ``prov``), reads back
    with every page checksum right and ``parse`` (which checks the invariants) succeeds; else
    None (damage is reported by ``report_damaged``)."""
    if not is_current(path, prov):
        return None
    try:
        # ParquetFile, not pq.read_table: that one loads pyarrow.dataset, which imports pandas
        # (a heavy import for every command that reads a cache)
        return parse(open_verified(path).read(columns=columns))
    except READ_ERRORS as err:
        report_damaged(path, err)
        return None


def read_verified(
    path: Path,
    prov: Mapping[str, Any],
    check: Check | None = None,
    columns: Sequence[str] | None = None,
) -> pa.Table | None:
    """The table at ``path`` if it is current, its page checksums right and it passes
    ``check`` (``load_verified``)."""

    def checked(table: pa.Table) -> pa.Table:
        if check is not None:
            check(table)
        return table

    return load_verified(path, prov, checked, columns)


@contextmanager
def built_correctly(what: str) -> Iterator[None]:
    """Around the check of something just built: a broken invariant there is a bug in the code
    that built it (``AssertionError``), not a damaged file."""
    try:
        yield
    except CacheInvariantError as err:
        raise AssertionError(f"{what} just built breaks its invariants: {err}") from err


def arrays_stem(prefix: str, prov: Mapping[str, Any]) -> str:
    """The file stem of an array set named by its provenance: ``prefix`` and a digest of it.

    >>> stem = arrays_stem("choices", {"deck": "full"})
    >>> stem[:8], len(stem), stem == arrays_stem("choices", {"deck": "full"})
    ('choices-', 24, True)
    """
    return f"{prefix}-{hashlib.sha256(repr(sorted(prov.items())).encode()).hexdigest()[:16]}"


def load_or_build_arrays(
    folder: Path,
    stem: str,
    prov: Mapping[str, Any],
    build: Callable[[], dict[str, np.ndarray]],
    check: Callable[[dict[str, np.ndarray]], None],
    what: str,
    use_cache: bool = True,
) -> tuple[dict[str, np.ndarray], bool]:
    """The array set of ``stem`` if current and verified (``load_arrays``: digests, then
    ``check``), else ``build()``, checked (a failure is a bug: ``built_correctly``, naming
    ``what``) and, with ``use_cache``, written (``save_arrays``). Returns the arrays and
    whether they came from the cache."""
    if use_cache:
        arrays = load_arrays(folder, stem, prov, check)
        if arrays is not None:
            return arrays, True
    arrays = build()
    with built_correctly(what):
        check(arrays)
    if use_cache:
        save_arrays(folder, stem, arrays, prov)
    return arrays, False


def write_atomic(table: pa.Table, path: Path, prov: Mapping[str, Any]) -> None:
    """Write ``table`` with its provenance to a temporary file beside ``path``, then rename."""
    path.parent.mkdir(parents=True, exist_ok=True)
    meta = dict(table.schema.metadata or {})
    meta[_META_KEY] = json.dumps(prov, sort_keys=True).encode()
    table = table.replace_schema_metadata(meta)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    os.close(fd)
    try:
        pq.write_table(table, tmp, write_page_checksum=True)
        os.chmod(tmp, 0o644)  # mkstemp makes it private; caches are shared files
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def write_groups_atomic(path: Path, prov: Mapping[str, Any], groups: Iterable[pa.Table],
                        statistics: bool | list[str] = True) -> None:  # fmt: skip
    """``write_atomic`` of the tables of ``groups`` (one schema) as one file, one row group
    each, so that a reader can read one group; ``statistics``: of every column, or of these
    columns only.

    No dictionary pages: the tables written so (the per-hand counts) hold counts with too
    many distinct values for a dictionary, which Parquet tries for every page before falling
    back: with them the file is larger, and slower both to write and to read."""
    meta = {_META_KEY: json.dumps(prov, sort_keys=True).encode()}

    def write(f: object) -> None:
        writer = None
        for g in groups:
            g = g.replace_schema_metadata(meta)
            if writer is None:
                writer = pq.ParquetWriter(f, g.schema, write_page_checksum=True,
                                          write_statistics=statistics,
                                          use_dictionary=False)  # fmt: skip
            writer.write_table(g, row_group_size=max(1, g.num_rows))
        if writer is not None:
            writer.close()

    replace_atomic(path, write)


def file_stamp(path: Path) -> tuple[int, int, int] | None:
    """What changes when a file is rewritten or touched: (inode, size, mtime in ns); None
    when there is no file."""
    try:
        st = path.stat()
    except OSError:
        return None
    return st.st_ino, st.st_size, st.st_mtime_ns


_HOLDERS: list[LastRead[Any]] = []  # every LastRead, for release_unused


class LastRead(Generic[T]):
    """The last value made from a cache file, served again while the file is the one it was
    made from (the same ``file_stamp``): a report asks for the hand table dozens of times
    and for the frontiers at every set of keys, and a verified read of either reads and
    checks the whole file. The last ``KEEP`` files are held: a report's warm-up on a tiny deck
    (``analysis.report.warmup``, on a thread) then leaves the full deck's table held.

    >>> held: LastRead[str] = LastRead()
    >>> p = Path(tempfile.mkdtemp()) / "t.parquet"
    >>> _ = p.write_bytes(b"x")
    >>> held.hold(p, "table"); held.get(p)
    'table'
    >>> _ = p.write_bytes(b"xy")  # rewritten: not served again
    >>> held.get(p) is None
    True
    >>> files = [p.with_name(f"{name}.parquet") for name in "abc"]
    >>> for f in files:
    ...     _ = f.write_bytes(b"x")
    ...     held.hold(f, f.stem)
    >>> [held.get(f) for f in files]  # the last two
    [None, 'b', 'c']
    """

    KEEP = 2

    def __init__(self) -> None:
        self._held: dict[Path, tuple[tuple[int, int, int], T]] = {}
        self._lock = threading.Lock()  # a report's warm-up thread reads tables too
        _HOLDERS.append(self)

    def drop(self) -> None:
        """Hold nothing (``release_unused``)."""
        with self._lock:
            self._held.clear()

    def get(self, path: Path) -> T | None:
        """The value held for ``path`` if the file is unchanged since, else None."""
        held = self._held.get(path)
        if held is None or held[0] != file_stamp(path):
            return None
        return held[1]

    def hold(self, path: Path, value: T) -> None:
        """Hold ``value``, made from the file now at ``path`` (in place of the least recently
        held beyond ``KEEP``)."""
        stamp = file_stamp(path)
        with self._lock:
            self._held.pop(path, None)
            while len(self._held) >= self.KEEP:
                del self._held[next(iter(self._held))]
            if stamp is not None:
                self._held[path] = (stamp, value)


def load_or_build(
    path: Path,
    prov: Mapping[str, Any],
    build: Callable[[], pa.Table],
    use_cache: bool = True,
    check: Check | None = None,
) -> tuple[pa.Table, bool]:
    """The table at ``path`` if it is current and verifies (``read_verified``), else
    ``build()`` (checked, then written there).

    Returns the table and whether it came from the cache.
    """
    if use_cache:
        table = read_verified(path, prov, check)
        if table is not None:
            return table, True
    table = build()
    if check is not None:
        with built_correctly(path.name):
            check(table)
    if use_cache:
        write_atomic(table, path, prov)
    return table, False
