"""``CrossDeviceEnv.phase_timings``: the seconds per phase of the devices that time them, taken once."""

from __future__ import annotations

from devicesworld.env import CrossDeviceEnv
from devicesworld.spec import Task
from tests.toykind import toy_task


class Timed:
    """Stands in for a GUI desktop device: it hands out its phases once."""

    def __init__(self) -> None:
        self.phases = {"input": 0.001, "settle": 0.05}

    def take_phases(self) -> dict[str, float]:
        out, self.phases = self.phases, {}
        return out


def test_only_devices_that_time_their_phases_report_and_each_figure_is_taken_once() -> None:
    with CrossDeviceEnv(Task.model_validate(toy_task())) as env:
        env.reset()
        assert env.phase_timings() == {}  # the toy kind times nothing
        env._devices["gui_0"] = Timed()  # type: ignore[assignment]
        assert env.phase_timings() == {"gui_0": {"input": 0.001, "settle": 0.05}}
        assert env.phase_timings() == {}
        del env._devices["gui_0"]
