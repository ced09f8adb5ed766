"""safefs: no operation follows a link out of its root, with openat2 and with the per-component walk."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from devicesworld.devices.safefs import FsError, SafeRoot, openat2_available, resolve_dots, split_relative

STRATEGIES = [
    pytest.param(True, id="openat2"),
    pytest.param(False, id="nofollow-walk"),
]


@pytest.fixture(params=STRATEGIES)
def world(request: pytest.FixtureRequest, tmp_path: Path) -> tuple[SafeRoot, Path, Path]:
    """A root with four kinds of planted links, and a host folder outside it holding a secret."""
    if request.param and not openat2_available():
        pytest.skip("this kernel has no openat2")
    root, outside = tmp_path / "root", tmp_path / "outside"
    root.mkdir()
    outside.mkdir()
    (outside / "secret.txt").write_text("SECRET")
    (root / "docs").mkdir()
    (root / "docs" / "a.txt").write_text("hello")
    os.symlink(outside / "secret.txt", root / "file-link")
    os.symlink(outside, root / "dir-link")
    os.symlink(outside / "missing.txt", root / "dangling")
    os.symlink(f"/proc/self/root{outside}/secret.txt", root / "proc-link")
    os.symlink("/proc/self/root", root / "proc-root")
    return SafeRoot(root, "/home/user", use_openat2=request.param), root, outside


LINKS = ["file-link", "dangling", "proc-link", "dir-link/secret.txt", "proc-root" + "/etc/hostname"]


def _untouched(outside: Path) -> None:
    assert sorted(p.name for p in outside.iterdir()) == ["secret.txt"]
    assert (outside / "secret.txt").read_text() == "SECRET"


@pytest.mark.parametrize("rel", LINKS)
def test_reads_never_follow_a_link(world: tuple[SafeRoot, Path, Path], rel: str) -> None:
    fs, _, outside = world
    with pytest.raises(FsError) as err:
        fs.read_bytes(rel, 1000)
    assert err.value.code in ("PERMISSION_DENIED", "NOT_FOUND", "NOT_A_DIRECTORY")
    assert str(outside) not in err.value.message and err.value.message.startswith("/home/user/")
    with pytest.raises(FsError):
        fs.read_ends(rel, 10, 10)
    _untouched(outside)


@pytest.mark.parametrize("rel", LINKS)
def test_writes_replace_a_link_or_refuse_never_write_through(
    world: tuple[SafeRoot, Path, Path], rel: str
) -> None:
    fs, root, outside = world
    try:
        fs.write_bytes(rel, b"PWNED")
    except FsError as exc:
        assert exc.code == "PERMISSION_DENIED" and str(outside) not in exc.message
        assert "/" in rel  # only a link on the way is refused; a link as the last part is replaced
    else:
        assert "/" not in rel
        assert not (root / rel).is_symlink() and (root / rel).read_bytes() == b"PWNED"
    _untouched(outside)


@pytest.mark.parametrize("rel", ["file-link", "dangling", "proc-link"])
def test_appending_refuses_a_link(world: tuple[SafeRoot, Path, Path], rel: str) -> None:
    fs, _, outside = world
    with pytest.raises(FsError) as err:
        fs.write_bytes(rel, b"PWNED", append=True)
    assert err.value.code == "PERMISSION_DENIED"
    _untouched(outside)


def test_a_hard_link_to_a_host_file_is_replaced_not_written(world: tuple[SafeRoot, Path, Path]) -> None:
    fs, root, outside = world
    os.link(outside / "secret.txt", root / "hard")
    with pytest.raises(FsError, match="other hard links"):
        fs.write_bytes("hard", b"PWNED", append=True)
    fs.write_bytes("hard", b"mine")
    assert (root / "hard").read_bytes() == b"mine"
    assert (outside / "secret.txt").read_text() == "SECRET"


def test_mkdir_remove_rename_stay_inside(world: tuple[SafeRoot, Path, Path]) -> None:
    fs, root, outside = world
    with pytest.raises(FsError):
        fs.mkdir("dir-link/new")
    with pytest.raises(FsError):
        fs.mkdir("file-link/new")
    with pytest.raises(FsError):
        fs.remove("dir-link/secret.txt")
    with pytest.raises(FsError):
        fs.rename("docs/a.txt", "dir-link/a.txt")
    fs.remove("dir-link", recursive=True)  # removes the link itself, not what it points at
    assert not (root / "dir-link").exists()
    fs.mkdir("x/y/z")
    assert (root / "x/y/z").is_dir()
    _untouched(outside)


def test_listing_and_walking_report_links_without_following(world: tuple[SafeRoot, Path, Path]) -> None:
    fs, _, outside = world
    kinds = {e.name: e.kind for e in fs.listdir()}
    assert kinds == {
        "docs": "dir",
        "file-link": "link",
        "dir-link": "link",
        "dangling": "link",
        "proc-link": "link",
        "proc-root": "link",
    }
    assert fs.walk_files() == ["docs/a.txt"]
    assert fs.kind("dangling") == "link" and fs.lstat("nothing") is None
    with pytest.raises(FsError):
        fs.listdir("dir-link")
    _untouched(outside)


def test_copy_skips_links_inside_a_folder(world: tuple[SafeRoot, Path, Path], tmp_path: Path) -> None:
    fs, root, outside = world
    os.symlink(outside / "secret.txt", root / "docs" / "sneaky")
    (tmp_path / "dst").mkdir()
    dst = SafeRoot(tmp_path / "dst", "/sdcard", use_openat2=fs.use_openat2)
    fs.copy_to("docs", dst, "docs", limit=1000)
    assert sorted(p.name for p in (tmp_path / "dst" / "docs").iterdir()) == ["a.txt"]
    with pytest.raises(FsError, match="symbolic link"):
        fs.copy_to("file-link", dst, "stolen", limit=1000)


def test_reads_are_capped_and_fifos_do_not_block(world: tuple[SafeRoot, Path, Path]) -> None:
    fs, root, _ = world
    (root / "big").write_bytes(b"x" * 5000)
    with pytest.raises(FsError) as err:
        fs.read_bytes("big", 4096)
    assert err.value.code == "RESOURCE_LIMIT"
    head, tail, size = fs.read_ends("big", 100, 10)
    assert (len(head), len(tail), size) == (100, 10, 5000)
    os.mkfifo(root / "pipe")
    with pytest.raises(FsError, match="not a regular file"):
        fs.read_bytes("pipe", 100)


def test_dotdot_and_nul_are_refused() -> None:
    with pytest.raises(FsError, match=r"'\.\.'"):
        split_relative("a/../../etc")
    with pytest.raises(FsError, match="NUL"):
        split_relative("a\x00b")
    assert split_relative("./a//b/") == ["a", "b"]


@pytest.mark.parametrize(
    ("parts", "resolved"),
    [
        (["", "home", "user", ".", "a.txt"], ["home", "user", "a.txt"]),
        (["home", "user", "..", "..", "..", "etc"], ["etc"]),  # never above the root
        (["a", "", "b", "..", "c"], ["a", "c"]),
        ([".."], []),
    ],
)
def test_dots_resolve_inside_the_root(parts: list[str], resolved: list[str]) -> None:
    assert resolve_dots(parts) == resolved
