"""A family's ``gui`` roles run their desktops through the GUI (issue #16, docs/scenarios.md).

The compiler records and places the solution with the tool steps, then gives those devices
their kind's GUI profile and GUI steps; the build proves the GUI task by its own GUI
solution and runs the near misses on its tool-step twin (same draw, setup and checks).
"""

from __future__ import annotations

import pytest

from devicesworld.devices.base import get_kind
from devicesworld.tasks.scenarios.build import build_proven, prove
from devicesworld.tasks.scenarios.compile import Choice, FamilyError, check_family, compile_task
from devicesworld.tasks.scenarios.loader import family_by_name, shipped_macros
from tests.devices.desktop.desktop_harness import require_gui_stack


def _gui(name: str, *roles: str):  # type: ignore[no-untyped-def]
    family = family_by_name(name)
    return family.model_copy(
        update={"gui": list(roles) or [r for r, k in family.roles.items() if k == "linux"]}
    )


def test_gui_roles_get_the_gui_profile_and_only_gui_actions_while_the_twin_keeps_its_tool_steps() -> None:
    family = _gui("config_two_versions")
    task = compile_task(family, shipped_macros(), Choice(seed=3), "dw-t-gui")
    twin = compile_task(family, shipped_macros(), Choice(seed=3), "dw-t-gui", through_gui=False)
    assert task.setup == twin.setup and task.evaluation == twin.evaluation and task.world == twin.world
    assert task.instruction == twin.instruction
    for spec in task.devices:
        assert spec.profile == {"desktop": "gui"}
        kind = get_kind(spec.kind)
        assert kind is not None
        table = kind.actions_for(spec.profile)
        mine = [s for s in task.solution if s.device == spec.id]
        assert mine and all(s.action in table for s in mine)
        assert "write_file" not in table and "read_file" not in table
    assert all(d.profile == {} for d in twin.devices)
    assert {s.action for s in twin.solution} >= {"read_file", "write_file"}
    assert len(task.solution) > len(twin.solution) and task.limits.max_seconds == 900.0
    assert task.metadata.composition is not None and twin.metadata.composition is not None
    spans = task.metadata.composition.solution_spans
    tool_spans = twin.metadata.composition.solution_spans
    assert spans.keys() == tool_spans.keys()
    for owner, (a, b) in spans.items():  # each part's span moved with its steps
        ta, tb = tool_spans[owner]
        assert task.solution[a].device == twin.solution[ta].device
        assert task.solution[a].action == "launch_app" and task.solution[b - 1].args == {
            "keys": ["ctrl", "w"]
        }
        assert task.solution[b - 1].device == twin.solution[tb - 1].device
    covered = {i for a, b in spans.values() for i in range(a, b)}
    assert covered == set(range(len(task.solution) - 1))  # every step but finish
    assert "linux:text_editor" in task.metadata.apps


def test_a_form_family_through_the_gui_names_chromium_elements_by_the_labels_of_its_own_site() -> None:
    """delivery_by_basket_total opens a page, reads a file, opens the checkout and fills it: the
    second page goes through the address bar, and the numbered fields become their labels."""
    family = _gui("delivery_by_basket_total")
    task = compile_task(family, shipped_macros(), Choice(seed=5), "dw-t-gui-form")
    twin = compile_task(family, shipped_macros(), Choice(seed=5), "dw-t-gui-form", through_gui=False)
    actions = [s.action for s in task.solution if s.device == "linux_0"]
    assert not [a for a in actions if a.startswith("browser_")]
    assert actions.count("launch_app") == 2  # the browser once, the text editor once
    clicked = [s.args["element"] for s in task.solution if s.action == "click"]
    assert {"role": "entry", "name": "Address and search bar", "app": "Chromium"} in clicked
    assert {"role": "combo box", "name": "Delivery"} in clicked
    assert {"role": "entry", "name": "Membership number (optional)"} in clicked
    assert clicked[-1] == {"role": "push button", "name": "Place order"}
    chosen = next(s.args["option"] for s in twin.solution if s.action == "browser_select")
    assert {"role": "menu item", "name": chosen} in clicked
    typed = next(s.args["text"] for s in twin.solution if s.action == "browser_type")
    assert {"text": typed} in [s.args for s in task.solution if s.action == "type_text"]


