"""Linux atomic tasks on images, audio, archives and code projects.

What an agent can actually read decides what a read hides: the desktop has no OCR,
so text drawn into an image's pixels is not readable — an image read hides its
*dimensions* (``read_document`` shows width/height) or a code in its *description
metadata* (PNG text chunk / JPEG EXIF ImageDescription, also shown). Audio reads hide a WAV's
duration or sample rate (``read_document`` shows both). Archive reads hide a code in
a member file (``unzip -p`` / ``tar -xzOf`` in the shell). Code-project reads hide a
constant in a source file; code-project writes set a constant (verified by importing
it) or fix a failing test (verified by running the tests, with the tests guarded
against edits).
"""

from __future__ import annotations

import shlex
from collections.abc import Mapping
from dataclasses import dataclass

from devicesworld.tasks.composition.atomic import Fragment, InstanceContext, Slot, SlotValue
from devicesworld.tasks.composition.library.linux_base import KIND, as_text, code6, phrase

TEST_COMMAND = "python3 -m unittest discover -s tests -t ."


# ------------------------------------------------------------------------ reads
@dataclass(frozen=True)
class ReadImageSize:
    """An image's width or height in pixels (what ``read_document`` reports)."""

    name: str = "lx_read_image_size"
    platform: str = KIND
    inputs: tuple[Slot, ...] = ()
    outputs: tuple[Slot, ...] = (Slot("pixels", "number"),)

    def instantiate(self, ctx: InstanceContext, inputs: Mapping[str, SlotValue]) -> Fragment:
        ext = ctx.rng.choice(("png", "jpg"))
        path = f"~/Pictures/{ctx.unique(ctx.rng.choice(('banner', 'poster', 'floor_plan', 'logo')))}.{ext}"
        width, height = ctx.rng.randrange(120, 641, 4), ctx.rng.randrange(80, 481, 4)
        side = ctx.rng.choice(("width", "height"))
        value = width if side == "width" else height
        mention = phrase(
            ctx,
            (
                "the {s} in pixels of the image {p}",
                "how many pixels {adj} the picture {p} is",
                "the pixel {s} of {p}",
            ),
            s=side,
            adj="wide" if side == "width" else "high",
            p=path,
        )
        color = ctx.rng.choice(("#4a90d9", "#d94a4a", "#3c9d5d", "#8e44ad"))
        return Fragment(
            instruction="",
            setup=[ctx.op("write_image", path=path, width=width, height=height, color=color)],
            solution=[ctx.step("read_document", path=path)],
            outputs={"pixels": SlotValue("number", value, mention, True, ctx.device_id)},
        )


@dataclass(frozen=True)
class ReadCodeFromImageCaption:
    """A code in a photo's description metadata (PNG text chunk / JPEG EXIF), shown by ``read_document``."""

    name: str = "lx_read_code_image_caption"
    platform: str = KIND
    inputs: tuple[Slot, ...] = ()
    outputs: tuple[Slot, ...] = (Slot("code", "code"),)

    def instantiate(self, ctx: InstanceContext, inputs: Mapping[str, SlotValue]) -> Fragment:
        ext = ctx.rng.choice(("png", "jpg"))
        path = (
            f"~/Pictures/{ctx.unique(ctx.rng.choice(('locker_photo', 'whiteboard', 'receipt_scan')))}.{ext}"
        )
        code = code6(ctx)
        caption = ctx.rng.choice(("Parcel locker code {c}", "Storage room PIN {c}", "Pickup reference {c}"))
        mention = phrase(
            ctx,
            (
                "the code in the description of the photo {p}",
                "the code stored in the image metadata (description) of {p}",
                "the code that the caption of the picture {p} gives",
            ),
            p=path,
        )
        return Fragment(
            instruction="",
            setup=[
                ctx.op(
                    "write_image",
                    path=path,
                    width=ctx.rng.randrange(160, 481, 8),
                    height=ctx.rng.randrange(120, 361, 8),
                    description=caption.format(c=code),
                )
            ],
            solution=[ctx.step("read_document", path=path)],
            outputs={"code": SlotValue("code", code, mention, True, ctx.device_id)},
        )


