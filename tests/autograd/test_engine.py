"""The eager tape: backward, accumulation, retain_graph, create_graph, hooks, paddle.grad, release.

Numbers marked "recorded" come from Paddle 3.3.1; the rest are checked against jax.grad or
closed forms.
"""

from __future__ import annotations

import gc
import weakref

import jax
import jax.numpy as jnp
import numpy as np
import pytest

import pylayer_jax as P
from pylayer_jax import autograd


def leaf(v, dtype="float64") -> P.Tensor:
    return P.to_tensor(v, dtype=dtype, stop_gradient=False)


# ---- backward basics -----------------------------------------------------------------------
def test_backward_matches_jax_grad() -> None:
    x0, w0 = np.array([0.3, -1.2, 2.0]), np.array([[0.5], [1.5], [-0.25]])
    x, w = leaf(x0), leaf(w0)
    ((x[None, :] @ w).tanh() * x.exp().sum()).sum().backward()
    gx, gw = jax.grad(lambda a, b: jnp.sum(jnp.tanh(a[None, :] @ b) * jnp.exp(a).sum()), (0, 1))(x0, w0)
    np.testing.assert_allclose(x.grad.numpy(), gx, rtol=1e-12)
    np.testing.assert_allclose(w.grad.numpy(), gw, rtol=1e-12)


def test_leaf_used_twice_and_two_backwards_accumulate() -> None:
    x = leaf([1.0, 2.0])
    (x * x + x).sum().backward()
    assert x.grad.tolist() == [3.0, 5.0]
    (x * 3.0).sum().backward()  # a new graph: accumulates into .grad
    assert x.grad.tolist() == [6.0, 8.0]


def test_non_scalar_backward_seeds_ones() -> None:
    # recorded: m=[1,2]; (m*m).backward() -> m.grad [2, 4]
    m = leaf([1.0, 2.0], "float32")
    (m * m).backward()
    assert m.grad.tolist() == [2.0, 4.0]


def test_backward_with_grad_tensor() -> None:
    x = leaf([1.0, 2.0])
    (x * x).backward(P.to_tensor([10.0, 100.0], dtype="float64"))
    assert x.grad.tolist() == [20.0, 400.0]
    y = leaf([1.0, 2.0])
    with pytest.raises(ValueError, match=r"grad_tensor must have the shape \[2\] of the tensor it seeds, but received \[3\]"):
        (y * y).backward(P.to_tensor([1.0, 1.0, 1.0], dtype="float64"))


def test_backward_on_stop_gradient_tensor_does_nothing() -> None:
    # Paddle: backward() on a tensor with stop_gradient=True returns without error and computes nothing
    # (recorded in tests/data/paddle_paths.json, see tests/test_paths.py)
    t = P.to_tensor([1.0])
    assert t.backward() is None
    assert t.grad is None


def test_non_leaf_grads_not_kept_unless_retained() -> None:
    x = leaf([1.0, 2.0])
    y = x * 2.0
    z = y * 3.0
    z.retain_grads()
    (y * z).sum().backward()
    assert y.grad is None  # recorded: Paddle keeps no grad for a non-leaf
    np.testing.assert_allclose(z.grad.numpy(), (x * 2.0).numpy())
    np.testing.assert_allclose(x.grad.numpy(), 24 * np.array([1.0, 2.0]))


def test_retained_grads_accumulate_over_backwards() -> None:
    x = leaf([1.0, 2.0])
    y = x * 3.0
    y.retain_grads()
    z = (y * y).sum()
    z.backward(retain_graph=True)
    z.backward()
    y_np = 3.0 * np.array([1.0, 2.0])
    np.testing.assert_allclose(y.grad.numpy(), 2 * (2 * y_np))  # jax.grad of sum(y*y) is 2y, twice
    np.testing.assert_allclose(x.grad.numpy(), 2 * (6 * y_np))
    y.clear_grad()
    np.testing.assert_allclose(y.grad.numpy(), np.zeros(2))


