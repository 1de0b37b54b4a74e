"""``paddle.vision.models`` against Paddle 3.3.1 (recorded by ``tests/record_paddle_vision.py``, cases in
``tests/vision_cases.py``).

Every recorded model has Paddle's state-dict keys in Paddle's order, with the same shapes, and the same parameter
shapes in ``parameters()`` order. LeNet loads Paddle's own randomly initialised weights through
``set_state_dict`` and gives Paddle's outputs (eval and train mode) and gradients (of the input and every
parameter); ResNet-18 and MobileNetV3-Small (too big to store Paddle's random weights) load the same deterministic
weights in both frameworks and give Paddle's outputs in eval and train mode, and the BatchNorm running statistics
after the train-mode step (for MobileNetV3 the train-mode output before its classifier, whose dropout draws a
random mask). Models are built with constant initializers where the weights are not compared (a constant global
initializer, and explicit Uniform initializers filling their bound, which also checks those bounds): random
initialisation is tested with nn, and building big models without it keeps these tests fast.
"""

from __future__ import annotations

import json
import os
import sys

import numpy as np
import pytest

import pylayer_jax as paddle

TESTS = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, TESTS)
import vision_cases as C  # noqa: E402

with open(os.path.join(TESTS, "data", "paddle_vision.json")) as _f:
    REF = json.load(_f)["models"]
ARR = np.load(os.path.join(TESTS, "data", "paddle_vision.npz"))
M = paddle.vision.models
CASES = {name: (ctor, shape) for name, ctor, shape in C.MODEL_CASES}
init = paddle.nn.initializer


def _build(name, monkeypatch=None):
    """The case's model; with ``monkeypatch``, its initialisation made cheap: a constant global initializer, and
    explicit Uniform initializers filling their upper bound (no random draws to compile)."""
    ctor, _ = CASES[name]
    if monkeypatch is None:
        return eval(ctor, {"M": M})
    monkeypatch.setattr(init.Uniform, "_sample", lambda self, key, shape, dtype: np.full(shape, self._high, dtype))
    init.set_global_initializer(init.Constant(0.01), init.Constant(0.0))
    try:
        return eval(ctor, {"M": M})
    finally:
        init.set_global_initializer(None, None)


STRUCTURE = ["lenet", "resnet18", "mobilenet_v3_small", "resnet34", "resnet50", "resnext50_32x4d",
             "wide_resnet50_2", "vgg11_bn", "vgg16", "mobilenet_v1", "mobilenet_v2", "mobilenet_v3_large",
             "squeezenet1_0", "squeezenet1_1", "shufflenet_v2_x0_25", "shufflenet_v2_swish", "densenet121",
             "alexnet", "googlenet", "inception_v3"]


@pytest.mark.parametrize("name", STRUCTURE)
def test_state_dict_keys_and_shapes_as_paddle(name, monkeypatch):
    model = _build(name, monkeypatch)
    sd = model.state_dict()
    ref = REF[name]
    assert list(sd.keys()) == ref["keys"]
    assert [list(v.shape) for v in sd.values()] == ref["shapes"]
    assert [list(p.shape) for p in model.parameters()] == ref["params"]
    assert sum(int(np.prod(p.shape)) for p in model.parameters()) == ref["n_params"]


def test_explicit_uniform_initializers_as_paddle(monkeypatch):
    # AlexNet's and GoogLeNet's layers carry their own Uniform(-stdv, stdv) initializers (here filling stdv)
    alex = _build("alexnet", monkeypatch)
    np.testing.assert_allclose(alex._fc8.weight.numpy(), 1.0 / np.sqrt(256 * 6 * 6), rtol=1e-6)
    np.testing.assert_allclose(alex._conv1._conv.bias.numpy(), 1.0 / np.sqrt(3 * 11 * 11), rtol=1e-6)
    goog = _build("googlenet", monkeypatch)
    np.testing.assert_allclose(goog._fc_o1.weight.numpy(), (3.0 / 2048) ** 0.5, rtol=1e-6)
    np.testing.assert_allclose(goog._fc_o1.bias.numpy(), 0.0)  # (the global bias initializer: no explicit one)


def _close(ours, ref, what):
    scale = max(1.0, float(np.abs(ref).max()))
    np.testing.assert_allclose(ours, ref, rtol=2e-4, atol=2e-5 * scale, err_msg=what)


