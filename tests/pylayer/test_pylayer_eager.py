"""PyLayer on the eager tape: paddle-behaviour.md sections A-I, item by item."""

from __future__ import annotations

import numpy as np
import pytest

import pylayer_jax as paddle
import pylayer_jax.autograd as ag
from pylayer_jax.autograd import PyLayer, PyLayerContext


def leaf(values, dtype="float32", stop_gradient=False):
    return paddle.to_tensor(np.asarray(values), dtype=dtype, stop_gradient=stop_gradient)


class Cube(PyLayer):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return x * x * x

    @staticmethod
    def backward(ctx, dy):
        (x,) = ctx.saved_tensor()
        return 3 * x * x * dy


class Mul(PyLayer):
    @staticmethod
    def forward(ctx, x, y):
        ctx.save_for_backward(x, y)
        return x * y

    @staticmethod
    def backward(ctx, g):
        x, y = ctx.saved_tensor()
        return g * y, g * x


# ---- A. names ----------------------------------------------------------------------
def test_a1_public_names():
    for name in (
        "PyLayer",
        "PyLayerContext",
        "saved_tensors_hooks",
        "once_differentiable",
        "backward",
        "grad",
        "check_pylayer",
        "no_grad",
    ):
        assert hasattr(ag, name), name
    assert paddle.autograd.PyLayer is PyLayer
    assert ag.grad is paddle.grad


def test_a2_same_ctx_and_instance_apply():
    seen = []

    class L(PyLayer):
        @staticmethod
        def forward(ctx, x):
            ctx.func = paddle.square
            ctx.k = 3.0
            seen.append(ctx)
            return x * 2

        @staticmethod
        def backward(ctx, g):
            seen.append(ctx)
            return ctx.func(g) * ctx.k

    x = leaf([1.0, 2.0])
    L().apply(x).sum().backward()
    assert seen[0] is seen[1] and isinstance(seen[0], PyLayerContext)
    np.testing.assert_allclose(x.grad.numpy(), [3.0, 3.0])


def test_a3_missing_forward_or_backward():
    class NoForward(PyLayer):
        pass

    with pytest.raises(NotImplementedError, match="You must implement the forward function"):
        NoForward.apply(leaf([1.0]))

    class NoBackward(PyLayer):
        @staticmethod
        def forward(ctx, x):
            return x * 2

    y = NoBackward.apply(leaf([1.0]))  # fine until backward is needed
    with pytest.raises(NotImplementedError, match="You must implement the backward function"):
        y.sum().backward()


# ---- B. inputs of apply --------------------------------------------------------------
def test_b4_slots_positional_lists_and_non_tensors():
    got = {}

    class L(PyLayer):
        @staticmethod
        def forward(ctx, a, scale, pair, name, fn=None):
            got["fwd"] = (scale, name, fn)
            return a * scale + pair[0] * pair[1]

        @staticmethod
        def backward(ctx, g):
            got["nig"] = ctx.needs_input_grad
            return g * 2.0, [g * 3.0, g * 4.0]

    a, p0, p1 = leaf([1.0]), leaf([2.0]), leaf([5.0], stop_gradient=True)
    with pytest.raises(ValueError, match="should return None at 1 position"):
        L.apply(a, 2.0, [p0, p1], "s", fn=len).sum().backward()
    p1.stop_gradient = False
    a.clear_grad(), p0.clear_grad()
    L.apply(a, 2.0, [p0, p1], "s", fn=len).sum().backward()
    assert got["fwd"] == (2.0, "s", len)
    assert got["nig"] == (True, True)
    np.testing.assert_allclose(a.grad.numpy(), [2.0])
    np.testing.assert_allclose(p0.grad.numpy(), [3.0])
    np.testing.assert_allclose(p1.grad.numpy(), [4.0])


def test_b4_beyond_paddle_dict_and_nested_slots():
    class L(PyLayer):
        @staticmethod
        def forward(ctx, d, nested):
            return d["w"] * d["b"] + nested[0][0] * 2

        @staticmethod
        def backward(ctx, g):
            return {"w": g * 10.0, "b": g * 20.0}, [[g * 2.0]]

    w, b, n = leaf([1.0]), leaf([1.0]), leaf([1.0])
    L.apply({"w": w, "b": b}, [[n]]).sum().backward()
    np.testing.assert_allclose([w.grad.item(), b.grad.item(), n.grad.item()], [10.0, 20.0, 2.0])


