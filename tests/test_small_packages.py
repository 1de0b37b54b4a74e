"""Paddle 3.3.1's small public packages (``paddle.compat``, ``version``, ``sysconfig``, ``onnx``,
``decomposition``, ``cost_model``, ``quantization``, ...): the cases of ``tests/small_package_cases.py`` against
Paddle's results (``tests/record_paddle_small_packages.py``), and the misuse errors' messages."""

from __future__ import annotations

import os
import sys

import jax
import jax.numpy as jnp
import numpy as np
import pytest

import pylayer_jax as paddle

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from recorded import Recorded, assert_close, paddle_fixture  # noqa: E402
from small_package_cases import record  # noqa: E402

REF = paddle_fixture("paddle_small_packages.json")
OURS = Recorded(record, paddle)


def _lists(v: object) -> object:
    if isinstance(v, dict):
        return [[k, _lists(v[k])] for k in sorted(v)]
    return [_lists(x) for x in v] if isinstance(v, list) else v


def _nan_free(v: object) -> object:
    """NaN as a string (so that a recorded NaN compares equal to ours)."""
    if isinstance(v, float) and v != v:
        return "nan"
    return [_nan_free(x) for x in v] if isinstance(v, list) else v


# recorded entries where this package differs on purpose: key -> what it gives instead of Paddle 3.3.1's error
DIFFERS = {
    "qat_eval_model": {"error": "RuntimeError"},  # Paddle: a bare assert (AssertionError)
    "ptq_train_model": {"error": "RuntimeError"},  # Paddle: a bare assert (AssertionError)
    "qat_mlp_convert": {"error": None},  # Paddle: TypeError, making a Tensor of the quanter's zero_points() None
    "qat_conv_convert": {"error": None},
}


@pytest.mark.parametrize("key", sorted(set(REF) - set(DIFFERS)))
def test_as_paddle(key: str) -> None:
    assert_close(_nan_free(_lists(OURS[key])), _nan_free(_lists(REF[key])), key, rtol=1e-6)


@pytest.mark.parametrize("key", sorted(DIFFERS))
def test_differs_on_purpose(key: str) -> None:
    assert REF[key]["error"] in ("AssertionError", "TypeError") and OURS[key] == DIFFERS[key]


def test_every_case_recorded() -> None:
    assert sorted(OURS) == sorted(REF)


# ---- paddle.compat: what differs from Paddle on purpose, and the messages


def test_compat_slogdet_gradient() -> None:
    """Paddle 3.3.1's slogdet_v2 gradient is NaN on CPU; here it is d log|det A| / dA = inv(A)^T (jax.grad)."""
    a = np.array([[[2.0, 1.0], [1.0, 3.0]], [[0.0, 1.0], [1.0, 0.0]]])
    x = paddle.to_tensor(a, stop_gradient=False)
    r = paddle.compat.slogdet(x)
    (r.logabsdet * paddle.to_tensor([1.0, 2.0], dtype="float64")).sum().backward()
    want = jax.grad(lambda m: (jnp.linalg.slogdet(m)[1] * jnp.array([1.0, 2.0])).sum())(jnp.asarray(a))
    np.testing.assert_allclose(x.grad.numpy(), want, rtol=1e-10)


def test_compat_equal_promotes_both_ways() -> None:
    """Paddle 3.3.1 casts both to the second argument's dtype (its table lookup is miswritten), so
    equal([1.5], [1]) is True there; here both promote to the common dtype, as documented."""
    assert not paddle.compat.equal(paddle.to_tensor([1.5]), paddle.to_tensor([1]))
    assert not paddle.compat.equal(paddle.to_tensor([1]), paddle.to_tensor([1.5]))
    assert paddle.compat.equal(paddle.to_tensor([2], dtype="uint8"), paddle.to_tensor([2], dtype="int8"))


