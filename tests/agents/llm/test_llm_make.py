"""``make run`` runs the agent at once (the llm agent when an endpoint is configured); ``make validate`` proves."""

from __future__ import annotations

import os
import shutil
import subprocess
from fnmatch import fnmatchcase
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[3]
ENDPOINT_VARS = ("DEVICESWORLD_MODEL", "DEVICESWORLD_BASE_URL", "OPENAI_API_KEY", "DEVICESWORLD_API_KEY")


def _dry_run(**env: str) -> str:
    return _dry_run_target("run", **env)


@pytest.mark.skipif(shutil.which("make") is None, reason="make is not installed")
def test_make_run_uses_llm_only_with_an_endpoint() -> None:
    assert "--agent oracle" in _dry_run()
    assert "--agent oracle" in _dry_run(DEVICESWORLD_MODEL="m")  # a model but nowhere to send it
    assert "--agent llm" in _dry_run(DEVICESWORLD_MODEL="m", DEVICESWORLD_BASE_URL="http://127.0.0.1:8000/v1")
    assert "--agent llm" in _dry_run(DEVICESWORLD_MODEL="gpt-x", OPENAI_API_KEY="sk-test")


def _dry_run_target(target: str, **env: str) -> str:
    clean = {k: v for k, v in os.environ.items() if k not in ENDPOINT_VARS and not k.startswith("MAKE")}
    done = subprocess.run(
        ["make", "-n", "-W", "pyproject.toml", target],  # -W: print the venv step, run nothing
        cwd=ROOT,
        env={**clean, **env},
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    return done.stdout


def _line(out: str, needle: str) -> str:
    return next(line for line in out.splitlines() if needle in line) + " "


@pytest.mark.skipif(shutil.which("make") is None, reason="make is not installed")
def test_make_run_runs_the_agent_without_proving_the_suite_first() -> None:
    out = _dry_run()
    assert "tasks validate" not in out
    run = _line(out, "devicesworld run")
    workers = int(run.split("--workers", 1)[1].split()[0])
    assert 1 <= workers <= 4 and workers == min(4, len(os.sched_getaffinity(0)))
    # the smoke suite's quick tasks plus one GUI desktop and one Windows task; ALL=1: every task
    assert "--filter id=smoke-android-*,smoke-lx-*,smoke-sh-*,smoke-gui-lx-terminal-count-1," in run
    assert "--limit" not in run
    everything = _line(_dry_run(ALL="1"), "devicesworld run")
    assert "--filter" not in everything and "--limit" not in everything
    assert "--filter" not in _line(_dry_run(SUITE="test"), "devicesworld run")


@pytest.mark.skipif(shutil.which("make") is None, reason="make is not installed")
def test_make_run_installs_only_what_its_job_needs_and_make_test_the_rest() -> None:
    """A fresh `make run` spent most of its set-up on the test tools (Ray, mypy, ...): it installs the
    package with the llm agent's client and the browser driver only; `make test` adds the dev tools."""
    run = _dry_run()
    assert "pip install --quiet -e '.[llm,browser]'" in run
    assert "[dev]" not in run
    assert "pip install --quiet -e '.[dev]'" in _dry_run_target("test")


@pytest.mark.skipif(shutil.which("make") is None, reason="make is not installed")
def test_make_run_takes_a_filter_and_a_limit() -> None:
    run = _line(_dry_run(RUN_FILTER="kind=smarthome difficulty=easy", LIMIT="5"), "devicesworld run")
    assert "--filter kind=smarthome --filter difficulty=easy " in run
    assert "--limit 5 " in run


@pytest.mark.skipif(shutil.which("make") is None, reason="make is not installed")
def test_make_validate_proves_the_suite_with_a_process_per_core() -> None:
    validate = _line(_dry_run_target("validate"), "tasks validate")
    workers = int(validate.split("--workers", 1)[1].split()[0])
    assert 1 <= workers <= 4 and workers == min(4, len(os.sched_getaffinity(0)))
    assert "--workers 1 " in _line(_dry_run_target("validate", RUN_WORKERS="1"), "tasks validate")


@pytest.mark.skipif(shutil.which("make") is None, reason="make is not installed")
def test_the_default_selection_names_tasks_that_exist_and_covers_every_kind() -> None:
    from devicesworld.tasks.suites import load_suite

    run = _line(_dry_run(), "devicesworld run")
    patterns = run.split("--filter id=", 1)[1].split()[0].split(",")
    tasks = load_suite("smoke")
    ids = {t.id for t in tasks}
    assert all(p in ids for p in patterns if "*" not in p)  # a renamed task would drop silently
    chosen = [t for t in tasks if any(fnmatchcase(t.id, p) for p in patterns)]
    assert {d.kind for t in chosen for d in t.devices} == {d.kind for t in tasks for d in t.devices}
    assert any(d.kind == "linux" and d.profile for t in chosen for d in t.devices)  # a GUI desktop