def test_b5_kwargs_slots_in_call_order():
    class L(PyLayer):
        @staticmethod
        def forward(ctx, x, y):
            return x + 2 * y

        @staticmethod
        def backward(ctx, g):
            return g * 1.0, g * 2.0  # first value belongs to the first keyword given

    x, y = leaf([1.0]), leaf([1.0])
    L.apply(y=y, x=x).sum().backward()
    np.testing.assert_allclose(y.grad.numpy(), [1.0])
    np.testing.assert_allclose(x.grad.numpy(), [2.0])


def test_b6_same_tensor_twice_accumulates():
    x = leaf([2.0, 3.0])
    Mul.apply(x, x).sum().backward()
    np.testing.assert_allclose(x.grad.numpy(), [4.0, 6.0])


def test_b7_no_node_without_grad():
    calls = []

    class L(PyLayer):
        @staticmethod
        def forward(ctx, x):
            return x * 2

        @staticmethod
        def backward(ctx, g):
            calls.append(1)
            return g

    y = L.apply(leaf([1.0], stop_gradient=True))
    assert y.stop_gradient and y.is_leaf
    x = leaf([1.0])
    with paddle.no_grad():
        y2 = L.apply(x)
    assert y2.stop_gradient and y2.is_leaf
    assert calls == []


def test_b8_every_output_needs_grad_once_a_node_exists_integers_included():
    class L(PyLayer):
        @staticmethod
        def forward(ctx, x):
            return x * 2, paddle.to_tensor([1, 2])

        @staticmethod
        def backward(ctx, g, gi):
            return g

    a, b = L.apply(leaf([1.0]))
    assert not a.stop_gradient and not b.stop_gradient


# ---- C. forward and its outputs --------------------------------------------------------
def test_c9_forward_runs_with_recording_off_and_inner_pylayer_builds_no_node():
    seen = {}

    class Inner(PyLayer):
        @staticmethod
        def forward(ctx, x):
            return x * 3

        @staticmethod
        def backward(ctx, g):
            raise AssertionError("never called")

    class Outer(PyLayer):
        @staticmethod
        def forward(ctx, x):
            seen["grad_enabled"] = paddle.is_grad_enabled()
            y = Inner.apply(x)
            seen["inner_sg"] = y.stop_gradient
            return y

        @staticmethod
        def backward(ctx, g):
            return g * 3

    x = leaf([1.0])
    Outer.apply(x).sum().backward()
    assert seen == {"grad_enabled": False, "inner_sg": True}
    np.testing.assert_allclose(x.grad.numpy(), [3.0])


def test_c10_output_containers_and_passthrough():
    class L(PyLayer):
        @staticmethod
        def forward(ctx, x):
            return 1, None, x * 2, "s"

        @staticmethod
        def backward(ctx, g):
            return g * 2

    out = L.apply(leaf([1.0]))
    assert type(out) is tuple and out[0] == 1 and out[1] is None and out[3] == "s"

    class L2(PyLayer):
        @staticmethod
        def forward(ctx, x):
            return [x * 2, x * 3]

        @staticmethod
        def backward(ctx, g1, g2):
            return g1 * 2 + g2 * 3

    x = leaf([1.0])
    out = L2.apply(x)
    assert type(out) is list
    (out[0] + out[1]).sum().backward()
    np.testing.assert_allclose(x.grad.numpy(), [5.0])


@pytest.mark.parametrize("ret", [None, 3, ()])
def test_c11_no_tensor_output(ret):
    class L(PyLayer):
        @staticmethod
        def forward(ctx, x):
            return ret

    with pytest.raises(ValueError, match="At least one output of `PyLayer.forward` is a `Tensor`"):
        L.apply(leaf([1.0]))


def test_c11_dict_output_is_valid_for_us():
    class L(PyLayer):
        @staticmethod
        def forward(ctx, x):
            return {"a": x * 2, "b": x * 3}

        @staticmethod
        def backward(ctx, g):
            return g["a"] * 2 + g["b"] * 3

    x = leaf([1.0])
    out = L.apply(x)
    (out["a"] + 10 * out["b"]).sum().backward()
    np.testing.assert_allclose(x.grad.numpy(), [32.0])


