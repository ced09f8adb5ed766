"""Errors raised by the analysis package.

A report is usually the last thing a user runs after a long evaluation, so a
missing or unreadable run directory must produce one clear, catchable error that
the CLI can print without a traceback, rather than a bare ``FileNotFoundError``
or a pydantic ``ValidationError`` from deep inside the loader.
"""

from __future__ import annotations


class ReportError(Exception):
    """A run directory cannot be reported on (missing, not a run, or unreadable)."""
