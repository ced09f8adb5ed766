"""Browser form steps for the linux kind's simulated sites: shared by the handwritten
suites and the composition library, so neither has to import the other.

:func:`idx` finds the number the built-in browser gives a labelled element by
rendering the page the way the device does; :func:`fill` writes the steps that open a
form page, fill each labelled field and submit it.
"""

from __future__ import annotations

from collections.abc import Sequence

from devicesworld.devices.linux.browser.builtin import view_of_html
from devicesworld.devices.linux.sites.model import Site
from devicesworld.devices.linux.sites.render import page_html
from devicesworld.spec.models import Step


def _step(device: str, action: str, /, **args: object) -> Step:
    return Step(device=device, action=action, args=args)


def idx(site: Site, path: str, label: str, kind: str | None = None) -> int:
    """The number the browser gives the element labelled ``label`` on ``path``."""
    page = site.page(path)
    assert page is not None, path
    view = view_of_html(f"http://{site.host}{path}", page_html(site, page))
    for el in view.elements:
        if el.label.casefold() == label.casefold() and (kind is None or el.kind == kind):
            return el.index
    raise KeyError(f"no element {label!r} on {site.host}{path}: {[e.label for e in view.elements]}")


def fill(site: Site, path: str, values: Sequence[tuple[str, str]], device: str = "linux_0") -> list[Step]:
    """Open a form page, type/select each labelled value, submit."""
    steps = [_step(device, "browser_open", url=f"http://{site.host}{path}")]
    page = site.page(path)
    assert page is not None and page.form is not None
    kinds = {f.label: f.type for f in page.form.fields}
    for label, value in values:
        kind = kinds.get(label)
        if kind == "select":
            steps.append(
                _step(device, "browser_select", index=idx(site, path, label, "select"), option=value)
            )
        elif kind == "radio":
            steps.append(_step(device, "browser_click", index=idx(site, path, value, "radio")))
        elif kind == "checkbox":
            steps.append(_step(device, "browser_click", index=idx(site, path, label, "checkbox")))
        else:
            steps.append(_step(device, "browser_type", index=idx(site, path, label), text=value))
    steps.append(_step(device, "browser_submit"))
    return steps
