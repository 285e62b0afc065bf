"""Execute the notebooks top to bottom and write the executed copies to a folder.

    .venv/bin/python notebooks/run_notebooks.py --deck full --out reports/notebooks
    .venv/bin/python notebooks/run_notebooks.py --deck 23579JQA:cd+joker --out /tmp/nb 02
    .venv/bin/python notebooks/run_notebooks.py --deck 23579JQA:cd+joker --out /tmp/nb --jobs 3

Each notebook reads its deck from ``PAIGOW_NOTEBOOK_DECK``, which this script sets for the
kernel; the kernel is ipykernel on the Python running this script (the project's ``.venv``),
started in ``notebooks/`` with this process's environment (``PAIGOW_CACHE_DIR`` included) and the
checkout first on ``PYTHONPATH``. The committed notebooks are never written: the executed copies
go to ``--out``, a failing notebook's copy too (with the error in its cells). Exit code 0 when
every notebook ran, 1 when any failed, 2 for a wrong command line.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

import nbformat
from jupyter_client.kernelspec import KernelSpec, KernelSpecManager
from jupyter_client.manager import AsyncKernelManager
from nbclient import NotebookClient
from traitlets import default

NOTEBOOK_DIR = Path(__file__).resolve().parent
REPO = NOTEBOOK_DIR.parent
DECK_ENV = "PAIGOW_NOTEBOOK_DECK"
DEFAULT_TIMEOUT = 3600  # seconds per cell: the full deck's first engine runs are long


class ThisPythonKernelSpecs(KernelSpecManager):
    """Every kernel name resolves to ipykernel on this interpreter, so notebooks run in the
    project's virtual environment whatever kernelspecs the user has installed elsewhere."""

    def get_kernel_spec(self, kernel_name: str) -> KernelSpec:
        return KernelSpec(
            argv=[sys.executable, "-m", "ipykernel_launcher", "-f", "{connection_file}"],
            display_name=f"Python 3 ({sys.prefix})",
            language="python",
            resource_dir=str(NOTEBOOK_DIR),
        )


class ThisPythonKernelManager(AsyncKernelManager):
    @default("kernel_spec_manager")
    def _kernel_spec_manager_default(self) -> KernelSpecManager:
        return ThisPythonKernelSpecs(data_dir=self.data_dir)


@dataclass(frozen=True)
class NotebookRun:
    """How one notebook ran: where its executed copy is, how long it took, and the error (one
    line, with the failing cell's error name and value) when it failed."""

    notebook: Path
    output: Path
    seconds: float
    error: str | None = None

    @property
    def ok(self) -> bool:
        return self.error is None


def notebook_paths(names: Sequence[str] = (), directory: Path = NOTEBOOK_DIR) -> list[Path]:
    """The notebooks to run, in order: all of ``directory`` (``NN-*.ipynb``), or those whose file
    name starts with one of ``names`` (``"02"``, ``"02-variant-and-paytables.ipynb"``)."""
    every = sorted(directory.glob("[0-9][0-9]-*.ipynb"))
    if not names:
        return every
    chosen = [p for p in every if any(p.name.startswith(n) for n in names)]
    unknown = [n for n in names if not any(p.name.startswith(n) for p in every)]
    if unknown:
        known = ", ".join(p.name for p in every)
        raise ValueError(f"no notebook named {', '.join(unknown)} (known: {known})")
    return chosen


def kernel_env(deck: str) -> dict[str, str]:
    """This process's environment with the deck set and the checkout first on the path (a
    relative ``PAIGOW_CACHE_DIR`` made absolute: the kernels start in ``notebooks/``)."""
    env = dict(os.environ)
    env[DECK_ENV] = deck
    if env.get("PAIGOW_CACHE_DIR"):
        env["PAIGOW_CACHE_DIR"] = str(Path(env["PAIGOW_CACHE_DIR"]).absolute())
    path = env.get("PYTHONPATH", "")
    env["PYTHONPATH"] = str(REPO) + (os.pathsep + path if path else "")
    return env


def _one_line(err: BaseException) -> str:
    ename = getattr(err, "ename", None)
    evalue = getattr(err, "evalue", None)
    text = f"{ename}: {evalue}" if ename else f"{type(err).__name__}: {err}"
    return " ".join(text.split())[:500]