@dataclass(frozen=True)
class ReadAudioDuration:
    """A WAV recording's length in whole seconds."""

    name: str = "lx_read_audio_duration"
    platform: str = KIND
    inputs: tuple[Slot, ...] = ()
    outputs: tuple[Slot, ...] = (Slot("seconds", "number"),)

    def instantiate(self, ctx: InstanceContext, inputs: Mapping[str, SlotValue]) -> Fragment:
        path = f"~/Music/{ctx.unique(ctx.rng.choice(('voice_memo', 'doorbell', 'interview_clip')))}.wav"
        seconds = ctx.rng.randrange(12, 40)
        mention = phrase(
            ctx,
            (
                "the length in seconds of the recording {p}",
                "how many seconds the audio file {p} lasts",
                "the duration (in seconds) of {p}",
            ),
            p=path,
        )
        return Fragment(
            instruction="",
            # A low sample rate keeps a long recording cheap to generate in setup.
            setup=[ctx.op("write_wav", path=path, seconds=seconds, sample_rate=2000, frequency=440.0)],
            solution=[ctx.step("read_document", path=path)],
            outputs={"seconds": SlotValue("number", seconds, mention, True, ctx.device_id)},
        )


@dataclass(frozen=True)
class ReadAudioSampleRate:
    """A WAV file's sample rate in Hz."""

    name: str = "lx_read_audio_sample_rate"
    platform: str = KIND
    inputs: tuple[Slot, ...] = ()
    outputs: tuple[Slot, ...] = (Slot("rate", "number"),)

    def instantiate(self, ctx: InstanceContext, inputs: Mapping[str, SlotValue]) -> Fragment:
        path = f"~/Music/{ctx.unique(ctx.rng.choice(('sample', 'ringtone', 'field_recording')))}.wav"
        rate = ctx.rng.choice((8000, 11025, 16000, 22050))
        mention = phrase(
            ctx,
            (
                "the sample rate (Hz) of {p}",
                "the number of samples per second in the recording {p}",
                "the sampling frequency in Hz of the audio file {p}",
            ),
            p=path,
        )
        return Fragment(
            instruction="",
            setup=[ctx.op("write_wav", path=path, seconds=0.5, sample_rate=rate, frequency=660.0)],
            solution=[ctx.step("read_document", path=path)],
            outputs={"rate": SlotValue("number", rate, mention, True, ctx.device_id)},
        )


@dataclass(frozen=True)
class ReadCodeFromArchive:
    """A code in a text file inside a zip or tar.gz archive."""

    name: str = "lx_read_code_archive"
    platform: str = KIND
    inputs: tuple[Slot, ...] = ()
    outputs: tuple[Slot, ...] = (Slot("code", "code"),)

    def instantiate(self, ctx: InstanceContext, inputs: Mapping[str, SlotValue]) -> Fragment:
        ext = ctx.rng.choice(("zip", "tar.gz"))
        stem = ctx.unique(ctx.rng.choice(("site_bundle", "welcome_pack", "export")))
        path = f"~/Downloads/{stem}.{ext}"
        member = (
            f"{ctx.rng.choice(('notes', 'docs', 'info'))}/{ctx.rng.choice(('access', 'pin', 'door'))}.txt"
        )
        code = code6(ctx)
        files = {
            "README.txt": "Unpack and read the notes.\n",
            member: f"Access code: {code}\nDo not share.\n",
            "data/items.csv": "item,qty\nchairs,4\n",
        }
        shell = f"unzip -p {path} {member}" if ext == "zip" else f"tar -xzOf {path} {member}"
        mention = phrase(
            ctx,
            (
                "the access code in {m} inside the archive {p}",
                "the code written in the file {m} packed in {p}",
                "the code you get by unpacking {m} from {p}",
            ),
            m=member,
            p=path,
        )
        return Fragment(
            instruction="",
            setup=[ctx.op("write_archive", path=path, files=files)],
            solution=[ctx.step("run_command", command=shell)],
            outputs={"code": SlotValue("code", code, mention, True, ctx.device_id)},
        )


