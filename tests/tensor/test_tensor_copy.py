"""Pickling, copying and DLPack of Tensors; which hooks paddle.grad runs (fixtures from Paddle 3.3.1)."""

from __future__ import annotations

import copy
import json
import os
import pickle

import jax
import numpy as np
import pytest

import pylayer_jax as paddle

_PADDLE = json.load(open(os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "data", "paddle_tensor_copy.json")))


@pytest.mark.parametrize("protocol", range(pickle.HIGHEST_PROTOCOL + 1))
def test_pickle_non_leaf_keeps_values_in_every_protocol(protocol):
    x = paddle.to_tensor([1.0, 2.0], stop_gradient=False)
    y = x * 2  # a non-leaf, its value still deferred
    z = pickle.loads(pickle.dumps(y, protocol=protocol))
    values, stop_gradient, is_leaf, dtype = _PADDLE["pickle_nonleaf"][min(protocol, 5)]
    np.testing.assert_array_equal(z.numpy(), values)
    assert (z.stop_gradient, z.is_leaf, f"paddle.{z.dtype.name}") == (stop_gradient, is_leaf, dtype)


def test_pickle_keeps_dtype_and_shape():
    a = np.arange(12, dtype=np.int32).reshape(3, 4)
    z = pickle.loads(pickle.dumps(paddle.to_tensor(a)))
    assert z.dtype == paddle.int32
    np.testing.assert_array_equal(z.numpy(), a)


def test_deepcopy_and_copy_have_no_grad_and_no_history():
    x = paddle.to_tensor([1.0, 2.0], stop_gradient=False)
    c = copy.deepcopy(x * 2)
    assert [c.numpy().tolist(), c.stop_gradient, c.is_leaf] == _PADDLE["deepcopy_nonleaf"]
    (x * 3).sum().backward()
    c = copy.deepcopy(x)
    assert [c.numpy().tolist(), c.stop_gradient, c.is_leaf, c.grad is None] == _PADDLE["deepcopy_leaf"]
    c = copy.copy(x)
    assert [c is x, c.numpy().tolist(), c.stop_gradient, c.grad is None] == _PADDLE["copy_leaf"]
    c.set_value(np.zeros(2, "float32"))  # the copy is its own tensor
    np.testing.assert_array_equal(x.numpy(), [1.0, 2.0])


def test_deepcopy_of_a_subclass_keeps_its_attributes():
    class Param(paddle.Tensor):
        pass

    p = Param.__new__(Param)
    paddle.Tensor.__init__(p, paddle.to_tensor([1.0])._value, False)
    p.trainable = True
    c = copy.deepcopy(p)
    assert type(c) is Param and c.trainable and not c.stop_gradient


def test_pickling_a_traced_tensor_is_a_clear_error():
    def f(a):
        pickle.dumps(paddle.Tensor(a))
        return a

    with pytest.raises(RuntimeError, match="pickling a Tensor needs a concrete value"):
        jax.jit(f)(np.ones(2))


def test_dlpack_round_trips():
    t = paddle.to_tensor([1.5, -2.0])
    back = paddle.utils.dlpack.from_dlpack(paddle.utils.dlpack.to_dlpack(t))
    np.testing.assert_array_equal(back.numpy(), [1.5, -2.0])
    assert back.dtype == paddle.float32 and back.stop_gradient
    values, dtype = _PADDLE["from_dlpack_numpy"]
    r = paddle.from_dlpack(np.arange(3.0))
    assert r.numpy().tolist() == values and f"paddle.{r.dtype.name}" == dtype
    assert paddle.to_dlpack is paddle.utils.dlpack.to_dlpack
    with pytest.raises(TypeError, match="from_dlpack: expected a DLPack capsule"):
        paddle.from_dlpack([1, 2])
    with pytest.raises(TypeError, match="to_dlpack: expected a Tensor"):
        paddle.to_dlpack(np.ones(2))


def _double(g):
    return 2 * g


def test_paddle_grad_runs_non_leaf_hooks_but_not_leaf_hooks():
    w = paddle.to_tensor([1.0, 2.0, 3.0], stop_gradient=False)
    w.register_hook(_double)
    np.testing.assert_allclose(paddle.grad((w**3).sum(), w)[0].numpy(), _PADDLE["grad_leaf_hook"])
    (w**3).sum().backward()
    np.testing.assert_allclose(w.grad.numpy(), _PADDLE["backward_leaf_hook"])
    w2 = paddle.to_tensor([1.0, 2.0, 3.0], stop_gradient=False)
    h = w2 * 1.0
    h.register_hook(_double)
    np.testing.assert_allclose(paddle.grad((h**3).sum(), w2)[0].numpy(), _PADDLE["grad_nonleaf_hook_to_leaf"])
    h2 = w2 * 1.0
    h2.register_hook(_double)
    np.testing.assert_allclose(paddle.grad((h2**3).sum(), h2)[0].numpy(), _PADDLE["grad_nonleaf_hook_to_itself"])
    w3 = paddle.to_tensor([1.0, 2.0, 3.0], stop_gradient=False)
    w3.register_hook(_double)
    u = w3 * 1.0
    np.testing.assert_allclose(paddle.grad((u**3).sum(), u)[0].numpy(), _PADDLE["grad_leaf_hook_to_nonleaf"])
