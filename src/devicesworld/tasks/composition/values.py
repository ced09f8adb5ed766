"""Values for inputs that no upstream task feeds: the user states them in the instruction.

Generated with Faker from a seeded random source, so a composite task rebuilds
byte for byte from its seed.
"""

from __future__ import annotations

import random

from faker import Faker

from devicesworld.tasks.composition.atomic import SlotValue
from devicesworld.tasks.composition.types import TypeSystem


class NoUserValue(ValueError):
    """No generator for this type (files): some task must produce it."""


class UserValues:
    """Realistic user-given values for each slot type (the most specific generator wins)."""

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng
        self.fake = Faker()
        self.fake.seed_instance(rng.randrange(2**32))

    def make(self, slot_type: str, types: TypeSystem) -> SlotValue:
        for t in _specific_first(slot_type, types):
            maker = getattr(self, f"_{t}", None)
            if maker is not None:
                value, mention = maker()
                return SlotValue(type=t, value=value, mention=mention)
        raise NoUserValue(f"the user cannot state a value of type {slot_type!r}")

    def _temperature(self) -> tuple[float, str]:
        v = self.rng.choice([x / 2 for x in range(36, 55)])
        return v, f"{v:g} °C"

    def _percentage(self) -> tuple[int, str]:
        v = self.rng.choice(range(35, 70, 5))
        return v, f"{v}%"

    def _time_of_day(self) -> tuple[str, str]:
        v = f"{self.rng.randrange(10, 22):02d}:{self.rng.choice([0, 15, 30, 45]):02d}"
        return v, v

    def _code(self) -> tuple[str, str]:
        v = f"{self.rng.randrange(10**5, 10**6)}"
        return v, v

    def _phone_number(self) -> tuple[str, str]:
        v = f"+1 555 {self.rng.randrange(100, 1000)} {self.rng.randrange(1000, 10000)}"
        return v, v

    def _person_name(self) -> tuple[str, str]:
        v = self.fake.name()
        return v, v

    def _email_address(self) -> tuple[str, str]:
        v = self.fake.email()
        return v, v

    def _text(self) -> tuple[str, str]:
        v = self.fake.sentence(nb_words=6).rstrip(".")
        return v, f'"{v}"'

    def _value(self) -> tuple[str, str]:
        v = f"{self.fake.word().capitalize()}-{self.rng.randrange(100, 1000)}"
        return v, f'the reference "{v}"'

    def _number(self) -> tuple[int, str]:
        v = self.rng.randrange(1, 100)
        return v, str(v)


def _specific_first(slot_type: str, types: TypeSystem) -> list[str]:
    """The type itself, then its supertypes from nearest to farthest."""
    return sorted(types.ancestors(slot_type), key=lambda t: -len(types.ancestors(t)))
