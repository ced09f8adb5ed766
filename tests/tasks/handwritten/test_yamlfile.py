"""The data-file loader: YAML 1.2 scalars, duplicate keys refused, every value's line known."""

from __future__ import annotations

from pathlib import Path

import pytest

from devicesworld.tasks.handwritten.yamlfile import DataFileError, load_file, load_text, plain, pos_of


def test_scalars_are_what_they_look_like() -> None:
    doc = load_text(
        "a: {on: true, off: false, yes: no, t: 10:30, d: 2026-03-12, z: 0123, i: -3, f: 24.0, e: 1.5e3, n: null}\n",
        "x.yaml",
    )
    assert plain(doc) == {
        "a": {
            "on": True,
            "off": False,
            "yes": "no",
            "t": "10:30",
            "d": "2026-03-12",
            "z": "0123",
            "i": -3,
            "f": 24.0,
            "e": 1500.0,
            "n": None,
        }
    }
    assert type(plain(doc)) is dict  # models get plain containers


def test_positions_of_values_and_items() -> None:
    doc = load_text("format: 1\ntasks:\n  - id: a\n  - id: b\n", "x.yaml")
    assert pos_of(doc, "tasks") == (3, 3)
    assert pos_of(doc["tasks"], 1) == (4, 5)
    assert pos_of(doc["tasks"][1], "id") == (4, 9)


def test_a_key_given_twice_is_an_error_at_its_line() -> None:
    with pytest.raises(DataFileError) as err:
        load_text("a: 1\nb:\n  c: 1\n  c: 2\n", "x.yaml")
    assert str(err.value) == "x.yaml:4:3: key 'c' is given twice in this mapping"


def test_syntax_errors_and_missing_files_name_the_file(tmp_path: Path) -> None:
    with pytest.raises(DataFileError, match=r"^x\.yaml:3:1: .*expected ',' or ']'"):
        load_text("a: [1,\n  2\n", "x.yaml")
    with pytest.raises(DataFileError, match="no such file"):
        load_file(tmp_path / "missing.yaml")
    (tmp_path / "bad.yaml").write_bytes(b"a: \xff\n")
    with pytest.raises(DataFileError, match="cannot be read"):
        load_file(tmp_path / "bad.yaml")


def test_json_is_read_too() -> None:
    assert plain(load_text('{"format": 1, "tasks": [{"id": "a", "on": true}]}', "x.json")) == {
        "format": 1,
        "tasks": [{"id": "a", "on": True}],
    }
