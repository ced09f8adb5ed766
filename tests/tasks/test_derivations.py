"""The operations a derivation may name recompute their results (quality control relies on it)."""

from __future__ import annotations

import pytest

from devicesworld.tasks.derivations import OPERATIONS, Derivation, DerivationError


def test_a_share_splits_an_amount_evenly_to_the_cent_and_a_tampered_one_does_not_recompute() -> None:
    assert Derivation("share", (137.7,), {"ways": 3}, 45.9).recompute() == 45.9
    assert Derivation("share", (137.7,), {"ways": 3}, 68.85).recompute() != 68.85
    assert OPERATIONS["share"](100, 3) == 33.33
    with pytest.raises(DerivationError, match="share"):
        OPERATIONS["share"](100, 1)
