"""Paddle 3.3.1's small public packages: ``version``, ``sysconfig``, ``onnx.export``, ``inference.XpuConfig``,
``cost_model``, ``incubate.optimizer.LBFGS``, ``decomposition`` (part ``small`` of ``tests/small_package_cases.py``
against Paddle's results), and ``device.cuda.vmm_compact``, ``incubate.cc``, ``incubate.inference`` and the misuse
errors."""

from __future__ import annotations

import os

import jax
import numpy as np
import pytest
from small_package_checks import check, part

import pylayer_jax as paddle

REF, OURS, KEYS = part("small")


@pytest.mark.parametrize("key", KEYS)
def test_as_paddle(key: str) -> None:
    check(OURS[key], REF[key], key)


def test_every_case_recorded() -> None:
    assert sorted(OURS) == sorted(KEYS)


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
