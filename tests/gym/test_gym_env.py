"""The Gymnasium phone environments: spaces, check_env for every mode, vector envs, rewards, profiles."""

from __future__ import annotations

from typing import Any

import gymnasium as gym
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env

import devicesworld.gym  # noqa: F401  (registers the environments)
from devicesworld.gym.actions import N_DISCRETE
from devicesworld.gym.env import MAX_TEXT, PhoneTaskEnv, bounded_text
from devicesworld.tasks.env_split import split_presets
from devicesworld.tasks.suites.bmoca import task_names

CLOCK = "devicesworld/BmocaOpenClock-v0"
CLOCK_TAP = 52  # a grid cell on the Clock icon of the default launcher


def make(**kwargs: Any) -> PhoneTaskEnv:
    env = gym.make(CLOCK, **kwargs).unwrapped
    assert isinstance(env, PhoneTaskEnv)
    return env


@pytest.mark.parametrize("obs_mode", ["text", "pixel", "both"])
@pytest.mark.parametrize("action_set", ["discrete", "continuous"])
def test_check_env_passes_for_every_mode(obs_mode: str, action_set: str) -> None:
    env = make(obs_mode=obs_mode, action_set=action_set, split="train")
    try:
        check_env(env, skip_render_check=True)
    finally:
        env.close()


def test_every_bmoca_task_is_registered() -> None:
    ids = set(gym.registry)
    assert "devicesworld/Phone-v0" in ids
    assert {f"devicesworld/{n}-v0" for n in task_names()} <= ids
    assert len(task_names()) >= 30


def test_spaces_are_b_mocas() -> None:
    env = make(obs_mode="both")
    assert env.action_space == gym.spaces.Discrete(N_DISCRETE) and N_DISCRETE == 385
    obs, info = env.reset(seed=1)
    assert obs["pixel"].shape == (128, 64, 3) and obs["pixel"].dtype == np.uint8
    assert "Clock" in obs["text"] and len(obs["text"]) <= MAX_TEXT
    assert info["instruction"] == "Open the Clock app."
    env.close()
    cont = make(action_set="continuous")
    assert cont.action_space.shape == (4,)
    cont.close()


def test_sparse_success_ends_the_episode() -> None:
    env = make(max_steps=5)
    env.reset(seed=0)
    _, reward, terminated, truncated, info = env.step(CLOCK_TAP)
    assert (reward, terminated, truncated, info["success"]) == (1.0, True, False, True)
    env.close()


def test_a_miss_gives_nothing_and_the_budget_truncates() -> None:
    env = make(max_steps=2)
    env.reset(seed=0)
    _, r1, t1, tr1, _ = env.step(N_DISCRETE - 2)  # home
    _, r2, t2, tr2, _ = env.step(N_DISCRETE - 2)
    assert (r1, t1, tr1) == (0.0, False, False)
    assert (r2, t2, tr2) == (0.0, False, True)
    env.close()


def test_dense_reward_pays_progress_minus_a_step_penalty() -> None:
    env = make(reward="dense", step_penalty=0.05)
    env.reset(seed=0)
    _, miss, *_ = env.step(N_DISCRETE - 2)
    _, hit, terminated, *_ = env.step(CLOCK_TAP)
    assert miss == pytest.approx(-0.05)
    assert hit == pytest.approx(0.95) and terminated
    env.close()


def test_continuous_dual_gesture_taps_and_swipes() -> None:
    env = make(action_set="continuous")
    env.reset(seed=0)
    y, x = (52 // 14 + 0.5) / 27, (52 % 14 + 0.5) / 14
    _, reward, terminated, _, _ = env.step(np.array([y, x, y + 0.005, x], dtype=np.float32))
    assert reward == 1.0 and terminated
    env.reset(seed=0)
    _, _, _, _, info = env.step(np.array([0.0, 0.5, 0.6, 0.5], dtype=np.float32))  # down from the top edge
    assert info["action_ok"] and "notification" in info["message"]
    env.close()


def test_split_chooses_profiles_by_seed_and_options_override() -> None:
    env = make(split="test")
    seen = set()
    for seed in range(12):
        env.reset(seed=seed)
        seen.add(env.profile)
    assert seen <= set(split_presets("test")) and len(seen) > 1
    env.reset(seed=3)
    first = env.profile
    env.reset(seed=3)
    assert env.profile == first
    text, _ = env.reset(seed=0, options={"profile": "dark_ko_phone"})
    assert env.profile == "dark_ko_phone" and "Pixel 6" in text
    env.close()


def test_vector_env_steps_a_batch() -> None:
    vec = gym.vector.SyncVectorEnv(
        [lambda: gym.make(CLOCK, obs_mode="both", split="train") for _ in range(2)]
    )
    obs, _ = vec.reset(seed=[0, 1])
    assert obs["pixel"].shape == (2, 128, 64, 3) and len(obs["text"]) == 2
    obs, rewards, terminated, _, _ = vec.step(np.array([CLOCK_TAP, N_DISCRETE - 1]))
    assert rewards.shape == (2,) and terminated.dtype == bool
    vec.close()


def test_bad_arguments_are_clear_errors() -> None:
    with pytest.raises(ValueError, match="obs_mode"):
        make(obs_mode="audio")
    with pytest.raises(ValueError, match="no task"):
        PhoneTaskEnv(task_id="bmoca-nope")
    with pytest.raises(ValueError, match="test"):
        make(split="validation")
    env = make()
    with pytest.raises(RuntimeError, match="reset"):
        env.step(0)
    env.reset(seed=0)
    with pytest.raises(ValueError, match="out of range"):
        env.step(N_DISCRETE)
    env.close()


def test_bounded_text_cuts_and_replaces() -> None:
    assert bounded_text("a\tb😀") == "a?b?"
    long = bounded_text("x" * (MAX_TEXT + 10))
    assert len(long) <= MAX_TEXT and "[cut: " in long and "scroll" in long  # never cut silently


def test_observation_space_repr_is_short() -> None:
    from devicesworld.gym import PhoneTaskEnv, env_ids

    env = PhoneTaskEnv(task_id=next(iter(env_ids().values())), obs_mode="both")
    text = repr(env.observation_space)
    assert len(text) < 200 and "Text(0, 4096, charset=<" in text and "Box(0, 255, (128, 64, 3)" in text


def test_gym_make_needs_no_separate_import() -> None:
    import subprocess
    import sys

    code = (
        "import gymnasium as gym\n"
        "env = gym.make('devicesworld.gym:devicesworld/BmocaAirplaneOn-v0')\n"
        "obs, info = env.reset(seed=0)\n"
        "print(type(obs).__name__, len(obs) > 0)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "str True"


def test_without_gymnasium_the_error_names_the_extra(monkeypatch: pytest.MonkeyPatch) -> None:
    import importlib
    import sys

    for name in [
        m for m in sys.modules if m == "gymnasium" or m.startswith(("gymnasium.", "devicesworld.gym"))
    ]:
        monkeypatch.delitem(sys.modules, name)
    monkeypatch.setitem(sys.modules, "gymnasium", None)
    with pytest.raises(ModuleNotFoundError, match=r"pip install 'devicesworld\[rl\]'"):
        importlib.import_module("devicesworld.gym")
