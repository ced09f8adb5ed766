"""A mail draft written through the GUI desktop's mail client (``devices/linux/gui/by_mail.py``)."""

from __future__ import annotations

from fnmatch import fnmatch

import pytest

from devicesworld.devices.linux.device import GUI_ACTIONS
from devicesworld.devices.linux.gui.by_gui import gui_steps
from devicesworld.devices.linux.gui.by_mail import NoMailWay, draft_steps
from devicesworld.devices.linux.state import STATE
from devicesworld.spec.models import Step
from tests.devices.desktop.desktop_harness import require_app
from tests.devices.linux.test_linux_gui import GuiDesk, gui  # noqa: F401  (the fixture)

DRAFT = {"to": ["ana.ruiz@example.org"], "subject": "Q2 budget", "body": "Hi Ana, Thursday?"}


def test_a_draft_is_composed_in_the_mail_client_with_gui_actions_and_the_client_quits() -> None:
    steps = gui_steps(Step(device="linux_0", action="write_email_draft", args=DRAFT))
    assert steps == draft_steps(DRAFT, "linux_0")
    assert steps[0].args == {"app": "mail"} and steps[-1].args == {"keys": ["ctrl", "q"]}
    typed = [s.args["text"] for s in steps if s.action == "type_text"]
    assert typed == ["Q2 budget", "Hi Ana, Thursday?", "ana.ruiz@example.org"]
    assert {s.action for s in steps} <= set(GUI_ACTIONS) and {s.device for s in steps} == {"linux_0"}
    two = draft_steps({**DRAFT, "to": ["a@x.org", "b@y.org"]}, None)
    assert [s.args["text"] for s in two if s.action == "type_text"][-1] == "a@x.org, b@y.org"


@pytest.mark.parametrize(("extra", "why"), [({"cc": ["c@x.org"]}, "cc"), ({"filename": "a.eml"}, "filename")])
def test_what_the_mail_client_cannot_do_faithfully_is_refused_with_the_reason(
    extra: dict[str, object], why: str
) -> None:
    with pytest.raises(NoMailWay, match=why):
        draft_steps({**DRAFT, **extra}, "linux_0")


def test_the_drafts_getter_reads_a_mail_clients_numbered_drafts_and_skips_its_index_files(
    gui: GuiDesk,  # noqa: F811
) -> None:
    """An MH folder keeps messages as numbered files, with the client's own headers first and
    the body quoted-printable; ``.mh_sequences`` beside them is bookkeeping."""
    message = (
        "X-Claws-Account-Id:1\nS:me@home.example\nX-Claws-End-Special-Headers: 1\n"
        "From: Me <me@home.example>\nTo: ana.ruiz@example.org\nSubject: Q2 budget\n"
        "MIME-Version: 1.0\nContent-Type: text/plain; charset=UTF-8\n"
        "Content-Transfer-Encoding: quoted-printable\n\nCaf=C3=A9 on Thursday?\n"
    )
    gui.setup("write_text", path="~/Mail/Drafts/7", content=message)
    gui.setup("write_text", path="~/Mail/Drafts/.mh_sequences", content="")
    drafts = gui.get("email_drafts", folder="~/Mail/Drafts")
    assert [(d["file"], d["to"], d["subject"], d["body"]) for d in drafts] == [
        ("7", ["ana.ruiz@example.org"], "Q2 budget", "Café on Thursday?")
    ]


def test_a_draft_saved_through_the_mail_client_passes_the_check_and_changes_nothing_else(
    gui: GuiDesk,  # noqa: F811
) -> None:
    require_app("claws-mail")
    body = "Hi Ana, could we meet on Thursday about the Q2 budget? " * 3 + "Café ☕ at 10:30."
    before = STATE.snapshot(gui.device)
    for step in draft_steps({**DRAFT, "body": body}, "linux_0"):
        gui.ok(step.action, **step.args)
    outcome = gui.check(
        "email_draft", to="ana.ruiz@example.org", subject="Q2 budget", body_contains=["Café ☕ at 10:30"]
    )
    assert outcome.passed, outcome.detail
    (draft,) = gui.get("email_drafts", folder="~/Mail/Drafts")
    assert draft["file"].isdigit() and draft["body"] == body  # typed as one line: no automatic wrapping
    after = STATE.snapshot(gui.device)
    changed = {k for k in set(before) ^ set(after) | {k for k in before if after.get(k) != before[k]}}
    assert changed - {k for k in changed if any(fnmatch(k, h) for h in STATE.harmless)} == {
        f"files/Mail/Drafts/{draft['file']}"
    }
    assert not [w for w in gui.device.observe()["windows"] if "Claws Mail" in w["title"]]