def test_lenet_with_paddle_weights():
    model = _build("lenet")
    prefix = "m/lenet/init/"
    model.set_state_dict({k[len(prefix):]: paddle.to_tensor(ARR[k]) for k in ARR.files if k.startswith(prefix)})
    x = paddle.to_tensor(C.model_input(CASES["lenet"][1]), stop_gradient=False)
    model.eval()
    out = model(x)
    _close(out.numpy(), ARR["m/lenet/eval"], "eval")
    w = paddle.to_tensor(np.cos(np.arange(out.size)).reshape(out.shape).astype("float32"))
    params = list(model.parameters())
    grads = paddle.grad((out * w).sum(), [x, *params])
    _close(grads[0].numpy(), ARR["m/lenet/grad/x"], "grad x")
    for (pn, _), g in zip(model.named_parameters(), grads[1:]):
        _close(g.numpy(), ARR[f"m/lenet/grad/{pn}"], f"grad {pn}")
    model.train()
    _close(eval(C.TRAIN_FORWARD["lenet"], {"model": model, "x": x}).numpy(), ARR["m/lenet/train"], "train")


@pytest.mark.parametrize("name", ["resnet18", "mobilenet_v3_small"])
def test_outputs_with_the_same_weights_as_paddle(name, monkeypatch):
    model = _build(name, monkeypatch)
    shapes = {k: list(v.shape) for k, v in model.state_dict().items()}
    model.set_state_dict({k: paddle.to_tensor(v) for k, v in C.formula_weights(shapes).items()})
    x = paddle.to_tensor(C.model_input(CASES[name][1]))
    model.eval()
    _close(model(x).numpy(), ARR[f"m/{name}/eval"], f"{name} eval")
    model.train()
    _close(eval(C.TRAIN_FORWARD[name], {"model": model, "x": x}).numpy(), ARR[f"m/{name}/train"], f"{name} train")
    for k, v in model.state_dict().items():
        if k.endswith("_mean") or k.endswith("_variance"):
            _close(v.numpy(), ARR[f"m/{name}/after_train/{k}"], f"{name} {k}")


def test_forward_shapes_of_the_other_families():
    # the forward of the families not compared value by value runs and gives [batch, num_classes]
    for ctor, shape in [("M.squeezenet1_1(num_classes=7)", [1, 3, 32, 32]),
                        ("M.shufflenet_v2_x0_25(num_classes=7)", [1, 3, 32, 32])]:
        model = eval(ctor, {"M": M})
        model.eval()
        assert model(paddle.rand(shape)).shape == [1, 7], ctor


@pytest.mark.parametrize("builder", ["resnet18", "vgg16", "mobilenet_v2", "alexnet", "densenet121", "googlenet",
                                     "inception_v3",
                                     "squeezenet1_0", "shufflenet_v2_x1_0", "mobilenet_v3_small", "resnext50_32x4d"])
def test_pretrained_needs_a_download_and_says_how_to_load_local_weights(builder):
    with pytest.raises(RuntimeError, match=r"pretrained=True .* downloads .*set_state_dict\(paddle.load\("):
        getattr(M, builder)(pretrained=True)


@pytest.mark.parametrize("expr,exc,pattern", [
    ("M.ResNet(M.resnet.BasicBlock, depth=20)", ValueError, r"ResNet: depth must be one of \[18, 34, 50, 101, 152\]"),
    ("M.SqueezeNet('2.0')", ValueError, r"SqueezeNet: version must be '1.0' or '1.1'; got '2.0'"),
    ("M.ShuffleNetV2(scale=0.75)", NotImplementedError, r"ShuffleNetV2: scale 0.75 is not implemented"),
    ("M.DenseNet(layers=100)", ValueError, r"DenseNet: layers must be one of"),
    ("M.resnet.BasicBlock(4, 4, dilation=2)", NotImplementedError, r"BasicBlock: dilation > 1 is not supported"),
])
def test_bad_configurations_raise(expr, exc, pattern):
    with pytest.raises(exc, match=pattern):
        eval(expr, {"M": M})


def test_intermediate_layer_getter():
    from pylayer_jax.vision.models._utils import IntermediateLayerGetter

    model = M.LeNet()
    getter = IntermediateLayerGetter(model, {"features": "feat"})
    x = paddle.rand([1, 1, 28, 28])
    out = getter(x)
    np.testing.assert_allclose(out["feat"].numpy(), model.features(x).numpy(), rtol=1e-6)
    with pytest.raises(ValueError, match=r"return_layers \['head'\] are not all children"):
        IntermediateLayerGetter(model, {"head": "h"})

