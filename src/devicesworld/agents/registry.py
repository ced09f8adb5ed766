"""The agents ``--agent NAME`` can name: built-ins, ``module:factory`` and ``path/to/file.py:factory``.

A user's own agent is found the way a newcomer expects: a module in the current folder
imports without ``PYTHONPATH=.`` (the folder is appended to ``sys.path``, so it never
shadows an installed package), and a file path loads that file directly. The factory
may take :class:`AgentOptions`, take nothing (a plain class), or be an agent object
itself; whatever it is, :func:`check_agent` proves it builds something with ``start``
and ``act`` before a run begins, so ``os:getcwd`` fails at once with a clear message.
"""

from __future__ import annotations

import importlib
import importlib.util
import inspect
import os
import sys
import zlib
from pathlib import Path
from typing import Any

from devicesworld.agents.base import Agent, AgentEntry, AgentFactory, AgentOptions
from devicesworld.agents.first_match import FirstMatchAgent
from devicesworld.agents.random_agent import RandomAgent
from devicesworld.agents.simple import NoopAgent, OracleAgent

AGENTS: dict[str, AgentEntry] = {
    "oracle": AgentEntry("oracle", "Replays the task's reference solution.", OracleAgent, privileged=True),
    "noop": AgentEntry("noop", "Declares completion at once.", NoopAgent),
    "random": AgentEntry("random", "Seeded random valid actions.", RandomAgent),
    "first-match": AgentEntry(
        "first-match",
        "Follows the solution but reads each value as the first match on a device's first screen.",
        FirstMatchAgent,
        privileged=True,
    ),
}


def _llm(class_name: str) -> AgentFactory:
    """A factory that imports the LLM agents (and the openai SDK) only when used."""

    def factory(options: AgentOptions) -> Agent:
        module = importlib.import_module("devicesworld.agents.llm")
        agent: Agent = getattr(module, class_name)(options)
        return agent

    return factory


for _name, _cls, _doc in (
    (
        "llm",
        "DirectAgent",
        "The paper's direct protocol over an OpenAI-compatible endpoint (--model, --base-url).",
    ),
    (
        "hierarchical",
        "HierarchicalAgent",
        "Planner splits the goal into device subtasks; device agents report back.",
    ),
    (
        "planner-grounder",
        "PlannerGrounderAgent",
        "JarvisGUI's planner (device + abstract action) and grounder.",
    ),
    (
        "tracked",
        "TrackedAgent",
        "Explicit cross-device task state, replanning, checklist review before finishing.",
    ),
):
    AGENTS[_name] = AgentEntry(_name, _doc, _llm(_cls))


def agent_names() -> list[str]:
    return sorted(AGENTS)


_REGISTERED: dict[str, AgentEntry] = {}
"""Agent objects handed to the Python API in this process (:func:`register_agent`)."""
_FILES: dict[Path, Any] = {}
"""Agent files already executed in this process, by resolved path."""


class AgentLoadError(KeyError):
    """A user's agent cannot be loaded or is not an agent; the message says why."""

    def __str__(self) -> str:
        return str(self.args[0]) if self.args else ""


def register_agent(name: str, factory: AgentFactory, doc: str = "") -> AgentEntry:
    """Make ``name`` resolve to ``factory`` in this process (the Python API's agent objects)."""
    entry = AgentEntry(name, doc or name, factory)
    _REGISTERED[name] = entry
    return entry


def get_agent(name: str) -> AgentEntry:
    """A built-in agent by name, or your own as ``package.module:factory`` or ``path/file.py:factory``.

    A user's agent is never privileged (it does not see the reference solution).
    """
    if name in AGENTS:
        return AGENTS[name]
    if name in _REGISTERED:
        return _REGISTERED[name]
    if ":" in name:
        module_name, _, attr = name.rpartition(":")
        if not module_name or not attr:
            raise AgentLoadError(f"agent {name!r}: expected module:factory or path/to/file.py:factory")
        target = _load_attr(name, module_name, attr)
        return AgentEntry(name, (inspect.getdoc(target) or name).splitlines()[0], as_factory(target))
    raise KeyError(
        f"unknown agent {name!r}; known agents: {', '.join(agent_names())}, "
        "or your own as module:factory or path/to/file.py:factory"
    )


