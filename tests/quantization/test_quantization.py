"""``paddle.quantization``: QAT and PTQ of an MLP and a conv net against Paddle 3.3.1's outputs, gradients, scales
and converted weights (part ``quantization`` of ``tests/small_package_cases.py``), convert after QAT, the quanter
factory decorator, the group-wise observer and the misuse errors."""

from __future__ import annotations

import sys

import numpy as np
import pytest
from small_package_checks import check, part

import pylayer_jax as paddle

REF, OURS, KEYS = part("quantization")
# recorded entries where this package differs on purpose: key -> what it gives instead of Paddle 3.3.1's error
DIFFERS = {
    "qat_eval_model": {"error": "RuntimeError"},  # Paddle: a bare assert (AssertionError)
    "ptq_train_model": {"error": "RuntimeError"},  # Paddle: a bare assert (AssertionError)
    "qat_mlp_convert": {"error": None},  # Paddle: TypeError, making a Tensor of the quanter's zero_points() None
    "qat_conv_convert": {"error": None},
}


@pytest.mark.parametrize("key", sorted(set(KEYS) - set(DIFFERS)))
def test_as_paddle(key: str) -> None:
    check(OURS[key], REF[key], key)


@pytest.mark.parametrize("key", sorted(DIFFERS))
def test_differs_on_purpose(key: str) -> None:
    assert REF[key]["error"] in ("AssertionError", "TypeError") and OURS[key] == DIFFERS[key]


def test_every_case_recorded() -> None:
    assert sorted(OURS) == sorted(KEYS)


# ---- paddle.quantization: convert after QAT (which Paddle 3.3.1 cannot run), misuse, the factory decorator


def _qat_model(idx: int = 0) -> tuple:
    from small_package_cases import _nets

    from pylayer_jax.quantization import QAT, QuantConfig
    from pylayer_jax.quantization.quanters import FakeQuanterWithAbsMaxObserver

    fq = FakeQuanterWithAbsMaxObserver(moving_rate=0.9, bit_length=8)
    cfg = QuantConfig(activation=None, weight=None)
    cfg.add_type_config([paddle.nn.Linear, paddle.nn.Conv2D], activation=fq, weight=fq)
    qat = QAT(cfg)
    return qat, qat.quantize(_nets(paddle)[idx])


def test_qat_convert_matches_eval() -> None:
    """After QAT, convert gives the evaluation-mode outputs (same scales; the weights become integers)."""
    qat, m = _qat_model()
    x = paddle.to_tensor(np.cos(np.arange(20) * 0.3).reshape(5, 4).astype("float32"))
    m(x)
    m.eval()
    want = m(x).numpy()
    c = qat.convert(m, inplace=False)
    np.testing.assert_allclose(c(x).numpy(), want, rtol=1e-5, atol=1e-6)
    w = c[0].weight.numpy()
    np.testing.assert_array_equal(w, np.round(w))
    assert np.abs(w).max() <= 127 and type(c[0].weight_quanter).__name__ == "LinearQuanterDequanter"
    assert c[0].weight_quanter._quanter is None
    with pytest.raises(RuntimeError, match=r"converted only once"):
        from pylayer_jax.quantization._layers import convert_layer

        convert_layer(c[0], False)


def test_fake_quant_straight_through() -> None:
    """The fake quantization's values are the rounding to 127 levels of the clipped input, and its gradient is
    the incoming one unchanged (the recorded Paddle gradients check it through whole models)."""
    from pylayer_jax.quantization._layers import fake_quant_dequant

    a = np.array([-2.0, -0.5, 0.01, 0.3, 0.77, 1.5], "float32")
    x = paddle.to_tensor(a, stop_gradient=False)
    y = fake_quant_dequant(x, paddle.to_tensor([1.0]), 8)
    want = np.sign(np.clip(a, -1, 1)) * np.floor(np.abs(np.clip(a, -1, 1)) * 127 + 0.5) / 127
    np.testing.assert_allclose(y.numpy(), want, rtol=1e-6)
    (y * paddle.to_tensor(np.arange(6, dtype="float32"))).sum().backward()
    np.testing.assert_array_equal(x.grad.numpy(), np.arange(6, dtype="float32"))


