"""The names of the global actions every task has, and how an episode ends.

``finish`` declares completion; ``report_infeasible`` declares that the request cannot
be done, with a reason; ``answer`` states the answer to a question without ending the
episode. Only the names live here, in the bottom layer, so that run records and the
analysis can speak of them; their declarations (argument models, docs) are in
:mod:`devicesworld.env.actions`, next to the controller that handles them.
"""

from __future__ import annotations

from typing import Literal

Termination = Literal["finished", "infeasible_reported", "budget_exhausted", "time_limit", "error"]
"""How an episode ended."""

FINISH = "finish"
REPORT_INFEASIBLE = "report_infeasible"
ANSWER = "answer"
GLOBAL_ACTION_NAMES: frozenset[str] = frozenset({FINISH, REPORT_INFEASIBLE, ANSWER})
"""The actions addressed to no device; :data:`devicesworld.env.actions.GLOBAL_ACTIONS` declares them."""
