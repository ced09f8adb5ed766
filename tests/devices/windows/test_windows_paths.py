"""Windows paths: parsing, normalising, where they live, and their state keys."""

from __future__ import annotations

import pytest

from devicesworld.devices.windows.paths import PathError, parse_path, state_key


def test_paths_normalise_separators_case_and_dots() -> None:
    p = parse_path("c:/Users/user/Desktop/./notes/../todo.txt")
    assert str(p) == r"C:\Users\user\Desktop\todo.txt"
    assert p.key == "c:/users/user/desktop/todo.txt"
    assert str(parse_path(r"%USERPROFILE%\Documents\a.txt")) == r"C:\Users\user\Documents\a.txt"


def test_shell_folders_live_in_the_home_and_the_rest_in_drive_c() -> None:
    assert parse_path(r"C:\users\USER\documents\x\y.txt").location() == ("home", ("Documents", "x", "y.txt"))
    assert parse_path(r"C:\Data\y.txt").location() == ("drive_c", ("Data", "y.txt"))
    assert parse_path(r"N:\shared\y.txt").location() == ("drive", ("shared", "y.txt"))


@pytest.mark.parametrize(
    ("raw", "why"),
    [
        ("notes.txt", "not an absolute Windows path"),
        (r"D:\x.txt", "drive D: does not exist"),
        (r"C:\a|b.txt", "does not allow"),
        (r"C:\con.txt", "reserved device name"),
        (r"C:\name. ", "ends with a space or a dot"),
        ("", "empty path"),
    ],
)
def test_bad_paths_say_why(raw: str, why: str) -> None:
    with pytest.raises(PathError, match=why):
        parse_path(raw)


def test_state_keys_fold_case_on_c_and_keep_it_on_the_drive() -> None:
    assert state_key(r"C:\Users\user\Desktop\A.TXT") == "files/c:/users/user/desktop/a.txt"
    assert state_key(r"N:\Reports\Q1.txt") == "drive/Reports/Q1.txt"
    assert state_key("relative.txt") is None
