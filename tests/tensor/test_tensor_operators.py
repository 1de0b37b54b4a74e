"""Python operators and indexing on Tensors.

Operator results (dtype, shape, values) were recorded from Paddle 3.3.1 in
tests/data/paddle_operators.json; indexing is checked against numpy's semantics.
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

import pylayer_jax as P
from pylayer_jax import Tensor

RECORDED = json.loads(Path(__file__).resolve().parents[1].joinpath("data").joinpath("paddle_operators.json").read_text())["cases"]


def _operands() -> dict:
    return {
        "P": P,
        "a": P.to_tensor([[-3.5, 2.0, 7.25], [1.0, -0.5, 4.0]]),
        "b": P.to_tensor([2.0, -1.5, 3.0]),
        "i": P.to_tensor([[-7, 2, 9], [4, -5, 6]]),
        "j": P.to_tensor([2, -3, 4]),
        "bt": P.to_tensor([True, False, True]),
        "bf": P.to_tensor([False, False, True]),
    }


@pytest.mark.parametrize("case", RECORDED, ids=[c["expr"] for c in RECORDED])
def test_operator_matches_paddle(case: dict) -> None:
    r = eval(case["expr"], _operands())
    assert isinstance(r, Tensor)
    assert r.dtype.name == case["dtype"]
    assert r.shape == case["shape"]
    if case["dtype"] == "bool":
        assert r.tolist() == case["values"]
    else:
        np.testing.assert_allclose(r.numpy().astype(np.float64), case["values"], rtol=1e-4, atol=1e-5)


def test_operators_record_gradients() -> None:
    x = P.to_tensor([1.0, 2.0, 3.0], stop_gradient=False)
    w = P.to_tensor([0.5, -1.0, 2.0], stop_gradient=False)
    y = (x * w + x / w - 2.0 * x + x**2 - 1.0 / x + (-x)) @ w
    y.backward()
    xv, wv = np.array([1.0, 2.0, 3.0]), np.array([0.5, -1.0, 2.0])
    dx = (wv + 1 / wv - 2 + 2 * xv + 1 / xv**2 - 1) * wv
    inner = xv * wv + xv / wv - 2 * xv + xv**2 - 1 / xv - xv
    dw = (xv - xv / wv**2) * wv + inner
    np.testing.assert_allclose(x.grad.numpy(), dx, rtol=1e-5)
    np.testing.assert_allclose(w.grad.numpy(), dw, rtol=1e-5)


def test_comparisons_do_not_record() -> None:
    x = P.to_tensor([1.0, 2.0], stop_gradient=False)
    m = x > 1.5
    assert m.dtype == P.bool and m.stop_gradient is True


# ---- __getitem__ ----------------------------------------------------------------------------
_BASE = np.arange(60, dtype=np.float32).reshape(3, 4, 5)


@pytest.mark.parametrize(
    "index",
    [
        1, -1, (1, 2), (1, 2, 3), slice(None, None, 2), slice(None, None, -1), (slice(1, None), slice(None, None, 2)),
        (Ellipsis, 1), (None, 1), (1, None, Ellipsis, None), (slice(None), None, 0), [0, 2], ([0, 2], [1, 3]),
        (slice(None), [3, 0, 0]), np.array([[0, 1], [2, 2]]), (Ellipsis, slice(4, 0, -2)),
    ],
    ids=lambda ix: repr(ix).replace(" ", ""),
)
def test_getitem_matches_numpy(index) -> None:
    t = P.to_tensor(_BASE)
    got = t[index]
    want = _BASE[index if not isinstance(index, list) else np.asarray(index)]
    assert got.shape == list(want.shape)
    np.testing.assert_array_equal(got.numpy(), want)


def test_getitem_with_tensors() -> None:
    t = P.to_tensor(_BASE)
    np.testing.assert_array_equal(t[P.to_tensor([2, 0])].numpy(), _BASE[[2, 0]])
    np.testing.assert_array_equal(t[1, P.to_tensor([0, 3])].numpy(), _BASE[1, [0, 3]])
    mask = np.array([True, False, True])
    np.testing.assert_array_equal(t[P.to_tensor(mask)].numpy(), _BASE[mask])
    m2 = _BASE[:, :, 0] > 20
    np.testing.assert_array_equal(t[P.to_tensor(m2)].numpy(), _BASE[m2])
    # recorded from Paddle: x[[True, False]] on [[1, 2], [3, 4]] -> [[1, 2]]
    assert P.to_tensor([[1, 2], [3, 4]])[P.to_tensor([True, False])].tolist() == [[1, 2]]
    assert t[P.to_tensor(1)].shape == [4, 5]


def test_getitem_gradient_scatters_back() -> None:
    x = P.to_tensor(np.arange(6, dtype=np.float64).reshape(2, 3), stop_gradient=False)
    y = x[:, ::2] * 2.0 + x[P.to_tensor([1, 1])].sum(0)[None, :2]
    y.sum().backward()
    want = np.zeros((2, 3))
    want[:, ::2] += 2.0
    want[1, :2] += 2 * 2  # row 1 gathered twice, added to both columns of y's 2 rows
    np.testing.assert_allclose(x.grad.numpy(), want)


# ---- __setitem__ ----------------------------------------------------------------------------
@pytest.mark.parametrize(
    "index,value",
    [
        (1, 7.0), ((0, 2), -1.0), (slice(None, None, 2), np.ones(5, np.float32)), ((Ellipsis, 0), 3.0),
        ([0, 2], np.full((2, 4, 5), 9.0, np.float32)), ((slice(None), [1, 3]), 0.5),
    ],
    ids=lambda v: repr(v).replace(" ", "")[:30],
)
def test_setitem_matches_numpy(index, value) -> None:
    t = P.to_tensor(_BASE)
    want = _BASE.copy()
    want[index] = value
    v0 = t.inplace_version
    t[index] = value
    np.testing.assert_array_equal(t.numpy(), want)
    assert t.dtype == P.float32
    assert t.inplace_version == v0 + 1


def test_setitem_with_tensor_value_and_index() -> None:
    t = P.to_tensor(np.zeros((3, 2), np.int64))
    t[P.to_tensor([2, 0])] = P.to_tensor([[1, 2], [3, 4]])
    assert t.tolist() == [[3, 4], [0, 0], [1, 2]]
    t[P.to_tensor([True, False, True])] = 5
    assert t.tolist() == [[5, 5], [0, 0], [5, 5]]


def test_setitem_gradients_flow_to_value_and_base() -> None:
    x = P.to_tensor([1.0, 2.0, 3.0], stop_gradient=False)
    v = P.to_tensor(10.0, stop_gradient=False)
    y = x * 1.0
    y[1] = v * 2.0
    (y * P.to_tensor([1.0, 2.0, 3.0])).sum().backward()
    assert x.grad.tolist() == [1.0, 0.0, 3.0]  # the overwritten element gets no gradient
    assert v.grad.item() == 4.0


def test_setitem_on_a_constant_with_a_grad_value_joins_the_graph() -> None:
    c = P.to_tensor([0.0, 0.0])
    v = P.to_tensor(3.0, stop_gradient=False)
    c[0] = v
    assert c.stop_gradient is False and not c.is_leaf
    (c * 5.0).sum().backward()
    assert v.grad.item() == 5.0


def test_setitem_on_leaf_that_needs_grad_raises() -> None:
    # Paddle: ValueError "Leaf Tensor (...) that doesn't stop gradient can't use inplace strategy."
    x = P.to_tensor([1.0, 2.0], stop_gradient=False)
    with pytest.raises(ValueError, match=r"Leaf Var \(.*\) that doesn't stop gradient can't use inplace strategy"):
        x[0] = 5.0
    with P.no_grad():
        x[0] = 5.0
    assert x.tolist() == [5.0, 2.0]


@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_number_minus_tensor_is_one_subtract(dtype: str) -> None:
    """``1 - y`` lowers to one ``sub`` (as a hand-written ``1 - y`` in jax), with jax.grad's gradient."""
    import jax
    import jax.numpy as jnp

    y0 = np.array([0.25, -1.5, 3.0], dtype)
    jaxpr = jax.make_jaxpr(lambda y: (1 - Tensor(y))._value)(jnp.asarray(y0))
    assert [e.primitive.name for e in jaxpr.jaxpr.eqns] == ["sub"]
    y = P.to_tensor(y0, stop_gradient=False)
    z = 2.5 - y * y
    z.sum().backward()
    assert z.dtype.name == dtype
    np.testing.assert_array_equal(z.numpy(), 2.5 - y0 * y0)
    ref = jax.grad(lambda v: jnp.sum(2.5 - v * v))(jnp.asarray(y0))
    np.testing.assert_array_equal(y.grad.numpy(), np.asarray(ref))


