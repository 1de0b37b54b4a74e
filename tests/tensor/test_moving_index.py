"""A basic index whose ints and slice starts move from call to call (``X[i * bs:(i + 1) * bs]`` over a loop's
batches, ``x[:, t]``): its positions are compiled into the ``getitem`` kernel while its form (the tensor's shape,
the items, the slice lengths) has taken at most ``MOVING_KEPT`` of them; from then on the form is ``getitem_at``,
whose kernel takes the positions as inputs, so that a new position compiles nothing. Oracles: numpy indexing for
values, ``jax.grad`` of the same indexing for gradients, the XLA compile count for "compiles nothing"."""

from __future__ import annotations

import jax
import jax.numpy as jnp
import numpy as np
import pytest
import xla_compiles
from moving_positions import _fresh_positions, _op  # noqa: F401  (an autouse fixture)

import pylayer_jax as P
from pylayer_jax._tensor import methods

RNG = np.random.default_rng(5)
DATA = RNG.standard_normal((40, 3)).astype("float32")
SEQ = RNG.standard_normal((4, 9, 3)).astype("float32")


# (index as a function of the position k, the positions) -- each form takes more positions than MOVING_KEPT
FORMS = [
    ("batch slice", lambda k: np.s_[k * 5:(k + 1) * 5], range(8)),
    ("int on axis 1", lambda k: np.s_[:, k], range(9)),
    ("negative int", lambda k: np.s_[-1 - k], range(4, 0, -1)),
    ("ellipsis, int", lambda k: np.s_[..., k % 3], range(3)),
    ("slice past the end", lambda k: np.s_[30 + k:42 + k], range(6)),
    ("none, stepped slice, span", lambda k: np.s_[None, ::2, k:k + 2], range(2, 8)),
]


@pytest.mark.parametrize(("name", "index", "positions"), FORMS, ids=[f[0] for f in FORMS])
def test_values_and_gradients_are_numpys_before_and_after_the_form_moves(name, index, positions):  # noqa: ANN001
    base = SEQ if "none" in name else DATA if name != "int on axis 1" else DATA.T.copy()
    if name == "ellipsis, int":
        positions = [0, 1, 2, 0, 2, 1, 1]  # fewer distinct positions than the items: still in the key
    ops = []
    for k in positions:
        x = P.to_tensor(base, stop_gradient=False)
        y = x[index(k)]
        np.testing.assert_array_equal(y.numpy(), base[index(k)])
        ops.append(_op(y))
        (y * y).sum().backward()
        want = jax.jit(jax.grad(lambda a, k=k: jnp.sum(a[index(k)] ** 2)))(jnp.asarray(base))
        np.testing.assert_allclose(x.grad.numpy(), np.asarray(want), rtol=1e-6)
    distinct = len({repr(index(k)) for k in positions})
    kept = methods.MOVING_KEPT
    if name == "slice past the end":  # 30+k:42+k clamps at 40: the length changes with k, and so does the form
        assert set(ops) == {"getitem"}
    elif distinct <= kept:
        assert set(ops) == {"getitem"}
    else:
        assert ops[:kept] == ["getitem"] * kept and set(ops[kept:]) == {"getitem_at"}


def test_a_constant_index_stays_in_the_key():
    x = P.to_tensor(DATA, stop_gradient=False)
    for _ in range(6):
        assert _op(x[:, 1]) == "getitem" and _op(x[2:7]) == "getitem"


def test_out_of_range_still_raises_after_the_form_moves():
    x = P.to_tensor(DATA)
    for k in range(methods.MOVING_KEPT + 2):
        x[k]
    with pytest.raises(IndexError, match=r"getitem: index 40 is out of range for dimension 0 of size 40"):
        x[40]
    with pytest.raises(IndexError, match=r"getitem: index -41 is out of range for dimension 0 of size 40"):
        x[-41]
    with pytest.raises(IndexError, match="too many entries"):
        x[1, 2, 0]


