"""``Tensor.resize_``, ``Tensor.set_`` and ``paddle.tensor.create_tensor`` against Paddle 3.3.1 (shapes, values,
dtypes, versions, stop_gradient, sharing with views and sources, gradients, errors: cases
``tests/tensor_extra_cases.py``, recorded by ``tests/record_paddle_tensor_extras.py``), and what pylayer_jax defines
where Paddle reads memory it does not own or fails by a bug (checked against numpy and ``jax.grad``)."""

from __future__ import annotations

import json
import os
import re
import sys

import jax
import jax.numpy as jnp
import numpy as np
import pytest

import pylayer_jax as paddle

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import tensor_extra_cases as C  # noqa: E402

with open(os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "data",
                       "paddle_tensor_extras.json")) as _f:
    REF = json.load(_f)
REF.pop("paddle")
GROUPS = ["resize_plain", "resize_views", "resize_grads", "resize_errors", "set_plain", "set_sharing", "set_grads",
          "set_errors", "saved", "create"]
OURS = {g: C.CASES[g](paddle) for g in GROUPS}

# the first words of our message for each error (the same exception type as Paddle's: checked below)
_SAYS = {
    "resize_errors": {
        "shape_int": r"Tensor\.resize_: Input \(shape\) should be list or tuple but received <class 'int'>",
        "shape_none": r"Tensor\.resize_: Input \(shape\) should be list or tuple but received <class 'NoneType'>",
        "shape_float": r"Tensor\.resize_: every entry of shape must be an int, but shape\[0\] is 2\.0 \(float\)",
        "shape_negative": r"Tensor\.resize_: each value of shape is expected to be no less than 0, but received "
                          r"shape\[0\] = -1; shape = \[-1\]",
        "shape_negative_second": r"received shape\[1\] = -1; shape = \[2, -1\]",
        "leaf_trains": r"Tensor\.resize_: \(InvalidArgument\) Leaf Tensor \S+ that doesn't stop gradient can't use "
                       r"inplace strategy",
        "leaf_trains_no_grad": r"Tensor\.resize_: \(InvalidArgument\) Leaf Tensor",
        "transposed_other_shape": r"Tensor\.resize_: x is a view whose elements do not lie one after another .* "
                                  r"resizes only to its own shape \[3, 2\], but received \[6\]",
        "column_slice_grow": r"its own shape \[2, 2\], but received \[6\]",
    },
    "set_errors": {
        "source_list": r"Tensor\.set_: Input \(source\) should be paddle\.Tensor but received <class 'list'>",
        "source_array": r"Tensor\.set_: Input \(source\) should be paddle\.Tensor but received <class "
                        r"'numpy\.ndarray'>",
        "leaf_trains": r"Tensor\.set_: \(InvalidArgument\) Leaf Tensor \S+ that doesn't stop gradient",
        "leaf_trains_no_source": r"Tensor\.set_: \(InvalidArgument\) Leaf Tensor",
    },
    "saved": {k: r"Backward of multiply: the tensor generated_tensor_\d+ it saved has been modified by an inplace "
                 r"operation\. Its version is 1 but the expected version is 0"
              for k in ("resize_same", "resize_shrink", "set_same")},
    "create": {"bad_dtype": r"dtype 'xx' is not a dtype pylayer_jax knows",
               "int_dtype": r"dtype 5 is not a dtype pylayer_jax knows"},
}


def _cases() -> list[tuple[str, str]]:
    return [(g, k) for g in GROUPS for k in REF[g]]


@pytest.mark.parametrize("group,key", _cases())
def test_as_paddle(group: str, key: str) -> None:
    ref, ours = REF[group][key], OURS[group][key]
    if key in _SAYS.get(group, {}):  # an error: Paddle's type, our sentence
        assert ref is not None and ours is not None, (group, key, ref, ours)
        assert ours[0] == ref[0], (group, key, ref, ours)
        assert re.search(_SAYS[group][key], ours[1]), (group, key, ours[1])
        return
    if (group, key) == ("create", "assigned_other_dtype"):
        # (assign of a numpy array into a Tensor: Paddle 3.3.1 leaves its version at 0, ours counts the write as any
        # other write into it: a difference of paddle.assign, not of create_tensor)
        ref, ours = dict(ref, version=None), dict(ours, version=None)
    assert ours == ref, (group, key)


