# `make run` and `make test` work on a fresh machine: each installs the system packages the
# devices use when this user can (scripts/system-deps.sh), then builds the virtualenv.
PYTHON ?= python3
VENV ?= .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
# what `make run` needs (a subset of the dev install that $(STAMP) marks)
RUN_STAMP := $(VENV)/.installed-run
# when this make started: `make run` prints how long its set-up and the whole command took
MAKE_START := $(shell date +%s)
WORKERS ?= auto
SUITE ?= smoke
# An endpoint in the environment (DEVICESWORLD_MODEL plus DEVICESWORLD_BASE_URL or an API key)
# makes `make run` use the `llm` agent; otherwise the built-in oracle runs.
LLM_ENDPOINT := $(and $(DEVICESWORLD_MODEL),$(or $(DEVICESWORLD_BASE_URL),$(OPENAI_API_KEY),$(DEVICESWORLD_API_KEY)))
AGENT ?= $(if $(LLM_ENDPOINT),llm,oracle)
# `make run` runs the agent straight away on the suite's tasks whose devices this machine
# can start (the others are skipped with the reason: --skip-unavailable): no proving first, so a fresh machine
# shows a metrics table within minutes. Proving every task is `make validate` (and CI's job).
# RUN_FILTER narrows the tasks (KEY=VALUE, space-separated for several, as `--filter`),
# LIMIT runs only the first N. On the smoke suite, `make run` by default runs its quick tasks
# (phones, homes, shell desktops: 140) plus one GUI desktop and one Windows task, so a set-up
# machine shows every device kind in about a minute; the 42 other GUI/Windows tasks take ~90 %
# of the suite's time (~14 min of episodes on a loaded 2-core box). ALL=1 (or any RUN_FILTER)
# runs the whole selection.
QUICK_IDS := smoke-android-*,smoke-lx-*,smoke-sh-*,smoke-gui-lx-terminal-count-1,smoke-gui-win-cmd-move-named-1
RUN_FILTER ?= $(if $(ALL),,$(if $(filter smoke,$(SUITE)),id=$(QUICK_IDS)))
LIMIT ?=
# one process per core, at most 4 (RUN_WORKERS overrides): for `make run` and `make validate`
RUN_WORKERS ?= $(shell n=$$(nproc 2>/dev/null || echo 1); [ "$$n" -gt 4 ] && n=4; echo $$n)
RUN_ARGS := --skip-unavailable $(foreach f,$(RUN_FILTER),--filter $(f)) $(if $(LIMIT),--limit $(LIMIT))

.PHONY: system venv run validate test lint bench clean

# bubblewrap, Chromium, the GUI desktop stack, LibreOffice and Wine: installed when root with
# apt-get, otherwise listed with the command to install them (tests needing them then skip)
system:
	@bash scripts/system-deps.sh

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip

# `make run` installs only what its job needs: the package, the llm agent's client (openai) and
# the driver of the desktops' Chromium (playwright). The test and lint tools (Ray, mypy, the MCP
# and Home Assistant clients, ...) are `make test`'s: installing them first took most of a fresh
# `make run` (docs/performance.md, "make run on a fresh clone").
$(RUN_STAMP): pyproject.toml | $(BIN)/python
	@echo "make run: installing devicesworld with the llm and browser extras into $(VENV)"
	$(BIN)/pip install --quiet -e '.[llm,browser]'
	touch $(RUN_STAMP)

$(STAMP): pyproject.toml | $(BIN)/python
	$(BIN)/pip install --quiet -e '.[dev]'
	touch $(RUN_STAMP) $(STAMP)

venv: $(STAMP)

run: system $(RUN_STAMP)
	@echo "make run: set-up took $$(( $$(date +%s) - $(MAKE_START) )) s; now the $(AGENT) agent on $(SUITE)"
	$(BIN)/devicesworld run --suite $(SUITE) --agent $(AGENT) --workers $(RUN_WORKERS) $(RUN_ARGS)
	@echo "make run: $$(( $$(date +%s) - $(MAKE_START) )) s in all"

# prove every task of the suite: setup fails the check, the reference solution passes
# (the smoke suite's GUI tasks replay on live desktops: about 10 minutes on 2 cores)
validate: system $(RUN_STAMP)
	$(BIN)/devicesworld tasks validate --suite $(SUITE) --workers $(RUN_WORKERS)

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
