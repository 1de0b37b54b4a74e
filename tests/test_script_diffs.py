"""Ordinary Paddle script code against Paddle 3.3.1's recorded results (cases: ``tests/script_diff_cases.py``,
recorded by ``tests/record_paddle_script_diffs.py``): each entry is a value, dtype, shape or error type that
differed silently before."""

from __future__ import annotations

import copy
import json
import os
import sys

import numpy as np
import pytest

import pylayer_jax as paddle

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from recorded import Recorded, assert_close  # noqa: E402
from script_diff_cases import record  # noqa: E402

with open(os.path.join(os.path.dirname(os.path.abspath(__file__)), "data", "paddle_script_diffs.json")) as _f:
    REF = json.load(_f)
REF.pop("paddle")
OURS = Recorded(record, paddle)


def _close(ours: object, ref: object, key: str) -> None:
    """Equal structure, numbers within float32 rounding (Paddle's kernels round differently in the last digits)."""
    assert_close(ours, ref, key, rtol=1e-5)


@pytest.mark.parametrize("key", sorted(REF))
def test_as_paddle(key: str) -> None:
    _close(OURS[key], REF[key], key)


def test_every_case_recorded() -> None:
    assert sorted(OURS) == sorted(REF)


def test_inplace_mixed_dtypes_raise_with_the_fix() -> None:
    x = paddle.ones([3], "int64")
    with pytest.raises(TypeError, match=r"Tensor\.add_: .*both are floating point.*x is int64 and y is float32.*astype"):
        x.add_(paddle.to_tensor(1.5))
    np.testing.assert_array_equal(x.numpy(), [1, 1, 1])  # left as it was
    with pytest.raises(TypeError, match=r"Tensor\.multiply_: .*x is float32 and y is int64"):
        paddle.ones([2]).multiply_(paddle.to_tensor(2))


def test_where_with_one_of_x_y_raises() -> None:
    c = paddle.to_tensor([True, False])
    with pytest.raises(ValueError, match=r"paddle\.where: give both x and y \(or neither.*but y is None"):
        paddle.where(c, paddle.ones([2]))


def test_optimizer_state_resumes_by_parameter_names() -> None:
    """Loaded into parameters of the same names (a resumed script), the state continues the update exactly; for
    other names the step raises, naming the missing accumulator and the fix."""
    x = paddle.to_tensor([[1.0, 2.0], [-1.0, 0.5]])

    def make() -> tuple:
        lin = paddle.nn.Linear(2, 2)
        lin.weight.set_value(paddle.to_tensor([[0.1, -0.2], [0.3, 0.4]]))
        return lin, paddle.optimizer.Adam(0.1, parameters=lin.parameters())

    def step(lin: object, opt: object) -> None:
        (lin(x) ** 2).mean().backward()
        opt.step()
        opt.clear_grad()

    a, oa = make()
    step(a, oa)
    # (both state dicts hold the live Tensors, as Paddle's: a later step shows in them, so copy this step's values)
    state, weights = copy.deepcopy(oa.state_dict()), {k: v.numpy() for k, v in a.state_dict().items()}
    step(a, oa)
    with paddle.utils.unique_name.guard():  # a resumed script's process: accumulator names start at _0 again
        b, ob = make()
        for p, q in zip(b.parameters(), a.parameters()):
            p.name = q.name
        b.set_state_dict(weights)
        ob.set_state_dict(state)
        step(b, ob)
    np.testing.assert_allclose(b.weight.numpy(), a.weight.numpy(), rtol=1e-6)
    c, oc = make()
    oc.set_state_dict(state)
    (c(x) ** 2).mean().backward()
    with pytest.raises(AssertionError, match=r"Adam\.step: the state loaded by set_state_dict has no .*moment1_0.* "
                                             r"for the parameter .*same names"):
        oc.step()
