"""The machine-wide cache: whole entries or none, damage is a miss, off means off."""

from __future__ import annotations

from pathlib import Path

import pytest

from devicesworld import diskcache


@pytest.fixture(autouse=True)
def cache_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv(diskcache.CACHE_ENV, str(tmp_path / "cache"))
    monkeypatch.delenv(diskcache.SWITCH_ENV, raising=False)
    return tmp_path / "cache"


def test_what_is_written_is_read_back_and_nothing_temporary_stays(cache_dir: Path) -> None:
    key = diskcache.key_of("world", 3, "lived")
    assert diskcache.read("worlds", key) is None
    assert diskcache.write("worlds", key, b"payload \x00\xff")
    assert diskcache.read("worlds", key) == b"payload \x00\xff"
    assert [p.name for p in cache_dir.rglob("*") if p.is_file()] == [key]


def test_a_damaged_entry_is_a_miss(cache_dir: Path) -> None:
    key = diskcache.key_of("x")
    diskcache.write("worlds", key, b"abcdef")
    (entry,) = (p for p in cache_dir.rglob("*") if p.is_file())
    raw = bytearray(entry.read_bytes())
    raw[-1] ^= 1
    entry.write_bytes(bytes(raw))
    assert diskcache.read("worlds", key) is None
    entry.write_bytes(b"DW")
    assert diskcache.read("worlds", key) is None


def test_switched_off_nothing_is_read_or_written(cache_dir: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    key = diskcache.key_of("y")
    diskcache.write("worlds", key, b"1")
    monkeypatch.setenv(diskcache.SWITCH_ENV, "0")
    assert diskcache.read("worlds", key) is None
    assert not diskcache.write("worlds", diskcache.key_of("z"), b"2")
    monkeypatch.setenv(diskcache.SWITCH_ENV, "1")
    assert diskcache.read("worlds", key) == b"1"
    assert diskcache.read("worlds", diskcache.key_of("z")) is None


def test_an_unwritable_cache_is_no_error(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("not a folder")
    monkeypatch.setenv(diskcache.CACHE_ENV, str(blocker))
    assert not diskcache.write("worlds", diskcache.key_of("a"), b"1")
    assert diskcache.read("worlds", diskcache.key_of("a")) is None


def test_keys_depend_on_every_part_and_on_types() -> None:
    assert diskcache.key_of(1, "a") != diskcache.key_of(1, "b")
    assert diskcache.key_of(1) != diskcache.key_of("1")
    assert diskcache.key_of(1, "a") == diskcache.key_of(1, "a")


def test_code_digest_follows_the_source_and_versions() -> None:
    one = diskcache.code_digest(("devicesworld.jsonl",))
    assert one == diskcache.code_digest(("devicesworld.jsonl",))
    assert one != diskcache.code_digest(("devicesworld.numbers",))
    assert one != diskcache.code_digest(("devicesworld.jsonl",), ("pydantic",))
    assert diskcache.code_digest(("devicesworld.worlds",)) != diskcache.code_digest(
        ("devicesworld.worlds.model",)
    )


def test_pack_and_unpack() -> None:
    meta = {"files": [["a.txt", 5]], "n": 2}
    blobs = [b"hello", b"", b"\x00" * 3]
    assert diskcache.unpack(diskcache.pack(meta, blobs)) == (meta, blobs)
    with pytest.raises(ValueError, match="not a packed cache entry"):
        diskcache.unpack(b"\x00\x00")
    with pytest.raises(ValueError, match="wrong length"):
        diskcache.unpack(diskcache.pack(meta, blobs) + b"x")


def test_clear_removes_our_namespaces_only(cache_dir: Path) -> None:
    diskcache.write("worlds", diskcache.key_of(1), b"1")
    diskcache.write("proven-files", diskcache.key_of(2), b"2")
    (cache_dir / "wine").mkdir()
    gone = diskcache.clear()
    assert sorted(p.name for p in gone) == ["proven-files", "worlds"]
    assert [p.name for p in cache_dir.iterdir()] == ["wine"]