def test_c12_c13_list_output_slot_gets_all_gradients():
    got = {}

    class L(PyLayer):
        @staticmethod
        def forward(ctx, x):
            return x * 1, [x * 2, x * 3]

        @staticmethod
        def backward(ctx, g, gl):
            got["gl"] = gl
            return g + gl[0] * 2 + gl[1] * 3

    x = leaf([1.0])
    a, (b, c) = L.apply(x)
    (a + 10 * b + 100 * c).sum().backward()
    assert isinstance(got["gl"], list) and len(got["gl"]) == 2
    np.testing.assert_allclose([got["gl"][0].item(), got["gl"][1].item()], [10.0, 100.0])
    np.testing.assert_allclose(x.grad.numpy(), [321.0])


# ---- D. backward's contract --------------------------------------------------------
def test_d14_backward_grad_mode_follows_create_graph():
    modes = []

    class L(PyLayer):
        @staticmethod
        def forward(ctx, x):
            return x * 2

        @staticmethod
        def backward(ctx, g):
            modes.append(paddle.is_grad_enabled())
            return g * 2

    x = leaf([1.0])
    L.apply(x).sum().backward()
    paddle.grad(L.apply(x).sum(), x, create_graph=True)
    assert modes == [False, True]


def test_d15_user_exception_propagates_with_note():
    class Boom(PyLayer):
        @staticmethod
        def forward(ctx, x):
            return x * 2

        @staticmethod
        def backward(ctx, g):
            raise KeyError("inner problem")

    with pytest.raises(KeyError, match="inner problem") as info:
        Boom.apply(leaf([1.0])).sum().backward()
    assert any("Boom.backward" in n for n in getattr(info.value, "__notes__", []))


def _two_slot_layer(ret):
    class L(PyLayer):
        @staticmethod
        def forward(ctx, x, y):
            return x * y

        @staticmethod
        def backward(ctx, g):
            return ret(g)

    return L


def test_d16_single_and_tuple_returns():
    x = leaf([2.0])
    L = _two_slot_layer(lambda g: g * 5)  # a single Tensor is one value; y needs no grad
    L.apply(x, leaf([1.0], stop_gradient=True)).sum().backward()
    np.testing.assert_allclose(x.grad.numpy(), [5.0])


def test_d17_too_many_values():
    L = _two_slot_layer(lambda g: (g, g, g))
    with pytest.raises(ValueError, match=r"The number of outputs of `PyLayer.backward` should be 2, but received 3"):
        L.apply(leaf([1.0]), leaf([1.0])).sum().backward()

    class WithScalar(PyLayer):
        @staticmethod
        def forward(ctx, x, k):
            return x * k

        @staticmethod
        def backward(ctx, g):
            return g, None  # no placeholder for the non-Tensor argument

    with pytest.raises(ValueError, match="should be 1, but received 2"):
        WithScalar.apply(leaf([1.0]), 3.0).sum().backward()


def test_d18_too_few_values():
    L = _two_slot_layer(lambda g: (g,))
    x = leaf([1.0])
    L.apply(x, leaf([1.0], stop_gradient=True)).sum().backward()  # missing slot needs no grad: fine
    np.testing.assert_allclose(x.grad.numpy(), [1.0])
    with pytest.raises(ValueError, match="should not return empty at 1 position"):
        L.apply(leaf([1.0]), leaf([1.0])).sum().backward()


def test_d19_tensor_for_stop_gradient_slot():
    L = _two_slot_layer(lambda g: (g, g))
    with pytest.raises(
        ValueError, match="should return None at 1 position, because its forward Tensor's stop_gradient"
    ):
        L.apply(leaf([1.0]), leaf([1.0], stop_gradient=True)).sum().backward()


@pytest.mark.parametrize("ret,kind", [(lambda g: (g, 3), "int"), (lambda g: [g, g], "list")])
def test_d20_wrong_types(ret, kind):
    L = _two_slot_layer(ret)
    with pytest.raises(ValueError, match=f"We can only support Tensor or None for backward output.*got {kind}"):
        L.apply(leaf([1.0]), leaf([1.0])).sum().backward()


def test_d21_none_for_needed_slot():
    L = _two_slot_layer(lambda g: (None, g * 2))
    x, y = leaf([1.0]), leaf([1.0])
    L.apply(x, y).sum().backward()
    assert x.grad is None
    np.testing.assert_allclose(y.grad.numpy(), [2.0])


