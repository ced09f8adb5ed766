"""The published declarations of every kind are frozen: a refactor must not change them.

``declarations_snapshot.json`` holds each kind's doc, action space, setup/cleanup ops, getters
and checks (names, docs, JSON Schemas of their arguments, whether a check declares writes) and
its profile schema. Agents, prompts and task files are built from these, so any difference here
is a change of the benchmark, not a refactor: a deliberate one updates the snapshot and says
what changed in CHANGELOG.md under its issue (the snapshot's history is there, not here).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from devicesworld.devices.base import DeviceKind, get_kind

SNAPSHOT = Path(__file__).with_name("declarations_snapshot.json")
FROZEN: dict[str, Any] = json.loads(SNAPSHOT.read_text(encoding="utf-8"))


def describe(kind: DeviceKind) -> dict[str, Any]:
    """What the snapshot records of a kind (every list in declaration order)."""
    return {
        "doc": kind.doc,
        "actions": kind.action_space(),
        "setup_ops": [s.describe() for s in kind.setup_ops.values()],
        "cleanup_ops": [s.describe() for s in kind.cleanup_ops.values()],
        "getters": [s.describe() for s in kind.getters.values()],
        "checks": [{**s.describe(), "writes": s.writes is not None} for s in kind.checks.values()],
        "profile_schema": kind.profile_model.model_json_schema() if kind.profile_model else None,
    }


@pytest.mark.parametrize("name", sorted(FROZEN))
def test_declarations_match_the_snapshot(name: str) -> None:
    kind = get_kind(name)
    assert kind is not None, f"kind {name!r} is no longer registered"
    now = json.loads(json.dumps(describe(kind)))
    was = FROZEN[name]
    for section in was:
        assert now[section] == was[section], f"{name}.{section} changed"
    assert set(now) == set(was)


def test_the_snapshot_covers_every_builtin_kind() -> None:
    from devicesworld.devices import builtin_kinds

    assert {k.name for k in builtin_kinds()} <= set(FROZEN)
