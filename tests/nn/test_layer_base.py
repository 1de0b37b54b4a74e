"""nn.Layer, Parameter, ParamAttr, containers: names, keys, repr and loading against real Paddle 3.3.1
(tests/data/paddle_layers_base.json, recorded by tests/record_paddle_layers_base.py)."""

from __future__ import annotations

import json
import warnings
from pathlib import Path

import numpy as np
import pytest
from layer_models import build_all, define, describe

import pylayer_jax as paddle
from pylayer_jax import nn

REC = json.loads(Path(__file__).resolve().parents[1].joinpath("data").joinpath("paddle_layers_base.json").read_text())


@pytest.fixture(scope="module")
def models():
    return build_all(paddle)


@pytest.mark.parametrize("name", sorted(REC["models"]))
def test_names_keys_repr_match_paddle(models, name):
    assert describe(models[name]) == REC["models"][name]


def test_sequential_slice_len_and_keys(models):
    s = models["seq"]
    assert len(s) == REC["seq_len"]
    assert type(s[1:]).__name__ == REC["seq_slice_type"]
    assert repr(s[1:]) == REC["seq_slice_repr"]
    assert s[1:][1] is s[2] and s[-1] is s[2]
    assert list(models["model"].head[1:3].state_dict()) == REC["model_head_sliced_keys"]
    assert [type(x).__name__ for x in s] == ["Linear", "Act", "Linear"]


def test_to_float64_casts_parameters():
    m = build_all(paddle)["model"]
    out = m.to(dtype="float64")
    assert out is m
    assert [p.dtype.name for p in m.parameters()] == REC["to_float64"]
    assert m(paddle.ones([2, 3], "float64")).dtype == paddle.float64
    m.float()
    assert {p.dtype.name for p in m.parameters()} == {"float32"}


@pytest.mark.parametrize("case", ["extra_key", "missing_key", "bad_shape", "numpy_values"])
def test_set_state_dict_like_paddle(case):
    rec = REC["load"][case]
    seq = build_all(paddle)["seq"]
    good = {k: paddle.full(v.shape, 0.5, v.dtype) for k, v in seq.state_dict().items()}
    sd = {
        "extra_key": dict(good, extra=paddle.ones([1])),
        "missing_key": {k: v for k, v in good.items() if k != "0.bias"},
        "bad_shape": dict(good, **{"0.bias": paddle.ones([5])}),
        "numpy_values": {k: np.full(v.shape, 0.25, "float32") for k, v in seq.state_dict().items()},
    }[case]
    if case in ("missing_key", "bad_shape"):  # the skipped key keeps its value: set it to Paddle's first
        seq.set_state_dict(good)
    with warnings.catch_warnings(record=True) as w:
        warnings.simplefilter("always")
        missing, unexpected = seq.set_state_dict(sd)
    assert (missing, unexpected) == (rec["missing"], rec["unexpected"])
    assert [str(x.message) for x in w if "Skip loading" in str(x.message)] == rec["warnings"]
    assert {k: v.numpy().tolist() for k, v in seq.state_dict().items()} == rec["values"]


def test_set_state_dict_by_parameter_name():
    seq = build_all(paddle)["seq"]
    by_name = {p.name: paddle.full(p.shape, 2.0, p.dtype) for p in seq.parameters()}
    missing, unexpected = seq.set_state_dict(by_name, use_structured_name=False)
    rec = REC["load"]["by_param_name"]
    assert (missing, unexpected) == (rec["missing"], rec["unexpected"])
    assert {k: v.numpy().tolist() for k, v in seq.state_dict().items()} == rec["values"]


def test_set_state_dict_rejects_non_dict():
    with pytest.raises(TypeError, match=r"set_state_dict: state_dict must be a dict .* received list"):
        nn.Linear(1, 1).set_state_dict([1])


