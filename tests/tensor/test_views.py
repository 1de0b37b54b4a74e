"""Views share their base's data, as in Paddle 3.3.1: basic indexing, reshape/view/flatten, squeeze/unsqueeze,
transpose/t/T/moveaxis, detach, unbind, diagonal, narrow/slice/strided_slice. A write through a view reaches the
base and its other views, a write to the base reaches its views; copies (advanced indexing, split, expand,
clone, a reshape of a non-contiguous view) share nothing. Every case of ``tests/view_cases.py`` is checked
against Paddle's recorded values, version counters, stop_gradient flags and gradients
(``tests/record_paddle_views.py``). One rule of Paddle's is not mirrored: a write through a view moves values only
and the other tensors keep their autograd history, so Paddle's gradient through a tensor with a history that a
write reached is that of its old values (``ag_base_loss``: ones for ``h.sum()`` after ``h[0].mul_(2)``, where the
values say twos). Ours follow the values; those cases (``CORRECTED``) are checked against ``jax.grad`` of the same
program written without views, their values against Paddle's."""

from __future__ import annotations

import json
import os

import jax
import jax.numpy as jnp
import numpy as np
import pytest
from view_cases import CASES, run

import pylayer_jax as paddle

with open(os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "data",
                       "paddle_views.json")) as _f:
    REF = json.load(_f)


def _same(ours, ref, where):
    if isinstance(ref, dict):
        assert isinstance(ours, dict), f"{where}: ours {ours!r}, Paddle {ref!r}"
        assert ours["dtype"] == ref["dtype"] and ours["shape"] == ref["shape"], f"{where}: {ours} vs {ref}"
        np.testing.assert_allclose(np.asarray(ours["value"], float), np.asarray(ref["value"], float), rtol=1e-6,
                                   err_msg=where)
    else:
        assert ours == ref, f"{where}: ours {ours!r}, Paddle {ref!r}"


_X = jnp.arange(6, dtype=jnp.float32).reshape(2, 3)
_W = jnp.asarray([1.0, 2.0, 3.0], jnp.float32)


def _grads(loss, *args):
    """The gradients of ``loss`` at ``args`` as the fixture holds them (dtype, shape, value)."""
    return [{"dtype": "float32", "shape": list(g.shape), "value": np.asarray(g).tolist()}
            for g in jax.grad(loss, argnums=tuple(range(len(args))))(*args)]


# the cases whose gradients are not Paddle's (see the module's docstring): which outputs are gradients, and their
# values from jax.grad of the program written without views
CORRECTED = {
    "ag_base_loss": ([1], lambda: _grads(lambda x: x.at[0].multiply(2.0).sum(), _X)),
    "ag_base_loss_sq": ([1], lambda: _grads(lambda x: (x.at[0].multiply(2.0) ** 2).sum(), _X)),
    "ag_base_loss_w": ([1, 2], lambda: _grads(lambda x, w: (x.at[0].add(w) ** 2).sum(), _X, _W)),
    "ag_base_write_view_loss": ([1], lambda: _grads(lambda x: ((3.0 * x)[0] ** 2).sum(), _X)),
    "ag_setitem_view": ([1], lambda: _grads(lambda x: (x.at[0, 1].set(55.0) ** 2).sum(), _X)),
    "ag_scale_T": ([1], lambda: _grads(lambda x: ((2.0 * x) ** 2).sum(), _X)),
}