_CONSTANTS = (
    ("MAX_RETRIES", 11, 40),
    ("TIMEOUT_SECONDS", 10, 120),
    ("PORT", 8000, 8999),
    ("BATCH_SIZE", 16, 257),
)


def _settings(values: Mapping[str, object]) -> str:
    """A settings module: numbers spelled canonically (``21.5``, ``8080``), anything else as a literal."""
    lines = ['"""Service settings."""', ""]
    lines += [f"{k} = {as_text(v) if isinstance(v, int | float) else repr(v)}" for k, v in values.items()]
    return "\n".join(lines) + "\n"


def _project(ctx: InstanceContext) -> tuple[str, str]:
    """A project folder and its package name."""
    pkg = ctx.unique(ctx.rng.choice(("uploader", "scheduler", "billing", "notifier")))
    return f"~/projects/{pkg}", pkg


@dataclass(frozen=True)
class ReadProjectConstant:
    """A numeric constant in a code project's settings module."""

    name: str = "lx_read_project_constant"
    platform: str = KIND
    inputs: tuple[Slot, ...] = ()
    outputs: tuple[Slot, ...] = (Slot("number", "count"),)

    def instantiate(self, ctx: InstanceContext, inputs: Mapping[str, SlotValue]) -> Fragment:
        root, pkg = _project(ctx)
        values = {k: ctx.rng.randrange(lo, hi) for k, lo, hi in _CONSTANTS}
        key = ctx.rng.choice(sorted(values))
        source = f"{root}/{pkg}/settings.py"
        mention = phrase(
            ctx,
            (
                "the value of {k} in {s}",
                "the {k} setting of the project {r} (in {pkg}/settings.py)",
                "what {k} is set to in {s}",
            ),
            k=key,
            s=source,
            r=root,
            pkg=pkg,
        )
        files = {
            f"{pkg}/__init__.py": "",
            f"{pkg}/settings.py": _settings(values),
            "README.md": f"# {pkg}\n\nSettings live in `{pkg}/settings.py`.\n",
        }
        return Fragment(
            instruction="",
            setup=[ctx.op("write_project", path=root, files=files)],
            solution=[ctx.step("read_file", path=source)],
            outputs={"number": SlotValue("count", values[key], mention, True, ctx.device_id)},
        )


# ----------------------------------------------------------------------- writes
@dataclass(frozen=True)
class SetProjectConstant:
    """Set a constant in a project's settings to a given number; verified by importing it."""

    name: str = "lx_set_project_constant"
    platform: str = KIND
    inputs: tuple[Slot, ...] = (Slot("number", "count"),)
    outputs: tuple[Slot, ...] = ()

    def instantiate(self, ctx: InstanceContext, inputs: Mapping[str, SlotValue]) -> Fragment:
        root, pkg = _project(ctx)
        value = inputs["number"].value
        values = {k: ctx.rng.randrange(lo, hi) for k, lo, hi in _CONSTANTS}
        key = ctx.rng.choice(sorted(values))
        if values[key] == value:
            values[key] += 1
        source = f"{root}/{pkg}/settings.py"
        probe = f"import {pkg}.settings as s; assert s.{key} == {value!r}, s.{key}"
        instruction = phrase(
            ctx,
            (
                "set {k} in {s} to {m}",
                "change the {k} setting of the project {r} to {m}",
                "edit {s} so that {k} is {m}",
            ),
            k=key,
            s=source,
            r=root,
            m=inputs["number"].mention,
        )
        fixed = {**values, key: value}
        return Fragment(
            instruction=instruction,
            setup=[
                ctx.op(
                    "write_project",
                    path=root,
                    files={f"{pkg}/__init__.py": "", f"{pkg}/settings.py": _settings(values)},
                )
            ],
            conditions=[
                ctx.cond(
                    "setting", "project_tests_pass", path=root, command=f"python3 -c {shlex.quote(probe)}"
                )
            ],
            solution=[ctx.step("write_file", path=source, content=_settings(fixed))],
        )


