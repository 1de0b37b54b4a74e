"""``paddle.tensor`` (its submodules' names recorded from Paddle 3.3.1 by ``tests/record_paddle_tensor_names.py``;
calls and ``paddle.LazyGuard`` recorded by ``tests/record_paddle_tensor_namespace.py``, cases in
``tests/tensor_namespace_cases.py``)."""

from __future__ import annotations

import json
import os

import numpy as np
import pytest
from tensor_namespace_cases import record

import pylayer_jax as paddle
from pylayer_jax.tensor import _names, _resolve

DATA = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "data")
with open(os.path.join(DATA, "paddle_tensor_names.json")) as fh:
    NAMES = json.load(fh)
with open(os.path.join(DATA, "paddle_tensor_namespace.json")) as fh:
    PADDLE = json.load(fh)
OURS = record(paddle)

# Paddle asserts (AssertionError) where a parameter has no pending initialisation; a RuntimeError says so here
CLEARER = {"lazy initialize twice", "lazy initialize a parameter made outside", "lazy nested: after the inner guard is not"}


def test_the_packages_name_table_is_the_recorded_one() -> None:
    assert _names.NAMES == NAMES["modules"]
    assert set(_resolve.SUBMODULES) == {"math", "creation", "manipulation", "linalg", "logic", "search", "stat",
                                        "random", "attribute"}


@pytest.mark.parametrize("key", sorted(k for k in PADDLE if k != "paddle"))
def test_calls_and_lazy_guard_match_paddle(key: str) -> None:
    if key in CLEARER:
        assert PADDLE[key] == ["raises", "AssertionError"] and OURS[key] == ["raises", "RuntimeError"]
    else:
        assert OURS[key] == PADDLE[key]


def _expected(name: str, home: str | None):
    """This package's function that Paddle's name stands for (the public namespace is the oracle): the same name
    where Paddle also exposes it, else at the other public places (``paddle.``, ``paddle.linalg.``, a method)."""
    order = {"": ("", "linalg", "Tensor"), "linalg": ("linalg", "", "Tensor"), "Tensor": ("", "Tensor"),
             "signal": ("signal",)}.get(home, ())
    places = {"": paddle, "linalg": paddle.linalg, "Tensor": paddle.Tensor, "signal": paddle.signal}
    for where in order:
        if hasattr(places[where], name):
            return getattr(places[where], name)
    return None


@pytest.mark.parametrize("sub", sorted(NAMES["modules"]))
def test_every_recorded_name_is_the_packages_function_or_says_it_is_missing(sub: str) -> None:
    mod = paddle.tensor if not sub else getattr(paddle.tensor, sub)
    path = "paddle.tensor" + (f".{sub}" if sub else "")
    resolved = 0
    for name, home in NAMES["modules"][sub].items():
        assert name in dir(mod)
        want = _expected(name, home)
        if name in ("tensor", "fill_constant", "create_array", "array_write", "array_read", "array_length"):
            assert getattr(mod, name) is getattr(paddle.tensor._own, name)
        elif want is not None:
            got = getattr(mod, name)
            assert got is want, f"{path}.{name}"
            resolved += 1
        else:
            with pytest.raises(AttributeError, match=rf"{path}.{name}: Paddle 3.3.1 has this function, but "
                                                     r"pylayer_jax does not implement it"):
                getattr(mod, name)
    assert resolved


def test_import_paths() -> None:
    import pylayer_jax.tensor.creation as creation
    from pylayer_jax.tensor.linalg import matmul
    from pylayer_jax.tensor.math import add

    assert creation.to_tensor is paddle.to_tensor and add is paddle.add and matmul is paddle.linalg.matmul
    assert paddle.tensor.linalg.norm is paddle.norm and paddle.tensor.linalg.det is paddle.linalg.det and paddle.tensor.math is paddle.tensor.math
    assert {"math", "linalg", "creation"} <= set(dir(paddle.tensor))


@pytest.mark.parametrize("call, err, match", [
    (lambda: paddle.tensor.no_such_q7, AttributeError, r"module 'paddle.tensor' has no attribute 'no_such_q7'"),
    (lambda: paddle.tensor.stat.add, AttributeError, r"module 'paddle.tensor.stat' has no attribute 'add'"),
    (lambda: paddle.tensor([1.0], requires_grad=1), TypeError,
     r"paddle.tensor: requires_grad and pin_memory must be bools, but received int and bool"),
    (lambda: paddle.tensor.fill_constant([2], "float32", 1.0, out=[0.0, 0.0]), TypeError,
     r"fill_constant: out must be a Tensor or None, but received list"),
])
def test_misuse(call, err, match) -> None:
    with pytest.raises(err, match=match):
        call()


def test_tensor_with_requires_grad_is_a_leaf_with_gradients() -> None:
    t = paddle.tensor(np.array([1.0, -2.0, 3.0], np.float32), requires_grad=True)
    (t * t).sum().backward()
    np.testing.assert_allclose(t.grad.numpy(), 2 * np.array([1.0, -2.0, 3.0], np.float32))
    assert str(paddle.tensor([1], device="cpu").place) == "Place(cpu)"
    np.testing.assert_array_equal(paddle.tensor.fill_constant([2], "int64", 3, force_cpu=True).numpy(), [3, 3])


# ---- LazyGuard -----------------------------------------------------------------------------------------------------
def test_lazy_parameters_initialize_once_with_a_clear_error() -> None:
    with paddle.LazyGuard():
        lin = paddle.nn.Linear(2, 2)
    lin.weight.initialize()
    with pytest.raises(RuntimeError, match=r"Parameter.initialize: parameter 'linear_\d+.w_0' has no pending "
                                           r"initialisation; only a parameter created under paddle.LazyGuard\(\)"):
        lin.weight.initialize()
    lin.bias.initialize()
    # they are usable (and trainable) whether initialize() was called or not
    with paddle.LazyGuard():
        other = paddle.nn.Linear(2, 1)
    x = paddle.ones([3, 2])
    other(x).sum().backward()
    np.testing.assert_allclose(other.weight.grad.numpy(), np.full((2, 1), 3.0, np.float32))


def test_lazy_guard_is_refused_in_static_mode() -> None:
    paddle.enable_static()
    try:
        with pytest.raises(RuntimeError, match=r"paddle.LazyGuard: lazy initialisation is only available in dynamic "
                                               r"mode, but static mode is on"):
            paddle.LazyGuard().__enter__()
    finally:
        paddle.disable_static()
    with paddle.LazyGuard():
        assert paddle.nn.initializer.lazy_init.lazy_on()
    assert not paddle.nn.initializer.lazy_init.lazy_on()
