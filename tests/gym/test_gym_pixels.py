"""Pixel observations come straight from the renderer and equal the (lossless) PNG screenshot, downscaled."""

from __future__ import annotations

import io

import numpy as np
import pytest
from PIL import Image

from devicesworld.gym.env import PhoneTaskEnv


def test_direct_pixels_equal_the_png_path() -> None:
    env = PhoneTaskEnv(task_id="bmoca-open-clock", obs_mode="pixel")
    obs, _ = env.reset(seed=0, options={"profile": "test_04"})
    assert env._env is not None
    png = env._env.screenshots()[env.phone]
    h, w = env.pixel_shape
    via_png = (
        Image.open(io.BytesIO(png)).convert("RGB").resize((w, h), Image.Resampling.BILINEAR, reducing_gap=2.0)
    )
    assert np.array_equal(obs, np.asarray(via_png, dtype=np.uint8))
    frame = env.render()
    assert frame is None  # no render_mode
    env.close()


def test_render_gives_the_full_frame() -> None:
    env = PhoneTaskEnv(task_id="bmoca-open-clock", obs_mode="text", render_mode="rgb_array")
    env.reset(seed=0, options={"profile": "train_00"})
    frame = env.render()
    assert frame is not None and frame.ndim == 3 and frame.shape[0] > frame.shape[1] > 500
    env.close()


def test_unknown_device_is_a_clear_error() -> None:
    env = PhoneTaskEnv(task_id="bmoca-open-clock")
    env.reset(seed=0)
    assert env._env is not None
    with pytest.raises(KeyError, match="no device 'nope'"):
        env._env.device("nope")
    env.close()
