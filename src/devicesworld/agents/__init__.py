"""Agents: the protocol and the built-in baselines."""

from devicesworld.agents.base import Agent, AgentEntry, AgentOptions, Decision, EpisodeInfo, Feedback
from devicesworld.agents.registry import AGENTS, agent_names, get_agent

__all__ = [
    "AGENTS",
    "Agent",
    "AgentEntry",
    "AgentOptions",
    "Decision",
    "EpisodeInfo",
    "Feedback",
    "agent_names",
    "get_agent",
]