def test_create_parameter_and_unique_names():
    with paddle.utils.unique_name.guard():
        names = [
            paddle.create_parameter([2], "float32").name,
            paddle.create_parameter([2], "float32", is_bias=True).name,
            paddle.create_parameter([2], "float32", name="given").name,
            nn.Linear(1, 1).weight.name,
        ]
        gen = [paddle.utils.unique_name.generate("fc") for _ in range(2)]
    assert names == REC["create_parameter_names"]
    assert gen == REC["unique_names"]


def test_parameter_is_a_trainable_leaf_tensor():
    p = nn.Linear(2, 3).weight
    assert isinstance(p, paddle.Tensor) and isinstance(p, nn.Parameter)
    assert (p.stop_gradient, p.trainable, p.is_leaf, p.persistable, p.need_clip, p.regularizer) == (
        False, True, True, True, True, None)
    assert p.optimize_attr == {"learning_rate": 1.0}
    p.trainable = False
    assert p.stop_gradient is True
    p.stop_gradient = False
    assert p.trainable is True
    p.set_value(np.ones([2, 3], "float32"))
    np.testing.assert_array_equal(p.numpy(), np.ones([2, 3]))
    assert repr(p).startswith("Parameter containing:\nTensor(shape=[2, 3], dtype=float32")
    with pytest.raises(ValueError, match="trainable: must be a bool"):
        p.trainable = 1


def test_param_attr_coercions():
    lin = nn.Linear(2, 2, weight_attr=nn.initializer.Constant(0.5), bias_attr=False)
    assert lin.bias is None and list(lin.state_dict()) == ["weight"]
    np.testing.assert_array_equal(lin.weight.numpy(), np.full([2, 2], 0.5, "float32"))
    lin = nn.Linear(2, 2, weight_attr=paddle.ParamAttr(initializer=nn.initializer.Constant(2.0)),
                    bias_attr=paddle.ParamAttr(initializer=nn.initializer.Constant(1.0)))
    np.testing.assert_array_equal(lin(paddle.ones([1, 2])).numpy(), [[5.0, 5.0]])
    with pytest.raises(TypeError, match="ParamAttr: a parameter attribute must be None, False, a str"):
        nn.Linear(2, 2, weight_attr=3)
    with pytest.raises(TypeError, match="ParamAttr: learning_rate must be a float, but received str"):
        paddle.ParamAttr(learning_rate="x")
    with pytest.raises(ValueError, match="create_parameter: attr=False creates no parameter"):
        paddle.create_parameter([1], "float32", attr=False)
    with pytest.raises(TypeError, match="create_parameter: shape must be a list of"):
        paddle.create_parameter("a", "float32")
    with pytest.raises(TypeError, match="has no default initializer"):
        paddle.create_parameter([2], "int64")


class Two(nn.Layer):
    def __init__(self):
        super().__init__()
        self.a = nn.Linear(2, 2)
        self.w = self.create_parameter([2])

    def forward(self, x):
        return self.a(x) * self.w


def test_attribute_assignment_registers_and_unregisters():
    m = Two()
    assert [n for n, _ in m.named_parameters()] == ["w", "a.weight", "a.bias"]
    m.w = None
    assert [n for n, _ in m.named_parameters()] == ["a.weight", "a.bias"] and m.w is None
    del m.w
    with pytest.raises(AttributeError, match="'Two' object has no attribute 'w'"):
        _ = m.w
    m.w = 3  # a plain attribute once unregistered
    assert m.w == 3 and "w" not in m._parameters
    m.w = m.create_parameter([2])  # a Parameter again: replaces the plain attribute
    assert "w" in m._parameters and "w" not in m.__dict__
    with pytest.raises(TypeError, match=r"attribute 'w' is a parameter and takes a Parameter or None.*del layer\.w"):
        m.w = paddle.ones([2])
    with pytest.raises(TypeError, match=r"attribute 'a' is a sublayer and takes a Layer or None, but received int"):
        m.a = 1
    b = nn.Linear(2, 2)
    m.a = b
    assert m.a is b and list(m.children()) == [b]
    del m.a
    assert list(m.children()) == []
    m.add_sublayer("z", nn.Identity())
    assert [n for n, _ in m.named_children()] == ["z"]
    with pytest.raises(TypeError, match="add_sublayer: sublayer 'y' must be a Layer, but received int"):
        m.add_sublayer("y", 1)
    with pytest.raises(TypeError, match="add_parameter: parameter 'q' must be a Parameter"):
        m.add_parameter("q", paddle.ones([1]))
    with pytest.raises(KeyError, match=r"add_parameter: the name 'z' is already an attribute"):
        m.add_parameter("z", m.create_parameter([1]))


