"""The shared system of a bubblewrap sandbox: its /etc, the bwrap arguments, the way to its folders."""

from __future__ import annotations

from pathlib import Path

from devicesworld.devices.desktop.sysroot import (
    ACCOUNTS,
    NSSWITCH,
    etc_args,
    let_others_pass,
    run_as,
    usr_args,
    write_etc,
)


def test_a_synthetic_etc_has_its_files_nsswitch_and_a_mount_point_per_host_entry(tmp_path: Path) -> None:
    etc = tmp_path / "etc"
    etc.mkdir()
    write_etc(etc, {**ACCOUNTS, "hostname": "desk\n"}, ["ld.so.cache", "alternatives", "no-such-entry"])
    assert (etc / "passwd").read_text() == ACCOUNTS["passwd"]
    assert (etc / "hostname").read_text() == "desk\n"
    assert (etc / "nsswitch.conf").read_text() == NSSWITCH
    for name in ("ld.so.cache", "alternatives"):  # a file for a file, a folder for a folder
        host = Path("/etc", name)
        if host.exists():
            assert (etc / name).is_dir() == host.is_dir()
    assert not (etc / "no-such-entry").exists()


def test_bwrap_binds_the_etc_and_only_host_entries_that_exist(tmp_path: Path) -> None:
    argv = etc_args(tmp_path, ["no-such-entry", "ld.so.cache"])
    assert argv[:3] == ["--ro-bind", str(tmp_path), "/etc"]
    assert "/etc/no-such-entry" not in argv
    assert ("/etc/ld.so.cache" in argv) == Path("/etc/ld.so.cache").exists()
    usr = usr_args()
    assert usr[:3] == ["--ro-bind", "/usr", "/usr"]
    assert all(
        Path("/usr", usr[i + 1].removeprefix("usr/")).exists() for i, a in enumerate(usr) if a == "--symlink"
    )


def test_others_may_pass_the_folders_above_a_bind_but_not_list_them(tmp_path: Path) -> None:
    inner = tmp_path / "a" / "b"
    inner.mkdir(parents=True)
    for folder in (tmp_path / "a", inner):
        folder.chmod(0o700)
    let_others_pass([inner])
    for folder in (tmp_path / "a", inner):
        mode = folder.stat().st_mode
        assert mode & 0o001 and not mode & 0o004, oct(mode)


def test_a_process_runs_as_the_sandbox_user_only_when_there_is_one() -> None:
    assert run_as(None) == {}
    assert run_as((65534, 65534)) == {"user": 65534, "group": 65534, "extra_groups": []}
