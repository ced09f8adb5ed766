"""B-MoCA's discrete action layout and the continuous dual gesture decode into android steps."""

from __future__ import annotations

import pytest

from devicesworld.gym.actions import (
    GRID_COLS,
    GRID_ROWS,
    N_DISCRETE,
    N_TAPS,
    decode_continuous,
    decode_discrete,
    discrete_meaning,
    tap_point,
)


def test_layout_is_378_taps_4_swipes_3_buttons() -> None:
    assert (N_TAPS, N_DISCRETE) == (378, 385)
    assert discrete_meaning(0) == "tap r0 c0"
    assert [discrete_meaning(378 + i) for i in range(4)] == [
        "swipe up",
        "swipe down",
        "swipe left",
        "swipe right",
    ]
    assert [decode_discrete(382 + i, "android_0")["action"] for i in range(3)] == [
        "navigate_back",
        "navigate_home",
        "navigate_recents",
    ]


def test_taps_are_cell_centres_of_a_gesture() -> None:
    assert tap_point(0) == (0.5 / GRID_ROWS, 0.5 / GRID_COLS)
    last = tap_point(N_TAPS - 1)
    assert last == pytest.approx((1 - 0.5 / GRID_ROWS, 1 - 0.5 / GRID_COLS))
    step = decode_discrete(15, "android_0")
    assert step["action"] == "gesture" and step["args"]["touch_point"] == step["args"]["lift_point"]


def test_continuous_is_clipped_and_validated() -> None:
    step = decode_continuous([-1, 0.5, 2, 0.5], "android_0")
    assert step["args"] == {"touch_point": (0.0, 0.5), "lift_point": (1.0, 0.5)}
    with pytest.raises(ValueError):
        decode_continuous([0.1, 0.2], "android_0")
    with pytest.raises(ValueError):
        decode_continuous([float("nan")] * 4, "android_0")
    with pytest.raises(ValueError):
        decode_discrete(-1, "android_0")