def test_buffers():
    m = nn.Layer()
    m.register_buffer("mean", paddle.zeros([2]))
    m.register_buffer("tmp", paddle.ones([1]), persistable=False)
    assert [n for n, _ in m.named_buffers()] == ["mean", "tmp"]
    assert list(m.state_dict()) == ["mean"]
    assert list(m.state_dict(include_non_persistable_buffer=True)) == ["mean", "tmp"]
    m.mean = paddle.ones([2])
    np.testing.assert_array_equal(m.mean.numpy(), [1.0, 1.0])
    with pytest.raises(TypeError, match="register_buffer: buffer 'x' must be a Tensor or None.*to_tensor"):
        m.register_buffer("x", np.ones(2))
    with pytest.raises(KeyError, match="without '.'"):
        m.register_buffer("a.b", paddle.ones([1]))
    with pytest.raises(TypeError, match="attribute 'mean' is a buffer and takes a Tensor"):
        m.mean = 1.0


def test_train_eval_apply_clear_gradients():
    m = build_all(paddle)["model"]
    m.eval()
    assert not any(sub.training for sub in m.sublayers(include_self=True))
    m.train()
    assert all(sub.training for sub in m.sublayers(include_self=True))
    seen = []
    m.encoder.apply(lambda layer: seen.append(type(layer).__name__))
    assert seen[-1] == "Encoder" and seen.count("Linear") == 5
    lin = nn.Linear(2, 1)
    lin(paddle.ones([3, 2])).sum().backward()
    np.testing.assert_allclose(lin.weight.grad.numpy(), [[3.0], [3.0]])
    lin.clear_gradients()
    np.testing.assert_array_equal(lin.weight.grad.numpy(), [[0.0], [0.0]])
    lin.clear_gradients(set_to_zero=False)
    assert lin.weight.grad is None


def test_forward_hooks_and_removal():
    lin = nn.Linear(2, 2, weight_attr=nn.initializer.Constant(1.0))
    calls = []
    h1 = lin.register_forward_pre_hook(lambda layer, inp: (inp[0] * 2,))
    h2 = lin.register_forward_post_hook(lambda layer, inp, out: calls.append(out.shape) or out + 1)
    x = paddle.ones([1, 2])
    np.testing.assert_array_equal(lin(x).numpy(), [[5.0, 5.0]])
    assert calls == [[1, 2]]
    h1.remove()
    h2.remove()
    np.testing.assert_array_equal(lin(x).numpy(), [[2.0, 2.0]])
    with pytest.raises(TypeError, match="register_forward_pre_hook: hook must be callable"):
        lin.register_forward_pre_hook(3)


def test_layer_without_forward_or_init():
    with pytest.raises(NotImplementedError, match=r"Layer \(layer_\d+\) has no forward method.*define forward"):
        nn.Layer()(paddle.ones([1]))

    class NoInit(nn.Layer):
        def __init__(self):
            self.fc = nn.Linear(1, 1)

    with pytest.raises(RuntimeError, match=r"NoInit: assigning the sublayer 'fc' before super\(\).__init__\(\)"):
        NoInit()