def test_d22_shape_checked_and_dtype_cast():
    class BadShape(PyLayer):
        @staticmethod
        def forward(ctx, x):
            return x.sum()

        @staticmethod
        def backward(ctx, g):
            return paddle.ones([3])

    with pytest.raises(ValueError, match=r"gradient of shape \[3\] for input Tensor 0, whose shape is \[2\]"):
        BadShape.apply(leaf([1.0, 2.0])).backward()

    class F64Grad(PyLayer):
        @staticmethod
        def forward(ctx, x):
            return x * 2

        @staticmethod
        def backward(ctx, g):
            return paddle.ones([2], dtype="float64") * 2

    x = leaf([1.0, 2.0])
    F64Grad.apply(x).sum().backward()
    assert x.grad.dtype == paddle.float32
    np.testing.assert_allclose(x.grad.numpy(), [2.0, 2.0])


def test_d23_incoming_grads_cast_to_output_dtype():
    seen = {}

    class L(PyLayer):
        @staticmethod
        def forward(ctx, x):
            return x * 2

        @staticmethod
        def backward(ctx, g):
            seen["dtype"] = g.dtype
            return g

    y = L.apply(leaf([1.0]))
    y.backward(paddle.to_tensor([1.0], dtype="float64"))
    assert seen["dtype"] == paddle.float32


# ---- E. ctx methods ---------------------------------------------------------------
def test_e24_save_twice_keeps_last_anything_savable_and_none_when_nothing_saved():
    seen = {}

    class L(PyLayer):
        @staticmethod
        def forward(ctx, x):
            ctx.save_for_backward(x, 1)
            ctx.save_for_backward(x * 2, "s", None, [x])
            return x * 2

        @staticmethod
        def backward(ctx, g):
            seen["saved"] = ctx.saved_tensor()
            return g

    class Nothing(PyLayer):
        @staticmethod
        def forward(ctx, x):
            return x * 2

        @staticmethod
        def backward(ctx, g):
            seen["nothing"] = ctx.saved_tensor()
            return g

    L.apply(leaf([3.0])).sum().backward()
    Nothing.apply(leaf([3.0])).sum().backward()
    s = seen["saved"]
    assert len(s) == 4 and s[1] == "s" and s[2] is None and isinstance(s[3], list)
    np.testing.assert_allclose(s[0].numpy(), [6.0])
    np.testing.assert_allclose(s[3][0].numpy(), [3.0])
    assert seen["nothing"] is None


def test_e25_inplace_change_after_save_does_not_corrupt_backward():
    class L(PyLayer):
        @staticmethod
        def forward(ctx, x, w):
            ctx.save_for_backward(w)
            return x * w

        @staticmethod
        def backward(ctx, g):
            (w,) = ctx.saved_tensor()
            return g * w, None

    x = leaf([1.0, 1.0])
    w = leaf([2.0, 3.0], stop_gradient=True)
    y = L.apply(x, w)
    w.set_value(paddle.to_tensor([100.0, 100.0]))  # Paddle would now compute with 100s
    y.sum().backward()
    np.testing.assert_allclose(x.grad.numpy(), [2.0, 3.0])


@pytest.mark.parametrize(
    "method,args",
    [
        ("save_for_backward", (None,)),
        ("mark_not_inplace", ()),
        ("mark_non_differentiable", ()),
        ("set_materialize_grads", (False,)),
    ],
)
def test_e26_ctx_methods_outside_forward(method, args):
    seen = {}

    class L(PyLayer):
        @staticmethod
        def forward(ctx, x):
            seen["ctx"] = ctx
            return x * 2

        @staticmethod
        def backward(ctx, g):
            getattr(ctx, method)(*args)
            return g

    y = L.apply(leaf([1.0]))
    with pytest.raises(RuntimeError, match=f"PyLayerContext.{method} can only be called inside forward"):
        getattr(seen["ctx"], method)(*args)
    with pytest.raises(RuntimeError, match="can only be called inside forward"):
        y.sum().backward()


def test_needs_input_grad():
    seen = {}

    class L(PyLayer):
        @staticmethod
        def forward(ctx, x, k, y, pair):
            seen["nig"] = ctx.needs_input_grad
            return x * y * pair[0]

        @staticmethod
        def backward(ctx, g):
            return g, None, None

    L.apply(leaf([1.0]), 2, leaf([1.0], stop_gradient=True), [leaf([1.0], stop_gradient=True)])
    assert seen["nig"] == (True, False, False)


