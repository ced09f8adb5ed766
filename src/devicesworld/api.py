"""The public front door: load tasks, make an environment, run an agent — three calls.

``import devicesworld`` re-exports these names lazily (see ``devicesworld/__init__``),
the way ``inspect_ai`` and Gymnasium give one import for the common path::

    import devicesworld

    tasks = devicesworld.load_tasks("smoke", filter={"kind": "smarthome"}, limit=5)
    with devicesworld.make(tasks[0]) as env:
        observation = env.reset()
    outcome = devicesworld.run(tasks, agent=MyAgent(), out="runs/mine")
    print(outcome.success_rate, outcome.out_dir)

Everything here is a thin layer over the CLI's own machinery (suites, selection,
:func:`~devicesworld.runner.run.execute_run`), so a script and ``devicesworld run``
write the same run directory and report the same way.
"""

from __future__ import annotations

import inspect
import re
from collections.abc import Mapping, Sequence
from datetime import datetime
from pathlib import Path
from typing import Any

from devicesworld.agents.base import Agent, AgentOptions
from devicesworld.agents.registry import as_factory, check_agent, get_agent, register_agent
from devicesworld.devices import check_kind as check_kind  # re-exported: devicesworld.check_kind
from devicesworld.env.controller import CrossDeviceEnv
from devicesworld.runner.run import ProgressFn, RunConfig, RunOutcome, execute_run
from devicesworld.spec.models import Task
from devicesworld.tasks.filtering import parse_filter, select_rows
from devicesworld.tasks.shipped import task_row

FilterSpec = Mapping[str, str] | Sequence[str]


def load_tasks(
    source: str | Path = "smoke",
    *,
    ids: Sequence[str] = (),
    filter: FilterSpec = (),
    limit: int | None = None,
) -> list[Task]:
    """Tasks of a built-in suite (``"smoke"``, ``"full"``, ``"test"``, ``"bmoca"``) or a task file/folder.

    ``ids`` picks tasks by id (in that order); ``filter`` keeps tasks whose facts match,
    as a mapping (``{"kind": "android", "difficulty": "easy"}``) or ``KEY=VALUE`` strings —
    the keys of ``devicesworld run --filter`` (see :mod:`devicesworld.tasks.filtering`).
    Loading never runs a device setup.
    """
    from devicesworld.tasks.loading import load_tasks as load_file
    from devicesworld.tasks.suites import RETIRED, load_suite, suite_names, unknown_suite

    name = str(source)
    if name in suite_names():
        tasks = load_suite(name)
    elif Path(name).exists():
        tasks = load_file(name)
    elif name in RETIRED:  # asked for by name: say what replaces it
        raise FileNotFoundError(unknown_suite(name))
    else:
        raise FileNotFoundError(
            f"{name!r} is neither a suite ({', '.join(suite_names())}) nor an existing task file or folder"
        )
    return select(tasks, ids=ids, filter=filter, limit=limit)


def select(
    tasks: Sequence[Task], *, ids: Sequence[str] = (), filter: FilterSpec = (), limit: int | None = None
) -> list[Task]:
    """The tasks chosen by ``ids`` and ``filter`` (see :func:`load_tasks`), at most ``limit``."""
    texts = [f"{k}={v}" for k, v in filter.items()] if isinstance(filter, Mapping) else list(filter)
    filters = [parse_filter(t) for t in texts]
    rows = [task_row(t) for t in tasks]
    chosen = [tasks[i] for i in select_rows(rows, list(ids), filters)]
    return chosen[:limit] if limit is not None else chosen


def make(task: Task | str, *, seed: int = 0) -> CrossDeviceEnv:
    """The environment of ``task`` (a task, or the id of a shipped one); call ``reset()`` to set it up.

    Use it as a context manager so that its devices (sandboxes, servers) are closed.
    """
    if isinstance(task, str):
        from devicesworld.tasks.shipped import find_indexed

        found = find_indexed(task)
        if found is None:
            raise KeyError(f"no shipped task {task!r}; pass a Task from devicesworld.load_tasks(...)")
        task = found
    return CrossDeviceEnv(task, seed=seed)


def run(
    tasks: Sequence[Task] | Task | str,
    agent: str | Agent | Any,
    *,
    out: str | Path | None = None,
    workers: int = 1,
    seed: int = 0,
    model: str | None = None,
    base_url: str | None = None,
    options: Mapping[str, Any] | None = None,
    limit: int | None = None,
    screenshots: bool = False,
    resume: bool = False,
    retry_errors: bool = False,
    max_consecutive_errors: int = 3,
    episode_timeout: float | None = None,
    on_result: ProgressFn | None = None,
) -> RunOutcome:
    """Run ``agent`` on ``tasks`` and write a run directory; returns every episode's result.

    ``agent`` is a built-in name (``"oracle"``), a ``module:factory`` or
    ``path/file.py:factory`` string, an agent object (with ``start`` and ``act``), a
    class, or a factory taking :class:`AgentOptions`. An object defined in a script runs
    in this process, so it needs ``workers=1``; an importable factory or class runs
    anywhere. ``options`` become ``AgentOptions.extra``. The run stops early after
    ``max_consecutive_errors`` errors in a row (0: never); see ``RunOutcome.stopped``.
    """
    if isinstance(tasks, Task):
        tasks = [tasks]
    elif isinstance(tasks, str):
        tasks = load_tasks(tasks)
    name = _agent_name(agent, workers)
    extra = dict(options or {})
    check_agent(get_agent(name), AgentOptions(seed=seed, model=model, base_url=base_url, extra=extra))
    out_dir = Path(out) if out is not None else default_out_dir(name)
    config = RunConfig(
        agent=name,
        source="python",
        seed=seed,
        workers=workers,
        episode_timeout=episode_timeout,
        limit=limit,
        model=model,
        base_url=base_url,
        resume=resume,
        retry_errors=retry_errors,
        max_consecutive_errors=max_consecutive_errors,
        screenshots=screenshots,
        agent_extra=extra,
    )
    return execute_run(list(tasks), config, out_dir, on_result=on_result)


def default_out_dir(agent: str) -> Path:
    """``runs/<time>-<agent>``, with the agent's name made safe for a folder name."""
    label = re.sub(r"[^A-Za-z0-9_.-]+", "-", agent.rsplit("/", 1)[-1]).strip("-.") or "agent"
    return Path("runs") / f"{datetime.now():%Y%m%d-%H%M%S}-{label}"


def _agent_name(agent: Any, workers: int) -> str:
    """A name ``get_agent`` resolves in every worker, registering in-process objects when needed."""
    if isinstance(agent, str):
        return agent
    importable = _import_path(agent)
    if importable is not None:
        return importable
    if workers > 1:
        raise ValueError(
            f"{agent!r} is defined in a script, so it can only run in this process: use workers=1, "
            "or put it in a module and pass 'module:factory'"
        )
    label = getattr(agent, "__name__", None) or type(agent).__name__
    name = f"python:{label}"  # registered again by each run: the latest object wins
    register_agent(name, as_factory(agent), inspect.getdoc(agent) or "")
    return name


def _import_path(agent: Any) -> str | None:
    """``module:qualname`` for a class or function importable from outside ``__main__``."""
    if not (inspect.isclass(agent) or inspect.isfunction(agent)):
        return None
    module, qualname = getattr(agent, "__module__", ""), getattr(agent, "__qualname__", "")
    if (
        not module
        or module == "__main__"
        or "<" in qualname
        or "." in qualname
        or module.startswith("devicesworld_user_agent_")
    ):
        return None
    return f"{module}:{qualname}"
