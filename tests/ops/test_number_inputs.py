"""Ops whose number attributes may be traced inputs (``defop``'s ``numbers``): a slope, margin or threshold given as a
Python float is compiled into the kernel's key while the attribute has taken at most ``NUMBER_VALUES_KEPT`` values
for that op, and from then on is an input of the kernel, so one kernel serves every value and a value that changes
every step compiles nothing new. Oracle: the op's function with the number as a Python constant, under
``jax.vjp`` (values and gradients)."""

from __future__ import annotations

import jax
import jax.numpy as jnp
import numpy as np
import pytest

import pylayer_jax as P
import pylayer_jax.nn.functional as F
from pylayer_jax._ops.table import TABLE, NumberInput
from pylayer_jax._tensor import dispatch


@pytest.fixture(autouse=True)
def _fresh_number_values(monkeypatch: pytest.MonkeyPatch) -> None:
    """Each test starts with no number attribute seen (the values other tests gave stay theirs)."""
    monkeypatch.setattr(dispatch, "_NUMBER_VALUES", {})

RNG = np.random.default_rng(11)
X = RNG.standard_normal((4, 5)).astype("float32") * 2
Y = RNG.standard_normal((4, 5)).astype("float32") * 2
SIGN = np.where(RNG.random((4, 5)) < 0.5, -1.0, 1.0).astype("float32")
PROB = RNG.random((4, 5)).astype("float32")

# (op, its public call with the number, the arrays it differentiates, the attribute, two values)
CASES = [
    ("leaky_relu", lambda x, v: F.leaky_relu(x, v), "negative_slope", (0.2, 0.05)),
    ("elu", lambda x, v: F.elu(x, alpha=v), "alpha", (0.7, 1.3)),
    ("softplus", lambda x, v: F.softplus(x, beta=v), "beta", (0.5, 2.5)),
    ("hardtanh", lambda x, v: F.hardtanh(x, -v, v), "max", (0.8, 1.7)),
    ("thresholded_relu", lambda x, v: F.thresholded_relu(x, v), "threshold", (0.3, 0.9)),
    ("softshrink", lambda x, v: F.softshrink(x, v), "threshold", (0.3, 0.7)),
    ("hardshrink", lambda x, v: F.hardshrink(x, v), "threshold", (0.3, 0.7)),
    ("hardsigmoid", lambda x, v: F.hardsigmoid(x, slope=v), "slope", (0.1, 0.3)),
    ("stanh", lambda x, v: P.stanh(x, scale_a=v), "scale_a", (0.5, 0.9)),
    ("normalize", lambda x, v: F.normalize(x, epsilon=v), "epsilon", (0.5, 7.5)),
    ("margin_ranking_loss", lambda x, v: F.margin_ranking_loss(x, P.to_tensor(Y), P.to_tensor(SIGN), margin=v),
     "margin", (0.5, 1.5)),
    ("hinge_embedding_loss", lambda x, v: F.hinge_embedding_loss(x, P.to_tensor(SIGN), margin=v), "margin",
     (0.5, 1.5)),
    ("smooth_l1_loss", lambda x, v: F.smooth_l1_loss(x, P.to_tensor(Y), delta=v), "delta", (0.5, 1.5)),
    ("label_smooth", lambda x, v: F.label_smooth(x, epsilon=v), "epsilon", (0.1, 0.3)),
]


def _reference(name, value):  # noqa: ANN001, ANN202
    """The op's function with ``value`` a Python constant, as a function of the differentiated input."""
    fn = TABLE[name].fn
    return {
        "leaky_relu": lambda x: fn(x, value),
        "elu": lambda x: fn(x, alpha=value),
        "softplus": lambda x: fn(x, beta=value),
        "hardtanh": lambda x: fn(x, -value, value),
        "thresholded_relu": lambda x: fn(x, value),
        "softshrink": lambda x: fn(x, value),
        "hardshrink": lambda x: fn(x, value),
        "hardsigmoid": lambda x: fn(x, slope=value),
        "stanh": lambda x: fn(x, scale_a=value),
        "normalize": lambda x: fn(x, epsilon=value),
        "margin_ranking_loss": lambda x: fn(x, jnp.asarray(Y), jnp.asarray(SIGN), margin=value),
        "hinge_embedding_loss": lambda x: fn(x, jnp.asarray(SIGN), margin=value),
        "smooth_l1_loss": lambda x: fn(x, jnp.asarray(Y), delta=value),
        "label_smooth": lambda x: fn(x, epsilon=value),
    }[name]


def _traced(node) -> bool:  # noqa: ANN001
    return any(type(a) is NumberInput for a in (*node.key[1], *(b for _, b in node.key[2])))


@pytest.mark.parametrize(("name", "call", "attr", "values"), CASES, ids=[c[0] for c in CASES])
def test_a_number_attribute_is_kept_then_an_input_of_one_kernel(name, call, attr, values):  # noqa: ANN001
    """The first values are in the key (each its kernel); past ``NUMBER_VALUES_KEPT`` of them every value, an earlier
    one too, is the input of one kernel; the values and gradients are the constant's throughout."""
    base = PROB if name == "label_smooth" else X
    lo, hi = values
    n = dispatch.NUMBER_VALUES_KEPT
    steps = [lo + (hi - lo) * k / (n + 1) for k in range(n + 2)] + [lo]
    keys = []
    for v in steps:
        x = P.to_tensor(base, stop_gradient=False)
        y = call(x, v)
        keys.append((y._edge[0].op.name, y._edge[0].key, _traced(y._edge[0])))
        y.sum().backward()
        want, vjp = jax.vjp(_reference(name, v), jnp.asarray(base))
        np.testing.assert_allclose(y.numpy(), np.asarray(want), rtol=2e-6, atol=1e-7)
        (g,) = vjp(jnp.ones_like(want))
        np.testing.assert_allclose(x.grad.numpy(), np.asarray(g), rtol=2e-6, atol=1e-7)
    assert [t for _, _, t in keys] == [False] * n + [True] * 3
    assert len({k[:2] for k in keys[:n]}) == n and len({k[:2] for k in keys[n:]}) == 1


