"""The Windows kind's checks: files by Windows path, WordPad formatting, window titles, tree text.

Each check reads the device only through its getters and says what it found in words
a person can act on (``C:\\Users\\user\\Desktop\\todo.txt: missing "milk"``).
"""

from __future__ import annotations

from typing import Any

from devicesworld.devices.base import CheckOutcome, GetterFn
from devicesworld.devices.declare import CheckTable
from devicesworld.devices.windows import args as wa
from devicesworld.spec import statements, values

CHECKS = CheckTable("windows")
"""The kind's checks, each declared on its function; they read the device only through ``get``."""


def _short(text: str, n: int = 80) -> str:
    return text if len(text) <= n else text[:n] + "…"


def _text_problems(text: str, contains: list[str], not_contains: list[str]) -> list[str]:
    return [f"missing {s!r}" for s in contains if s not in text] + [
        f"still contains {s!r}" for s in not_contains if s in text
    ]


def _hedge_problems(text: str, contains: list[str]) -> list[str]:
    """A typed value the file states, hedged or corrected in its own sentence ("23.5 (or maybe 26.5)
    °C"): the file does not state it (issue 32, as the Linux ``file_contains``). Free text ("eggs")
    has no other value of its type; the file's other lines are never corrections."""
    typed = [s for s in contains if s in text and values.infer_type(s) != "text"]
    found = statements.hedges_in_text(text, typed) if typed else []
    return [f"hedges the value in {found}"] if found else []


def _twin_problems(text: str, distractors: list[str]) -> list[str]:
    """A near-miss value (a declared distractor) in the text, found by meaning as on every kind."""
    if not distractors:
        return []
    found = values.judge_text(text, [], distractors).distractors
    return [f"gives the near-miss value(s) {found}"] if found else []


def _verdict(path: str, problems: list[str]) -> CheckOutcome:
    if problems:
        return CheckOutcome(passed=False, detail=f"{path}: " + "; ".join(problems))
    return CheckOutcome(passed=True, detail=f"{path}: text as expected")


def _rtf(get: GetterFn, path: str) -> tuple[dict[str, Any], CheckOutcome | None]:
    """The parsed RTF document, or a failed outcome when it is missing or unreadable."""
    doc = get("rtf", {"path": path})
    if doc is None:
        return {}, CheckOutcome(passed=False, detail=f"{path}: does not exist")
    if doc.get("error"):
        return {}, CheckOutcome(passed=False, detail=f"{path}: {doc['error']}")
    return doc, None


@CHECKS.register(
    "file_exists", doc="A file or folder exists (or not, present=false).", args=wa.FileExistsArgs
)
def file_exists(get: GetterFn, a: wa.FileExistsArgs) -> CheckOutcome:
    info = get("file_info", {"path": a.path})
    exists = bool(info["exists"])
    if exists != a.present:
        return CheckOutcome(passed=False, detail=f"{a.path}: {'exists' if exists else 'does not exist'}")
    if exists and a.is_dir is not None and bool(info["is_dir"]) != a.is_dir:
        return CheckOutcome(passed=False, detail=f"{a.path}: is {'a folder' if info['is_dir'] else 'a file'}")
    twins = [d for d in a.distractors if get("file_info", {"path": d})["exists"]]
    if twins:
        return CheckOutcome(passed=False, detail=f"{a.path}: the near-miss {', '.join(twins)} exists")
    return CheckOutcome(passed=True, detail=f"{a.path}: {'exists' if exists else 'absent'} as expected")


@CHECKS.register(
    "file_text",
    doc="A text file's content: equals / contains / not_contains, optionally its encoding.",
    args=wa.FileTextArgs,
)
def file_text(get: GetterFn, a: wa.FileTextArgs) -> CheckOutcome:
    text = get("text", {"path": a.path})
    if text is None:
        return CheckOutcome(passed=False, detail=f"{a.path}: does not exist")
    problems: list[str] = []
    if a.equals is not None:
        want, got = (a.equals.strip(), text.strip()) if a.strip else (a.equals, text)
        if want != got:
            problems.append(f"content is {_short(got)!r}, expected {_short(want)!r}")
    problems += _text_problems(text, a.contains, a.not_contains) + _twin_problems(text, a.distractors)
    problems += _hedge_problems(text, a.contains)
    if a.encoding is not None:
        enc = get("raw_encoding", {"path": a.path})
        same = enc == a.encoding or (a.encoding in ("ansi", "utf-8") and enc == "ascii")
        if not same:
            problems.append(f"saved as {enc}, expected {a.encoding}")
    return _verdict(a.path, problems)