def test_grads_keep_leaf_dtype() -> None:
    x = leaf([1.0, 2.0], "float32")
    (x.astype("float64") * 2.0).sum().backward()
    assert x.grad.dtype == P.float32


# ---- retain_graph and release ----------------------------------------------------------------
def test_second_backward_without_retain_graph_raises() -> None:
    # Paddle raises a SystemError saying to set retain_graph=True; ours is a RuntimeError named SystemError that is
    # also a SystemError (tests/test_program_diffs_t.py)
    x = leaf([1.0, 2.0])
    y = x.exp().sum()
    y.backward()
    with pytest.raises(RuntimeError, match="backward through the graph a second time.*retain_graph=True"):
        y.backward()


def test_retain_graph_allows_a_second_backward() -> None:
    x = leaf([1.0, 2.0])
    y = (x.exp() * x).sum()
    y.backward(retain_graph=True)
    first = x.grad.numpy().copy()
    y.backward()
    np.testing.assert_allclose(x.grad.numpy(), 2 * first)
    with pytest.raises(RuntimeError, match="a second time"):
        y.backward()


def test_nodes_and_saved_arrays_are_released_after_backward() -> None:
    x = leaf([0.5, 1.5])
    t = x * 2.0
    saved = weakref.ref(t._value)
    first_node = weakref.ref(t._edge[0])
    u = t.sin()  # sin saves t's array
    del t
    gc.collect()
    assert saved() is not None and first_node() is not None  # the tape holds them
    loss = u.sum()
    loss.backward()
    gc.collect()
    assert saved() is None, "the saved array outlived a backward without retain_graph"
    assert first_node() is None, "an interior node outlived a backward without retain_graph"
    np.testing.assert_allclose(x.grad.numpy(), 2 * np.cos([1.0, 3.0]))


def test_retain_graph_keeps_saved_arrays() -> None:
    x = leaf([0.5, 1.5])
    t = x * 2.0
    saved = weakref.ref(t._value)
    u = t.sin()
    del t
    u.sum().backward(retain_graph=True)
    gc.collect()
    assert saved() is not None


def test_dropping_outputs_frees_the_graph() -> None:
    x = leaf([0.5, 1.5])
    y = x.sin()
    node = weakref.ref(y._edge[0])
    del y
    gc.collect()
    assert node() is None


# ---- hooks ------------------------------------------------------------------------------------
def test_hook_replaces_gradient() -> None:
    # recorded: n=[[1,2],[3,4]]; h=n*3; h.register_hook(lambda g: g*2); h.sum().backward() -> n.grad all 6
    n = leaf([[1.0, 2.0], [3.0, 4.0]], "float32")
    h = n * 3
    h.register_hook(lambda g: g * 2)
    h.sum().backward()
    assert n.grad.tolist() == [[6.0, 6.0], [6.0, 6.0]]


def test_hook_returning_none_observes_and_hooks_on_leaves() -> None:
    seen = []
    x = leaf([1.0, 2.0])
    x.register_hook(lambda g: seen.append(g.tolist()))
    x.register_hook(lambda g: g + 1.0)
    (x * 5.0).sum().backward()
    assert seen == [[5.0, 5.0]]
    assert x.grad.tolist() == [6.0, 6.0]


def test_hook_handle_removes() -> None:
    x = leaf([1.0])
    y = x * 2.0
    handle = y.register_hook(lambda g: g * 100.0)
    assert handle.remove() is True
    assert handle.remove() is False
    y.sum().backward()
    assert x.grad.tolist() == [2.0]


def test_hook_misuse_raises() -> None:
    with pytest.raises(RuntimeError, match="register_hook: .* has stop_gradient=True, so no gradient will ever reach"):
        P.to_tensor([1.0]).register_hook(lambda g: g)
    x = leaf([1.0, 2.0])
    y = x * 2.0
    y.register_hook(lambda g: 3)
    with pytest.raises(TypeError, match="a hook must return a Tensor or None, but it returned int"):
        y.sum().backward()
    x = leaf([1.0, 2.0])
    y = x * 2.0
    y.register_hook(lambda g: P.to_tensor([1.0, 2.0, 3.0], dtype="float64"))
    with pytest.raises(ValueError, match=r"a hook must keep the gradient's shape \[2\], but it returned \[3\]"):
        y.sum().backward()


