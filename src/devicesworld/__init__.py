"""DevicesWorld: an executable benchmark for agents that work across phones, desktops and a smart home.

The front door is three functions, imported on first use so that ``import
devicesworld`` stays cheap (the CLI, workers and ``--version`` pay nothing for it)::

    import devicesworld

    tasks = devicesworld.load_tasks("smoke", limit=3)   # a suite, a file, ids, filters
    env = devicesworld.make(tasks[0])                    # one task's environment
    outcome = devicesworld.run(tasks, agent="oracle")    # a run directory and results

The agent protocol (``Agent``, ``Decision``, ``EpisodeInfo``, ``Feedback``, ``Step``,
``AgentOptions``) is re-exported too; see docs/writing-an-agent.md.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

_EXPORTS = {
    "load_tasks": "devicesworld.api",
    "make": "devicesworld.api",
    "run": "devicesworld.api",
    "select": "devicesworld.api",
    "check_kind": "devicesworld.api",
    "Agent": "devicesworld.agents.base",
    "AgentOptions": "devicesworld.agents.base",
    "Decision": "devicesworld.agents.base",
    "EpisodeInfo": "devicesworld.agents.base",
    "Feedback": "devicesworld.agents.base",
    "Step": "devicesworld.spec.models",
    "Task": "devicesworld.spec.models",
    "RunOutcome": "devicesworld.runner.run",
    "EpisodeResult": "devicesworld.spec.records",
    "__version__": "devicesworld.version",
}

__all__ = [
    "Agent",
    "AgentOptions",
    "Decision",
    "EpisodeInfo",
    "EpisodeResult",
    "Feedback",
    "RunOutcome",
    "Step",
    "Task",
    "__version__",
    "check_kind",
    "load_tasks",
    "make",
    "run",
    "select",
]

if TYPE_CHECKING:
    from devicesworld.agents.base import Agent, AgentOptions, Decision, EpisodeInfo, Feedback
    from devicesworld.api import check_kind, load_tasks, make, run, select
    from devicesworld.runner.run import RunOutcome
    from devicesworld.spec.models import Step, Task
    from devicesworld.spec.records import EpisodeResult
    from devicesworld.version import __version__


def __getattr__(name: str) -> Any:
    module = _EXPORTS.get(name)
    if module is None:
        raise AttributeError(f"module 'devicesworld' has no attribute {name!r}")
    value = getattr(importlib.import_module(module), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(__all__)
