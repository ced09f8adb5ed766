"""Docs stay true: every file, link and command they name exists.

A reader follows a doc's references to learn the project; a reference to a renamed file or a
command that was never built sends them nowhere. This test reads every Markdown file the project
ships and fails naming the doc and the reference that no longer resolves.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import click
import pytest

from devicesworld.cli import main

ROOT = Path(__file__).resolve().parents[1]
DOCS = sorted([*ROOT.glob("docs/*.md"), ROOT / "README.md", ROOT / "CHANGELOG.md"])
# paths written from the repository's root, as docs write them
_PATH = re.compile(r"`((?:src|tests|benchmarks|docs|scripts|\.ci)/[^`\s*<>{}]+?)(?::\d+(?:-\d+)?)?`")
_LINK = re.compile(r"\]\(([^)\s#]+\.md)(?:#[^)]*)?\)")
_COMMAND = re.compile(r"(?:^|[`$\s])(?<!from )devicesworld((?: [a-z][a-z-]*)+)")


def _current_docs() -> list[Path]:
    # the changelog records history: its old file names are true of their time
    return [doc for doc in DOCS if doc.name != "CHANGELOG.md"]


def _paths(text: str) -> Iterator[str]:
    for match in _PATH.finditer(text):
        yield match.group(1).split("::")[0].rstrip(".,;)")


def _resolves(words: list[str]) -> bool:
    """True when the longest command prefix of ``words`` is a real CLI command or group."""
    command: click.Command = main
    for word in words:
        if not isinstance(command, click.Group):
            return True  # the rest are arguments
        # get_command, not .commands: the heavy groups are loaded when asked for (lazy group)
        sub = command.get_command(click.Context(command), word)
        if sub is None:
            return False
        command = sub
    return True


@pytest.mark.parametrize("doc", _current_docs(), ids=lambda p: p.name)
def test_every_file_a_doc_names_exists(doc: Path) -> None:
    missing = [p for p in _paths(doc.read_text()) if not (ROOT / p).exists()]
    assert not missing, f"{doc.name} names files that do not exist: {missing}"


@pytest.mark.parametrize("doc", _current_docs(), ids=lambda p: p.name)
def test_every_link_a_doc_makes_resolves(doc: Path) -> None:
    broken = [
        link
        for link in _LINK.findall(doc.read_text())
        if "://" not in link and not (doc.parent / link).exists()
    ]
    assert not broken, f"{doc.name} links to missing docs: {broken}"


@pytest.mark.parametrize("doc", _current_docs(), ids=lambda p: p.name)
def test_every_command_a_doc_names_exists(doc: Path) -> None:
    unknown = []
    for match in _COMMAND.finditer(doc.read_text()):
        words = match.group(1).split()
        if not _resolves(words):
            unknown.append("devicesworld " + " ".join(words))
    assert not unknown, f"{doc.name} names commands the CLI does not have: {sorted(set(unknown))}"


def test_the_checker_catches_what_it_should() -> None:
    assert list(_paths("see `src/devicesworld/nothing_here.py:12`.")) == ["src/devicesworld/nothing_here.py"]
    assert not _resolves(["tasks", "nonexistent-command"])
    assert _resolves(["tasks", "validate", "--suite", "full"])
    assert _resolves(["run"])
