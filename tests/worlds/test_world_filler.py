"""A world's text reads like a person's and its dates like a life (issue #33): the to-do list, mail
bodies and invoice notes come from templates naming the world's people and projects, mail arrives
on working hours before the start, and no text is dated after it."""

from __future__ import annotations

from datetime import datetime

from devicesworld.worlds import desktop
from devicesworld.worlds.generate import generate

START = datetime(2026, 3, 2, 7, 30)


def test_todo_mail_and_invoices_are_templated_and_dated_like_a_life() -> None:
    for seed in (3, 25):
        world = generate(seed, "lived", START)
        files = {f.path: f for f in world.desktop.files}
        todo = files["Desktop/todo.txt"].text.splitlines()
        assert len(todo) == 6
        stems = [t.split("{")[0] for t in desktop.TODO_ITEMS]
        assert all(any(line[2:].startswith(stem) for stem in stems) for line in todo), todo
        mails = [f for f in world.desktop.files if f.path.startswith("Mail/Inbox/")]
        assert mails
        for mail in mails:
            assert 8 <= mail.mtime.hour < 18 and mail.mtime < START, (mail.path, mail.mtime)
            assert mail.path.split("/")[-1].startswith(f"{mail.mtime:%Y%m%d}_")
            first = mail.text.split("\n\n")[1]
            assert first in {b.split("{")[0] for b in desktop.MAIL_BODIES.values()} or any(
                first.startswith(b.split("{")[0]) for b in desktop.MAIL_BODIES.values()
            ), first
        notes = [f.sections[0][1][1] for f in world.desktop.files if f.path.startswith("Downloads/invoice_")]
        assert notes and set(notes) <= set(desktop.INVOICE_NOTES)
        for m in world.phone.messages:  # (texts keep their drawn times: tasks' list positions hold them)
            assert m.at <= START
