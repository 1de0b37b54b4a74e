"""Paddle 3.3.1's small public packages (``paddle.compat``, ``version``, ``sysconfig``, ``onnx``,
``decomposition``, ``cost_model``, ``quantization``, ...): the cases of ``tests/small_package_cases.py`` against
Paddle's results (``tests/record_paddle_small_packages.py``), and the misuse errors' messages."""

from __future__ import annotations

import os
import sys

import jax
import jax.numpy as jnp
import numpy as np
import pytest

import pylayer_jax as paddle

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from recorded import Recorded, assert_close, paddle_fixture  # noqa: E402
from small_package_cases import record  # noqa: E402

REF = paddle_fixture("paddle_small_packages.json")
OURS = Recorded(record, paddle)


def _lists(v: object) -> object:
    if isinstance(v, dict):
        return [[k, _lists(v[k])] for k in sorted(v)]
    return [_lists(x) for x in v] if isinstance(v, list) else v


def _nan_free(v: object) -> object:
    """NaN as a string (so that a recorded NaN compares equal to ours)."""
    if isinstance(v, float) and v != v:
        return "nan"
    return [_nan_free(x) for x in v] if isinstance(v, list) else v


@pytest.mark.parametrize("key", sorted(REF))
def test_as_paddle(key: str) -> None:
    assert_close(_nan_free(_lists(OURS[key])), _nan_free(_lists(REF[key])), key, rtol=1e-6)


def test_every_case_recorded() -> None:
    assert sorted(OURS) == sorted(REF)


# ---- paddle.compat: what differs from Paddle on purpose, and the messages


def test_compat_slogdet_gradient() -> None:
    """Paddle 3.3.1's slogdet_v2 gradient is NaN on CPU; here it is d log|det A| / dA = inv(A)^T (jax.grad)."""
    a = np.array([[[2.0, 1.0], [1.0, 3.0]], [[0.0, 1.0], [1.0, 0.0]]])
    x = paddle.to_tensor(a, stop_gradient=False)
    r = paddle.compat.slogdet(x)
    (r.logabsdet * paddle.to_tensor([1.0, 2.0], dtype="float64")).sum().backward()
    want = jax.grad(lambda m: (jnp.linalg.slogdet(m)[1] * jnp.array([1.0, 2.0])).sum())(jnp.asarray(a))
    np.testing.assert_allclose(x.grad.numpy(), want, rtol=1e-10)


def test_compat_equal_promotes_both_ways() -> None:
    """Paddle 3.3.1 casts both to the second argument's dtype (its table lookup is miswritten), so
    equal([1.5], [1]) is True there; here both promote to the common dtype, as documented."""
    assert not paddle.compat.equal(paddle.to_tensor([1.5]), paddle.to_tensor([1]))
    assert not paddle.compat.equal(paddle.to_tensor([1]), paddle.to_tensor([1.5]))
    assert paddle.compat.equal(paddle.to_tensor([2], dtype="uint8"), paddle.to_tensor([2], dtype="int8"))


@pytest.mark.parametrize("call, exc, match", [
    (lambda x: paddle.compat.min(x, axis=1), TypeError, r"compat.min\(\) received unexpected keyword argument 'axis'.*paddle.min"),
    (lambda x: paddle.compat.max(x, None), TypeError, r"compat.max: invalid arguments.*dim cannot be None"),
    (lambda x: paddle.compat.max(x, 1.0), TypeError, r"must be an int dim or a Tensor, but received float"),
    (lambda x: paddle.compat.min(x, keepdim=True), TypeError, r"keepdim needs a dim"),
    (lambda x: paddle.compat.min(x, other=1), TypeError, r"other must be a Tensor"),
    (lambda x: paddle.compat.min([1.0]), TypeError, r"input must be a Tensor, but received list"),
    (lambda x: paddle.compat.max(paddle.to_tensor([1, 2], stop_gradient=False)), TypeError, r"integer type"),
    (lambda x: paddle.compat.max(x, 1, out=paddle.zeros([3])), TypeError, r"out must be a list or tuple of two"),
    (lambda x: paddle.compat.median(x, out=(x, x)), TypeError, r"out must be a single Tensor"),
    (lambda x: paddle.compat.sort(x, axis=0), TypeError, r"compat.sort\(\) received .*'axis'.*paddle.sort"),
    (lambda x: paddle.compat.split(x, 0), ValueError, r"must be greater than 0, but received 0"),
    (lambda x: paddle.compat.split(x, [2, -1], 1), ValueError, r"non-negative, but size -1"),
    (lambda x: paddle.compat.split(x, [1, 1], 1), ValueError, r"must sum to the size 4 of dim 1"),
    (lambda x: paddle.compat.split(x, 2, 2), ValueError, r"dim must be in \[-2, 2\), but received 2"),
    (lambda x: paddle.compat.split(x, 2.0), TypeError, r"must be an int or a list / tuple of ints, but received float"),
    (lambda x: paddle.compat.equal(x=x, y=x), TypeError, r"keyword arguments 'x', 'y'.*paddle.equal"),
])
def test_compat_misuse(call, exc, match) -> None:  # noqa: ANN001
    with pytest.raises(exc, match=match):
        call(paddle.to_tensor(np.ones((3, 4), "float32")))