# ---- clear_grad -------------------------------------------------------------------------------
def test_clear_grad_sets_zeros_like_paddle() -> None:
    # recorded: after clear_grad() Paddle's a.grad is [0., 0.]; on a tensor without grad it stays None
    a = leaf([1.0, 2.0], "float32")
    (a * 2).sum().backward()
    a.clear_grad()
    assert a.grad is not None and a.grad.tolist() == [0.0, 0.0]
    (a * 2).sum().backward()
    assert a.grad.tolist() == [2.0, 2.0]
    a.clear_gradient(False)
    assert a.grad is None
    b = P.to_tensor([1.0])
    b.clear_grad()
    assert b.grad is None


def test_grad_setter() -> None:
    a = leaf([1.0, 2.0])
    a.grad = P.to_tensor([5.0, 5.0], dtype="float64")
    (a * 1.0).sum().backward()
    assert a.grad.tolist() == [6.0, 6.0]


# ---- paddle.grad ------------------------------------------------------------------------------
def test_grad_returns_gradients_and_leaves_dot_grad_alone() -> None:
    x, y = leaf([1.0, 2.0]), leaf([3.0, 4.0])
    z = (x * y).sum()
    gx, gy = P.grad(z, [x, y])
    assert gx.tolist() == [3.0, 4.0] and gy.tolist() == [1.0, 2.0]
    assert gx.stop_gradient is True  # spec item 31: without create_graph
    assert x.grad is None and y.grad is None


def test_grad_of_intermediate_and_grad_outputs() -> None:
    x = leaf([1.0, 2.0])
    h = x * 3.0
    out = h * h
    (gh,) = P.grad(out, h, grad_outputs=P.to_tensor([1.0, 10.0], dtype="float64"))
    assert gh.tolist() == [6.0, 120.0]
    with pytest.raises(ValueError, match="grad_outputs must have one entry per output, but received 2 for 1 outputs"):
        P.grad(out, h, grad_outputs=[None, None])


def test_grad_unreachable_input() -> None:
    # recorded: Paddle raises ValueError "The 1-th input does not appear in the backward graph ... allow_unused=True"
    u, v = leaf([1.0]), leaf([1.0])
    with pytest.raises(ValueError, match="does not appear in the backward graph.*allow_unused=True"):
        P.grad((u * 2.0).sum(), [u, v])
    gu, gv = P.grad((u * 2.0).sum(), [u, v], allow_unused=True)
    assert gu.tolist() == [2.0] and gv is None


def test_grad_rejects_non_tensor_inputs() -> None:
    x = leaf([1.0])
    with pytest.raises(TypeError, match="paddle.grad: inputs must be Tensors, but received list"):
        P.grad((x * 2.0).sum(), [[1.0]])


def test_grad_keeps_the_graph_whatever_retain_graph_says() -> None:
    # as Paddle 3.3.1's paddle.grad (it never frees the graph); backward() frees it
    x = leaf([1.0, 2.0])
    y = x.exp().sum()
    first = P.grad(y, x)[0].numpy()
    np.testing.assert_allclose(P.grad(y, x, retain_graph=False)[0].numpy(), first)
    y.backward()
    np.testing.assert_allclose(x.grad.numpy(), np.exp([1.0, 2.0]), rtol=1e-6)
    with pytest.raises(RuntimeError, match="a second time"):
        y.backward()
    x2 = leaf([1.0, 2.0])
    y2 = x2.exp().sum()
    g1 = P.grad(y2, x2, retain_graph=True)[0]
    g2 = P.grad(y2, x2)[0]
    np.testing.assert_allclose(g1.numpy(), g2.numpy())


