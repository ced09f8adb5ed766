"""``make run`` picks the llm agent when an endpoint is configured in the environment."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[3]
ENDPOINT_VARS = ("DEVICESWORLD_MODEL", "DEVICESWORLD_BASE_URL", "OPENAI_API_KEY", "DEVICESWORLD_API_KEY")


def _dry_run(**env: str) -> str:
    clean = {k: v for k, v in os.environ.items() if k not in ENDPOINT_VARS and not k.startswith("MAKE")}
    done = subprocess.run(
        ["make", "-n", "-W", "pyproject.toml", "run"],  # -W: print the venv step, run nothing
        cwd=ROOT,
        env={**clean, **env},
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    return done.stdout


@pytest.mark.skipif(shutil.which("make") is None, reason="make is not installed")
def test_make_run_uses_llm_only_with_an_endpoint() -> None:
    assert "--agent oracle" in _dry_run()
    assert "--agent oracle" in _dry_run(DEVICESWORLD_MODEL="m")  # a model but nowhere to send it
    assert "--agent llm" in _dry_run(DEVICESWORLD_MODEL="m", DEVICESWORLD_BASE_URL="http://127.0.0.1:8000/v1")
    assert "--agent llm" in _dry_run(DEVICESWORLD_MODEL="gpt-x", OPENAI_API_KEY="sk-test")


@pytest.mark.skipif(shutil.which("make") is None, reason="make is not installed")
def test_make_run_proves_the_suite_with_a_process_per_core() -> None:
    validate = next(line for line in _dry_run().splitlines() if "tasks validate" in line)
    workers = int(validate.split("--workers", 1)[1].split()[0])
    assert 1 <= workers <= 4 and workers == min(4, len(os.sched_getaffinity(0)))
    assert (
        "--workers 1 "
        in next(line for line in _dry_run(RUN_WORKERS="1").splitlines() if "tasks validate" in line) + " "
    )
