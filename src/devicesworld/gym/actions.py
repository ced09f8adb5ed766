"""B-MoCA's two action sets for a phone, decoded into DevicesWorld phone steps.

* ``discrete``: 385 actions, as B-MoCA's agents trained from scratch (§A.1, D.3):
  378 taps on a 27-row x 14-column grid of cell centres (row-major from the top
  left), four swipes (finger up, down, left, right across the middle of the
  screen) and the three navigation buttons (back, home, overview).
* ``continuous``: the dual gesture, ``[touch_y, touch_x, lift_y, lift_x]`` in
  ``[0, 1]``; points closer than the phone's tap distance are a tap. Both map to the
  android ``gesture`` action (normalised ``[y, x]`` points), so the phone's own
  hit-testing decides what a tap or swipe does.
"""

from __future__ import annotations

from typing import Any, Literal

import numpy as np

GRID_ROWS, GRID_COLS = 27, 14
N_TAPS = GRID_ROWS * GRID_COLS  # 378
SWIPES: tuple[tuple[str, tuple[float, float], tuple[float, float]], ...] = (
    ("up", (0.7, 0.5), (0.3, 0.5)),
    ("down", (0.3, 0.5), (0.7, 0.5)),
    ("left", (0.5, 0.8), (0.5, 0.2)),
    ("right", (0.5, 0.2), (0.5, 0.8)),
)
BUTTONS = ("navigate_back", "navigate_home", "navigate_recents")
N_DISCRETE = N_TAPS + len(SWIPES) + len(BUTTONS)  # 385

ActionSet = Literal["discrete", "continuous"]


def tap_point(index: int) -> tuple[float, float]:
    """The normalised ``(y, x)`` centre of grid cell ``index`` (row-major)."""
    row, col = divmod(index, GRID_COLS)
    return (row + 0.5) / GRID_ROWS, (col + 0.5) / GRID_COLS


def decode_discrete(action: int, device: str) -> dict[str, Any]:
    """The phone step of discrete action ``action``; ``ValueError`` outside ``0..384``."""
    a = int(action)
    if not 0 <= a < N_DISCRETE:
        raise ValueError(f"discrete action {a} is out of range 0..{N_DISCRETE - 1}")
    if a < N_TAPS:
        p = tap_point(a)
        return {"device": device, "action": "gesture", "args": {"touch_point": p, "lift_point": p}}
    a -= N_TAPS
    if a < len(SWIPES):
        _, touch, lift = SWIPES[a]
        return {"device": device, "action": "gesture", "args": {"touch_point": touch, "lift_point": lift}}
    return {"device": device, "action": BUTTONS[a - len(SWIPES)], "args": {}}


def decode_continuous(action: Any, device: str) -> dict[str, Any]:
    """The dual gesture ``[ty, tx, ly, lx]`` (clipped to ``[0, 1]``) as an android ``gesture`` step."""
    vec = np.asarray(action, dtype=np.float64).reshape(-1)
    if vec.shape != (4,) or not np.all(np.isfinite(vec)):
        raise ValueError(f"a continuous action is 4 finite numbers [ty, tx, ly, lx], got {action!r}")
    ty, tx, ly, lx = (float(v) for v in np.clip(vec, 0.0, 1.0))
    return {"device": device, "action": "gesture", "args": {"touch_point": (ty, tx), "lift_point": (ly, lx)}}


def discrete_meaning(action: int) -> str:
    """A readable name of a discrete action (``tap r3 c7``, ``swipe up``, ``navigate_back``)."""
    a = int(action)
    if a < N_TAPS:
        row, col = divmod(a, GRID_COLS)
        return f"tap r{row} c{col}"
    if a < N_TAPS + len(SWIPES):
        return f"swipe {SWIPES[a - N_TAPS][0]}"
    return BUTTONS[a - N_TAPS - len(SWIPES)]
