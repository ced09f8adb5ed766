from __future__ import annotations

from devicesworld.agents import AgentOptions, EpisodeInfo, get_agent
from devicesworld.agents.base import DeviceInfo
from devicesworld.env import CrossDeviceEnv
from devicesworld.spec import Task
from tests.toykind import toy_task


def _info(task: Task, env: CrossDeviceEnv, privileged: bool) -> EpisodeInfo:
    return EpisodeInfo(
        task_id=task.id,
        instruction=task.instruction,
        devices=[DeviceInfo(id=d.id, kind=d.kind) for d in task.devices],
        action_spaces=env.action_spaces(),
        max_steps=task.limits.max_steps,
        solution=task.solution if privileged else None,
    )


def _play(agent_name: str, seed: int = 0) -> tuple[CrossDeviceEnv, list[dict[str, object]]]:
    task = Task.model_validate(toy_task())
    entry = get_agent(agent_name)
    agent = entry.factory(AgentOptions(seed=seed))
    env = CrossDeviceEnv(task)
    obs = env.reset()
    agent.start(_info(task, env, entry.privileged))
    actions = []
    feedback = None
    from devicesworld.agents.base import Feedback

    while not env.done:
        decision = agent.act(obs, feedback)
        actions.append(decision.action.model_dump())
        out = env.step(decision.action)
        feedback = Feedback(step=out.step, action=decision.action, result=out.result)
        obs = env.observe()
    return env, actions


def test_oracle_solves() -> None:
    env, actions = _play("oracle")
    assert env.evaluate().success
    assert actions[-1]["action"] == "finish"
    env.close()


def test_noop_finishes_at_once_and_fails() -> None:
    env, actions = _play("noop")
    assert actions == [{"device": None, "action": "finish", "args": {}}]
    assert not env.evaluate().success
    env.close()


def test_random_is_seeded_and_mostly_valid() -> None:
    env_a, a = _play("random", seed=3)
    env_b, b = _play("random", seed=3)
    env_c, c = _play("random", seed=4)
    assert a == b
    assert a != c
    names = {x["action"] for x in a}
    assert names <= {"press", "set_value", "read", "crash", "finish"}
    for env in (env_a, env_b, env_c):
        env.close()


def test_unknown_agent_is_a_clear_error() -> None:
    try:
        get_agent("gpt-ultra")
    except KeyError as exc:
        assert "known agents:" in str(exc) and "oracle" in str(exc) and "llm" in str(exc)
    else:
        raise AssertionError


def test_agent_by_module_path() -> None:
    entry = get_agent("devicesworld.agents.simple:NoopAgent")
    assert not entry.privileged