# ---- F. in-place strategy ------------------------------------------------------------
class Identity(PyLayer):
    @staticmethod
    def forward(ctx, x):
        return x

    @staticmethod
    def backward(ctx, g):
        return g * 10


def test_f27_unmarked_input_returned_leaf_needing_grad_is_an_error():
    with pytest.raises(ValueError, match=r"Leaf Var \(.*\) that doesn't stop gradient can't use inplace strategy"):
        Identity.apply(leaf([1.0]))


def test_f27_unmarked_input_returned_non_leaf_is_rewired_in_place():
    x = leaf([2.0])
    h = x * 1.0  # scale: saves nothing
    version = h.inplace_version
    out = Identity.apply(h)
    assert out is h
    assert h.inplace_version == version + 1
    out.sum().backward()
    np.testing.assert_allclose(x.grad.numpy(), [10.0])


def test_f27_inplace_rewire_breaks_an_earlier_op_that_saved_it():
    x = leaf([2.0])
    h = x * 1.0
    z = h * h  # multiply saves h at version 0
    Identity.apply(h)
    with pytest.raises(
        RuntimeError, match="has been modified by an inplace operation. Its version is 1 but the expected version is 0"
    ):
        z.sum().backward()


def test_f28_mark_not_inplace_gives_a_new_tensor_sharing_data():
    class Marked(PyLayer):
        @staticmethod
        def forward(ctx, x):
            ctx.mark_not_inplace(x)
            return x

        @staticmethod
        def backward(ctx, g):
            return g * 10

    x = leaf([2.0])
    h = x * 1.0
    edge = h._edge
    out = Marked.apply(h)
    assert out is not h and h._edge is edge and h.inplace_version == 0
    np.testing.assert_array_equal(out.numpy(), h.numpy())
    out.sum().backward()
    np.testing.assert_allclose(x.grad.numpy(), [10.0])


# ---- G. non-differentiable outputs and materialisation -----------------------------
def test_g29_only_non_differentiable_outputs_used():
    calls = []

    class L(PyLayer):
        @staticmethod
        def forward(ctx, x):
            a, b = x * 2, x * 3
            ctx.mark_non_differentiable(a)
            return a, b

        @staticmethod
        def backward(ctx, ga, gb):
            calls.append(1)
            return gb

    x = leaf([1.0])
    a, b = L.apply(x)
    assert a.stop_gradient
    with pytest.raises(ValueError, match="does not appear in the backward graph.*allow_unused=True"):
        paddle.grad(a.sum() if not a.stop_gradient else a, x)
    assert calls == []


def test_g30_materialised_zeros_have_the_outputs_dtype_and_shape():
    seen = {}

    class L(PyLayer):
        @staticmethod
        def forward(ctx, x):
            return x * 2, paddle.ones([2, 3], dtype="float64")

        @staticmethod
        def backward(ctx, g, g2):
            seen["g2"] = (g2.shape, g2.dtype, float(g2.numpy().sum()))
            return g

    a, _ = L.apply(leaf([1.0]))
    a.sum().backward()
    assert seen["g2"] == ([2, 3], paddle.float64, 0.0)


def test_g30_no_materialisation_gives_none_for_non_differentiable_outputs_too():
    seen = {}

    class L(PyLayer):
        @staticmethod
        def forward(ctx, x):
            ctx.set_materialize_grads(False)
            a, b = x * 2, x * 3
            ctx.mark_non_differentiable(b)
            return a, b

        @staticmethod
        def backward(ctx, ga, gb):
            seen["gb"] = gb
            return ga

    a, _ = L.apply(leaf([1.0]))
    a.sum().backward()
    assert seen["gb"] is None


# ---- H. higher order, retain_graph, hooks --------------------------------------------
def test_h31_double_backward_cube():
    x = leaf([3.0])
    (g,) = paddle.grad(Cube.apply(x), x, create_graph=True)
    assert not g.stop_gradient
    np.testing.assert_allclose(g.numpy(), [27.0])
    (g2,) = paddle.grad(g, x)
    np.testing.assert_allclose(g2.numpy(), [18.0])


