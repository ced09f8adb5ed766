"""Demonstrations: recorded episodes (a person's ``devicesworld play --record`` session or the oracle's
reference solution) in a versioned JSONL format, for few-shot prompts and imitation learning.

:mod:`.model` is the file format, :mod:`.record` turns live observations and steps into
it, :mod:`.oracle` makes datasets from reference solutions without a person.
"""

from __future__ import annotations

from devicesworld.demos.model import SCHEMA_VERSION, Demonstration, DemoStep, read_demos, write_demos

__all__ = ["SCHEMA_VERSION", "DemoStep", "Demonstration", "read_demos", "write_demos"]
