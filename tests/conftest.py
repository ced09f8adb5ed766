"""Shared fixtures: the ``toy`` device kind is registered for every test.

The tests are a package (``tests.*``); helper modules are imported by their package
name, e.g. ``from tests.devices.linux.linux_harness import Desktop``, and nothing here
edits ``sys.path``.
"""

from __future__ import annotations

import pytest

from devicesworld.devices.base import register_kind
from tests.toykind import TOY

register_kind(TOY)


@pytest.fixture
def toy_doc() -> dict[str, object]:
    from tests.toykind import toy_task

    return toy_task()
