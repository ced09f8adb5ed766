"""``ui: find`` scrolls a phone's list until an item shows, so a reference reaches it on a lived phone."""

from __future__ import annotations

import pytest

from devicesworld.agents.base import AgentOptions
from devicesworld.agents.registry import AGENTS
from devicesworld.runner.episode import run_episode
from devicesworld.tasks.scenarios.compile import Choice, FamilyError, compile_task
from devicesworld.tasks.scenarios.loader import family_by_name, shipped_macros
from devicesworld.tasks.scenarios.model import SolutionItem


def test_a_song_off_the_first_screen_is_found_by_scrolling_and_the_reference_passes() -> None:
    family = family_by_name("song_list_to_playlist")  # the phone holds the persona's lived library
    task = compile_task(family, shipped_macros(), Choice(seed=3), "dw-t-find")
    scrolls = [s for s in task.solution if s.action == "scroll"]
    assert scrolls and all(s.args["direction"] in ("down", "up") for s in scrolls)
    assert run_episode(task, AGENTS["oracle"], AgentOptions(seed=0), None).success


def test_an_item_on_screen_costs_no_scroll() -> None:
    family = family_by_name("wifi_code_two_desktops")  # open Markor, find wifi.md, tap it, ...
    once = compile_task(family, shipped_macros(), Choice(seed=0), "dw-t-once")
    find = next(i for i in family.solution if i.ui == "find")
    at = family.solution.index(find)
    twice = family.model_copy(
        update={"solution": [*family.solution[: at + 1], find, *family.solution[at + 1 :]]}
    )
    assert compile_task(twice, shipped_macros(), Choice(seed=0), "dw-t-once").solution == once.solution


def test_an_item_that_is_nowhere_in_the_list_is_a_build_error() -> None:
    family = family_by_name("wifi_code_two_desktops")
    missing = SolutionItem(role="mine", ui="find", target={"text": "no-such-note.md"})
    solution = [family.solution[0], missing, *family.solution[1:]]
    with pytest.raises(FamilyError, match="scrolled both ways"):
        compile_task(family.model_copy(update={"solution": solution}), shipped_macros(), Choice(seed=0), "c")