def _load_attr(name: str, module_name: str, attr: str) -> Any:
    if module_name.endswith(".py") or os.sep in module_name or "/" in module_name:
        module = _load_file(name, Path(module_name))
    else:
        cwd = os.getcwd()
        if cwd not in sys.path and "" not in sys.path:
            sys.path.append(cwd)  # after installed packages: the user's folder never shadows them
        try:
            module = importlib.import_module(module_name)
        except ImportError as exc:
            raise AgentLoadError(
                f"cannot load agent {name!r}: {exc} (looked in the current folder {cwd} and on sys.path; "
                "a file can be named directly as path/to/file.py:factory)"
            ) from None
    try:
        return getattr(module, attr)
    except AttributeError:
        public = sorted(n for n in vars(module) if not n.startswith("_"))[:12]
        raise AgentLoadError(
            f"cannot load agent {name!r}: {module_name} has no {attr!r} (it has: {', '.join(public)})"
        ) from None


def _load_file(name: str, path: Path) -> Any:
    path = path.expanduser().resolve()
    if path in _FILES:
        return _FILES[path]
    if not path.is_file():
        raise AgentLoadError(f"cannot load agent {name!r}: no file {path}")
    module_name = f"devicesworld_user_agent_{zlib.crc32(str(path).encode()):08x}"
    spec = importlib.util.spec_from_file_location(module_name, path)
    if spec is None or spec.loader is None:
        raise AgentLoadError(f"cannot load agent {name!r}: {path} is not a Python file")
    module = importlib.util.module_from_spec(spec)
    sys.modules[module_name] = module  # dataclasses and pydantic look their module up here
    if str(path.parent) not in sys.path:
        sys.path.append(str(path.parent))  # so the file can import its neighbours
    try:
        spec.loader.exec_module(module)
    except Exception as exc:
        del sys.modules[module_name]
        raise AgentLoadError(
            f"cannot load agent {name!r}: {path} raised {type(exc).__name__}: {exc}"
        ) from None
    _FILES[path] = module
    return module


def is_agent(obj: object) -> bool:
    return callable(getattr(obj, "start", None)) and callable(getattr(obj, "act", None))


def as_factory(target: Any) -> AgentFactory:
    """``target`` — a factory of ``AgentOptions``, a no-argument callable or an agent — as a factory."""
    if is_agent(target) and not inspect.isclass(target):

        def same(options: AgentOptions) -> Agent:
            agent: Agent = target
            return agent

        return same
    if not callable(target):
        return _not_callable(target)
    if _takes_no_arguments(target):

        def no_args(options: AgentOptions) -> Agent:
            agent: Agent = target()
            return agent

        return no_args
    factory: AgentFactory = target
    return factory


def _not_callable(target: Any) -> AgentFactory:
    def fail(options: AgentOptions) -> Agent:
        raise TypeError(f"{type(target).__name__} object is neither callable nor an agent")

    return fail


def _takes_no_arguments(target: Any) -> bool:
    try:
        params = inspect.signature(target).parameters.values()
    except (TypeError, ValueError):
        return False
    return not any(p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD, p.VAR_POSITIONAL) for p in params)


def check_agent(entry: AgentEntry, options: AgentOptions) -> None:
    """Build the agent once; raise :class:`AgentLoadError` saying why it is not one."""
    try:
        agent = entry.factory(options)
    except Exception as exc:
        raise AgentLoadError(
            f"agent {entry.name!r}: building it failed: {type(exc).__name__}: {exc}. An agent factory takes "
            "AgentOptions (or nothing) and returns an object with start(info) and act(observation, feedback); "
            "see docs/writing-an-agent.md"
        ) from None
    if not is_agent(agent):
        raise AgentLoadError(
            f"agent {entry.name!r} is not an agent: it returned {type(agent).__name__} "
            f"({str(agent)[:60]!r}), which has no start(info) and act(observation, feedback) methods; "
            "see docs/writing-an-agent.md"
        )