def test_number_minus_integer_tensor_keeps_paddle_dtypes() -> None:
    i = P.to_tensor([1, 2, 3])
    assert (1 - i).dtype.name == "int64" and (1 - i).numpy().tolist() == [0, -1, -2]
    assert (1.5 - i).dtype.name == "float32" and (1.5 - i).numpy().tolist() == [0.5, -0.5, -1.5]


def test_negating_by_scale_keeps_signed_zeros_and_specials() -> None:
    """``scale(x, -1, b)`` written as ``b - x`` is ``x * -1 + b`` exactly (numpy computes the latter)."""
    x0 = np.array([0.0, -0.0, np.inf, -np.inf, np.nan, 1.5, -2.25], np.float32)
    for b in (0.0, 1, 2.5):  # (not -0.0: the kernel cache keys it as 0.0, with or without this rewrite)
        got = (b - P.to_tensor(x0)).numpy()
        want = x0 * np.float32(-1) + np.float32(b)
        np.testing.assert_array_equal(got, want)
        assert np.array_equal(np.signbit(got), np.signbit(want))
    got = (P.to_tensor(x0) * -1).numpy()
    np.testing.assert_array_equal(np.signbit(got), np.signbit(x0 * np.float32(-1) + np.float32(0.0)))


@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_a_number_exponent_is_compiled_in(dtype: str) -> None:
    """``x ** 2`` with a Python number is jax's ``x ** 2`` (one ``integer_pow``, no general ``pow`` of an exponent
    passed as an input): the same values and jax.grad's gradient, by the operator, ``Tensor.pow`` and
    ``paddle.pow``; a float exponent likewise."""
    import jax
    import jax.numpy as jnp

    from pylayer_jax._ops.table import TABLE

    x0 = np.array([0.0, -0.0, 1.5, -2.0, 0.25], dtype)
    jaxpr = jax.make_jaxpr(lambda x: TABLE["pow_number"].fn(x, 2))(jnp.asarray(x0))
    assert [e.primitive.name for e in jaxpr.jaxpr.eqns] == ["integer_pow"]
    node = (P.to_tensor(x0, stop_gradient=False) ** 2)._edge[0]  # the eager op: the exponent in its kernel key
    assert node.op is TABLE["pow_number"] and node.key[1] == (2,)
    for power in (lambda t: t ** 2, lambda t: t.pow(2), lambda t: P.pow(t, 2, name="sq"), lambda t: t ** 3.0,
                  lambda t: P.pow(t, -1)):
        x = P.to_tensor(x0, stop_gradient=False)
        y = power(x)
        y.sum().backward()
        ref, vjp = jax.vjp(lambda v, f=power: f(Tensor(v))._value, jnp.asarray(x0))
        assert y.dtype.name == dtype
        np.testing.assert_array_equal(y.numpy(), np.asarray(ref))
        np.testing.assert_array_equal(x.grad.numpy(), np.asarray(vjp(jnp.ones_like(ref))[0]))
    np.testing.assert_array_equal((P.to_tensor(x0) ** 2).numpy(), x0 * x0)


