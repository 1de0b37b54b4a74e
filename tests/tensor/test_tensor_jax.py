"""Tensors inside JAX transformations: pytree registration, jit, vmap, grad; tracers record nothing."""

from __future__ import annotations

import jax
import jax.numpy as jnp
import numpy as np
import pytest

import pylayer_jax as P
from pylayer_jax import Tensor


def _f(x: Tensor, w: Tensor) -> Tensor:
    return ((x @ w).tanh() * 2.0 + x.sum()).mean()


def test_tensor_is_a_pytree() -> None:
    t = P.to_tensor([1.0, 2.0], stop_gradient=False)
    leaves, tree = jax.tree_util.tree_flatten({"a": t, "b": [t, 3]})
    assert len(leaves) == 3 and leaves[0] is t._value
    back = jax.tree_util.tree_unflatten(tree, leaves)
    assert isinstance(back["a"], Tensor) and back["a"].stop_gradient is False
    doubled = jax.tree_util.tree_map(lambda a: a * 2, t)
    assert isinstance(doubled, Tensor) and doubled.tolist() == [2.0, 4.0]


def test_jit_of_a_function_over_tensors_matches_eager() -> None:
    x = P.to_tensor(np.arange(6, dtype=np.float32).reshape(2, 3) / 6)
    w = P.to_tensor(np.ones((3, 2), np.float32) * 0.3)
    eager = _f(x, w)
    jitted = jax.jit(_f)(x, w)
    assert isinstance(jitted, Tensor)
    np.testing.assert_allclose(jitted.numpy(), eager.numpy(), rtol=1e-6)


def test_jit_traces_once_per_signature() -> None:
    traces = []

    @jax.jit
    def g(x: Tensor) -> Tensor:
        traces.append(1)
        return x * 2.0 + 1.0

    for v in ([1.0, 2.0], [3.0, 4.0], [5.0, 6.0]):
        assert g(P.to_tensor(v)).tolist() == [2 * v[0] + 1, 2 * v[1] + 1]
    assert len(traces) == 1


def test_vmap_over_tensors() -> None:
    xs = P.to_tensor(np.arange(12, dtype=np.float32).reshape(4, 3))
    out = jax.vmap(lambda r: (r * r).sum())(xs)
    assert isinstance(out, Tensor)
    np.testing.assert_allclose(out.numpy(), (np.arange(12).reshape(4, 3) ** 2).sum(1))


def test_jax_grad_through_tensor_ops_equals_pure_jax() -> None:
    x0 = np.linspace(-1, 1, 6).reshape(2, 3)
    w0 = np.linspace(0.5, -0.5, 6).reshape(3, 2)

    def ours(x, w):
        return _f(Tensor(x), Tensor(w))._value

    def pure(x, w):
        return jnp.mean(jnp.tanh(x @ w) * 2.0 + jnp.sum(x))

    got = jax.grad(ours, argnums=(0, 1))(x0, w0)
    want = jax.grad(pure, argnums=(0, 1))(x0, w0)
    for g, wv in zip(got, want):
        np.testing.assert_allclose(np.asarray(g), np.asarray(wv), rtol=1e-12)


def test_tracers_record_nothing_on_the_tape() -> None:
    seen = {}

    def g(a):
        t = Tensor(a, stop_gradient=False)
        y = t * 3.0
        seen["edge"], seen["leaf"] = y._edge, y.is_leaf
        return y._value

    jax.jit(g)(jnp.ones(2))
    assert seen["edge"] is None and seen["leaf"] is True


def test_concrete_only_apis_under_jit_raise() -> None:
    def g(t: Tensor) -> Tensor:
        t.numpy()
        return t

    with pytest.raises(RuntimeError, match=r"Tensor.numpy\(\) needs a concrete value, but this Tensor wraps a JAX tracer"):
        jax.jit(g)(P.to_tensor([1.0]))

    def h(t: Tensor) -> Tensor:
        t.item()
        return t

    with pytest.raises(RuntimeError, match=r"Tensor.item\(\) needs a concrete value"):
        jax.jit(h)(P.to_tensor([1.0]))


def test_jnp_functions_take_tensors_inside_jit() -> None:
    out = jax.jit(lambda t: jnp.sin(t) + 1)(P.to_tensor([0.0, 1.0]))
    np.testing.assert_allclose(np.asarray(out), np.sin([0.0, 1.0]) + 1, rtol=1e-6)
