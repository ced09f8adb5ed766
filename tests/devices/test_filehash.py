"""The guard's file hashes: cached for old unchanged files, re-read whenever a file changed."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from devicesworld.devices import filehash
from devicesworld.devices.filehash import content_hash, hash_files, remember

OLD = 1_600_000_000 * 10**9


def _write(path: Path, data: bytes, mtime: int | None = OLD) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(data)
    if mtime is not None:
        os.utime(path, ns=(mtime, mtime))


def _snap(root: Path, skip: str | None = None) -> dict[str, str]:
    out: dict[str, str] = {}
    hash_files(root, "files", out, skip=skip)
    return out


def test_hashes_every_regular_file_sorted_and_skips_links_and_the_skipped_entry(tmp_path: Path) -> None:
    _write(tmp_path / "b.txt", b"b")
    _write(tmp_path / "a/c.txt", b"c")
    _write(tmp_path / "Drive/x.txt", b"x")
    (tmp_path / "link").symlink_to(tmp_path / "b.txt")
    snap = _snap(tmp_path, skip="Drive")
    assert list(snap) == ["files/a/c.txt", "files/b.txt"]
    assert snap["files/b.txt"] == content_hash(b"b")


def test_an_old_unchanged_file_is_not_read_again(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    _write(tmp_path / "a.txt", b"hello")
    first = _snap(tmp_path)
    reads: list[str] = []
    real_open = open

    def counting_open(file: object, *args: object, **kwargs: object) -> object:
        reads.append(str(file))
        return real_open(file, *args, **kwargs)  # type: ignore[call-overload]

    monkeypatch.setattr("builtins.open", counting_open)
    assert _snap(tmp_path) == first
    assert reads == []


def test_a_changed_file_is_read_again_even_with_its_size_and_mtime_restored(tmp_path: Path) -> None:
    path = tmp_path / "a.txt"
    _write(path, b"hello")
    before = _snap(tmp_path)
    _write(path, b"HELLO")  # same size, mtime set back to the old value
    after = _snap(tmp_path)
    assert after["files/a.txt"] == content_hash(b"HELLO") != before["files/a.txt"]


def test_a_freshly_written_file_is_always_read(tmp_path: Path) -> None:
    path = tmp_path / "new.txt"
    _write(path, b"one", mtime=None)
    assert _snap(tmp_path)["files/new.txt"] == content_hash(b"one")
    path.write_bytes(b"two")
    assert _snap(tmp_path)["files/new.txt"] == content_hash(b"two")


def test_remembered_hashes_spare_the_first_read_and_removals_are_seen(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    _write(tmp_path / "w.bin", b"world")
    remember(tmp_path, "w.bin", b"world")
    monkeypatch.setattr(filehash, "content_hash", lambda data: "read!")
    assert _snap(tmp_path) == {"files/w.bin": filehash.hashlib.sha256(b"world").hexdigest()[:16]}
    (tmp_path / "w.bin").unlink()
    assert _snap(tmp_path) == {}