@pytest.mark.parametrize("call, exc, match", [
    (lambda x: paddle.compat.min(x, axis=1), TypeError, r"compat.min\(\) received unexpected keyword argument 'axis'.*paddle.min"),
    (lambda x: paddle.compat.max(x, None), TypeError, r"compat.max: invalid arguments.*dim cannot be None"),
    (lambda x: paddle.compat.max(x, 1.0), TypeError, r"must be an int dim or a Tensor, but received float"),
    (lambda x: paddle.compat.min(x, keepdim=True), TypeError, r"keepdim needs a dim"),
    (lambda x: paddle.compat.min(x, other=1), TypeError, r"other must be a Tensor"),
    (lambda x: paddle.compat.min([1.0]), TypeError, r"input must be a Tensor, but received list"),
    (lambda x: paddle.compat.max(paddle.to_tensor([1, 2], stop_gradient=False)), TypeError, r"integer type"),
    (lambda x: paddle.compat.max(x, 1, out=paddle.zeros([3])), TypeError, r"out must be a list or tuple of two"),
    (lambda x: paddle.compat.median(x, out=(x, x)), TypeError, r"out must be a single Tensor"),
    (lambda x: paddle.compat.sort(x, axis=0), TypeError, r"compat.sort\(\) received .*'axis'.*paddle.sort"),
    (lambda x: paddle.compat.split(x, 0), ValueError, r"must be greater than 0, but received 0"),
    (lambda x: paddle.compat.split(x, [2, -1], 1), ValueError, r"non-negative, but size -1"),
    (lambda x: paddle.compat.split(x, [1, 1], 1), ValueError, r"must sum to the size 4 of dim 1"),
    (lambda x: paddle.compat.split(x, 2, 2), ValueError, r"dim must be in \[-2, 2\), but received 2"),
    (lambda x: paddle.compat.split(x, 2.0), TypeError, r"must be an int or a list / tuple of ints, but received float"),
    (lambda x: paddle.compat.equal(x=x, y=x), TypeError, r"keyword arguments 'x', 'y'.*paddle.equal"),
])
def test_compat_misuse(call, exc, match) -> None:  # noqa: ANN001
    with pytest.raises(exc, match=match):
        call(paddle.to_tensor(np.ones((3, 4), "float32")))


# ---- the other small packages: what Paddle's CPU build cannot run, and the messages


def test_vmm_compact() -> None:
    """No VMM compaction in XLA's allocator: 0 bytes moved on a GPU; Paddle's CPU-build ValueError without one."""
    if any(d.platform == "gpu" for d in jax.devices()):
        assert paddle.device.cuda.vmm_compact() == 0
    else:
        with pytest.raises(ValueError, match=r"vmm_compact is not supported in CPU-only PaddlePaddle"):
            paddle.device.cuda.vmm_compact()


def test_incubate_cc() -> None:
    """fuse.matmul is the epilogue of the matmul (Paddle 3.3.1 has no CPU kernel for its fusion region);
    cc.compile gives the function compiled by paddle.jit.to_static."""
    a = np.arange(12, dtype="float32").reshape(3, 4) / 10
    w = np.linspace(-1, 1, 8, dtype="float32").reshape(4, 2)
    got = paddle.incubate.cc.fuse.matmul(paddle.to_tensor(a), paddle.to_tensor(w), lambda y: paddle.nn.functional.relu(y + 0.1))
    np.testing.assert_allclose(got.numpy(), np.maximum(a @ w + 0.1, 0), rtol=1e-6)
    f = paddle.incubate.cc.compile(lambda x, y: paddle.tanh(x @ y))
    np.testing.assert_allclose(f(paddle.to_tensor(a), paddle.to_tensor(w)).numpy(), np.tanh(a @ w), rtol=1e-6)
    with pytest.raises(ValueError, match=r"only inference is supported \(train=False\)"):
        paddle.incubate.cc.compile(lambda x: x, train=True)
    with pytest.raises(ValueError, match=r"compile_engine must be 'CINN' or 'PCC', but received 'XLA'"):
        paddle.incubate.cc.compile(lambda x: x, compile_engine="XLA")
    with pytest.raises(TypeError, match=r"epilogue must be callable, but received int"):
        paddle.incubate.cc.fuse.matmul(paddle.to_tensor(a), paddle.to_tensor(w), 1)


