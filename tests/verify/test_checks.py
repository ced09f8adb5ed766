from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from devicesworld.verify import GENERIC_CHECKS, find_check, resolve_path, values_match

STATE = {"devices": {"ac": {"target": 24.0, "on": True, "modes": ["cool", "dry"]}}}


def get(name: str, args: Mapping[str, Any]) -> Any:
    return STATE


def _run(check: str, **args: Any) -> tuple[bool, str]:
    spec = GENERIC_CHECKS[check]
    out = spec.fn(get, spec.parse_args({"getter": "state", **args}))
    return out.passed, out.detail


def test_value_equals_reads_dotted_paths() -> None:
    assert _run("value_equals", path="devices.ac.target", equals=24) == (
        True,
        "state.devices.ac.target = 24.0, expected 24",
    )
    assert _run("value_equals", path="devices.ac.modes.1", equals="dry")[0]
    passed, detail = _run("value_equals", path="devices.ac.target", equals=22)
    assert not passed and "expected 22" in detail
    assert _run("value_equals", path="devices.ac.target", equals=24.4, tolerance=0.5)[0]
    passed, detail = _run("value_equals", path="devices.tv.on", equals=True)
    assert not passed and "no 'tv'" in detail


def test_bool_is_not_a_number() -> None:
    assert not values_match(1, True)
    assert values_match(True, True)
    assert not _run("value_in_range", path="devices.ac.on", min=0)[0]


def test_value_in_range() -> None:
    assert _run("value_in_range", path="devices.ac.target", min=20, max=25)[0]
    passed, detail = _run("value_in_range", path="devices.ac.target", max=23)
    assert not passed and detail.endswith("within [-inf, 23]")


def test_resolve_path_rejects_out_of_range_index() -> None:
    try:
        resolve_path([1, 2], "5")
    except KeyError as exc:
        assert "'5'" in str(exc)
    else:
        raise AssertionError("expected KeyError")


def test_lookup_prefers_kind_checks_and_falls_back_to_generic() -> None:
    assert find_check("toy", "value_is") is not None
    assert find_check("toy", "value_equals") is GENERIC_CHECKS["value_equals"]
    assert find_check("env", "infeasible_reported") is not None
    assert find_check("env", "value_equals") is None
    assert find_check("toy", "nope") is None
