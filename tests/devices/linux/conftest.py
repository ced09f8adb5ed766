from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.devices.linux.linux_harness import Desktop, require_bwrap


@pytest.fixture
def desk(tmp_path: Path) -> Iterator[Desktop]:
    require_bwrap()
    d = Desktop(tmp_path)
    yield d
    d.close()
