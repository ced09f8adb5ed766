"""LLM-agent overhead: what the harness adds around the model, and what a step costs in tokens.

Runs every LLM agent on the smoke suite against the local scripted server (whose
replies are instant), so the figures are the agent's own costs: prompt building,
the SDK, HTTP on 127.0.0.1, parsing, and trajectory writing. Printed per agent:
steps per second, median agent time per step outside the model call, median model
round trip (local HTTP), and median input/output tokens per step (the prompt size a
real model would bill). Target: agent overhead outside the model well under 10 ms
a step, negligible next to any real model's latency.
"""

from __future__ import annotations

import os
import statistics
import tempfile
import time
from pathlib import Path

from devicesworld import jsonl
from devicesworld.agents import AgentOptions, get_agent
from devicesworld.agents.llm.testserver import ScriptedServer
from devicesworld.runner.episode import run_episode
from devicesworld.tasks.suites import load_suite

AGENTS = ["llm", "hierarchical", "planner-grounder", "tracked"]


def main() -> None:
    os.environ.pop("DEVICESWORLD_API_KEY", None)
    tasks = load_suite("smoke")
    print(f"LLM-agent overhead on {len(tasks)} smoke tasks (scripted local server, model 'scripted')")
    print(
        f"{'agent':18} {'steps/s':>8} {'overhead ms':>12} {'model rtt ms':>13} {'tok in/step':>12} {'tok out/step':>13}"
    )
    with ScriptedServer() as server, tempfile.TemporaryDirectory() as tmp:
        for name in AGENTS:
            entry = get_agent(name)
            options = AgentOptions(model="scripted", base_url=server.base_url)
            overhead: list[float] = []
            model: list[float] = []
            tok_in: list[int] = []
            tok_out: list[int] = []
            t0 = time.perf_counter()
            n_steps = 0
            for task in tasks:
                ep = Path(tmp) / name / task.id
                run_episode(task, entry, options, ep)
                for _, line in jsonl.split_lines((ep / "steps.jsonl").read_bytes()):
                    rec = jsonl.parse_line(line)
                    n_steps += 1
                    overhead.append(rec["agent_latency_s"] - rec["model_latency_s"])
                    model.append(rec["model_latency_s"])
                    tok_in.append(rec["tokens_in"])
                    tok_out.append(rec["tokens_out"])
            elapsed = time.perf_counter() - t0
            print(
                f"{name:18} {n_steps / elapsed:8.1f} {1000 * statistics.median(overhead):12.2f} "
                f"{1000 * statistics.median(model):13.2f} {statistics.median(tok_in):12.0f} "
                f"{statistics.median(tok_out):13.0f}"
            )


if __name__ == "__main__":
    main()
