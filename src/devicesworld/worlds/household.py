"""One household, one conversation: a member's world holds its texts with the owner as the owner's.

Why: each world draws its own texts, so the user's world held a thread with the partner and the
partner's world another one with the user; a task with both phones showed two halves of two
conversations that never happened on the other side (issue #33, rule 2: messages between two task
devices exist on both, sent on one, received on the other, at the same time). A *mirrored* member
world replaces its own texts with the owner (and a child's with the partner) by the other side's,
sent and received swapped: the owner's world is where the owner's conversations are drawn, the
partner's world where the partner's with the child are.

A world is mirrored only when its task says so (``WorldSpec.mirrored``, set by the builder where
it changes what a phone of the task holds), so tasks built before it keep their worlds.
"""

from __future__ import annotations

from devicesworld.worlds.model import Sms, World


def mirrored_messages(member: World, sources: list[World]) -> list[Sms]:
    """The member's texts with each source world's owner replaced by that world's texts with the
    member, mirrored (a text the source sent is received here, and the reverse), in time order."""
    mine = member.persona.person.phone
    out = list(member.phone.messages)
    for source in sources:
        theirs = source.persona.person.phone
        out = [m for m in out if m.address != theirs]
        out += [
            Sms(address=theirs, body=m.body, at=m.at, sent=not m.sent)
            for m in source.phone.messages
            if m.address == mine
        ]
    return sorted(out, key=lambda m: (m.at, m.address, m.body))
