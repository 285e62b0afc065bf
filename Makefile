# Every target sets up its own virtual environment (.venv) from pyproject.toml.
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed-stamp
TIME   := $(shell [ -x /usr/bin/time ] && echo "/usr/bin/time -v")

.PHONY: help venv lint test reports verify notebooks bench clean-cache

help:
	@echo "make reports   build the tables and print the exact results (main job)"
	@echo "make test      lint + unit tests (under 10 minutes on 2 cores)"
	@echo "make lint      ruff + mypy"
	@echo "make verify    compare computed figures with data/published (exit 1 on a failure)"
	@echo "make notebooks run the notebooks on the full deck into reports/notebooks"
	@echo "make bench     full-deck benchmarks with wall time and peak memory"

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --disable-pip-version-check -e '.[dev]'
	touch $(STAMP)

venv: $(STAMP)

lint: $(STAMP)
	$(BIN)/ruff check enumerate analysis tests benchmarks notebooks
	$(BIN)/mypy

test: lint
	$(BIN)/pytest -q

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
	$(TIME) $(BIN)/python benchmarks/bench_reports.py
	$(TIME) $(BIN)/python benchmarks/bench_cli.py
	$(BIN)/pytest -q -m slow -p no:cacheprovider tests

clean-cache:
	rm -rf data/cache
