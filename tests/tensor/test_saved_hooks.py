"""saved_tensors_hooks: paddle-behaviour.md section J (items 35-39)."""

from __future__ import annotations

import threading

import numpy as np
import pytest

import pylayer_jax as paddle
from pylayer_jax.autograd import PyLayer, saved_tensors_hooks


def leaf(values, dtype="float32", stop_gradient=False):
    return paddle.to_tensor(np.asarray(values), dtype=dtype, stop_gradient=stop_gradient)


class Recorder:
    """Pack/unpack hooks that log (event, values) and pass Tensors through."""

    def __init__(self, tag=""):
        self.log = []
        self.tag = tag

    def pack(self, t):
        assert not paddle.is_grad_enabled()
        self.log.append(("pack" + self.tag, t.numpy().tolist()))
        return t

    def unpack(self, t):
        assert not paddle.is_grad_enabled()
        self.log.append(("unpack" + self.tag, t.numpy().tolist()))
        return t

    def hooks(self):
        return saved_tensors_hooks(self.pack, self.unpack)


def test_j35_nesting_innermost_wins_and_nothing_after_exit():
    outer, inner = Recorder("O"), Recorder("I")
    a = leaf([2.0])
    with outer.hooks():
        with inner.hooks():
            y1 = a * a
        y2 = paddle.exp(a)
    y3 = paddle.tanh(a)
    (y1 + y2 + y3).sum().backward()
    assert [e for e, _ in inner.log] == ["packI", "packI", "unpackI", "unpackI"]
    assert [e for e, _ in outer.log] == ["packO", "unpackO"]


def test_j35_thread_local():
    rec = Recorder()
    other = {}

    def work():
        b = leaf([1.0])
        (b * b).sum().backward()
        other["done"] = True

    with rec.hooks():
        th = threading.Thread(target=work)
        th.start()
        th.join()
    assert other["done"] and rec.log == []


# item 36: which tensors built-in ops pack, forward | backward (recorded from Paddle 3.3.1)
@pytest.mark.parametrize(
    "name,fn,packed,unpacked",
    [
        ("multiply", lambda a, b: paddle.multiply(a, b), ["a", "b"], ["a", "b"]),
        ("divide", lambda a, b: paddle.divide(a, b), ["a", "b", "out"], ["a", "b", "out"]),
        ("tanh", lambda a, b: paddle.tanh(a), ["out"], ["out"]),
        ("exp", lambda a, b: paddle.exp(a), ["out"], ["out"]),
        ("square", lambda a, b: paddle.square(a), ["a"], ["a"]),
        ("add", lambda a, b: paddle.add(a, b), [], []),
        ("scale", lambda a, b: a * 3, [], []),
        ("sum", lambda a, b: paddle.sum(a), [], []),
        ("mean", lambda a, b: paddle.mean(a), [], []),
    ],
)
def test_j36_builtin_op_pack_unpack_counts_and_order(name, fn, packed, unpacked):
    a, b = leaf([2.0, 3.0]), leaf([5.0, 7.0])
    rec = Recorder()
    with rec.hooks():
        y = fn(a, b)
    values = {"a": a.numpy().tolist(), "b": b.numpy().tolist(), "out": y.numpy().tolist()}
    assert rec.log == [("pack", values[k]) for k in packed]
    y.sum().backward()
    assert rec.log[len(packed) :] == [("unpack", values[k]) for k in unpacked]


def test_j36_reshape_packs_nothing():
    a = leaf([[2.0, 3.0]])
    rec = Recorder()
    with rec.hooks():
        y = paddle.reshape(a, [2])
    y.sum().backward()
    assert rec.log == []


def test_j36_b_is_packed_even_if_only_a_needs_grad():
    a, b = leaf([2.0]), leaf([5.0], stop_gradient=True)
    rec = Recorder()
    with rec.hooks():
        y = a * b
    assert [v for _, v in rec.log] == [[2.0], [5.0]]
    y.sum().backward()
    assert len(rec.log) == 4


def test_j36_no_pack_without_a_grad_node():
    rec = Recorder()
    with rec.hooks():
        paddle.multiply(leaf([1.0], stop_gradient=True), leaf([2.0], stop_gradient=True))
    assert rec.log == []


def test_j36_tanh_tanh_order():
    a = leaf([0.5])
    rec = Recorder()
    with rec.hooks():
        t1 = paddle.tanh(a)
        t2 = paddle.tanh(t1)
    t2.sum().backward()
    v1, v2 = t1.numpy().tolist(), t2.numpy().tolist()
    assert rec.log == [("pack", v1), ("pack", v2), ("unpack", v2), ("unpack", v1)]


def test_j36_retain_graph_one_pack_one_unpack_per_backward():
    a = leaf([0.5])
    rec = Recorder()
    with rec.hooks():
        y = paddle.tanh(a)
    y.backward(retain_graph=True)
    y.backward()
    assert [e for e, _ in rec.log] == ["pack", "unpack", "unpack"]


