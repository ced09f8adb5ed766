# `make run` and `make test` work on a fresh machine: each installs the system packages the
# devices use when this user can (scripts/system-deps.sh), then builds the virtualenv.
PYTHON ?= python3
VENV ?= .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
WORKERS ?= auto
SUITE ?= smoke
# An endpoint in the environment (DEVICESWORLD_MODEL plus DEVICESWORLD_BASE_URL or an API key)
# makes `make run` use the `llm` agent; otherwise the built-in oracle runs.
LLM_ENDPOINT := $(and $(DEVICESWORLD_MODEL),$(or $(DEVICESWORLD_BASE_URL),$(OPENAI_API_KEY),$(DEVICESWORLD_API_KEY)))
AGENT ?= $(if $(LLM_ENDPOINT),llm,oracle)
# `make run` proves the suite first with one process per core (at most 4): the smoke suite's
# GUI tasks replay on live desktops (on 2 cores: 19 minutes with one process, 10 with two)
RUN_WORKERS ?= $(shell n=$$(nproc 2>/dev/null || echo 1); [ "$$n" -gt 4 ] && n=4; echo $$n)

.PHONY: system venv run test lint bench clean

# bubblewrap, Chromium, the GUI desktop stack, LibreOffice and Wine: installed when root with
# apt-get, otherwise listed with the command to install them (tests needing them then skip)
system:
	@bash scripts/system-deps.sh

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e '.[dev]'
	touch $(STAMP)

venv: $(STAMP)

run: system $(STAMP)
	$(BIN)/devicesworld tasks validate --suite $(SUITE) --workers $(RUN_WORKERS)
	$(BIN)/devicesworld run --suite $(SUITE) --agent $(AGENT)

test: system $(STAMP)
	$(BIN)/python -m pytest -n $(WORKERS) -q

lint: $(STAMP)
	$(BIN)/ruff check src tests benchmarks
	$(BIN)/ruff format --check src tests benchmarks
	$(BIN)/mypy
	$(BIN)/lint-imports

bench: $(STAMP)
	$(BIN)/python benchmarks/smarthome_latency.py
	$(BIN)/python benchmarks/android_latency.py
	$(BIN)/python benchmarks/scale.py --suite $(SUITE)
	$(BIN)/python benchmarks/llm_agent_overhead.py
	$(BIN)/python benchmarks/viewer_load.py 5000
	$(BIN)/python benchmarks/linux_latency.py
	$(BIN)/python benchmarks/three_device_setup.py
	$(BIN)/python benchmarks/serve_latency.py

clean:
	rm -rf $(VENV) runs .pytest_cache .mypy_cache .ruff_cache
