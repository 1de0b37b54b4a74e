"""Indices mixing ints with index lists, tensors or masks take the ints first, as in Paddle (``c[0, :, [0, 2]]``
is [3, 2], where numpy's rule gives [2, 3]): values, gradients and writes against Paddle 3.3.1
(``tests/record_paddle_mixed_index.py``), the same under ``jax.jit`` and in a traced PyLayer-free function."""

from __future__ import annotations

import json
import os

import jax
import jax.numpy as jnp
import numpy as np
import pytest
from mixed_index_cases import INDICES, index, tensor, weights

import pylayer_jax as paddle

with open(os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "data",
                       "paddle_mixed_index.json")) as _f:
    REF = json.load(_f)


@pytest.mark.parametrize("key", INDICES)
def test_mixed_index_matches_paddle(key):
    ref = REF[key]
    c = tensor(paddle, stop_gradient=False)
    r = c[index(paddle, key)]
    assert r.shape == ref["shape"]
    np.testing.assert_array_equal(r.numpy().ravel(), ref["values"])
    (r * paddle.to_tensor(weights(r.shape))).sum().backward()
    np.testing.assert_array_equal(c.grad.numpy().ravel(), ref["grad"])
    w = tensor(paddle)
    w[index(paddle, key)] = paddle.to_tensor(-weights(r.shape))
    np.testing.assert_array_equal(w.numpy().ravel(), ref["written"])


def test_ints_first_differs_from_numpy_where_paddle_does():
    a = np.arange(24, dtype="float32").reshape(2, 3, 4)
    r = tensor(paddle)[0, :, [0, 2]]
    assert a[0, :, [0, 2]].shape == (2, 3)  # numpy's rule: the int counts as an index array
    np.testing.assert_array_equal(r.numpy(), a[0][:, [0, 2]])  # Paddle's: the int first


def test_mixed_index_with_none_keeps_the_rule():
    # (Paddle 3.3.1 returns [1, 2, 4] here, reading rows outside c[0]; the int-first rule gives c[0][None][:, :, idx])
    a = np.arange(24, dtype="float32").reshape(2, 3, 4)
    r = tensor(paddle)[0, None, :, [1, 3]]
    np.testing.assert_array_equal(r.numpy(), a[0][None][:, :, [1, 3]])


def test_mixed_index_under_jit_and_grad():
    a = jnp.arange(24, dtype=jnp.float32).reshape(2, 3, 4)

    def f(v):
        return (paddle.Tensor(v)[1, :, paddle.to_tensor([0, 3])] * jnp.asarray(weights([3, 2]))).sum()._v

    g = jax.jit(jax.grad(lambda v: f(v)))(a)
    want = np.zeros((2, 3, 4), "float32")
    want[1][:, [0, 3]] = weights([3, 2])
    np.testing.assert_array_equal(np.asarray(g), want)