@CHECKS.register(
    "rtf_text",
    doc="An RTF document has a paragraph with this text, optionally bold/italic/underlined.",
    args=wa.RtfTextArgs,
)
def rtf_text(get: GetterFn, a: wa.RtfTextArgs) -> CheckOutcome:
    doc, bad = _rtf(get, a.path)
    if bad:
        return bad
    wanted = {"bold": a.bold, "italic": a.italic, "underline": a.underline}
    covered = _styles_of(doc, a.text)
    if covered is None:
        return CheckOutcome(passed=False, detail=f"{a.path}: no paragraph contains {a.text!r}")
    wrong = [
        name
        for name, want in wanted.items()
        if want is not None and any(bool(s[name]) != want for s in covered)
    ]
    if wrong:
        return CheckOutcome(
            passed=False,
            detail=f"{a.path}: {a.text!r} is not {' / '.join(('' if wanted[w] else 'non-') + w for w in wrong)}",
        )
    asked = [name for name, want in wanted.items() if want]
    for twin in a.distractors:
        styles = _styles_of(doc, twin) or []
        hit = [name for name in asked if any(s[name] for s in styles)]
        if hit:
            return CheckOutcome(
                passed=False, detail=f"{a.path}: the near-miss {twin!r} is {' / '.join(hit)} too"
            )
    return CheckOutcome(passed=True, detail=f"{a.path}: {a.text!r} formatted as expected")


def _styles_of(doc: dict[str, Any], text: str) -> list[dict[str, Any]] | None:
    """The style of each non-space character of ``text`` in the first paragraph holding it, or None."""
    paragraphs: list[str] = doc["paragraphs"]
    where = next((i for i, p in enumerate(paragraphs) if text in p), None)
    if where is None:
        return None
    runs = [r for r in doc["runs"] if r["paragraph"] == where]
    # the characters of the paragraph, each with the style of the run it is in
    styles: list[dict[str, Any]] = [r for r in runs for _ in r["text"]]
    start = "".join(r["text"] for r in runs).find(text)
    covered = styles[start : start + len(text)]
    return [s for s, ch in zip(covered, text, strict=False) if not ch.isspace()]


@CHECKS.register(
    "rtf_paragraphs",
    doc="An RTF document's text contains / does not contain strings.",
    args=wa.RtfParagraphsArgs,
)
def rtf_paragraphs(get: GetterFn, a: wa.RtfParagraphsArgs) -> CheckOutcome:
    doc, bad = _rtf(get, a.path)
    if bad:
        return bad
    text = "\n".join(doc["paragraphs"])
    return _verdict(
        a.path, _text_problems(text, a.contains, a.not_contains) + _twin_problems(text, a.distractors)
    )


@CHECKS.register(
    "window_title", doc="A window whose title contains this is open (or not).", args=wa.WindowTitleArgs
)
def window_title(get: GetterFn, a: wa.WindowTitleArgs) -> CheckOutcome:
    titles = [w["title"] for w in get("windows", {})]
    found = any(a.contains.lower() in t.lower() for t in titles)
    if found != a.present:
        shown = ", ".join(repr(t) for t in titles) or "no windows"
        verb = "no window title contains" if a.present else "a window title still contains"
        return CheckOutcome(passed=False, detail=f"{verb} {a.contains!r} ({shown})")
    return CheckOutcome(passed=True, detail=f"window titles as expected for {a.contains!r}")


@CHECKS.register(
    "element_text",
    doc="An element (optionally of a class, in a window) shows this text.",
    args=wa.ElementTextArgs,
)
def element_text(get: GetterFn, a: wa.ElementTextArgs) -> CheckOutcome:
    texts = get("element_texts", {"role": a.role, "window_title_contains": a.window_title_contains})
    found = any(a.contains in t for t in texts)
    if found != a.present:
        return CheckOutcome(
            passed=False,
            detail=f"{'no' if a.present else 'an'} element{' of class ' + a.role if a.role else ''} shows {a.contains!r}",
        )
    return CheckOutcome(passed=True, detail=f"element text as expected for {a.contains!r}")


@CHECKS.register("same_file", doc="Two files have the same text.", args=wa.SameFileArgs)
def same_file(get: GetterFn, a: wa.SameFileArgs) -> CheckOutcome:
    mine, other = get("text", {"path": a.path}), get("text", {"path": a.like})
    if mine is None:
        return CheckOutcome(passed=False, detail=f"{a.path}: does not exist")
    if other is None:
        return CheckOutcome(passed=False, detail=f"{a.like}: does not exist")
    if mine != other:
        return CheckOutcome(passed=False, detail=f"{a.path}: differs from {a.like}")
    return CheckOutcome(passed=True, detail=f"{a.path}: same as {a.like}")
