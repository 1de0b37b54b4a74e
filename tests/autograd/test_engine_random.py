"""Randomized graphs (hypothesis): the tape's gradients equal jax.grad of the same program.

A program is a list of steps over a growing list of values, starting from three leaves;
each step applies a unary or binary op to earlier values (so values fan out and the
graph is a DAG). The same program runs on Tensors and on jnp arrays.
"""

from __future__ import annotations

import jax
import jax.numpy as jnp
import numpy as np
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import pylayer_jax as P

UNARY = {
    "tanh": (lambda t: t.tanh(), jnp.tanh),
    "sin": (lambda t: t.sin(), jnp.sin),
    "square": (lambda t: t * t, jnp.square),
    "scale": (lambda t: t * 0.5 - 1.0, lambda a: a * 0.5 - 1.0),
    "exp_tanh": (lambda t: t.tanh().exp(), lambda a: jnp.exp(jnp.tanh(a))),
    "neg": (lambda t: -t, jnp.negative),
    "mean_bcast": (lambda t: t - t.mean(), lambda a: a - jnp.mean(a)),
    "sum_keep": (lambda t: t.sum(axis=1, keepdim=True) * t, lambda a: jnp.sum(a, axis=1, keepdims=True) * a),
    "getitem": (lambda t: t[:, ::-1] + t[0], lambda a: a[:, ::-1] + a[0]),
}
BINARY = {
    "add": (lambda a, b: a + b, jnp.add),
    "sub": (lambda a, b: a - b, jnp.subtract),
    "mul": (lambda a, b: a * b, jnp.multiply),
    "div": (lambda a, b: a / (b * b + 1.0), lambda a, b: a / (b * b + 1.0)),
    "matmul": (lambda a, b: (a @ b.T) @ b * 0.1, lambda a, b: (a @ b.T) @ b * 0.1),
}

step = st.one_of(
    st.tuples(st.just("u"), st.sampled_from(sorted(UNARY)), st.integers(0, 100)),
    st.tuples(st.just("b"), st.sampled_from(sorted(BINARY)), st.integers(0, 100), st.integers(0, 100)),
)
programs = st.lists(step, min_size=1, max_size=7)
SHAPE = (2, 3)


def run(program, leaves, tensor: bool):
    vals = list(leaves)
    for s in program:
        if s[0] == "u":
            f = UNARY[s[1]][0 if tensor else 1]
            vals.append(f(vals[s[2] % len(vals)]))
        else:
            f = BINARY[s[1]][0 if tensor else 1]
            vals.append(f(vals[s[2] % len(vals)], vals[s[3] % len(vals)]))
    # the loss reads the last value and one other, so several paths reach the leaves
    last, other = vals[-1], vals[len(vals) // 2]
    if tensor:
        return (last * P.to_tensor(WEIGHT)).sum() + (other * other).mean()
    return jnp.sum(last * WEIGHT) + jnp.mean(other * other)


rng = np.random.default_rng(0)
X0 = [rng.uniform(-1, 1, SHAPE) for _ in range(3)]
WEIGHT = rng.uniform(-1, 1, SHAPE)
SETTINGS = settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def _leaves():
    return [P.to_tensor(x, dtype="float64", stop_gradient=False) for x in X0]


def _jax_grads(program):
    return jax.grad(lambda *a: run(program, a, False), argnums=(0, 1, 2))(*X0)


@SETTINGS
@given(programs)
def test_random_graph_backward_matches_jax_grad(program) -> None:
    xs = _leaves()
    loss = run(program, xs, True)
    loss.backward()
    want = _jax_grads(program)
    for x, w in zip(xs, want):
        got = np.zeros(SHAPE) if x.grad is None else x.grad.numpy()
        np.testing.assert_allclose(got, np.asarray(w), rtol=1e-10, atol=1e-12)


@SETTINGS
@given(programs)
def test_random_graph_retain_graph_accumulates(program) -> None:
    xs = _leaves()
    loss = run(program, xs, True)
    loss.backward(retain_graph=True)
    loss.backward()
    want = _jax_grads(program)
    for x, w in zip(xs, want):
        got = np.zeros(SHAPE) if x.grad is None else x.grad.numpy()
        np.testing.assert_allclose(got, 2 * np.asarray(w), rtol=1e-10, atol=1e-12)


@SETTINGS
@given(programs)
def test_random_graph_paddle_grad_matches(program) -> None:
    xs = _leaves()
    got = P.grad(run(program, xs, True), xs, allow_unused=True)
    for g, w in zip(got, _jax_grads(program)):
        g_arr = np.zeros(SHAPE) if g is None else g.numpy()
        np.testing.assert_allclose(g_arr, np.asarray(w), rtol=1e-10, atol=1e-12)
    assert all(x.grad is None for x in xs)


@settings(max_examples=10, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(programs)
def test_random_graph_create_graph_hessian_vector_product(program) -> None:
    """grad of sum(grad(loss) * v) equals JAX's Hessian-vector product."""
    v = [np.full(SHAPE, 0.5), np.linspace(-1, 1, 6).reshape(SHAPE), np.ones(SHAPE)]

    def gv(*a):
        g = jax.grad(lambda *b: run(program, b, False), argnums=(0, 1, 2))(*a)
        return sum(jnp.sum(gi * vi) for gi, vi in zip(g, v))

    want = jax.grad(gv, argnums=(0, 1, 2))(*X0)
    xs = _leaves()
    gs = P.grad(run(program, xs, True), xs, create_graph=True, allow_unused=True)
    total = None
    for g, vi in zip(gs, v):
        if g is not None and not g.stop_gradient:
            term = (g * P.to_tensor(vi)).sum()
            total = term if total is None else total + term
    if total is None:  # the loss is linear in every leaf
        assert all(np.allclose(np.asarray(w), 0) for w in want)
        return
    got = P.grad(total, xs, allow_unused=True)
    for g, w in zip(got, want):
        g_arr = np.zeros(SHAPE) if g is None else g.numpy()
        np.testing.assert_allclose(g_arr, np.asarray(w), rtol=1e-9, atol=1e-11)