def run_notebook(
    path: Path, out_dir: Path, deck: str = "full", timeout: int = DEFAULT_TIMEOUT
) -> NotebookRun:
    """Execute ``path`` on ``deck``; write the executed copy to ``out_dir / path.name``."""
    nb = nbformat.read(path, as_version=4)
    client = NotebookClient(
        nb,
        timeout=timeout,
        kernel_name="python3",
        kernel_manager_class=ThisPythonKernelManager,
        resources={"metadata": {"path": str(path.parent)}},
    )
    out_dir.mkdir(parents=True, exist_ok=True)
    output = out_dir / path.name
    start = time.perf_counter()
    error = None
    try:
        client.execute(env=kernel_env(deck))
    except Exception as err:  # a failing cell, a timeout, a dead kernel: report, go on
        error = _one_line(err)
    nb.metadata["paigow"] = {"deck": deck, "error": error}
    nbformat.write(nb, output)
    return NotebookRun(path, output, time.perf_counter() - start, error)


def run_notebooks(
    deck: str = "full",
    out_dir: Path | str = REPO / "reports" / "notebooks",
    names: Sequence[str] = (),
    timeout: int = DEFAULT_TIMEOUT,
    jobs: int = 1,
    log: bool = False,
) -> list[NotebookRun]:
    """Execute the notebooks (all, or those named); every one runs even when another fails.

    ``jobs`` kernels run at once (default one, in order). More suit small decks only: each
    kernel holds its own tables, and on the full deck the optimal strategy alone takes GBs.
    Kernels that run at once share the cache folder (its files are written atomically).
    """
    out_dir = Path(out_dir)
    if out_dir.resolve() == NOTEBOOK_DIR:
        raise ValueError(f"--out {out_dir}: the executed copies do not go into notebooks/")
    if jobs < 1:
        raise ValueError(f"--jobs {jobs}: at least 1")
    paths = notebook_paths(names)

    def one(path: Path) -> NotebookRun:
        if log:
            print(f"{path.name}: running on deck {deck} ...", flush=True)
        run = run_notebook(path, out_dir, deck, timeout)
        if log:
            status = "ok" if run.ok else f"FAILED: {run.error}"
            print(f"{path.name}: {status} ({run.seconds:.1f} s) -> {run.output}", flush=True)
        return run

    if jobs == 1:
        return [one(p) for p in paths]
    with ThreadPoolExecutor(max_workers=jobs) as pool:
        return list(pool.map(one, paths))


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description="Execute the notebooks top to bottom; write executed copies to --out."
    )
    parser.add_argument(
        "names", nargs="*", help="notebooks to run (file name or its start, e.g. 02); default: all"
    )
    parser.add_argument(
        "--deck",
        default="full",
        help="deck: full (default) or RANKS:SUITS[+joker], e.g. 23579JQA:cd+joker",
    )
    parser.add_argument(
        "--out",
        default="reports/notebooks",
        help="folder for the executed copies (default: reports/notebooks)",
    )
    parser.add_argument(
        "--timeout",
        type=int,
        default=DEFAULT_TIMEOUT,
        help=f"seconds per cell (default: {DEFAULT_TIMEOUT})",
    )
    parser.add_argument(
        "--jobs",
        type=int,
        default=1,
        help="notebooks run at once (default 1; more only for small decks)",
    )
    args = parser.parse_args(argv)
    if str(REPO) not in sys.path:  # run as a script: the checkout's packages
        sys.path.insert(0, str(REPO))
    try:
        from enumerate.rules import Deck

        Deck.parse(args.deck)
        notebook_paths(args.names)
    except ValueError as err:
        print(f"run_notebooks: {err}", file=sys.stderr)
        return 2
    try:
        runs = run_notebooks(args.deck, args.out, args.names, args.timeout, args.jobs, log=True)
    except ValueError as err:
        print(f"run_notebooks: {err}", file=sys.stderr)
        return 2
    failed = [r for r in runs if not r.ok]
    print(f"{len(runs) - len(failed)} of {len(runs)} notebooks ran on deck {args.deck}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
