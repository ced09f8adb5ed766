"""Shared fixtures: the ``toy`` device kind is registered for every test.

The tests are a package (``tests.*``); helper modules are imported by their package
name, e.g. ``from tests.devices.linux.linux_harness import Desktop``, and nothing here
edits ``sys.path``.

Spare GUI desktops are off for the test session (``DEVICESWORLD_DESKTOP_POOL=0``): a
spare started in the background by every GUI test would only add load to a 2-core
``make test``. The pool's own tests switch it on where they test it.
"""

from __future__ import annotations

import os

import pytest

from devicesworld.devices.base import register_kind
from tests.toykind import TOY

register_kind(TOY)
os.environ.setdefault("DEVICESWORLD_DESKTOP_POOL", "0")


@pytest.fixture
def toy_doc() -> dict[str, object]:
    from tests.toykind import toy_task

    return toy_task()
