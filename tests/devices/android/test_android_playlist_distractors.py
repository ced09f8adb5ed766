"""``playlist_contains`` with ``distractors`` (issue #13): a playlist holding a declared near-miss
song (the one the friend's list leaves out, last year's playlist's song) fails with a message
naming it; the right songs pass beside other playlists holding the near miss; without the
argument the check is as before."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import pytest

from devicesworld.devices.android.checks import CHECKS
from devicesworld.devices.base import CheckOutcome


def run(args: dict[str, Any], playlists: dict[str, list[str]]) -> CheckOutcome:
    spec = dict(CHECKS)["playlist_contains"]

    def get(name: str, _: Mapping[str, Any]) -> Any:
        assert name == "playlists"
        return playlists

    return spec.fn(get, spec.args_model.model_validate(args))


SONGS = ["Harbour Lights", "Paper Moons", "Slow River"]
ARGS = {"name": "Road trip", "songs": SONGS, "distractors": [{"value": "Glass Houses", "type": "name"}]}


def test_passes_with_the_right_songs_while_another_playlist_holds_the_distractor() -> None:
    out = run(ARGS, {"Road trip": list(SONGS), "Road trip 2022": ["Glass Houses", "Harbour Lights"]})
    assert out.passed, out.detail


@pytest.mark.parametrize(
    "songs",
    [[*SONGS, "Glass Houses"], ["Glass Houses", "Paper Moons", "Slow River"]],
    ids=["beside", "instead"],
)
def test_fails_when_the_playlist_holds_the_distractor(songs: list[str]) -> None:
    out = run(ARGS, {"Road trip": songs})
    assert not out.passed
    assert "distractor" in out.detail and "Glass Houses" in out.detail


def test_distractor_titles_compare_as_the_songs_do_but_as_whole_titles() -> None:
    args = {**ARGS, "distractors": [{"value": "Cafe Noir", "type": "name"}]}
    assert not run(args, {"Road trip": [*SONGS, "  CAFE   noir "]}).passed
    # a title that only contains the distractor is another song
    assert run(args, {"Road trip": [*SONGS, "Cafe Noir (live)"]}).passed


def test_plain_string_distractors_are_accepted() -> None:
    out = run({**ARGS, "distractors": ["Glass Houses"]}, {"Road trip": [*SONGS, "glass houses"]})
    assert not out.passed and "glass houses" in out.detail


def test_without_distractors_the_check_is_as_before() -> None:
    plain = {"name": "Road trip", "songs": SONGS}
    assert run(plain, {"road trip": [*SONGS, "Glass Houses"]}).passed
    missing = run(plain, {"Road trip": SONGS[:2]})
    assert not missing.passed and "missing ['Slow River']" in missing.detail
    absent = run(plain, {"Gym": SONGS})
    assert not absent.passed and "no playlist 'Road trip'" in absent.detail
