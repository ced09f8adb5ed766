"""``random``: seeded random *valid* actions, the floor every agent should beat.

Arguments are sampled from each action's JSON Schema. Free-text fields are filled
mostly with strings the agent has already seen in observations and feedback (device
ids, room names, ...), so that a fair share of its actions do something rather than
fail on a made-up name. It declares completion with a small probability per step.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

from devicesworld.agents.base import AgentOptions, Decision, EpisodeInfo, Feedback
from devicesworld.env.actions import GLOBAL_ACTIONS
from devicesworld.spec.actions import FINISH
from devicesworld.spec.models import Step

FINISH_PROBABILITY = 0.02
MAX_SEEN_STRINGS = 200


class RandomAgent:
    def __init__(self, options: AgentOptions) -> None:
        self._seed = options.seed
        self._rng = random.Random(options.seed)
        self._spaces: dict[str, list[dict[str, Any]]] = {}
        self._seen: list[str] = []

    def start(self, info: EpisodeInfo) -> None:
        self._rng = random.Random(f"{self._seed}:{info.task_id}")
        self._spaces = {k: v for k, v in info.action_spaces.items() if k != "*"}
        self._seen = []

    def act(self, observation: dict[str, dict[str, Any]], feedback: Feedback | None) -> Decision:
        self._remember(observation)
        if feedback is not None:
            self._remember(feedback.result.data)
        if self._rng.random() < FINISH_PROBABILITY or not self._spaces:
            return Decision(action=Step(action=FINISH))
        device = self._rng.choice(sorted(self._spaces))
        actions = [a for a in self._spaces[device] if a["name"] not in GLOBAL_ACTIONS]
        if not actions:
            return Decision(action=Step(action=FINISH))
        spec = self._rng.choice(actions)
        schema = spec["args_schema"]
        args = self._sample_object(schema, schema.get("$defs", {}))
        return Decision(action=Step(device=device, action=spec["name"], args=args))

    # ------------------------------------------------------------------ sampling
    def _sample(self, schema: dict[str, Any], defs: dict[str, Any]) -> Any:
        if "$ref" in schema:
            return self._sample(defs.get(schema["$ref"].split("/")[-1], {}), defs)
        if "enum" in schema:
            return self._rng.choice(schema["enum"])
        if "const" in schema:
            return schema["const"]
        for key in ("anyOf", "oneOf"):
            if key in schema:
                options = [s for s in schema[key] if s.get("type") != "null"] or schema[key]
                return self._sample(self._rng.choice(options), defs)
        kind = schema.get("type")
        if isinstance(kind, list):
            kind = self._rng.choice([k for k in kind if k != "null"] or kind)
        if kind == "object":
            return self._sample_object(schema, defs)
        if kind == "array":
            return [self._sample(schema.get("items", {}), defs) for _ in range(self._rng.randint(0, 2))]
        if kind == "boolean":
            return self._rng.random() < 0.5
        if kind in ("integer", "number"):
            lo = schema.get("minimum", schema.get("exclusiveMinimum", 0))
            hi = schema.get("maximum", schema.get("exclusiveMaximum", max(lo, 0) + 100))
            value = self._rng.uniform(lo, hi)
            return round(value) if kind == "integer" else round(value, 1)
        if kind == "string":
            if self._seen and self._rng.random() < 0.85:
                return self._rng.choice(self._seen)
            return self._rng.choice(["on", "off", "auto", "test", "1", "home"])
        return None

    def _sample_object(self, schema: dict[str, Any], defs: dict[str, Any]) -> dict[str, Any]:
        props: dict[str, Any] = schema.get("properties", {})
        required = set(schema.get("required", []))
        out: dict[str, Any] = {}
        for name, sub in props.items():
            if name in required or self._rng.random() < 0.3:
                out[name] = self._sample(sub, defs)
        return out

    def _remember(self, value: Any) -> None:
        for text in _strings(value):
            if 0 < len(text) <= 40 and text not in self._seen:
                self._seen.append(text)
        del self._seen[:-MAX_SEEN_STRINGS]


def _strings(value: Any) -> Iterator[str]:
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for k, v in value.items():
            yield str(k)
            yield from _strings(v)
    elif isinstance(value, list):
        for v in value:
            yield from _strings(v)
