"""Shared fixtures: the ``toy`` device kind is registered for every test."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

_HERE = Path(__file__).parent
for helper_dir in (
    _HERE,
    _HERE / "analysis",
    _HERE / "devices" / "smarthome",
    _HERE / "devices" / "linux",
    _HERE / "agents" / "llm",
    _HERE / "devices" / "android",
    _HERE / "runner",
    _HERE / "tasks" / "composition",
):
    sys.path.insert(0, str(helper_dir))

from devicesworld.devices.base import register_kind  # noqa: E402
from toykind import TOY  # noqa: E402

register_kind(TOY)


@pytest.fixture
def toy_doc() -> dict[str, object]:
    from toykind import toy_task

    return toy_task()
