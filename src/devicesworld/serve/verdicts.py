"""What a served agent may learn of the verifiers' verdict, shared by every facade (MCP, Home Assistant).

Why one place: evaluation is the harness's, not the agent's. A facade offers no
evaluate tool or service by default; with an explicit debugging flag it offers one
that says only which conditions pass (their ids), never a condition's detail (an
expected value would be an answer key an agent could hill-climb on), and the run is
recorded as not comparable.
"""

from __future__ import annotations

from typing import Any

NOT_COMPARABLE_MCP = "serve mcp --debug-evaluate: the agent could read which conditions passed"
"""What ``run.json`` says about a run whose MCP agent had the debugging ``evaluate`` tool."""
NOT_COMPARABLE_HA = "serve homeassistant --debug-evaluate: the agent could read which conditions passed"
"""What ``run.json`` says about a run whose Home Assistant client had ``devicesworld.evaluate``."""


def names_only(verdict: dict[str, Any]) -> dict[str, Any]:
    """The verdict without any condition's detail: ids and pass/fail, never an expected value."""
    keep = ("episode_over", "success", "score", "steps", "termination")
    conditions = verdict.get("conditions") or []
    return {
        **{k: verdict.get(k) for k in keep},
        "passed": [c["id"] for c in conditions if c.get("passed")],
        "failed": [c["id"] for c in conditions if not c.get("passed")],
    }


__all__ = ["NOT_COMPARABLE_HA", "NOT_COMPARABLE_MCP", "names_only"]
