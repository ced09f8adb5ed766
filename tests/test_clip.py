from __future__ import annotations

from devicesworld.clip import clip, clip_repr


def test_short_text_is_shown_whole() -> None:
    assert clip("android_0") == "android_0"
    assert clip("x" * 200) == "x" * 200


def test_long_text_is_cut_and_its_length_given() -> None:
    assert clip("x" * 3_000_000) == "x" * 200 + "… (3000000 chars)"
    assert clip_repr("ab" * 10, limit=5) == "'abab… (22 chars)"
