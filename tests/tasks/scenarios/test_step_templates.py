"""Scenario step templates (``_macros*.yaml``): every family names only templates that exist, for
the role's kind; an unknown one is refused when the family loads; ``tasks macros`` lists them
beside the kinds' registered macros, and no name means both."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml
from click.testing import CliRunner

from devicesworld import macros
from devicesworld.cli import main
from devicesworld.devices.base import get_kind, kind_names
from devicesworld.tasks.scenarios.compile import FamilyError
from devicesworld.tasks.scenarios.loader import load_family_file, scenarios_dir, shipped_macros


def _named_templates() -> list[tuple[str, str, str]]:
    """(family file, role, template) for every ``macro:`` item of every shipped family file, read
    from the YAML itself so the check does not rest on the loader's own gate."""
    out = []
    for path in sorted(scenarios_dir().glob("*.yaml")):
        if path.name.startswith("_"):
            continue
        doc = yaml.safe_load(path.read_text(encoding="utf-8"))
        lists = [doc.get("solution") or []] + [v.get("solution") or [] for v in doc.get("infeasible") or []]
        for items in lists:
            out += [(path.name, item.get("role"), item["macro"]) for item in items if "macro" in item]
    return out


def test_every_family_names_a_known_template_of_its_roles_kind() -> None:
    templates = shipped_macros()
    named = _named_templates()
    assert len(named) > 20  # the walk found the families' templates at all
    for file, role, name in named:
        assert name in templates, f"{file}: unknown step template {name!r}"
        roles = yaml.safe_load((scenarios_dir() / file).read_text(encoding="utf-8"))["roles"]
        assert templates[name].kind == roles[role], (
            f"{file}: {name} is for {templates[name].kind}, not {role}"
        )


def test_a_family_naming_an_unknown_template_is_refused(tmp_path: Path) -> None:
    source = scenarios_dir() / "dinner_invites.yaml"
    doc = yaml.safe_load(source.read_text(encoding="utf-8"))
    items = [item for item in doc["solution"] if "macro" in item]
    assert items, "the sample family uses a template"
    items[0]["macro"] = "phone_no_such_template"
    bad = tmp_path / "dinner_invites.yaml"
    bad.write_text(yaml.safe_dump(doc, sort_keys=False), encoding="utf-8")
    with pytest.raises(FamilyError, match="unknown macro 'phone_no_such_template'"):
        load_family_file(bad)


def test_templates_and_kind_macros_share_no_name_and_are_listed_together() -> None:
    for kind in kind_names():
        get_kind(kind)  # registers the kind's macros
    kind_macros = {m.name for k in macros.kinds_with_macros() for m in macros.macros_of(k)}
    templates = shipped_macros()
    assert not kind_macros & set(templates)
    out = CliRunner().invoke(main, ["tasks", "macros"])
    assert out.exit_code == 0, out.output
    assert "scenario step templates" in out.output
    for name in templates:
        assert f" {name}" in out.output, name
