"""``devicesworld kinds``: the registered kinds, their declarations and traits, and --check."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from devicesworld.cli import main
from devicesworld.devices import base
from devicesworld.devices.base import ActionSpec, DeviceKind, get_kind, kind_names


def test_kinds_lists_every_kind_with_counts_and_traits() -> None:
    result = CliRunner().invoke(main, ["kinds", "--json"])
    assert result.exit_code == 0, result.output
    rows = {r["kind"]: r for r in json.loads(result.output)}
    assert sorted(rows) == kind_names()
    for name, row in rows.items():
        kind = get_kind(name)
        assert kind is not None
        assert row["actions"] == len(kind.actions) and row["checks"] == len(kind.checks)
        assert row["surfaces"] == (kind.traits.surfaces is not None)
        assert "problems" not in row


def test_kinds_check_passes_for_the_registered_kinds() -> None:
    result = CliRunner().invoke(main, ["kinds", "--check", "--json", "toy"])
    assert result.exit_code == 0, result.output
    assert json.loads(result.output) == [
        {
            "kind": "toy",
            "actions": 4,
            "setup_ops": 2,
            "getters": 1,
            "checks": 1,
            "noun": "",
            "surfaces": False,
            "env_split": False,
            "screenshots": "never",
            "problems": [],
        }
    ]


def test_kinds_check_fails_on_a_kind_that_does_not_conform(monkeypatch: pytest.MonkeyPatch) -> None:
    toy = get_kind("toy")
    assert toy is not None
    orphan = ActionSpec(name="orphan", doc="Declared, never handled.")
    broken = DeviceKind(
        name="halfdone",
        doc="An action without a handler.",
        factory=toy.factory,
        actions={**toy.actions, "orphan": orphan},
        setup_ops=toy.setup_ops,
        getters=toy.getters,
        checks=toy.checks,
    )
    monkeypatch.setitem(base._REGISTRY, "halfdone", broken)
    result = CliRunner().invoke(main, ["kinds", "--check", "halfdone"])
    assert result.exit_code == 1
    assert "halfdone: action 'orphan' has no handler" in " ".join(result.output.split())


def test_an_unknown_kind_is_a_clear_error() -> None:
    result = CliRunner().invoke(main, ["kinds", "nosuchkind"])
    assert result.exit_code == 2
    assert "no device kind named nosuchkind" in result.output
    assert "Traceback" not in result.output
