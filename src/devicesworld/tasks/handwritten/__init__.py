"""Handwritten tasks as data files, compiled to the task format (``docs/task-format.md``, "Data files")."""

from __future__ import annotations

from devicesworld.tasks.handwritten.compiler import (
    Draft,
    Fragments,
    Source,
    compile_draft,
    compile_files,
    compile_task,
    draft_file,
    draft_task,
    read_fragments,
    solve,
)
from devicesworld.tasks.handwritten.suites import SUITE_FILES, compile_suite, differences, find_draft
from devicesworld.tasks.handwritten.yamlfile import DataFileError, DataFileErrors

__all__ = [
    "SUITE_FILES",
    "DataFileError",
    "DataFileErrors",
    "Draft",
    "Fragments",
    "Source",
    "compile_draft",
    "compile_files",
    "compile_suite",
    "compile_task",
    "differences",
    "draft_file",
    "draft_task",
    "find_draft",
    "read_fragments",
    "solve",
]
