"""One household, one conversation: a member's world holds its texts with the owner as the owner's.

Why: each world draws its own texts, so the user's world held a thread with the partner and the
partner's world another one with the user; a task with both phones showed two halves of two
conversations that never happened on the other side (issue #33, rule 2: messages between two task
devices exist on both, sent on one, received on the other, at the same time). A *mirrored* member
world replaces its own texts with the owner (and a child's with the partner) by the other side's,
sent and received swapped: the owner's world is where the owner's conversations are drawn, the
partner's world where the partner's with the child are.

The call log is mirrored the same way (:func:`mirrored_calls`): a call the owner made to the partner
is a call the partner's phone received at the same minute, for as long; one the partner did not
pick up is missed there and an outgoing call of no length here; a call the owner missed was
placed, unanswered, from the partner's phone.

A world is mirrored only when its task says so (``WorldSpec.mirrored``, set by the builder where
it changes what a phone of the task holds), so tasks built before it keep their worlds.
"""

from __future__ import annotations

from typing import Literal

from devicesworld.worlds.model import Call, Sms, World

CallKind = Literal["incoming", "outgoing", "missed"]


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


def mirrored_call(call: Call, number: str) -> Call:
    """``call`` as the other phone logs it, from ``number`` (the first phone's): who placed it swaps,
    an unanswered call (outgoing of no length, or missed) is missed by whoever received it."""
    kind: CallKind
    if call.kind == "incoming":
        kind = "outgoing"
    elif call.kind == "missed":
        kind = "outgoing"  # placed from the other phone, not picked up: no length
    else:
        kind = "incoming" if call.duration > 0 else "missed"
    duration = call.duration if kind != "missed" and call.kind != "missed" else 0
    return Call(number=number, at=call.at, kind=kind, duration=duration)


def mirrored_calls(member: World, sources: list[World]) -> list[Call]:
    """The member's call log with each source world's owner replaced by that world's calls with the
    member (at either of the member's numbers), as the member's phone logs them, in time order."""
    me = member.persona.person
    mine = {me.phone, *([me.phone2] if me.phone2 else [])}
    out = list(member.phone.calls)
    for source in sources:
        them = source.persona.person
        theirs = {them.phone, *([them.phone2] if them.phone2 else [])}
        out = [c for c in out if c.number not in theirs]
        out += [mirrored_call(c, them.phone) for c in source.phone.calls if c.number in mine]
    return sorted(out, key=lambda c: (c.at, c.number, c.kind))