def test_every_error_is_matched() -> None:
    for group, says in _SAYS.items():
        assert {k for k, v in REF[group].items() if isinstance(v, list) and v and v[0].endswith("Error")} <= set(says)


# ---- what Paddle leaves undefined -----------------------------------------------------------------------------------
def test_resize_grow_without_fill_zero_gives_zeros() -> None:
    x = paddle.to_tensor([1.0, 2.0, 3.0])
    x.resize_([2, 3])
    np.testing.assert_array_equal(x.numpy(), [[1, 2, 3], [0, 0, 0]])
    e = paddle.to_tensor(np.zeros(0, np.float32))
    e.resize_([2], fill_zero=True)  # (Paddle divides by the old size, zero: a ZeroDivisionError)
    np.testing.assert_array_equal(e.numpy(), [0, 0])


def test_resize_of_a_contiguous_view_keeps_its_own_elements() -> None:
    # Paddle restarts at the memory's start: base[2:].resize_([2]) shows base[:2] there
    base = paddle.to_tensor([1.0, 2.0, 3.0, 4.0, 5.0, 6.0])
    v = base[2:]
    v.resize_([2, 1])
    np.testing.assert_array_equal(v.numpy(), [[3], [4]])
    v[1, 0] = 40.0
    np.testing.assert_array_equal(base.numpy(), [1, 2, 3, 40, 5, 6])
    base[2] = 30.0
    np.testing.assert_array_equal(v.numpy(), [[30], [40]])


@pytest.mark.parametrize("shape,fill", [([2], False), ([5], True), ([3, 1], False)])
def test_resize_gradient_of_a_result(shape: list[int], fill: bool) -> None:
    # Paddle keeps y's old history (its gradient then has y's old shape); here the kept elements get theirs
    c = np.arange(1.0, 1.0 + int(np.prod(shape)))
    w = paddle.to_tensor([1.0, 2.0, 3.0], dtype="float64", stop_gradient=False)
    y = w * w
    y.resize_(shape, fill_zero=fill)
    assert y.shape == shape and not y.stop_gradient
    (y * paddle.to_tensor(c.reshape(shape))).sum().backward()

    def f(a: jnp.ndarray) -> jnp.ndarray:
        flat = jnp.concatenate([a * a, jnp.zeros(max(0, c.size - 3))])[: c.size]
        return jnp.sum(flat * c)

    np.testing.assert_allclose(w.grad.numpy(), np.asarray(jax.grad(f)(jnp.array([1.0, 2.0, 3.0]))), rtol=1e-12)


def test_resize_of_a_result_under_no_grad_keeps_its_shape_or_raises() -> None:
    w = paddle.to_tensor([1.0, 2.0, 3.0], stop_gradient=False)
    y = w * 2
    with paddle.no_grad():
        y.resize_([3])  # (the same shape: its history still fits)
        with pytest.raises(ValueError, match=r"Tensor\.resize_: x has a history .* of shape \[3\], and under no_grad "
                                             r"it would keep it with the new shape \[2\]"):
            y.resize_([2])
    assert y.shape == [3]


def test_set_misuse_paddle_reads_garbage_for() -> None:
    x = paddle.to_tensor([1.0, 2.0])
    src = paddle.to_tensor([1.0, 2.0, 3.0, 4.0, 5.0, 6.0])
    with pytest.raises(TypeError, match=r"Tensor\.set_: source must have x's dtype float32, but it is int64 .* "
                                        r"source\.astype\('float32'\)"):
        x.set_(paddle.to_tensor([1, 2, 3]))
    with pytest.raises(IndexError, match=r"Tensor\.set_: shape \[10\], stride \[1\] and offset 0 \(bytes\) reach "
                                         r"element 9 of source's 6 elements"):
        x.set_(src, shape=[10])
    with pytest.raises(IndexError, match=r"reach element 6 of source's 6 elements"):
        x.set_(src, shape=[3], stride=[3])
    with pytest.raises(IndexError, match=r"offset 40 \(bytes\) reach element 11"):
        x.set_(src, shape=[2], offset=40)
    with pytest.raises(ValueError, match=r"Tensor\.set_: offset counts bytes .* whole number of float32 elements \(4 "
                                         r"bytes each\) >= 0, but received 2"):
        x.set_(src, shape=[2], offset=2)
    with pytest.raises(ValueError, match=r"but received -4"):
        x.set_(src, shape=[2], offset=-4)
    with pytest.raises(ValueError, match=r"Tensor\.set_: stride needs one entry per axis of shape, but received shape "
                                         r"\[2, 2\] and stride \[1\]"):
        x.set_(src, shape=[2, 2], stride=[1])
    with pytest.raises(ValueError, match=r"Tensor\.set_: source is a view whose elements do not lie one after another"):
        x.set_(src.reshape([2, 3]).T, shape=[2])
    with pytest.raises(TypeError, match=r"Tensor\.set_: offset must be an int \(a number of bytes\)"):
        x.set_(src, shape=[2], offset=4.0)
    assert x.shape == [2] and x.inplace_version == 0  # (nothing was changed by the refused calls)


