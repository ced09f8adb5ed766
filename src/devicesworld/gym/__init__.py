"""Gymnasium environments for single-phone tasks (B-MoCA's interface); needs the ``rl`` extra.

Importing this package registers:

* ``devicesworld/Phone-v0``: any single-phone task, ``gym.make("devicesworld/Phone-v0",
  task_id="bmoca-alarm-0630", suite="bmoca")``;
* ``devicesworld/<Name>-v0`` for every task of the ``bmoca`` suite (``Bmoca`` + the
  task's name in CamelCase, e.g. ``devicesworld/BmocaAlarm0630-v0``).

Every environment takes ``obs_mode`` (text/pixel/both), ``action_set``
(discrete/continuous), ``reward`` (sparse/dense) and ``split`` (train/test) keyword
arguments; see :class:`PhoneTaskEnv`.

Gymnasium 1.x loads no plugins, so an id is found without importing this package
first through Gymnasium's ``module:id`` form, which imports the module itself::

    gym.make("devicesworld.gym:devicesworld/BmocaAlarm0630-v0")
"""

from __future__ import annotations

from devicesworld.extras import MissingExtra, advice

try:
    import gymnasium as gym
except ModuleNotFoundError as _exc:
    if _exc.name != "gymnasium":
        raise
    raise MissingExtra(advice("gymnasium", "devicesworld.gym"), name="gymnasium") from None

from devicesworld.gym.env import PhoneTaskEnv

ENTRY_POINT = "devicesworld.gym.env:PhoneTaskEnv"


def env_ids() -> dict[str, str]:
    """Registered per-task environment ids and their task ids."""
    from devicesworld.tasks.suites.bmoca import task_names

    return {f"devicesworld/{name}-v0": task_id for name, task_id in task_names().items()}


def register_envs() -> None:
    """Register the environments (idempotent)."""
    if "devicesworld/Phone-v0" not in gym.registry:
        gym.register(id="devicesworld/Phone-v0", entry_point=ENTRY_POINT)
    for env_id, task_id in env_ids().items():
        if env_id not in gym.registry:
            gym.register(id=env_id, entry_point=ENTRY_POINT, kwargs={"task_id": task_id, "suite": "bmoca"})


register_envs()

__all__ = ["PhoneTaskEnv", "env_ids", "register_envs"]
