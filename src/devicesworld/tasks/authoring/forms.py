"""Browser form steps for the desktop's simulated sites, written by the handwritten suites.

They are thin wrappers over the desktop kind's own macros
(:mod:`devicesworld.devices.linux.macros`), which know how its browser numbers a page's
elements: :func:`idx` is that number for a labelled element, :func:`fill` the agent
steps that open a form page, fill each labelled field and submit it.
"""

from __future__ import annotations

from collections.abc import Sequence

from devicesworld.devices.linux.macros import element_index, fill_steps
from devicesworld.devices.linux.sites.model import Site
from devicesworld.spec.models import Step

idx = element_index


def fill(site: Site, path: str, values: Sequence[tuple[str, str]], device: str) -> list[Step]:
    """Open a form page, type/select each labelled value, submit (as steps on ``device``)."""
    return [Step(device=device, **step) for step in fill_steps(site, path, values)]
