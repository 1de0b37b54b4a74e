"""Shared by the tests of moving indexes and slices (``tensor/test_moving_index.py``, ``tensor/test_moving_slices.py``):
a fresh count of the positions each index form took, and which op made a Tensor."""

from __future__ import annotations

import pytest

import pylayer_jax as P
from pylayer_jax._tensor import methods


@pytest.fixture(autouse=True)
def _fresh_positions(monkeypatch: pytest.MonkeyPatch) -> None:
    """Each test starts with no form seen (the positions other tests took stay theirs)."""
    monkeypatch.setattr(methods, "_POSITIONS", {})
    monkeypatch.setattr(methods, "_FORMS", {})


def _op(t: P.Tensor) -> str:
    return t._edge[0].op.name
