# `make run` and `make test` work on a fresh machine: each builds the virtualenv first.
PYTHON ?= python3
VENV ?= .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
WORKERS ?= auto
RUN_OUT ?= runs/latest

.PHONY: run test lint typecheck bench clean

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e '.[dev]'
	touch $(STAMP)

venv: $(STAMP)

run: $(STAMP)
	$(BIN)/devicesworld run --suite smoke --agent oracle --out $(RUN_OUT)
	$(BIN)/devicesworld report $(RUN_OUT)

test: $(STAMP)
	$(BIN)/python -m pytest -n $(WORKERS) -q

lint: $(STAMP)
	$(BIN)/ruff check src tests benchmarks
	$(BIN)/ruff format --check src tests benchmarks
	$(BIN)/mypy

bench: $(STAMP)
	$(BIN)/python benchmarks/smarthome_latency.py

clean:
	rm -rf $(VENV) runs .pytest_cache .mypy_cache .ruff_cache