def test_a_slope_changing_every_step_compiles_nothing_new():
    """A replayed step whose leaky_relu slope and hardtanh bound change every step: after the first steps (the values
    compiled in) no program compiles, the steps replay, and the losses and gradients are jax.grad's."""
    from pylayer_jax._exec import deferred as _lazy
    from pylayer_jax._replay import follow as _replay

    w_np = RNG.standard_normal((5, 3)).astype("float32")
    x, w = P.to_tensor(X), P.to_tensor(w_np, stop_gradient=False)

    def ref(w_, s, b):  # noqa: ANN001, ANN202
        h = jnp.asarray(X) @ w_
        return jnp.mean(jnp.clip(jnp.where(h > 0, h, s * h), -b, b) ** 2)

    compiled, replayed = None, _replay.STATS["steps"]
    for i in range(10):  # (the first NUMBER_VALUES_KEPT slopes and bounds are compiled in, each a new step)
        s, b = 0.1 + 0.01 * i, 1.5 + 0.02 * i
        loss = (F.hardtanh(F.leaky_relu(P.matmul(x, w), s), -b, b) ** 2).mean()
        loss.backward()
        val, want = jax.value_and_grad(ref)(jnp.asarray(w_np), s, b)
        np.testing.assert_allclose(float(loss), float(val), rtol=2e-6)
        np.testing.assert_allclose(w.grad.numpy(), np.asarray(want), rtol=2e-5, atol=1e-7)
        w.clear_grad()
        if i == dispatch.NUMBER_VALUES_KEPT + 1:
            compiled = _lazy.STATS["compiled"]
    assert _lazy.STATS["compiled"] == compiled
    assert _replay.STATS["steps"] - replayed >= 5


def test_number_inputs_keep_their_checks_and_trace():
    """The checks still see the number (a bad one raises at the call, as before), and under jax.jit the number is a
    constant of the traced op (the same values)."""
    with pytest.raises(ValueError, match=r"label_smooth: epsilon must be in \[0, 1\], but received 1.5"):
        F.label_smooth(P.to_tensor(PROB), epsilon=1.5)
    with pytest.raises(TypeError, match="negative_slope must be a number"):
        F.leaky_relu(P.to_tensor(X), "0.1")
    f = jax.jit(lambda v: F.leaky_relu(P.Tensor(v), 0.2)._value)
    np.testing.assert_array_equal(np.asarray(f(jnp.asarray(X))), np.where(X > 0, X, np.float32(0.2) * X))


def test_a_number_input_under_saved_tensor_hooks():
    """Under saved-tensor hooks smooth_l1_loss runs its form with the residual Paddle keeps (an explicit VJP that
    takes delta): with delta kept in the key and then as an input, the hooks pack the residual only, not the number,
    and the gradient is jax.grad's."""
    for k, delta in enumerate([0.3, 0.4, 0.5, 0.6, 0.7]):
        packed = []
        with P.autograd.saved_tensors_hooks(lambda t, packed=packed: (packed.append(t.shape), t)[1], lambda t: t):
            x = P.to_tensor(X, stop_gradient=False)
            loss = F.smooth_l1_loss(x, P.to_tensor(Y), delta=delta)
        node = loss._edge[0]
        assert node.op.name == "smooth_l1_loss_residuals" and _traced(node) == (k >= dispatch.NUMBER_VALUES_KEPT)
        loss.backward()

        def ref(x_, d=delta):  # noqa: ANN001, ANN202
            a = jnp.abs(x_ - jnp.asarray(Y))
            return jnp.mean(jnp.where(a < d, 0.5 * a * a, d * (a - 0.5 * d)))

        np.testing.assert_allclose(x.grad.numpy(), np.asarray(jax.grad(ref)(jnp.asarray(X))), rtol=1e-6)
        assert packed == [[4, 5]]


def test_a_fill_value_is_an_input_of_one_kernel():
    """``paddle.full`` and ``full_like`` with float fill values past the kept ones: one kernel for every value (the
    number is its input), the default float dtype (or x's), the value as numpy fills it; an int or bool value stays
    in the key (its dtype rules)."""
    values = [0.25 * k for k in range(1, dispatch.NUMBER_VALUES_KEPT + 4)]
    for v in values:
        a = P.full([2, 3], v)
        assert a.dtype == P.float32
        np.testing.assert_array_equal(a.numpy(), np.full((2, 3), v, np.float32))
    keys = [k for k in TABLE["full"]._fwd.keys()
            if len(k[1]) == 2 and k[1][0] == (2, 3) and type(k[1][1]) is NumberInput and not k[2]]
    assert len(keys) == 1  # (other tests fill other shapes, or give a dtype)
    assert P.full([2], True).dtype == P.bool and P.full([2], 3).numpy().tolist() == [3.0, 3.0]
    x = P.to_tensor(X.astype("float64"))
    for v in values:
        y = P.full_like(x, v)
        assert y.dtype == P.float64
        np.testing.assert_array_equal(y.numpy(), np.full(X.shape, v))
