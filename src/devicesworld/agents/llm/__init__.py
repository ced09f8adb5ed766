"""LLM agents over any OpenAI-compatible endpoint.

``llm`` (the DevicesWorld paper's direct protocol), ``hierarchical`` (a planner splits
the goal into device-level subtasks), ``planner-grounder`` (JarvisGUI's two-stage
agent) and ``tracked`` (explicit cross-device task state, replanning and a review
before finishing). See ``docs/agents.md``.
"""

from __future__ import annotations

from devicesworld.agents.llm.direct import DirectAgent
from devicesworld.agents.llm.hierarchical import HierarchicalAgent
from devicesworld.agents.llm.planner_grounder import PlannerGrounderAgent
from devicesworld.agents.llm.tracked import TrackedAgent
from devicesworld.llmclient import LLMClient, LLMConfig, LLMError

__all__ = [
    "DirectAgent",
    "HierarchicalAgent",
    "LLMClient",
    "LLMConfig",
    "LLMError",
    "PlannerGrounderAgent",
    "TrackedAgent",
]