# Paddle 3.3.1 counts ``as_strided``'s offset in bytes (its result reads, and its writes land in, misaligned memory:
# garbage values): ours counts elements, as Paddle's documentation says; the values expected are numpy's on the
# row-major elements (x + 100 at positions 1, 3, 5)
OFFSET_IN_ELEMENTS = {
    "w_as_strided_method": [[[0.0, 101.0, 2.0], [103.0, 4.0, 105.0]], [101.0, 103.0, 105.0]],
    "r_as_strided_method": [[[100.0, 101.0, 102.0], [103.0, 104.0, 105.0]], [101.0, 103.0, 105.0]],
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_view_case_matches_paddle(name):
    ref = REF[name]
    if name in OFFSET_IN_ELEMENTS:
        ref = {"out": [dict(r, value=v) for r, v in zip(ref["out"], OFFSET_IN_ELEMENTS[name], strict=True)]}
    if name in CORRECTED:
        at, grads = CORRECTED[name]
        ref = {"out": list(ref["out"])}
        paddles = [ref["out"][i] for i in at]
        for i, g in zip(at, grads(), strict=True):
            ref["out"][i] = g
        assert paddles != [ref["out"][i] for i in at]  # (some gradient of Paddle's is the old values' one)
    ours = run(paddle, CASES[name])
    if "error" in ref:
        assert "error" in ours, f"Paddle raised {ref['error']}, ours gave {ours}"
        assert ours["error"][0] == ref["error"][0], ours
        return
    assert "out" in ours, f"ours raised {ours['error']}"
    assert len(ours["out"]) == len(ref["out"])
    for i, (o, r) in enumerate(zip(ours["out"], ref["out"], strict=True)):
        _same(o, r, f"{name} out[{i}]")


def test_the_recorded_version_is_paddles():
    assert REF["paddle"] == "3.3.1"


def _x():
    return paddle.arange(6, dtype="float32").reshape([2, 3])


def test_ordinary_results_are_not_linked():
    """Only view ops link their results: an ordinary op's result has no ``_view`` (it costs nothing)."""
    x = paddle.to_tensor(np.ones((2, 3), np.float32))
    y = x * 2 + 1
    assert getattr(y, "_view", None) is None and getattr(x, "_view", None) is None


def test_a_view_does_not_keep_its_base_alive():
    import gc
    import weakref

    x = _x()
    y = x[0]
    r = weakref.ref(x)
    del x
    gc.collect()
    assert r() is None
    y.add_(paddle.to_tensor(1.0))
    np.testing.assert_array_equal(y.numpy(), [1.0, 2.0, 3.0])


def test_a_repeated_step_writing_through_a_view_follows_the_values_each_time():
    """A training-like step that writes through a view, repeated (noted, then replayed): the same values and
    gradients each time, the gradient of the values written (d/dw (h * h).sum() is 2 * h_new * x * c, c the column's
    factor; Paddle's keeps the base's old history and gives 2 * h_new * x)."""
    xv = np.arange(6, dtype=np.float32).reshape(2, 3)
    x = paddle.to_tensor(xv)
    w = paddle.to_tensor(np.ones((2, 3), np.float32), stop_gradient=False)
    for _ in range(6):
        h = x * w
        h[:, 0].mul_(paddle.to_tensor(2.0))
        (h * h).sum().backward()
        h_new = xv.copy()
        h_new[:, 0] *= 2
        np.testing.assert_allclose(h.numpy(), h_new)
        np.testing.assert_allclose(w.grad.numpy(), 2 * h_new * xv * np.array([2.0, 1.0, 1.0], np.float32))
        w.clear_grad()


def test_write_through_a_view_in_to_static_raises():
    """Differs from Paddle on purpose: inside a compiled function the data is not shared, so a write that would
    reach another tensor raises instead of giving a different result."""

    @paddle.jit.to_static
    def f(x):
        y = x[0]
        y.add_(paddle.to_tensor(1.0))
        return x * 1

    with pytest.raises(RuntimeError, match=r"Tensor\.add_: inside jit\.to_static.*clone\(\) the view"):
        f(_x())


def test_write_sharing_data_with_a_bitcast_view_raises():
    """Differs from Paddle on purpose: ``view(dtype)`` is Paddle's same memory read as another dtype, a new
    array here; a write on either side raises rather than leave the other unchanged."""
    x = paddle.arange(6, dtype="float32")
    y = x.view("int32")
    with pytest.raises(RuntimeError, match=r"Tensor\.zero_: this Tensor shares its data with a result of "
                                           r"Tensor\.view\(dtype\).*clone\(\) that result"):
        x.zero_()
    with pytest.raises(RuntimeError, match=r"Tensor\.__setitem__: .*Tensor\.view\(dtype\)"):
        y[0] = 1
    z = y.clone()
    del y
    x.zero_()  # nothing shares x's data now
    assert z.numpy()[1] != 0


def test_a_write_with_no_other_live_view_moves_nothing():
    x = _x()
    x[0].add_(paddle.to_tensor(1.0))  # x is alive: it changes
    np.testing.assert_array_equal(x.numpy()[0], [1.0, 2.0, 3.0])
    y = _x()[1]  # its base is gone: only y holds the data
    y.add_(paddle.to_tensor(1.0))
    np.testing.assert_array_equal(y.numpy(), [4.0, 5.0, 6.0])


def test_views_of_a_parameter_see_the_optimizers_updates():
    """``d = w.detach()``, ``w.T`` and ``w[0]`` taken before ``opt.step()`` show the updated values after it, step after
    step (replayed steps too), as in Paddle 3.3.1 (measured: after one SGD step of 0.5 on ``sum(ones @ W + b)`` from
    ``W = ones``, all three are 0.5). Oracle: SGD's rule in numpy."""
    lin = paddle.nn.Linear(2, 2)
    lin.weight.set_value(np.ones((2, 2), np.float32))
    d, t, r = lin.weight.detach(), lin.weight.T, lin.weight[0]
    opt = paddle.optimizer.SGD(0.5, parameters=lin.parameters())
    want = np.ones((2, 2), np.float32)
    for _ in range(5):
        lin(paddle.ones([1, 2])).sum().backward()
        opt.step()
        opt.clear_grad()
        want = want - 0.5  # (the gradient of the sum with respect to W is all ones)
        np.testing.assert_array_equal(lin.weight.numpy(), want)
        np.testing.assert_array_equal(d.numpy(), want)
        np.testing.assert_array_equal(t.numpy(), want.T)
        np.testing.assert_array_equal(r.numpy(), want[0])


def test_views_of_a_parameter_see_lbfgs_updates():
    """L-BFGS writes its parameters through its line search, not through the other optimizers' update: a view taken
    before ``step`` (``w.detach()``, ``w[0:2]``) shows the values after it, as in Paddle 3.3.1 (measured: from
    ``w = [1, 2, 3]`` on ``sum((w - 1.5) ** 2)``, learning_rate 0.5 and max_iter 3, all three read [1.3, 1.7, 2.1];
    then, a strong-Wolfe search on, [1.45, 1.55, 1.65]). Oracle: the parameter's own values after each step, and
    Paddle's."""
    w = paddle.to_tensor(np.array([1.0, 2.0, 3.0]), stop_gradient=False)
    d, r = w.detach(), w[0:2]

    def closure():
        opt.clear_grad()
        loss = ((w - 1.5) ** 2).sum()
        loss.backward()
        return loss

    for search, paddle_w in ((None, [1.3, 1.7, 2.1]), ("strong_wolfe", [1.45, 1.55, 1.65])):
        opt = paddle.optimizer.LBFGS(learning_rate=0.5, max_iter=3, parameters=[w], line_search_fn=search)
        opt.step(closure)
        np.testing.assert_allclose(w.numpy(), paddle_w, rtol=1e-12)
        np.testing.assert_array_equal(d.numpy(), w.numpy())
        np.testing.assert_array_equal(r.numpy(), w.numpy()[0:2])


def test_views_of_a_parameter_see_a_compiled_training_steps_update():
    """A ``to_static`` function that runs backward, ``opt.step()`` and ``opt.clear_grad()`` is one compiled program
    whose results are written back into the parameters afterwards (by its first call's path and by the fast path of
    the calls after it): views taken before see the new values, as in Paddle 3.3.1 (measured: from ``W = ones``,
    SGD 0.5 on ``sum(ones @ W + b)``, ``W``, ``W.detach()`` and ``W[0]`` read 0.5 after the first call, 0 after the
    second). Oracle: SGD's rule in numpy."""
    lin = paddle.nn.Linear(2, 2)
    lin.weight.set_value(np.ones((2, 2), np.float32))
    d, r = lin.weight.detach(), lin.weight[0]
    opt = paddle.optimizer.SGD(0.5, parameters=lin.parameters())

    @paddle.jit.to_static
    def train(x):
        loss = lin(x).sum()
        loss.backward()
        opt.step()
        opt.clear_grad()
        return loss

    want = np.ones((2, 2), np.float32)
    for _ in range(4):
        train(paddle.ones([1, 2]))
        want = want - 0.5
        np.testing.assert_array_equal(lin.weight.numpy(), want)
        np.testing.assert_array_equal(d.numpy(), want)
        np.testing.assert_array_equal(r.numpy(), want[0])


def test_unfold_and_as_strided_values_gradients_and_misuse():
    """``unfold`` and ``as_strided`` as Paddle 3.3.1 computes them (recorded: ``x.unfold(1, 2, 1)`` of
    ``arange(12).reshape([3, 4])`` is [3, 3, 2] with rows [0, 1], [1, 2], [2, 3]; ``as_strided(x, [2, 2], [4, 1])``
    is [[0, 1], [4, 5]]). Paddle's gradient through overlapping windows counts each element once (``2 * x`` for
    ``sum(unfold(x, 1, 2, 1) ** 2)``); ours is the derivative, each element counted in every window holding it
    (oracle: numpy). Misuse: a window longer than the axis, a step of 0, positions past the end (Paddle reads
    memory past the tensor there), a write to overlapping windows (Paddle loses it), ``as_strided`` of a
    non-contiguous view (Paddle counts its strides in the base's memory), ``mT`` of a 1-D tensor."""
    a = np.arange(12, dtype=np.float32).reshape(3, 4)
    x = paddle.to_tensor(a, stop_gradient=False)
    u = x.unfold(1, 2, 1)
    assert u.shape == [3, 3, 2]
    np.testing.assert_array_equal(u.numpy(), np.lib.stride_tricks.sliding_window_view(a, 2, 1))
    (u ** 2).sum().backward()
    counts = np.array([1, 2, 2, 1], np.float32)
    np.testing.assert_array_equal(x.grad.numpy(), 2 * a * counts)
    np.testing.assert_array_equal(paddle.as_strided(x, [2, 2], [4, 1]).numpy(), [[0.0, 1.0], [4.0, 5.0]])
    with pytest.raises(ValueError, match=r"unfold: size must be in \[0, 4\].*received 5"):
        x.unfold(1, 5, 1)
    with pytest.raises(ValueError, match="unfold: step must be greater than 0"):
        paddle.unfold(x, 1, 2, 0)
    with pytest.raises(IndexError, match="as_strided: shape \\[3, 3\\], stride \\[4, 4\\] and offset 0 reach element 16"):
        paddle.as_strided(x, [3, 3], [4, 4])
    y = paddle.to_tensor(a)
    w = y.unfold(1, 2, 1)
    with pytest.raises(RuntimeError, match="Tensor.__setitem__: this Tensor is a view whose elements overlap"):
        w[0, 0, 1] = -5.0
    w2 = y.unfold(1, 2, 2)  # windows that do not overlap: a write reaches y
    w2[0, 1, 0] = -5.0
    assert y.numpy()[0, 2] == -5.0
    with pytest.raises(ValueError, match="as_strided: x is a view whose elements do not lie one after another"):
        paddle.as_strided(y.T, [2, 2], [1, 1])
    np.testing.assert_array_equal(paddle.as_strided(y.T.contiguous(), [2], [1]).numpy(), y.numpy().T.ravel()[:2])
    with pytest.raises(ValueError, match=r"Tensor.mT: the tensor needs at least 2 dimensions, but has 1"):
        _ = paddle.ones([3]).mT
