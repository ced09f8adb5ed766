"""The Windows checks read through getters and explain failures; their write sets name state paths."""

from __future__ import annotations

from typing import Any

from devicesworld.devices.windows import args as wa
from devicesworld.devices.windows import checks as wc
from devicesworld.devices.windows.docs import Run, read_rtf, write_rtf
from devicesworld.devices.windows.state import WRITES

P = r"C:\Users\user\Desktop\todo.txt"
R = r"C:\Users\user\Documents\letter.rtf"


def getter(files: dict[str, Any], windows: list[str] | None = None) -> Any:
    def get(name: str, args: dict[str, Any]) -> Any:
        if name == "text":
            return files.get(args["path"])
        if name == "raw_encoding":
            return "ansi"
        if name == "file_info":
            return {"exists": args["path"] in files, "is_dir": False}
        if name == "rtf":
            raw = files.get(args["path"])
            return None if raw is None else read_rtf(raw).as_json()
        if name == "windows":
            return [{"title": t} for t in windows or []]
        raise AssertionError(name)

    return get


def test_file_text_equals_contains_and_encoding() -> None:
    get = getter({P: "eggs\nmilk\n"})
    assert wc.file_text(get, wa.FileTextArgs(path=P, equals="eggs\nmilk")).passed
    out = wc.file_text(get, wa.FileTextArgs(path=P, contains=["bread"], not_contains=["milk"]))
    assert not out.passed and "missing 'bread'" in out.detail and "still contains 'milk'" in out.detail
    assert not wc.file_text(get, wa.FileTextArgs(path=P, encoding="utf-16")).passed
    missing = wc.file_text(getter({}), wa.FileTextArgs(path=P, equals="x"))
    assert not missing.passed and "does not exist" in missing.detail


def test_rtf_text_judges_every_character_of_the_phrase() -> None:
    doc = write_rtf([[Run("Dear "), Run("Sam", bold=True)], [Run("Half "), Run("bold", bold=True)]])
    get = getter({R: doc})
    assert wc.rtf_text(get, wa.RtfTextArgs(path=R, text="Sam", bold=True)).passed
    half = wc.rtf_text(get, wa.RtfTextArgs(path=R, text="Half bold", bold=True))
    assert not half.passed and "is not bold" in half.detail
    assert wc.rtf_text(get, wa.RtfTextArgs(path=R, text="Dear", bold=False)).passed
    assert not wc.rtf_text(get, wa.RtfTextArgs(path=R, text="absent")).passed


def test_window_title_and_existence() -> None:
    get = getter({P: "x"}, ["todo.txt - Notepad"])
    assert wc.window_title(get, wa.WindowTitleArgs(contains="todo.txt")).passed
    assert not wc.window_title(get, wa.WindowTitleArgs(contains="todo.txt", present=False)).passed
    assert wc.file_exists(get, wa.FileExistsArgs(path=P)).passed
    assert not wc.file_exists(get, wa.FileExistsArgs(path=P, present=False)).passed


def test_write_sets_name_the_checked_file() -> None:
    a = wa.FileTextArgs(path=r"c:\users\user\desktop\[draft].txt", equals="x")
    assert WRITES["file_text"](a, lambda n, g: None) == [
        "files/c:/users/user/desktop/[[]draft].txt",
        "files/c:/users/user/desktop/[[]draft].txt/*",
    ]
    assert WRITES["window_title"](wa.WindowTitleArgs(contains="x"), lambda n, g: None) == []


def test_distractors_make_a_file_giving_the_near_miss_fail() -> None:
    """Opt-in: without ``distractors`` each check is as before; with them a twin fails it."""
    twin = r"C:\Users\user\Desktop\claim-84546.txt"
    get = getter({P: "Gate code: 4471\n", twin: "x"})
    assert wc.file_text(get, wa.FileTextArgs(path=P, contains=["4471"], distractors=["7704"])).passed
    hedged = getter({P: "Gate code: 4471 (or 7704)\n"})
    out = wc.file_text(hedged, wa.FileTextArgs(path=P, contains=["4471"], distractors=["7704"]))
    assert not out.passed and "near-miss" in out.detail and "7704" in out.detail
    undeclared = wc.file_text(hedged, wa.FileTextArgs(path=P, contains=["4471"]))  # issue 32: any rival
    assert not undeclared.passed and "hedges" in undeclared.detail
    assert wc.file_exists(get, wa.FileExistsArgs(path=P)).passed
    both = wc.file_exists(get, wa.FileExistsArgs(path=P, distractors=[twin]))
    assert not both.passed and "claim-84546.txt" in both.detail
    assert wc.file_exists(getter({P: "x"}), wa.FileExistsArgs(path=P, distractors=[twin])).passed


def test_rtf_distractors_forbid_styling_or_writing_the_twin() -> None:
    good = write_rtf([[Run("12 May: rota", bold=True)], [Run("19 May: budget")]])
    bad = write_rtf([[Run("12 May: rota", bold=True)], [Run("19 May: budget", bold=True)]])
    a = wa.RtfTextArgs(path=R, text="12 May: rota", bold=True, distractors=["19 May: budget"])
    assert wc.rtf_text(getter({R: good}), a).passed
    out = wc.rtf_text(getter({R: bad}), a)
    assert not out.passed and "near-miss '19 May: budget' is bold" in out.detail
    assert wc.rtf_text(getter({R: bad}), wa.RtfTextArgs(path=R, text="12 May: rota", bold=True)).passed
    letter = write_rtf([[Run("Dear bank")], [Run("Our account number is now 41516171.")]])
    p = wa.RtfParagraphsArgs(path=R, contains=["41516171"], distractors=["74849404"])
    assert wc.rtf_paragraphs(getter({R: letter}), p).passed
    hedge = write_rtf([[Run("Our account number is now 41516171 (was 74849404).")]])
    assert not wc.rtf_paragraphs(getter({R: hedge}), p).passed


def test_a_typed_value_hedged_in_its_own_sentence_fails() -> None:
    """Issue 32, as on the Linux desktop: the sentence that states the value is judged, the file's
    other lines are no corrections, and free text has no rival of its type."""
    a = wa.FileTextArgs(path=P, contains=["23.5"])
    assert wc.file_text(getter({P: "Study: 23.5 °C\nKitchen: 19 °C\n"}), a).passed
    for hedge in ("Study: 23.5 (or maybe 26.5) °C\n", "Study: 23.5 or 26.5 °C\n"):
        out = wc.file_text(getter({P: hedge}), a)
        assert not out.passed and "hedges" in out.detail, hedge
    words = wa.FileTextArgs(path=P, contains=["eggs"])
    assert wc.file_text(getter({P: "eggs or milk\n"}), words).passed
