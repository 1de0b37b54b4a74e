"""``paddle.vision.ops`` detection operators against Paddle 3.3.1 (cases ``tests/vision_ops_cases.py``, recorded
by ``tests/record_paddle_vision_ops.py``): values of roi_align / roi_pool / psroi_pool / deform_conv2d (and their
Layers), box_coder, yolo_box and prior_box to float32 rounding, and the gradients of the differentiable ones with
respect to every input Paddle differentiates; the table ops' gradients are also checked against ``jax.vjp`` by
``tests/ops/test_ops_generated.py`` (samples in ``tests/op_samples.py``).
"""

from __future__ import annotations

import json
import os
import sys

import jax
import numpy as np
import pytest

import pylayer_jax as paddle
from pylayer_jax._ops.table import TABLE

TESTS = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, TESTS)
import vision_ops_cases as C  # noqa: E402

with open(os.path.join(TESTS, "data", "paddle_vision_ops.json")) as _f:
    REF = json.load(_f)
ARR = np.load(os.path.join(TESTS, "data", "paddle_vision_ops.npz"))
V = paddle.vision.ops


def _bind(inputs, grads):
    env = {"V": V, "paddle": paddle, "np": np}
    for k, spec in inputs.items():
        env[k] = paddle.to_tensor(C.make(*spec), stop_gradient=k not in grads)
    return env


@pytest.mark.parametrize("case", C.CASES, ids=[c[0] for c in C.CASES])
def test_op_as_paddle(case):
    name, inputs, expr, grads = case
    env = _bind(inputs, grads)
    out = eval(expr, env)
    outs = list(out) if isinstance(out, (tuple, list)) else [out]
    for i, o in enumerate(outs):
        ref = ARR[f"{name}/out{i}"]
        assert o.shape == list(ref.shape) and str(o.numpy().dtype) == str(ref.dtype), (name, i)
        np.testing.assert_allclose(o.numpy(), ref, rtol=2e-5, atol=2e-5, err_msg=f"{name}/out{i}")
        assert o.stop_gradient is (not grads), name
    if grads:
        o = outs[0]
        w = paddle.to_tensor(np.cos(np.arange(o.size)).reshape(o.shape).astype("float32"))
        got = paddle.grad((o * w).sum(), [env[g] for g in grads])
        for g, v in zip(grads, got):
            np.testing.assert_allclose(v.numpy(), ARR[f"{name}/grad/{g}"], rtol=2e-5, atol=2e-5,
                                       err_msg=f"{name}/grad/{g}")