def test_grad_no_grad_vars_blocks_a_path() -> None:
    x = leaf([2.0])
    h = x * 3.0
    y = h * x  # dy/dx = 6x through both paths; through h only x's direct path: 3x
    (g,) = P.grad(y.sum(), x, no_grad_vars=[h])
    assert g.tolist() == [6.0]  # h is treated as constant: d(h*x)/dx = h = 6


def test_double_backward_cube() -> None:
    # spec item 31 (recorded): cube at 3 -> first grad 27, second 18
    x = leaf([3.0])
    y = x * x * x
    (g,) = P.grad(y, x, create_graph=True)
    assert g.tolist() == [27.0] and g.stop_gradient is False
    (g2,) = P.grad(g, x)
    assert g2.tolist() == [18.0]


def test_double_backward_through_op_that_saves_output() -> None:
    # spec item 31 (recorded): tanh saving its output, second derivative at 0.5 -> -0.7269
    x = leaf([0.5])
    (g,) = P.grad(x.tanh(), x, create_graph=True)
    g.backward()
    np.testing.assert_allclose(x.grad.numpy(), [-0.7269], atol=1e-4)
    want = jax.grad(jax.grad(jnp.tanh))(0.5)
    np.testing.assert_allclose(x.grad.numpy(), [want], rtol=1e-12)


def test_create_graph_third_order() -> None:
    x = leaf([0.7])
    y = x.sin() * x
    (g1,) = P.grad(y, x, create_graph=True)
    (g2,) = P.grad(g1, x, create_graph=True)
    (g3,) = P.grad(g2, x)
    f = lambda a: jnp.sin(a) * a  # noqa: E731
    np.testing.assert_allclose(g3.numpy(), [jax.grad(jax.grad(jax.grad(f)))(0.7)], rtol=1e-12)


def test_autograd_backward_entry_point() -> None:
    x = leaf([1.0, 2.0])
    a, b = x * 2.0, x * x
    autograd.backward([a, b], [P.to_tensor([1.0, 1.0], dtype="float64"), None])
    assert x.grad.tolist() == [2.0 + 2.0, 2.0 + 4.0]
    with pytest.raises(ValueError, match="grad_tensors must have one entry per tensor, but received 1 for 2 tensors"):
        autograd.backward([x * 1.0, x * 1.0], [None])


def test_backward_with_roots_sharing_a_slot_adds_their_seeds():
    # two roots feeding the same output (and a root whose node also gets a gradient from another
    # root) each contribute ones; checked against jax.grad of the equivalent scalar
    x = P.to_tensor([1.0, 2.0])
    x.stop_gradient = False
    y = (x * x).sum()
    autograd.backward([y, y])
    np.testing.assert_allclose(x.grad.numpy(), jax.grad(lambda v: 2 * jnp.sum(v * v))(jnp.array([1.0, 2.0])))
    x.clear_grad()
    a = x * 3
    autograd.backward([a.sum(), a])
    np.testing.assert_allclose(x.grad.numpy(), jax.grad(lambda v: 2 * jnp.sum(v * 3))(jnp.array([1.0, 2.0])))


def test_create_graph_gradient_constant_in_the_inputs_trains():
    # Paddle 3.3.1 (checked with it): with create_graph=True every returned gradient has stop_gradient=False, also
    # one that does not depend on the inputs (d(3x)/dx = 3); ops on it record, and its own gradient wrt x is None
    x = P.to_tensor([1.0, 2.0], stop_gradient=False)
    (g,) = P.grad((x * 3).sum(), x, create_graph=True)
    assert g.stop_gradient is False
    np.testing.assert_array_equal(g.numpy(), [3.0, 3.0])
    assert (g * 2).stop_gradient is False
    assert P.grad(g.sum(), x, allow_unused=True) == [None]
    (g2,) = P.grad((x * 3).sum(), x)  # without create_graph: a constant, as in Paddle
    assert g2.stop_gradient is True
