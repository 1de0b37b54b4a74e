"""``paddle.compat`` and ``paddle.compat.nn`` (Paddle 3.3.1's torch-signature functions and layers): the cases of
``tests/small_package_cases.py`` (part ``compat``) against Paddle's results, and the misuse errors' messages."""

from __future__ import annotations

import sys

import jax
import jax.numpy as jnp
import numpy as np
import pytest
from small_package_checks import check, part

import pylayer_jax as paddle

REF, OURS, KEYS = part("compat")
# recorded entries where this package differs on purpose: key -> what it gives instead of Paddle 3.3.1's error
DIFFERS = {
    "mha_err_heads": {"error": "ValueError"},  # Paddle: a bare assert (AssertionError)
}


@pytest.mark.parametrize("key", sorted(set(KEYS) - set(DIFFERS)))
def test_as_paddle(key: str) -> None:
    check(OURS[key], REF[key], key)


@pytest.mark.parametrize("key", sorted(DIFFERS))
def test_differs_on_purpose(key: str) -> None:
    assert REF[key]["error"] in ("AssertionError", "TypeError") and OURS[key] == DIFFERS[key]


def test_every_case_recorded() -> None:
    assert sorted(OURS) == sorted(KEYS)


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
    (lambda x: paddle.compat.nn.functional.pad(x, [1, 1], mode="edge"), ValueError,
     r"mode should be one of constant, reflect, replicate, circular, but received 'edge'"),
    (lambda x: paddle.compat.nn.functional.pad(x[0], [1, 1], mode="reflect"), ValueError,
     r"non-constant padding are supported, but the input has 1 dims"),
    (lambda x: paddle.compat.nn.functional.pad(x, [1, 1, 1]), ValueError, r"pad must hold \(before, after\) pairs"),
    (lambda x: paddle.compat.nn.Unfold(kernel_sizes=2), TypeError, r"compat.nn.Unfold\(\) received .*'kernel_sizes'.*paddle.nn.Unfold"),
    (lambda x: paddle.compat.nn.MultiheadAttention(8, 3), ValueError, r"embed_dim \(8\) must be divisible by num_heads \(3\)"),
    (lambda x: paddle.compat.nn.functional.scaled_dot_product_attention(x, x, x, attn_mask=x, is_causal=True),
     RuntimeError, r"attn_mask should not be set when is_causal=True"),
])
def test_compat_misuse(call, exc, match) -> None:  # noqa: ANN001
    with pytest.raises(exc, match=match):
        call(paddle.to_tensor(np.ones((3, 4), "float32")))


def test_torch_proxy_switches() -> None:
    """paddle.compat's names of the torch proxy's switches are paddle.enable_compat / disable_compat themselves;
    use_torch_proxy_guard turns the proxy on (or off) for a block and puts it back."""
    import importlib

    assert paddle.compat.enable_torch_proxy is paddle.enable_compat
    assert paddle.compat.disable_torch_proxy is paddle.disable_compat
    with paddle.compat.use_torch_proxy_guard():
        assert importlib.import_module("torch").sin is paddle.sin
        with paddle.compat.use_torch_proxy_guard(enable=False):
            assert "torch" not in sys.modules or sys.modules["torch"].__dict__.get("sin") is not paddle.sin
        assert importlib.import_module("torch").sin is paddle.sin
    assert "torch" not in sys.modules or sys.modules["torch"].__dict__.get("sin") is not paddle.sin
    with pytest.raises(NotImplementedError, match=r"torch proxy is global, with no blocked modules"):
        paddle.compat.extend_torch_proxy_blocked_modules(["tvm_ffi"])
    with pytest.raises(NotImplementedError, match=r"a scope .* is not supported"):
        with paddle.compat.use_torch_proxy_guard(scope="mymod"):
            pass
