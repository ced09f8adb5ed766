from __future__ import annotations

import random

import pytest

from devicesworld.tasks.composition.atomic import InstanceContext
from devicesworld.tasks.composition.library.phrasing import say


def test_say_picks_one_phrasing_with_the_task_rng() -> None:
    templates = ("turn on {x}", "switch {x} on", "power up {x}")
    texts = {say(InstanceContext("d", random.Random(s)), templates, x="the lamp") for s in range(30)}
    assert texts == {"turn on the lamp", "switch the lamp on", "power up the lamp"}
    a = say(InstanceContext("d", random.Random(4)), templates, x="it")
    assert a == say(InstanceContext("d", random.Random(4)), templates, x="it")


def test_say_refuses_fewer_than_three_phrasings() -> None:
    with pytest.raises(ValueError, match="at least three"):
        say(InstanceContext("d", random.Random(0)), ("a", "b"))
