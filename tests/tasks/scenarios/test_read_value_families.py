"""Six families that used to state every value now make the agent read one behind a twin (issue #15).

`exam_night_quiet`, `night_mode_phone_and_home`, `theme_between_phones`,
`wool_wash_then_dryer`, `meeting_note_everywhere` and `tidy_before_cleaner` were the only
families of some feature values the test split must cover (the phone's Settings app, the
dryer, four devices over three classes, the desktop's pictures), and every task they made
was easy: the first-match baseline solved them by copying the instruction. Each now needs a
number read from a device (a text, a note, a file, the other phone's Clock) where a
near-miss twin stands ahead of it and the check forbids the twin. These tests pin that:
graded above easy, the value behind a look-alike or inside a document, the oracle passes
and the first-match baseline fails.
"""

from __future__ import annotations

import pytest

from devicesworld.agents.base import AgentOptions
from devicesworld.agents.registry import AGENTS
from devicesworld.runner.episode import run_episode
from devicesworld.spec.models import Task
from devicesworld.tasks.scenarios.compile import Choice, compile_task
from devicesworld.tasks.scenarios.loader import family_by_name, shipped_macros

FAMILIES = [
    "exam_night_quiet",
    "night_mode_phone_and_home",
    "theme_between_phones",
    "wool_wash_then_dryer",
    "meeting_note_everywhere",
    "tidy_before_cleaner",
]


def _task(family: str, seed: int, phrasing: int) -> Task:
    return compile_task(
        family_by_name(family), shipped_macros(), Choice(seed=seed, phrasing=phrasing), f"dw-readvalue-{seed}"
    )


def _success(task: Task, agent: str) -> bool:
    return run_episode(task, AGENTS[agent], AgentOptions(seed=0), None).success


@pytest.mark.parametrize("family", FAMILIES)
def test_the_value_is_read_behind_a_declared_twin(family: str) -> None:
    spec = family_by_name(family)
    assert spec.sources, f"{family} reads nothing"
    twinned = {d for c in spec.evaluation.conditions for d in c.distractors}
    assert twinned, f"{family} forbids no twin"
    for phrasing in range(len(spec.phrasings)):
        task = _task(family, seed=5 + phrasing, phrasing=phrasing)
        assert task.metadata.difficulty != "easy", (family, phrasing)
        assert task.metadata.composition is not None
        placement = task.metadata.composition.placement
        # a look-alike measured ahead of it on a first screen, or the value inside a document
        # (whose twin line comes first: the placement does not read into documents)
        hidden = [p for p in placement.values() if p.ahead >= 1 or p.where != "first_screen"]
        assert hidden, (family, placement)


@pytest.mark.parametrize("family", FAMILIES)
def test_first_match_fails_where_the_oracle_passes(family: str) -> None:
    task = _task(family, seed=3, phrasing=0)
    assert _success(task, "oracle")
    assert not _success(task, "first-match")