def test_exponents_not_compiled_in_keep_pows_rules() -> None:
    """An integer base keeps its dtype and its negative-power error; a NaN exponent gives NaN (it is not compiled
    in: no kernel key would find it again); a Tensor exponent is the general power."""
    i = P.to_tensor([7, -7, 3])
    assert (i ** 2).dtype.name == "int64" and (i ** 2).tolist() == [49, 49, 9]
    with pytest.raises(ValueError, match="negative integer power"):
        i ** -1
    assert (2 ** P.to_tensor([3, 0, 1])).tolist() == [8, 1, 2]
    with pytest.raises(ValueError, match=r"pow: an integer raised to a negative integer power .* holds -7"):
        2 ** i
    assert np.isnan((P.to_tensor([2.0, 3.0]) ** float("nan")).numpy()).all()
    x = P.to_tensor([2.0, 3.0])
    np.testing.assert_allclose((x ** P.to_tensor([3.0, 0.5])).numpy(), [8.0, np.sqrt(3.0)], rtol=1e-6)


def test_only_whole_or_half_exponents_are_compiled_in() -> None:
    """A whole or half exponent from -16 to 16 is in the kernel's key (``pow_number``); any other (2.2, 17) is a
    traced input of the general ``pow``, one kernel for every value (a schedule's exponent compiles nothing new);
    both give numpy's power and jax.grad's gradient."""
    import jax
    import jax.numpy as jnp

    from pylayer_jax._ops.table import TABLE

    x0 = np.array([0.5, 1.5, 2.25], "float32")
    keys = {}
    for e, op in ((2.5, "pow_number"), (-16, "pow_number"), (0.5, "pow_number"), (2.2, "pow"), (2.3, "pow"),
                  (17, "pow"), (-16.5, "pow")):
        x = P.to_tensor(x0, stop_gradient=False)
        y = x ** e
        node = y._edge[0]
        assert node.op is TABLE[op], e
        keys.setdefault(op, set()).add(node.key)
        np.testing.assert_allclose(y.numpy(), np.power(x0.astype(np.float64), e), rtol=2e-6)
        y.sum().backward()
        want = jax.grad(lambda v, e=e: jnp.sum(v.astype(jnp.float64) ** e))(jnp.asarray(x0))
        np.testing.assert_allclose(x.grad.numpy(), np.asarray(want), rtol=2e-6)
    assert len(keys["pow"]) == 1 and len(keys["pow_number"]) == 3


def test_shift_operators_are_the_shift_ops() -> None:
    # (Paddle's values for ``<<`` and ``>>``: tests/data/paddle_operands.json; here the operators against numpy)
    i = np.array([[3, -1, 2], [2, 3, 1]], "int64")
    t = P.to_tensor(i)
    np.testing.assert_array_equal((t << 2).numpy(), i << 2)
    np.testing.assert_array_equal((t >> 1).numpy(), i >> 1)
    np.testing.assert_array_equal((1 << P.abs(t)).numpy(), 1 << np.abs(i))
    with pytest.raises(TypeError, match=r"unsupported operand type\(s\) for >>: 'Tensor' and 'float'"):
        t >> 1.5  # (Python's own error, as in Paddle)
    with pytest.raises(TypeError, match="shifts need integer tensors"):
        P.to_tensor([1.5]) >> 1
