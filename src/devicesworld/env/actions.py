"""The global actions every task has, whatever its devices, declared like device actions.

``finish`` declares completion; ``report_infeasible`` declares that the request cannot
be done, with a reason; ``answer`` states the answer to a question (an
information-retrieval request, AndroidWorld's ``answer`` action) without ending the
episode, for the ``answer_contains`` check to read. They are declared like device
actions so that prompts, the random agent and validation treat them uniformly; the
controller handles them. Their names are in :mod:`devicesworld.spec.actions`.
"""

from __future__ import annotations

from pydantic import Field

from devicesworld.devices.base import ActionSpec, Args, NoArgs, by_name
from devicesworld.spec.actions import ANSWER, FINISH, REPORT_INFEASIBLE


class ReportInfeasibleArgs(Args):
    reason: str = Field(min_length=1, description="Why the request cannot be carried out.")


class AnswerArgs(Args):
    text: str = Field(min_length=1, description="The answer to the question asked.")


GLOBAL_ACTIONS: dict[str, ActionSpec] = by_name(
    [
        ActionSpec(name=FINISH, doc="The whole task is done; ends the episode.", args_model=NoArgs),
        ActionSpec(
            name=REPORT_INFEASIBLE,
            doc="The request cannot be carried out (say why); ends the episode.",
            args_model=ReportInfeasibleArgs,
        ),
        ActionSpec(
            name=ANSWER,
            doc="Answer a question the task asks (the last answer counts); does not end the episode.",
            args_model=AnswerArgs,
        ),
    ]
)