def test_containers():
    ll = nn.LayerList()
    ll.append(nn.Linear(1, 2)).extend([nn.Linear(2, 3)])
    ll.insert(0, nn.Identity())
    assert [type(x).__name__ for x in ll] == ["Identity", "Linear", "Linear"]
    assert list(ll.state_dict()) == ["1.weight", "1.bias", "2.weight", "2.bias"]
    assert isinstance(ll[1:], nn.LayerList) and len(ll[1:]) == 2 and ll[-1] is ll[2]
    del ll[0]
    assert list(ll.state_dict()) == ["0.weight", "0.bias", "1.weight", "1.bias"]
    with pytest.raises(TypeError, match=r"LayerList.append: every element must be a paddle.nn.Layer, but received "
                                        r"function; wrap functions in a Layer subclass"):
        ll.append(paddle.tanh)
    with pytest.raises(TypeError, match="LayerList: every element must be a paddle.nn.Layer, but received int"):
        nn.LayerList([1])
    with pytest.raises(IndexError, match="LayerList: index 5 is out of range for a container of 2 elements"):
        ll[5]
    ld = nn.LayerDict({"a": nn.Linear(1, 1)})
    ld["b"] = nn.Identity()
    assert list(ld.keys()) == ["a", "b"] and "a" in ld and len(ld) == 2
    assert type(ld.pop("b")).__name__ == "Identity"
    pl = nn.ParameterList()
    pl.append(paddle.create_parameter([1], "float32"))
    assert len(pl) == 1 and list(pl.state_dict()) == ["0"]
    with pytest.raises(TypeError, match="ParameterList.append: every element must be a Parameter"):
        pl.append(paddle.ones([1]))
    assert nn.Module is nn.Layer and nn.ModuleList is nn.LayerList and nn.ModuleDict is nn.LayerDict
    seq = nn.Sequential(("x", nn.Identity()))
    assert seq["x"] is seq[0]


def test_flatten_identity():
    assert repr(nn.Flatten()) == REC["flatten_repr"] and repr(nn.Identity()) == REC["identity_repr"]
    x = paddle.arange(24, dtype="float32").reshape([2, 3, 4])
    np.testing.assert_array_equal(nn.Flatten()(x).numpy(), np.arange(24).reshape(2, 12))
    np.testing.assert_array_equal(nn.Flatten(0, 1)(x).numpy(), np.arange(24).reshape(6, 4))
    assert nn.Identity(3, foo=1)(x) is x


def test_shared_layer_counted_once():
    cls = define(paddle)
    act = cls["Act"]()
    lin = nn.Linear(2, 2)
    s = nn.Sequential(lin, act, lin)
    assert len(s.parameters()) == 2 and len(s.sublayers()) == 2
    assert list(s.state_dict()) == ["0.weight", "0.bias", "2.weight", "2.bias"]


def test_unique_name_guard_prefix_and_switch():
    un = paddle.utils.unique_name
    with un.guard("pre_"):
        got = [un.generate("a"), un.generate("a"), un.generate("b"), nn.Linear(1, 1).full_name()]
    assert got == REC["guard_prefix_names"]
    old = un.switch()  # a fresh generator: counters start again
    try:
        assert un.generate("a") == "a_0"
    finally:
        un.switch(old)
    with pytest.raises(TypeError, match="unique_name.generate: the key must be a str, but received int"):
        un.generate(1)
    with pytest.raises(TypeError, match="unique_name.guard: new_generator must be None, a str prefix"):
        with un.guard(3):
            pass