def test_an_epoch_of_batch_slices_compiles_nothing_after_the_first_batches(monkeypatch: pytest.MonkeyPatch):
    """A training loop that slices its batches out of a Tensor (an SGD step each), under the default policy: from a
    few batches in, no batch compiles a program, the steps replay, and every loss is the numpy reference's."""
    from deferred_policy import default_policy

    from pylayer_jax._replay import follow

    default_policy(monkeypatch, buckets=True)
    y_np = RNG.standard_normal((40, 1)).astype("float32")
    X, Y = P.to_tensor(DATA), P.to_tensor(y_np)
    w_np = RNG.standard_normal((3, 1)).astype("float32")
    w = P.to_tensor(w_np, stop_gradient=False)
    opt = P.optimizer.SGD(0.1, parameters=[w])
    ref_w = w_np.astype(np.float64)
    compiled = replayed = None
    for k in range(8):
        xb, yb = X[k * 5:(k + 1) * 5], Y[k * 5:(k + 1) * 5]
        loss = ((P.matmul(xb, w) - yb) ** 2).mean()
        loss.backward()
        opt.step()
        opt.clear_grad()
        xr, yr = DATA[k * 5:(k + 1) * 5].astype(np.float64), y_np[k * 5:(k + 1) * 5]
        r = xr @ ref_w - yr
        np.testing.assert_allclose(float(loss), float(np.mean(r ** 2)), rtol=1e-5)
        ref_w = ref_w - 0.1 * (2 / 5) * xr.T @ r
        if k == methods.MOVING_KEPT + 2:
            compiled, replayed = xla_compiles.COMPILES[0], follow.STATS["steps"]
    np.testing.assert_allclose(w.numpy(), ref_w, rtol=1e-5)
    assert xla_compiles.COMPILES[0] == compiled
    assert follow.STATS["steps"] - replayed >= 2


def test_a_traced_tensor_keeps_the_static_index():
    """Under jax.jit the index is part of the traced program as before (a static slice, not an input)."""
    x = P.to_tensor(DATA)
    for k in range(methods.MOVING_KEPT + 2):
        x[k:k + 2]

    @jax.jit
    def f(a):  # noqa: ANN001, ANN202
        return P.to_tensor(a)[5:7]._value

    jaxpr = jax.make_jaxpr(f)(jnp.asarray(DATA))
    assert "dynamic_slice" not in str(jaxpr)
    np.testing.assert_array_equal(np.asarray(f(jnp.asarray(DATA))), DATA[5:7])


WRITES = [
    ("row", lambda k: np.s_[k], lambda k: RNG.standard_normal(3).astype("float32")),
    ("column of a span", lambda k: np.s_[k:k + 4, 2], lambda k: np.float32(k)),
    ("span, whole axis", lambda k: np.s_[k:k + 2, :], lambda k: RNG.standard_normal((1, 3)).astype("float32")),
]


@pytest.mark.parametrize(("name", "index", "value"), WRITES, ids=[w[0] for w in WRITES])
def test_writes_are_numpys_before_and_after_the_form_moves(name, index, value):  # noqa: ANN001
    """``x[index] = v`` as numpy writes it, and the gradients of a loss through the written tensor (to the value
    and to what was there before) are jax.grad's of the same write."""
    ops = []
    for k in range(6):
        v_np = value(k)
        base = P.to_tensor(DATA, stop_gradient=False)
        v = P.to_tensor(v_np, stop_gradient=False) if isinstance(v_np, np.ndarray) else float(v_np)
        x = base * 1.0
        x[index(k)] = v
        ops.append(_op(x))
        want = DATA.copy()
        want[index(k)] = v_np
        np.testing.assert_array_equal(x.numpy(), want)
        (x * x).sum().backward()

        def ref(a, b, k=k):  # noqa: ANN001, ANN202
            return jnp.sum(a.at[index(k)].set(b) ** 2)

        ga, gb = jax.jit(jax.grad(ref, argnums=(0, 1)))(jnp.asarray(DATA), jnp.asarray(v_np))
        np.testing.assert_allclose(base.grad.numpy(), np.asarray(ga), rtol=1e-6)
        if isinstance(v, P.Tensor):
            np.testing.assert_allclose(v.grad.numpy(), np.asarray(gb), rtol=1e-6)
    kept = methods.MOVING_KEPT
    assert ops[:kept] == ["setitem"] * kept and set(ops[kept:]) == {"setitem_at"}


def test_a_write_keeps_its_checks_after_the_form_moves():
    x = P.to_tensor(DATA)
    for k in range(methods.MOVING_KEPT + 2):
        x[k] = 1.0
    np.testing.assert_array_equal(x.numpy()[: methods.MOVING_KEPT + 2], 1.0)
    with pytest.raises(IndexError, match=r"setitem: index 40 is out of range for dimension 0 of size 40"):
        x[40] = 1.0
    with pytest.raises(ValueError, match=r"setitem: the argument 'value' must be a Tensor"):
        x[7] = [1.0, 2.0, 3.0]
    with pytest.raises(ValueError, match=r"setitem: the inputs \(shapes \[40, 3\], \[2, 3\]\) do not fit"):
        x[8] = np.ones((2, 3), "float32")
    w = P.to_tensor(DATA, stop_gradient=False)
    with pytest.raises(ValueError, match="Leaf Var .* that doesn't stop gradient can't use inplace strategy"):
        w[9] = 0.0