_BUGS = (
    (
        "cart",
        "total",
        "def total(prices):\n    return sum(prices[1:])\n",
        "def total(prices):\n    return sum(prices)\n",
        "from {pkg}.cart import total\n\n\nclass TotalTest(unittest.TestCase):\n"
        "    def test_sums_every_price(self):\n        self.assertEqual(total([3, 4, 5]), 12)\n",
    ),
    (
        "rules",
        "is_adult",
        "def is_adult(age):\n    return age > 18\n",
        "def is_adult(age):\n    return age >= 18\n",
        "from {pkg}.rules import is_adult\n\n\nclass AdultTest(unittest.TestCase):\n"
        "    def test_eighteen_is_adult(self):\n        self.assertTrue(is_adult(18))\n"
        "        self.assertFalse(is_adult(17))\n",
    ),
    (
        "names",
        "full_name",
        "def full_name(first, last):\n    return first + last\n",
        'def full_name(first, last):\n    return f"{first} {last}"\n',
        "from {pkg}.names import full_name\n\n\nclass NameTest(unittest.TestCase):\n"
        "    def test_joins_with_a_space(self):\n"
        '        self.assertEqual(full_name("Ada", "Lovelace"), "Ada Lovelace")\n',
    ),
)


@dataclass(frozen=True)
class FixFailingTest:
    """A project whose test fails on a bug in one function; the tests must pass, unchanged."""

    name: str = "lx_fix_failing_test"
    platform: str = KIND
    inputs: tuple[Slot, ...] = ()
    outputs: tuple[Slot, ...] = ()

    def instantiate(self, ctx: InstanceContext, inputs: Mapping[str, SlotValue]) -> Fragment:
        root, pkg = _project(ctx)
        module, func, buggy, fixed, tests = ctx.rng.choice(_BUGS)
        test_text = "import unittest\n\n" + tests.format(pkg=pkg)
        test_path = f"{root}/tests/test_{module}.py"
        instruction = phrase(
            ctx,
            (
                "the tests of the project {r} fail: fix {f} in {pkg}/{mod}.py so they pass (do not change the tests)",
                "make the failing unit test in {r} pass by fixing the bug in {f}() ({pkg}/{mod}.py), leaving the tests as they are",
                "repair {f} in {r}/{pkg}/{mod}.py so that the project's tests pass again, without editing the tests",
            ),
            r=root,
            f=func,
            pkg=pkg,
            mod=module,
        )
        files = {
            f"{pkg}/__init__.py": "",
            f"{pkg}/{module}.py": buggy,
            "tests/__init__.py": "",
            f"tests/test_{module}.py": test_text,
        }
        kept = ctx.cond("tests_kept", "file_unchanged", path=test_path, content=test_text)
        return Fragment(
            instruction=instruction,
            setup=[ctx.op("write_project", path=root, files=files)],
            conditions=[
                ctx.cond("tests", "project_tests_pass", path=root, command=TEST_COMMAND),
                kept.model_copy(update={"scored": False}),
            ],
            solution=[
                ctx.step("run_command", command=f"cd {root} && {TEST_COMMAND} 2>&1 | tail -3"),
                ctx.step("write_file", path=f"{root}/{pkg}/{module}.py", content=fixed),
            ],
        )


LIBRARY = (
    ReadImageSize(),
    ReadCodeFromImageCaption(),
    ReadAudioDuration(),
    ReadAudioSampleRate(),
    ReadCodeFromArchive(),
    ReadProjectConstant(),
    SetProjectConstant(),
    FixFailingTest(),
)
