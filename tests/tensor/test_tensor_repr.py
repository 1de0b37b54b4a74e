"""Tensor repr against strings recorded from real Paddle 3.3.1 (tests/data/paddle_reprs.json)."""

from __future__ import annotations

import json
from pathlib import Path

import jax
import numpy as np
import pytest

import pylayer_jax as P

RECORDED = json.loads(Path(__file__).resolve().parents[1].joinpath("data").joinpath("paddle_reprs.json").read_text())["cases"]


@pytest.mark.parametrize("case", RECORDED, ids=[f"{c['data'][:40]}-{c['dtype']}" for c in RECORDED])
def test_repr_matches_paddle(case: dict) -> None:
    data = eval(case["data"])  # the expression the Paddle string was recorded with
    t = P.to_tensor(data, dtype=case["dtype"]) if case["dtype"] else P.to_tensor(data)
    assert str(t) == case["repr"]
    assert repr(t) == case["repr"]


def test_repr_shows_stop_gradient_false() -> None:
    t = P.to_tensor([1.0, 2.0], stop_gradient=False)
    assert str(t) == (
        "Tensor(shape=[2], dtype=float32, place=Place(cpu), stop_gradient=False,\n"
        "       [1., 2.])"
    )


def test_repr_bfloat16_prints_its_name_and_float_values() -> None:
    t = P.to_tensor([1.5, 2.0], dtype="bfloat16")
    assert str(t) == (
        "Tensor(shape=[2], dtype=bfloat16, place=Place(cpu), stop_gradient=True,\n"
        "       [1.50000000, 2.        ])"
    )


def test_dtype_objects_print_as_paddle() -> None:
    assert repr(P.float32) == "paddle.float32"
    assert str(P.int64) == "paddle.int64"
    assert P.to_tensor([1.0]).dtype == P.float32
    assert P.to_tensor([1.0]).dtype == "float32"


def test_repr_of_a_traced_tensor_does_not_need_values() -> None:
    seen = []

    def f(a):
        t = P.Tensor(a)
        seen.append(repr(t))
        return a

    jax.jit(f)(np.ones(2, np.float32))
    assert "shape=[2]" in seen[0] and "float32" in seen[0] and "traced" in seen[0]
