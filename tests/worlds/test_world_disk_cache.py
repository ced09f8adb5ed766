"""A world read back from the disk cache is the world a build gives."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import datetime
from pathlib import Path

import pytest

from devicesworld import diskcache
from devicesworld.worlds import build_world
from devicesworld.worlds.generate import clear_cache, disk_key, generate


@pytest.fixture(autouse=True)
def cache_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    monkeypatch.setenv(diskcache.CACHE_ENV, str(tmp_path / "cache"))
    monkeypatch.delenv(diskcache.SWITCH_ENV, raising=False)
    clear_cache()
    yield tmp_path / "cache"
    clear_cache()


def test_a_stored_world_is_the_built_one(cache_dir: Path) -> None:
    start = datetime(2026, 3, 2, 8, 30)
    built = build_world(51, "small", start)
    assert diskcache.read("worlds", disk_key(51, "small", start)) == built.to_json().encode()
    clear_cache()
    again = build_world(51, "small", start)
    assert again is not built
    assert again == built == generate(51, "small", start)
    assert again.to_json() == built.to_json()


def test_each_argument_has_its_own_entry() -> None:
    start = datetime(2026, 3, 2, 8, 30)
    keys = {disk_key(1, "small", start), disk_key(2, "small", start), disk_key(1, "lived", start)}
    keys.add(disk_key(1, "small", datetime(2026, 3, 3, 8, 30)))
    assert len(keys) == 4


def test_an_entry_that_is_no_world_is_built_again() -> None:
    start = datetime(2026, 3, 2, 8, 30)
    diskcache.write("worlds", disk_key(52, "small", start), b'{"not": "a world"}')
    assert build_world(52, "small", start) == generate(52, "small", start)


def test_bad_arguments_still_fail_clearly() -> None:
    with pytest.raises(ValueError, match="unknown world size"):
        build_world(1, "huge")  # type: ignore[arg-type]