def test_h31_double_backward_through_a_saved_output():
    class Tanh(PyLayer):
        @staticmethod
        def forward(ctx, x):
            y = paddle.tanh(x)
            ctx.save_for_backward(y)
            return y

        @staticmethod
        def backward(ctx, dy):
            (y,) = ctx.saved_tensor()
            return dy * (1 - paddle.square(y))

    x = leaf([0.5], dtype="float64")
    (g,) = paddle.grad(Tanh.apply(x), x, create_graph=True)
    (g2,) = paddle.grad(g, x)
    t = np.tanh(0.5)
    np.testing.assert_allclose(g2.numpy(), [-2 * t * (1 - t * t)], rtol=1e-10)  # -0.7269 (Paddle: -0.7269)


def test_h31_first_grad_without_create_graph_stops_gradient():
    x = leaf([3.0])
    (g,) = paddle.grad(Cube.apply(x), x)
    assert g.stop_gradient


def test_h32_retain_graph_runs_twice_and_accumulates():
    x = leaf([3.0])
    y = Cube.apply(x)
    y.backward(retain_graph=True)
    y.backward()
    np.testing.assert_allclose(x.grad.numpy(), [54.0])
    with pytest.raises(RuntimeError, match="backward through the graph a second time.*retain_graph=True"):
        y.backward()


def test_h33_register_hook_on_pylayer_output_is_honoured():
    x = leaf([3.0])
    y = Cube.apply(x)
    calls = []
    y.register_hook(lambda g: calls.append(g.numpy().copy()) or g * 2)
    y.backward()
    assert len(calls) == 1
    np.testing.assert_allclose(x.grad.numpy(), [54.0])


def test_once_differentiable_eager():
    from pylayer_jax.autograd import once_differentiable

    class C(PyLayer):
        @staticmethod
        def forward(ctx, x):
            ctx.save_for_backward(x)
            return x * x * x

        @staticmethod
        @once_differentiable
        def backward(ctx, dy):
            assert not paddle.is_grad_enabled()
            (x,) = ctx.saved_tensor()
            return 3 * x * x * dy

    x = leaf([3.0])
    C.apply(x).backward()
    np.testing.assert_allclose(x.grad.numpy(), [27.0])
    (g,) = paddle.grad(C.apply(x), x, create_graph=True)
    np.testing.assert_allclose(g.numpy(), [27.0])
    with pytest.raises(RuntimeError, match="once_differentiable"):
        paddle.grad(g, x)


# ---- I. dtypes -------------------------------------------------------------------------
@pytest.mark.parametrize("dtype", ["float16", "bfloat16", "float32", "float64"])
def test_i34_float_dtypes(dtype):
    x = leaf([1.0, 2.0], dtype=dtype)
    y = Cube.apply(x)
    y.sum().backward()
    assert x.grad.dtype == x.dtype == y.dtype
    np.testing.assert_allclose(x.grad.numpy().astype(np.float64), [3.0, 12.0], rtol=1e-2)


def test_i34_integer_input_gets_integer_grad():
    class L(PyLayer):
        @staticmethod
        def forward(ctx, x):
            return x * 2

        @staticmethod
        def backward(ctx, g):
            return g * 2

    x = paddle.to_tensor([1, 2])
    x.stop_gradient = False
    L.apply(x).backward()  # Paddle 3.3.1: g is int64 ones, x.grad = [2, 2] int64
    assert x.grad.dtype == paddle.int64
    np.testing.assert_array_equal(x.grad.numpy(), [2, 2])


def test_saved_marked_input_keeps_its_own_history_under_create_graph():
    class Sq(PyLayer):
        @staticmethod
        def forward(ctx, x):
            ctx.mark_not_inplace(x)
            ctx.save_for_backward(x)
            return x

        @staticmethod
        def backward(ctx, g):
            (x,) = ctx.saved_tensor()
            return g * x * 2  # pretend d/dx = 2x

    a = leaf([3.0])
    h = a * a  # h = a^2, dh/da = 2a
    (g,) = paddle.grad(Sq.apply(h), a, create_graph=True)  # 2*h * 2a = 4a^3
    np.testing.assert_allclose(g.numpy(), [108.0])
    (g2,) = paddle.grad(g, a)  # 12 a^2
    np.testing.assert_allclose(g2.numpy(), [108.0])