def test_incubate_inference() -> None:
    """A Layer decorated with paddle.incubate.inference gives its forward's results, with no gradient."""
    paddle.seed(3)
    net = paddle.nn.Sequential(paddle.nn.Linear(4, 3), paddle.nn.ReLU(), paddle.nn.Linear(3, 2))
    x = paddle.to_tensor(np.linspace(-1, 1, 8, dtype="float32").reshape(2, 4))
    want = net(x).numpy()
    assert paddle.incubate.inference(net) is net
    out = net(x)
    np.testing.assert_allclose(out.numpy(), want, rtol=1e-6)
    assert out.stop_gradient
    fn = paddle.incubate.inference(precision_mode="float32")(lambda t: t * 2)
    assert paddle.incubate.inference(fn) is fn
    with pytest.raises(TypeError, match=r"memory_pool_init_size_mb must be of type <class 'int'>, but received str"):
        paddle.incubate.inference(net, memory_pool_init_size_mb="1")
    with pytest.raises(ValueError, match=r"precision_mode must be 'float32', 'float16' or 'bfloat16'"):
        paddle.incubate.inference(net, precision_mode="int8")


def test_decomposition_misuse() -> None:
    from pylayer_jax.decomposition import auto_recompute, decompose, register

    paddle.enable_static()
    try:
        main = paddle.static.Program()
        with paddle.static.program_guard(main):
            x = paddle.static.data("x", [2, 3], "float32")
            y = paddle.exp(x)
        assert auto_recompute(main, [x], [y], [y], 1, 2) == (main, 1)
        with pytest.raises(TypeError, match=r"decompose: start_index must be an int, but received float"):
            decompose(main, [y], start_index=1.5)
        with pytest.raises(TypeError, match=r"decompose: src_vars\[0\] must be a Value of the program, but received int"):
            decompose(main, [1])
        with pytest.raises(TypeError, match=r"auto_recompute: program must be a paddle.static.Program, but received str"):
            auto_recompute("p", [x], [y], [y], 1, 2)
    finally:
        paddle.disable_static()
    with pytest.raises(ValueError, match=r'"pd_op.unsqueeze" should not be registered before'):
        register.register_decomp("pd_op.unsqueeze")(lambda x, axis: x)
    rule = register.get_decomp_rule("pd_op.unsqueeze")
    assert rule(paddle.ones([2, 3]), [0, -1])[0].shape == [1, 2, 3, 1]


def test_onnx_sysconfig_xpu_messages() -> None:
    with pytest.raises(ImportError, match=r"Failed importing paddle2onnx.*paddle.jit.save.*jax.export"):
        paddle.onnx.export(paddle.nn.Linear(2, 2), "/tmp/_small_pkg_onnx")
    with pytest.raises(TypeError, match=r"onnx.export: path must be a str"):
        paddle.onnx.export(paddle.nn.Linear(2, 2), 3)
    root = os.path.dirname(paddle.__file__)
    assert paddle.sysconfig.get_include() == os.path.join(root, "include")
    assert paddle.sysconfig.get_lib() == os.path.join(root, "libs")
    xc = paddle.inference.XpuConfig()
    with pytest.raises(AttributeError, match=r"XpuConfig has no setting 'foo'"):
        xc.foo = 1
    with pytest.raises(TypeError, match=r"XpuConfig.device_id must be a int, but received str"):
        xc.device_id = "a"
    xc.l3_size, xc.quant_post_static_gelu_out_threshold = 1024, 5
    assert (xc.l3_size, xc.quant_post_static_gelu_out_threshold) == (1024, 5)


def test_cost_model_builds_and_profiles(capsys: pytest.CaptureFixture, tmp_path, monkeypatch) -> None:  # noqa: ANN001
    from pylayer_jax.cost_model import CostModel

    monkeypatch.chdir(tmp_path)  # (the profiler writes its trace under the working directory)

    cm = CostModel()
    try:
        startup, main = cm.build_program()
        cm.profile_measure(startup, main, device="cpu")
    finally:
        paddle.disable_static()
    assert "main program is:" in capsys.readouterr().out
    assert cm.static_cost_data() == [] and cm.get_static_op_time("matmul") == {}
    with pytest.raises(ValueError, match=r"device must be 'gpu' or 'cpu', but received 'tpu'"):
        cm.profile_measure(startup, main, device="tpu")


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
