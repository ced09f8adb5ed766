"""The agents ``--agent NAME`` can name."""

from __future__ import annotations

import importlib

from devicesworld.agents.base import Agent, AgentEntry, AgentFactory, AgentOptions
from devicesworld.agents.random_agent import RandomAgent
from devicesworld.agents.simple import NoopAgent, OracleAgent

AGENTS: dict[str, AgentEntry] = {
    "oracle": AgentEntry("oracle", "Replays the task's reference solution.", OracleAgent, privileged=True),
    "noop": AgentEntry("noop", "Declares completion at once.", NoopAgent),
    "random": AgentEntry("random", "Seeded random valid actions.", RandomAgent),
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


def get_agent(name: str) -> AgentEntry:
    """A built-in agent by name, or your own as ``package.module:factory``.

    A factory named that way takes :class:`AgentOptions` and returns an agent; it is
    never privileged (it does not see the reference solution).
    """
    if name in AGENTS:
        return AGENTS[name]
    if ":" in name:
        module_name, _, attr = name.partition(":")
        try:
            factory = getattr(importlib.import_module(module_name), attr)
        except (ImportError, AttributeError) as exc:
            raise KeyError(f"cannot load agent {name!r}: {exc}") from None
        return AgentEntry(name, getattr(factory, "__doc__", None) or name, factory)
    raise KeyError(f"unknown agent {name!r}; known agents: {', '.join(agent_names())}, or module:factory")