def test_j36_pack_gets_a_new_tensor_object():
    a = leaf([0.5])
    got = []
    with saved_tensors_hooks(lambda t: got.append(t) or t, lambda t: t):
        paddle.square(a)
    assert len(got) == 1 and got[0] is not a


class SaveTwo(PyLayer):
    @staticmethod
    def forward(ctx, a, b):
        ctx.save_for_backward(a, b)
        return a * b

    @staticmethod
    def backward(ctx, g):
        a, b = ctx.saved_tensor()
        a, b = ctx.saved_tensor()
        return g * b, g * a


def test_j37_pylayer_packs_at_save_time_same_object_and_unpacks_per_call():
    a, b = leaf([2.0]), leaf([3.0])
    got = []
    rec = Recorder()

    def pack(t):
        got.append(t)
        return rec.pack(t)

    with saved_tensors_hooks(pack, rec.unpack):
        y = SaveTwo.apply(a, b)
        assert [e for e, _ in rec.log] == ["pack", "pack"]
    assert got[0] is a and got[1] is b
    y.sum().backward()
    assert [e for e, _ in rec.log] == ["pack", "pack"] + ["unpack"] * 4
    np.testing.assert_allclose([a.grad.item(), b.grad.item()], [3.0, 2.0])


def test_j37_packs_even_when_nothing_needs_grad():
    rec = Recorder()
    with rec.hooks():
        SaveTwo.apply(leaf([2.0], stop_gradient=True), leaf([3.0], stop_gradient=True))
    assert [e for e, _ in rec.log] == ["pack", "pack"]


def test_j38_lists_keep_structure_non_tensors_stored_as_is():
    seen = {}

    class L(PyLayer):
        @staticmethod
        def forward(ctx, x):
            ctx.save_for_backward([x, x * 2], (x * 3,), 7, "tag")
            return x * 2

        @staticmethod
        def backward(ctx, g):
            seen["saved"] = ctx.saved_tensor()
            return g

    rec = Recorder()
    with rec.hooks():
        y = L.apply(leaf([1.0]))
    assert [v for _, v in rec.log] == [[1.0], [2.0], [3.0]]
    y.sum().backward()
    lst, tup, k, tag = seen["saved"]
    assert type(lst) is list and type(tup) is tuple and k == 7 and tag == "tag"
    assert [lst[0].item(), lst[1].item(), tup[0].item()] == [1.0, 2.0, 3.0]


@pytest.mark.parametrize(
    "unpack,err,match",
    [
        (lambda p: "nope", TypeError, "unpack_hook .* must return a Tensor.*returned str"),
        (lambda p: paddle.ones([5]), ValueError, r"unpack_hook .* must return the saved tensor's shape \[2\]"),
        (lambda p: paddle.ones([2], dtype="float64"), ValueError, "dtype float32.*dtype float64"),
    ],
)
def test_j38_bad_unpack_results(unpack, err, match):
    a = leaf([1.0, 2.0])
    with saved_tensors_hooks(lambda t: t, unpack):
        y = SaveTwo.apply(a, leaf([1.0, 1.0]))
    with pytest.raises(err, match=match):
        y.sum().backward()


@pytest.mark.parametrize(
    "unpack,err,match",
    [
        (lambda p: "nope", TypeError, "unpack_hook must return a Tensor"),
        (lambda p: paddle.ones([5]), ValueError, r"unpack_hook must return the saved tensor's shape \[2\]"),
    ],
)
def test_j38_bad_unpack_results_builtin_ops(unpack, err, match):
    a = leaf([1.0, 2.0])
    with saved_tensors_hooks(lambda t: t, unpack):
        y = a * a
    with pytest.raises(err, match=match):
        y.sum().backward()


def test_j39_unpacked_values_are_trusted():
    a, b = leaf([2.0]), leaf([3.0])
    with saved_tensors_hooks(lambda t: t, lambda t: t * 10):
        y = a * b
        z = SaveTwo.apply(a, b)
    (y + z).sum().backward()
    np.testing.assert_allclose([a.grad.item(), b.grad.item()], [60.0, 40.0])


def test_hooks_must_be_callable():
    with pytest.raises(TypeError, match="pack_hook must be callable"):
        saved_tensors_hooks(1, lambda t: t)


def test_hooks_with_numpy_roundtrip_and_create_graph():
    # pack to numpy, unpack to a fresh Tensor: the first gradient is right (Paddle docs' example 2 pattern)
    a = leaf([3.0])
    with saved_tensors_hooks(lambda t: t.numpy(), lambda p: paddle.to_tensor(p)):
        y = SaveTwo.apply(a, a)
    (g,) = paddle.grad(y, a, create_graph=True)
    np.testing.assert_allclose(g.numpy(), [6.0])
