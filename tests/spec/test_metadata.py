"""Task metadata is typed: every shipped suite reads with unknown keys forbidden and writes back
byte for byte, and a key no model names is an error."""

from __future__ import annotations

import gzip
from importlib import resources
from pathlib import Path

import pytest
from pydantic import ValidationError

from devicesworld import jsonl
from devicesworld.spec.metadata import CATEGORIES, PATTERNS, Composition, DifficultyFeatures
from devicesworld.spec.models import Metadata, Task

DATA = Path(str(resources.files("devicesworld.tasks") / "data"))


@pytest.mark.parametrize("name", sorted(p.name for p in DATA.glob("*.jsonl*")))
def test_every_shipped_suite_reads_typed_and_writes_back_byte_for_byte(name: str) -> None:
    path = DATA / name
    raw = gzip.decompress(path.read_bytes()) if name.endswith(".gz") else path.read_bytes()
    for _, line in jsonl.split_lines(raw):
        task = Task.model_validate_json(line)
        assert jsonl.model_line(task).encode().rstrip(b"\n") == line.rstrip(b"\n"), task.id


def test_an_unknown_metadata_key_is_an_error() -> None:
    with pytest.raises(ValidationError, match="extra_forbidden"):
        Metadata.model_validate({"pattern": "direct_information_transfer", "colour": "blue"})
    with pytest.raises(ValidationError, match="extra_forbidden"):
        Composition.model_validate({"category": "single_device_dependent", "famliy": "typo"})


def test_a_category_outside_the_three_is_an_error_and_nine_patterns_are_defined_once() -> None:
    assert len(PATTERNS) == 9 and len(CATEGORIES) == 3
    with pytest.raises(ValidationError):
        Composition.model_validate({"category": "single_device"})


def test_records_write_only_what_was_set_but_features_write_every_feature() -> None:
    composition = Composition.model_validate({"category": "multi_device_dependent", "variant": None})
    assert composition.model_dump() == {"category": "multi_device_dependent", "variant": None}
    features = DifficultyFeatures(
        devices=2, classes=2, sources=1, source_cost=1, distractors=0, clutter=1.5, outputs=1,
        gui_steps=4, reasoning=0, infeasible=False,
    )  # fmt: skip
    assert set(features.model_dump()) == set(DifficultyFeatures.model_fields)