def test_set_to_a_transposed_source_is_that_view() -> None:
    # Paddle copies the transposed memory in its own order (x shows other values); here x is source's view
    base = paddle.to_tensor([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]])
    x = paddle.to_tensor([0.0])
    x.set_(base.T)
    np.testing.assert_array_equal(x.numpy(), [[1, 4], [2, 5], [3, 6]])
    x[0, 1] = 40.0
    np.testing.assert_array_equal(base.numpy(), [[1, 2, 3], [40, 5, 6]])


def test_set_of_a_result_to_another_shape_raises() -> None:
    w = paddle.to_tensor([1.0, 2.0, 3.0], stop_gradient=False)
    y = w * 2
    with pytest.raises(ValueError, match=r"Tensor\.set_: x has a history .* of shape \[3\], which set_ keeps .* the "
                                         r"shape \[2\]"):
        y.set_(paddle.to_tensor([1.0, 2.0]))


def test_function_forms_and_methods() -> None:
    assert paddle.Tensor.resize_ is paddle.resize_ and paddle.Tensor.set_ is paddle.set_
    # Paddle 3.3.1's paths of these are paddle.tensor.<name> (and the Tensor methods)
    for n in ("resize_", "set_", "create_tensor", "top_p_sampling", "stft", "istft", "add"):
        assert getattr(paddle.tensor, n) is getattr(paddle, n)
    for n in ("nn", "Tensor", "float32", "_api"):
        with pytest.raises(AttributeError, match=r"module 'paddle\.tensor' has no attribute"):
            getattr(paddle.tensor, n)
    x = paddle.to_tensor([1.0, 2.0, 3.0])
    assert paddle.resize_(x, [2]) is x and x.shape == [2]
    with pytest.raises(TypeError, match=r"Tensor\.resize_: x must be a Tensor .* but received list"):
        paddle.resize_([1.0], [1])
    with pytest.raises(TypeError, match=r"Tensor\.set_: x must be a Tensor .* but received list"):
        paddle.set_([1.0])


def test_static_mode_raises() -> None:
    paddle.enable_static()
    try:
        with pytest.raises(NotImplementedError, match=r"paddle\.tensor\.create_tensor: under paddle\.enable_static"):
            paddle.create_tensor("float32")
        with paddle.static.program_guard(paddle.static.Program(), paddle.static.Program()):
            x = paddle.static.data("x", [3], "float32")
            for f in (lambda: x.resize_([2]), lambda: x.set_(x)):  # (Paddle 3.3.1: an AttributeError)
                with pytest.raises(NotImplementedError, match=r"Tensor\.(resize|set)_ changes a Tensor in place, "
                                                              r"which only dynamic mode does"):
                    f()
    finally:
        paddle.disable_static()
    t = paddle.create_tensor("int32")
    assert t.shape == [] and t.dtype == paddle.int32 and t.name.startswith("create_tensor_")


def test_under_to_static() -> None:
    @paddle.jit.to_static
    def f(x: paddle.Tensor) -> paddle.Tensor:
        y = x * 2
        y.resize_([2, 2])  # (recorded like any in-place op)
        return y.sum(axis=0)

    np.testing.assert_array_equal(f(paddle.to_tensor([1.0, 2.0, 3.0, 4.0, 5.0])).numpy(), [8, 12])
    w = paddle.to_tensor([1.0, 2.0, 3.0])

    @paddle.jit.to_static
    def g(x: paddle.Tensor) -> paddle.Tensor:
        z = x * 1
        z.set_(w)
        return z

    with pytest.raises(RuntimeError, match=r"Tensor\.set_: inside jit\.to_static or a JAX transformation; set_ makes x "
                                           r"share source's data"):
        g(paddle.to_tensor([1.0, 2.0, 3.0]))
