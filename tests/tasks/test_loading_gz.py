from __future__ import annotations

import gzip
from pathlib import Path

import pytest

from devicesworld.tasks.loading import TaskLoadError, load_tasks

DOC = (
    '{"id": "gz-1", "instruction": "Finish.", "devices": [{"id": "smarthome_0", "kind": "smarthome"}], '
    '"evaluation": {"conditions": [{"id": "f", "device": "env", "check": "finished"}]}}\n'
)


def test_compressed_task_files_load_like_plain_ones(tmp_path: Path) -> None:
    path = tmp_path / "suite.jsonl.gz"
    path.write_bytes(gzip.compress(DOC.encode()))
    assert [t.id for t in load_tasks(path)] == ["gz-1"]
    assert [t.id for t in load_tasks(tmp_path)] == ["gz-1"]


def test_a_corrupt_compressed_file_is_a_load_error(tmp_path: Path) -> None:
    path = tmp_path / "broken.jsonl.gz"
    path.write_bytes(gzip.compress(DOC.encode())[:20])
    with pytest.raises(TaskLoadError, match="not a readable gzip file"):
        load_tasks(path)
