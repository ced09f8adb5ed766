"""No module outside a kind's package names a kind (#20): kind knowledge is reached through the registry.

Every string literal (docstrings aside) and every import of ``src/devicesworld`` is
scanned for a built-in kind's name, one of its device ids (``android_0``), one of its
surfaces (``linux:browser``) or an import of its package. What may name a kind is
listed below with the reason; anything new must go through the kind's declaration
(:class:`~devicesworld.devices.traits.KindTraits`, its tables) instead.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import devicesworld

SRC = Path(devicesworld.__file__).parent
KINDS = ("android", "linux", "smarthome", "windows")
NAMED = re.compile(rf"^(?:{'|'.join(KINDS)})(?:_\d+|:.*)?$")
IMPORTED = re.compile(rf"^devicesworld\.devices\.(?:{'|'.join(KINDS)})(?:\.|$)")

ALLOWED: dict[str, str] = {
    r"devices/(?:android|linux|smarthome|windows)/.*": "the kind's own package",
    r"devices/__init__\.py": "the list of shipped kinds the registry loads",
    r"tasks/suites/.*": "handwritten suites: task data of their kinds (becoming data files)",
    r"tasks/authoring/.*": "step writers for one kind's screens and sites, used by the handwritten suites",
    r"compat/androidworld/.*": "AndroidWorld's API, a facade of the phone kind",
    r"gym/.*": "the Gymnasium phone environment (B-MoCA), a facade of the phone kind",
    r"serve/homeassistant/.*": "Home Assistant's API, a facade of the home kind",
    r"spec/values\.py": "the task locale from the phone's language (value matching sits below the registry)",
}
NOT_A_KIND = {
    ("runner/lifeline.py", "linux"),
    ("devices/desktop/client.py", "windows"),
    ("devices/desktop/gui.py", "windows"),
    ("devices/desktop/inside_ctl.py", "windows"),
    ("runner/play.py", "windows"),
}
"""``sys.platform.startswith("linux")``: the operating system, not the device kind; the GUI
desktop layer's ``"windows"``: the X windows open on a desktop (an observation field and a
controller command, which ``play`` prints), not the device kind."""


def _docstrings(tree: ast.AST) -> set[int]:
    out: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant):
            out.add(id(node.value))
    return out


def _names(path: Path) -> list[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    docs = _docstrings(tree)
    found: list[str] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in docs:
            if NAMED.match(node.value):
                found.append(node.value)
        elif isinstance(node, ast.ImportFrom) and node.module and IMPORTED.match(node.module):
            found.append(f"import {node.module}")
        elif isinstance(node, ast.Import):
            found += [f"import {a.name}" for a in node.names if IMPORTED.match(a.name)]
    return found


def test_only_the_allowed_modules_name_a_kind() -> None:
    offenders: dict[str, list[str]] = {}
    for path in sorted(SRC.rglob("*.py")):
        rel = path.relative_to(SRC).as_posix()
        if any(re.fullmatch(pattern, rel) for pattern in ALLOWED):
            continue
        names = [n for n in _names(path) if (rel, n) not in NOT_A_KIND]
        if names:
            offenders[rel] = names
    assert offenders == {}, "name a kind outside its package; use its traits or tables instead"


def test_the_scan_finds_what_it_looks_for(tmp_path: Path) -> None:
    sample = tmp_path / "sample.py"
    sample.write_text(
        '"""Docstrings may say android_0."""\n'
        "from devicesworld.devices.linux.sandbox import HOME\n"
        'KIND = "smarthome"\n'
        'where = {"android_1": "linux:browser", "phone": "ok"}\n',
        encoding="utf-8",
    )
    assert _names(sample) == [
        "import devicesworld.devices.linux.sandbox",
        "smarthome",
        "android_1",
        "linux:browser",
    ]