def test_a_gui_role_on_a_kind_without_a_gui_mode_is_named() -> None:
    family = _gui("lamp_off_after_reading", "home")
    with pytest.raises(FamilyError, match="gui: role home is a smarthome, which has no GUI mode"):
        check_family(family, shipped_macros())


def test_a_step_with_no_faithful_gui_way_is_a_family_error_not_a_silent_tool_step() -> None:
    family = _gui("new_address_household")
    solution = [  # a draft with a Cc: the mail client's Cc row has no translation
        s.model_copy(update={"args": {**s.args, "cc": ["me@example.org"]}})
        if s.action == "write_email_draft"
        else s
        for s in family.solution
    ]
    with pytest.raises(FamilyError, match=r"no GUI way: write_email_draft with cc"):
        compile_task(
            family.model_copy(update={"solution": solution}),
            shipped_macros(),
            Choice(seed=1),
            "dw-t-gui-draft",
        )


def test_a_mail_draft_family_through_the_gui_writes_it_in_the_mail_client() -> None:
    """new_address_household's draft to the insurer becomes the mail client's compose window,
    with the twin's recipient, subject and body typed; its check is the twin's."""
    family = _gui("new_address_household")
    task = compile_task(family, shipped_macros(), Choice(seed=2), "dw-t-gui-mail")
    twin = compile_task(family, shipped_macros(), Choice(seed=2), "dw-t-gui-mail", through_gui=False)
    (draft,) = [s for s in twin.solution if s.action == "write_email_draft"]
    steps = [s for s in task.solution if s.device == draft.device]
    assert {"app": "mail"} in [s.args for s in steps if s.action == "launch_app"]
    typed = [s.args["text"] for s in steps if s.action == "type_text"]
    assert typed[-3:] == [draft.args["subject"], draft.args["body"], ", ".join(draft.args["to"])]
    assert "write_email_draft" not in {s.action for s in task.solution}
    assert task.evaluation == twin.evaluation


def test_a_gui_task_is_proven_by_its_gui_solution_and_its_twin_carries_the_near_misses() -> None:
    require_gui_stack()
    family = _gui("config_two_versions")
    rejected: dict[str, int] = {}
    built = build_proven(family, 7, 0, "dw-t-gui-live", rejected)
    assert built is not None, rejected
    task, report, choice = built
    assert report.ok and report.near_misses >= 1  # run on the twin, counted for the task
    twin = compile_task(family, shipped_macros(), choice, task.id, through_gui=False)
    assert all(d.profile == {} for d in twin.devices)
    broken = task.model_copy(update={"solution": task.solution[:3] + task.solution[-1:]})
    failed = prove(broken, twin)
    assert not failed.ok and any("solution" in p for p in failed.problems), failed.problems


@pytest.mark.parametrize("name", ["tidy_before_cleaner", "voucher_in_archive", "weekend_errands"])
def test_a_family_whose_desktop_ran_a_shell_command_is_a_gui_only_task_now(name: str) -> None:
    """#34: the shell command (and an archive's listing) is typed into the terminal app's window, so
    the reference solution has no ``run_command`` and every desktop is declared GUI-only."""
    from devicesworld.tasks.profiles import declare_profiles, every_desktop_gui

    family = family_by_name(name)
    assert family.gui, "the shipped family runs its desktop through the GUI"
    task = compile_task(family, shipped_macros(), Choice(seed=3), "dw-t-gui")
    assert "run_command" not in {s.action for s in task.solution}
    typed = [s for s in task.solution if s.action == "launch_app" and s.args.get("app") == "terminal"]
    assert typed, "the command goes through the terminal app"
    assert every_desktop_gui(declare_profiles(task)) is True
    assert "linux:terminal" in task.metadata.apps