def test_hook_options_prepend_kwargs_always_call():
    lin = nn.Linear(2, 2, weight_attr=nn.initializer.Constant(1.0))
    order = []
    lin.register_forward_pre_hook(lambda layer, inp: order.append("a"))
    lin.register_forward_pre_hook(lambda layer, inp: order.append("b"), prepend=True)
    h = lin.register_forward_pre_hook(lambda layer, args, kwargs: ((args[0] * 3,), kwargs), with_kwargs=True)
    lin.register_forward_post_hook(lambda layer, args, kwargs, out: out - 1, with_kwargs=True)
    np.testing.assert_array_equal(lin(paddle.ones([1, 2])).numpy(), [[5.0, 5.0]])
    assert order == ["b", "a"]
    h.remove()
    np.testing.assert_array_equal(lin(paddle.ones([1, 2])).numpy(), [[1.0, 1.0]])
    seen = []
    bad = nn.Layer()
    bad.register_forward_post_hook(lambda layer, inp, out: seen.append(out), always_call=True)
    with pytest.raises(NotImplementedError):
        bad(paddle.ones([1]))
    assert seen == [None]
    lin.register_forward_pre_hook(lambda layer, args, kwargs: 3, with_kwargs=True)
    with pytest.raises(TypeError, match=r"pre-hook registered with with_kwargs=True must return None or a tuple"):
        lin(paddle.ones([1, 2]))


def test_lookup_and_mode_helpers(models):
    m = models["model"]
    assert m.get_sublayer("encoder.layers.0") is m.encoder.layers[0]
    assert m.get_parameter("encoder.norm.proj.weight") is m.encoder.norm.proj.weight
    assert m.get_buffer("encoder.layers.1.scale") is m.encoder.layers[1].scale
    with pytest.raises(AttributeError, match="LayerList has no attribute `7`"):
        m.get_sublayer("encoder.layers.7")
    assert [n for n, _ in m.named_modules()][:3] == ["", "encoder", "encoder.layers"]
    assert list(m.modules())[0] is m
    m.train(False)
    assert not m.head.training
    m.train()
    with pytest.raises(ValueError, match="train: mode must be a bool"):
        m.train(1)
    lin = nn.Linear(2, 2)
    lin.requires_grad_(False)
    assert all(p.stop_gradient for p in lin.parameters())
    lin.requires_grad_()
    lin(paddle.ones([1, 2])).sum().backward()
    lin.zero_grad()
    assert lin.weight.grad is None
    lin.register_parameter("extra", lin.create_parameter([1]))
    assert "extra" in lin.state_dict()
    s = nn.Sequential(lin, lin)
    assert len(list(s.named_parameters(remove_duplicate=False))) == 6 and len(s.parameters()) == 3
    assert lin.astype(None) is lin and lin.bfloat16().weight.dtype == paddle.bfloat16


def test_a_tensor_attribute_is_a_buffer_as_in_paddle():
    """``self.pos = paddle.arange(4)`` makes a non-persistable buffer, as Paddle 3.3.1's ``Layer.__setattr__`` does
    (measured with the same code): among ``named_buffers()``, out of ``state_dict()``, cast by ``to(dtype)``; a
    registered persistable buffer given a new Tensor stays persistable; None keeps the name among the buffers with
    no value (left out of ``named_buffers()``); a Tensor for a sublayer raises TypeError."""

    class M(paddle.nn.Layer):
        def __init__(self):
            super().__init__()
            self.pos = paddle.arange(4, dtype="float32")
            self.lin = paddle.nn.Linear(2, 2)

    m = M()
    assert [n for n, _ in m.named_buffers()] == ["pos"]
    assert list(m.state_dict()) == ["lin.weight", "lin.bias"]
    m.to(dtype="float64")
    assert m.pos.dtype == paddle.float64 and m.lin.weight.dtype == paddle.float64
    m.register_buffer("kept", paddle.zeros([2]))
    m.kept = paddle.ones([3])
    assert list(m.state_dict()) == ["kept", "lin.weight", "lin.bias"]
    np.testing.assert_array_equal(m.state_dict()["kept"].numpy(), [1.0, 1.0, 1.0])
    m.plain = 3
    assert [n for n, _ in m.named_buffers()] == ["pos", "kept"] and m.plain == 3
    m.pos = None
    assert [n for n, _ in m.named_buffers()] == ["kept"] and m.pos is None
    with pytest.raises(TypeError, match="'lin' is a sublayer and takes a Layer or None"):
        m.lin = paddle.ones([2])
    del m.pos
    assert not hasattr(m, "pos")
