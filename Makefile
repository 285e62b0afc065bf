# Every target sets up its own virtual environment (.venv) from pyproject.toml.
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed-stamp
TIME   := $(shell [ -x /usr/bin/time ] && echo "/usr/bin/time -v")

.PHONY: help venv browser lint test reports verify notebooks bench crosscheck clean-cache

help:
	@echo "make reports   build the tables and print the exact results (main job)"
	@echo "make test      lint + unit tests (under 7 minutes on 2 cores)"
	@echo "make lint      ruff + mypy + the comment lint (no dates or commit hashes)"
	@echo "make verify    compare computed figures with data/published (exit 1 on a failure)"
	@echo "make notebooks run the notebooks on the full deck into reports/notebooks"
	@echo "make bench     full-deck benchmarks with wall time and peak memory"
	@echo "make crosscheck the MGM Grand card against the npm solver pokersolver (needs node, npm)"

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --disable-pip-version-check -e '.[dev]'
	touch $(STAMP)

venv: $(STAMP)

# headless Chromium for the browser test of reports/index.html: Debian's packages where
# apt-get runs as root; elsewhere the test is skipped and says why
browser:
	@if command -v chromium >/dev/null 2>&1 && command -v chromedriver >/dev/null 2>&1; then :; \
	elif [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then \
	  echo "browser: installing chromium and chromium-driver (Debian packages)"; \
	  (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq \
	    chromium chromium-driver >/dev/null 2>&1) \
	  || echo "browser: the install failed; the browser test will be skipped"; \
	else echo "browser: no chromium/chromedriver and no root apt-get; the browser test will be skipped"; fi

lint: $(STAMP)
	$(BIN)/ruff check enumerate analysis tests benchmarks notebooks
	$(BIN)/mypy
	$(BIN)/python -m tests.lint_comments enumerate analysis tests benchmarks notebooks
	$(BIN)/python -m tests.lint_imports

# two pytest workers (pytest-xdist), a test file each at a time so a file's module fixtures
# are built once; most of a fresh run is numba compiling on one core
TEST_WORKERS ?= 2

test: lint browser
	$(BIN)/pytest -q -n $(TEST_WORKERS) --dist loadfile

reports: $(STAMP)
	$(TIME) $(BIN)/paigow reports --out reports

verify: $(STAMP)
	$(BIN)/paigow verify

notebooks: $(STAMP)
	$(BIN)/python notebooks/run_notebooks.py --deck full --out reports/notebooks

bench: $(STAMP)
	$(TIME) $(BIN)/python benchmarks/bench_tables.py
	$(TIME) $(BIN)/python benchmarks/bench_ways.py
	$(TIME) $(BIN)/python benchmarks/bench_engine.py
	PAIGOW_BENCH_FLAGS=0 $(TIME) $(BIN)/python benchmarks/bench_engine.py
	$(TIME) $(BIN)/python benchmarks/bench_single_hands.py
	$(TIME) $(BIN)/python benchmarks/bench_optimal.py
	$(TIME) $(BIN)/python benchmarks/bench_per_hand_check.py
	$(TIME) $(BIN)/python benchmarks/bench_simulate.py
	$(TIME) $(BIN)/python benchmarks/bench_sweep.py
	$(TIME) $(BIN)/python benchmarks/bench_wayedge.py
	$(TIME) $(BIN)/python benchmarks/bench_derive.py
	PAIGOW_BENCH_SIDE=way $(TIME) $(BIN)/python benchmarks/bench_derive.py
	$(TIME) $(BIN)/python benchmarks/bench_reports.py
	$(TIME) $(BIN)/python benchmarks/bench_cli.py
	$(BIN)/pytest -q -m slow -p no:cacheprovider tests

# a development-time check against another program: pokersolver is installed from the npm
# registry into a temporary folder, never into the project
crosscheck: $(STAMP)
	$(TIME) $(BIN)/python benchmarks/crosscheck_pokersolver.py

clean-cache:
	rm -rf data/cache