def test_quanter_decorator_and_groupwise() -> None:
    from pylayer_jax.quantization import PTQ, BaseQuanter, QuantConfig, quanter
    from pylayer_jax.quantization.observers import GroupWiseWeightObserver

    @quanter("HalfQuanter")
    class HalfQuanterLayer(BaseQuanter):
        def __init__(self, layer, factor=0.5):  # noqa: ANN001, ANN204
            super().__init__()
            self.factor = factor

        def forward(self, x):  # noqa: ANN001, ANN202
            return x * self.factor

        def scales(self):  # noqa: ANN202
            return None

        def zero_points(self):  # noqa: ANN202
            return None

        def quant_axis(self):  # noqa: ANN202
            return -1

        def bit_length(self):  # noqa: ANN202
            return 8

    factory = sys.modules[__name__].HalfQuanter(factor=0.25)
    assert str(factory) == "HalfQuanter(factor=0.25)"
    assert factory._instance(paddle.nn.Linear(2, 2)).factor == 0.25
    with pytest.raises(TypeError, match=r"class_name must be a Python identifier"):
        quanter("not a name")

    w = np.sin(np.arange(128 * 3)).reshape(128, 3).astype("float32")
    net = paddle.nn.Sequential(paddle.nn.Linear(128, 3)).eval()
    net[0].weight.set_value(w)
    cfg = QuantConfig(activation=None, weight=None)
    cfg.add_type_config(paddle.nn.Linear, weight=GroupWiseWeightObserver(quant_bits=8, group_size=64))
    ptq = PTQ(cfg)
    m = ptq.quantize(net)
    m(paddle.ones([1, 128]))
    scales = np.abs(w.reshape(2, 64, 3)).max(axis=1)
    np.testing.assert_allclose(m[0].weight_quanter.scales().numpy(), scales, rtol=1e-6)
    c = ptq.convert(m)
    deq = np.round(w / np.repeat(scales, 64, 0) * 127) / 127 * np.repeat(scales, 64, 0)
    np.testing.assert_allclose(c[0].weight_quanter(c[0].weight).numpy(), deq, rtol=1e-5, atol=1e-7)
    with pytest.raises(ValueError, match=r"group_size must be 64 or 128, but received 32"):
        GroupWiseWeightObserver(group_size=32)


def test_quantization_misuse() -> None:
    from pylayer_jax.quantization import PTQ, QAT, QuantConfig
    from pylayer_jax.quantization.observers import AbsmaxObserver
    from pylayer_jax.quantization.quanters import FakeQuanterWithAbsMaxObserver

    fq = FakeQuanterWithAbsMaxObserver()
    with pytest.raises(RuntimeError, match=r"QAT.quantize: .*evaluation mode. Please set training mode by model.train"):
        QAT(QuantConfig(fq, fq)).quantize(paddle.nn.Linear(2, 2).eval())
    with pytest.raises(RuntimeError, match=r"PTQ.quantize: .*training mode. Please set evaluation mode by model.eval"):
        PTQ(QuantConfig(fq, fq)).quantize(paddle.nn.Linear(2, 2), inplace=True)
    with pytest.raises(TypeError, match=r"QuantConfig: activation must be a quanter factory .* received str"):
        QuantConfig(activation="abs_max", weight=None)
    with pytest.raises(TypeError, match=r"QAT: config must be a paddle.quantization.QuantConfig, but received dict"):
        QAT({})
    with pytest.raises(TypeError, match=r"add_type_config: layer_type must be a subclass of paddle.nn.Layer"):
        QuantConfig(None, None).add_type_config(int, activation=fq)
    with pytest.raises(ValueError, match=r"moving_rate must be a number in \[0, 1\], but received 2"):
        FakeQuanterWithAbsMaxObserver(moving_rate=2)
    with pytest.raises(ValueError, match=r"quant_bits must be an int from 2 to 16, but received 1"):
        AbsmaxObserver(quant_bits=1)
    ob = AbsmaxObserver()._instance(paddle.nn.Linear(2, 2))
    with pytest.raises(RuntimeError, match=r"nothing was observed yet; run the model on calibration data"):
        ob.scales()
