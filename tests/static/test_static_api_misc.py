"""The rest of ``paddle.static``: accuracy/auc, name_scope/device_guard, places, global variables,
BuildStrategy/CompiledProgram, setitem and in-place writes, ExponentialMovingAverage, amp, py_func, and the
APIs that need what is not here (IPU, quantization, LoD, custom C++ ops), which raise.

Paddle's numbers: ``tests/record_paddle_static_api.py`` (Program IR). ``ExponentialMovingAverage`` fails in
Paddle 3.3.1 in both modes (``logical_not`` in the Program IR, ``create_global_var`` in PIR), so it is checked
against numpy.
"""

from __future__ import annotations

import json
import os

import numpy as np
import pytest
import static_api_cases as cases

import pylayer_jax as paddle

DATA = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "data")
with open(os.path.join(DATA, "paddle_static_api.json")) as _f:
    REF = json.load(_f)
A = cases.arrays()
S = paddle.static


@pytest.fixture(autouse=True)
def _static_mode():
    paddle.enable_static()
    yield
    paddle.disable_static()


def close(a, b, rtol=1e-5, atol=1e-6):
    np.testing.assert_allclose(np.asarray(a, "float64"), np.asarray(b, "float64"), rtol=rtol, atol=atol)


def test_accuracy_and_auc_statistics_match_paddle():
    main, startup, fetch = cases.metrics(paddle)
    exe = S.Executor()
    exe.run(startup)
    for k, ref in enumerate(REF["metrics"]):
        feed = {"pred": A["pred"], "lab4": A["lab4"], "p2": np.roll(A["p2"], k, axis=0), "lab_auc": A["lab_auc"]}
        got = exe.run(main, feed=feed, fetch_list=fetch)
        for a, b in zip(got, ref, strict=True):
            assert np.shape(a) == np.shape(b)
            close(a, b, atol=0)
    assert got[2].dtype == np.float64 and got[4].dtype == np.int64


def test_auc_statistics_advance_in_the_test_clone_and_without_a_fetch():
    main, startup = S.Program(), S.Program()
    with S.program_guard(main, startup):
        p = S.data("p2", [None, 2], "float32")
        lab = S.data("lab_auc", [None, 1], "int64")
        auc, _, stats = S.auc(p, lab, num_thresholds=7, slide_steps=0)
        other = p * 2.0
    exe = S.Executor()
    exe.run(startup)
    feed = {"p2": A["p2"], "lab_auc": A["lab_auc"]}
    exe.run(main, feed=feed, fetch_list=[other])
    exe.run(main.clone(for_test=True), feed=feed, fetch_list=[other])
    pos = np.asarray(S.global_scope().find_var(stats[2].name).get_tensor())
    assert pos.sum() == 2 * (A["lab_auc"] > 0).sum()


def test_accuracy_writes_correct_and_total_and_works_eagerly():
    main, startup = S.Program(), S.Program()
    with S.program_guard(main, startup):
        pred = S.data("pred", [None, 4], "float32")
        lab = S.data("lab4", [None, 1], "int64")
        correct = S.create_global_var([1], 0, "int32", persistable=True, name="correct")
        total = S.create_global_var([1], 0, "int32", persistable=True, name="total")
        acc = S.accuracy(pred, lab, k=2, correct=correct, total=total)
    exe = S.Executor()
    exe.run(startup)
    a, c, t = exe.run(main, feed={"pred": A["pred"], "lab4": A["lab4"]}, fetch_list=[acc, correct, total])
    assert (float(a), int(c[0]), int(t[0])) == (1.0, 4, 4)
    paddle.disable_static()
    e = S.accuracy(paddle.to_tensor(A["pred"]), paddle.to_tensor(A["lab4"]), k=1)
    assert float(e) == REF["metrics"][0][0]
    paddle.enable_static()


def test_name_scope_device_guard_places_and_global_vars_as_paddle():
    ref = REF["misc"]
    main, startup = S.Program(), S.Program()
    with S.program_guard(main, startup):
        x = S.data("x", [2], "float32")
        with S.name_scope("enc"):
            a = x + 1.0
            with S.name_scope("inner"):
                b = a * 2.0
        with S.name_scope("enc"):
            c = b - 1.0
        with S.device_guard("cpu"):
            d = c * 3.0
        g = S.create_global_var([2], 1.5, "float32")
        gp = S.create_global_var([3], 2, "int64", persistable=True, name="gp")
        s = S.setitem(d, 1, 9.0)
    ops = main.global_block().ops
    assert [op.attrs.get("op_namescope", "/") for op in ops[:4]] == ref["scopes"][:4]
    assert [op.attrs.get("op_device", "") for op in ops[:4]] == ref["devices"][:4]
    assert [S.is_persistable(v) for v in (x, g, gp)] == ref["persistable"]
    exe = S.Executor()
    exe.run(startup)
    cp = S.CompiledProgram(main, build_strategy=S.BuildStrategy())
    got = exe.run(cp, feed={"x": np.array([1.0, 2.0], "float32")}, fetch_list=[d, g, gp, s])
    close(got[0], ref["values"][0])
    close(got[1], [1.5, 1.5])  # (Paddle fetches None for a non-persistable global variable; here its value)
    assert got[2].tolist() == ref["values"][2] and got[2].dtype == np.int64
    close(got[3], ref["values"][3])
    assert [str(p) for p in S.cpu_places(2)] == ref["cpu_places"]
    with pytest.raises(ValueError, match="the device should be 'cpu'"):
        S.device_guard("tpu").__enter__()
    with pytest.raises(AssertionError, match="not compiled with XPU"):
        S.xpu_places()
    if paddle.device.is_compiled_with_cuda():
        assert all(isinstance(p, paddle.CUDAPlace) for p in S.cuda_places())
    else:
        with pytest.raises(AssertionError, match="not compiled with CUDA"):
            S.cuda_places()
    paddle.disable_static()
    with S.name_scope("eager"), S.device_guard("cpu"):  # (no effect in dynamic mode, as in Paddle)
        t = S.create_global_var([2], 3.0, "float64")
    assert t.numpy().tolist() == [3.0, 3.0] and t.dtype == paddle.float64
    paddle.enable_static()


def test_build_strategy_defaults_as_paddle():
    bs = S.BuildStrategy()
    for k, v in REF["misc"]["build_strategy"].items():
        assert repr(getattr(bs, k)) == v, k
    bs.enable_inplace = False
    bs.reduce_strategy = S.BuildStrategy.ReduceStrategy.Reduce
    with pytest.raises(AttributeError, match="has no attribute 'foo'"):
        bs.foo = 1
    with pytest.raises(TypeError, match="BuildStrategy.enable_inplace: expected a value like True"):
        bs.enable_inplace = "yes"
    with pytest.raises(TypeError, match="program_or_graph must be a paddle.static.Program"):
        S.CompiledProgram(3)


def test_in_place_writes_into_variables_reach_later_ops_and_gradients():
    """``y[i] = v``, ``y.add_(z)`` and ``paddle.assign(x, output=v)`` on Variables: later ops read the new value,
    the gradient stops at the overwritten element, and a persistable target keeps its value across runs."""
    main, startup = S.Program(), S.Program()
    with S.program_guard(main, startup):
        steps = S.create_global_var([1], 0.0, "float32", persistable=True, name="steps")
        paddle.assign(steps + 1.0, output=steps)
        x = S.data("x", [3], "float32")
        x.stop_gradient = False
        y = x * 2.0
        y[0] = 5.0
        y.add_(paddle.ones([3]))
        (g,) = S.gradients([(y * y).sum()], [x])
    exe = S.Executor()
    exe.run(startup)
    for k in range(1, 3):
        s, yv, gv = exe.run(main, feed={"x": np.array([1.0, 2.0, 3.0], "float32")}, fetch_list=[steps, y, g])
        assert s.tolist() == [float(k)]
    close(yv, [6.0, 5.0, 7.0])
    close(gv, [0.0, 20.0, 28.0])  # 2 * y * 2, nothing through the overwritten element


def test_setitem_leaves_its_input_unchanged():
    main, startup = S.Program(), S.Program()
    with S.program_guard(main, startup):
        x = S.data("x", [2, 3], "float32")
        y = S.setitem(x, (0, slice(1, None)), 5.0)
    got = S.Executor().run(main, feed={"x": np.ones((2, 3), "float32")}, fetch_list=[x, y])
    close(got[0], np.ones((2, 3)))
    close(got[1], [[1, 5, 5], [1, 1, 1]])
    paddle.disable_static()
    t = paddle.ones([3])
    u = S.setitem(t, 1, 0.0)
    assert t.numpy().tolist() == [1, 1, 1] and u.numpy().tolist() == [1, 0, 1]
    paddle.enable_static()


# ---- ExponentialMovingAverage ------------------------------------------------------------------------------
def _np_ema(thres):
    """SGD(0.3) on mean((x W + b)^2) for 4 steps with EMA(0.9) after each update (numpy)."""
    x, w, b = A["v"].astype("float64"), A["fc_w"].astype("float64"), A["fc_b"].astype("float64")
    ew, eb = np.zeros_like(w), np.zeros_like(b)
    losses, decay = [], 0.9
    for k in range(1, 5):
        out = x @ w + b
        losses.append((out * out).mean())
        d = 2 * out / out.size
        w, b = w - 0.3 * x.T @ d, b - 0.3 * d.sum(0)
        decay = min(0.9, (k + 1.0) / (k + 10.0)) if thres else 0.9
        ew, eb = decay * ew + (1 - decay) * w, decay * eb + (1 - decay) * b
    corr = 1 - decay ** 4
    return losses, (w, b), (ew / corr, eb / corr), decay


@pytest.mark.parametrize("thres", [False, True])
def test_exponential_moving_average_against_numpy(thres):
    main, startup, test, loss, ema, w, b = cases.ema(paddle, A, thres)
    losses, trained, applied, decay = _np_ema(thres)
    exe = S.Executor()
    scope = S.Scope()
    with S.scope_guard(scope):
        exe.run(startup)
        got = [float(exe.run(main, feed={"v": A["v"]}, fetch_list=[loss])[0]) for _ in range(4)]
        close(got, losses, rtol=1e-5)
        with ema.apply(exe):
            aw, ab = exe.run(test, feed={"v": A["v"]}, fetch_list=[w, b])
        rw, rb = exe.run(test, feed={"v": A["v"]}, fetch_list=[w, b])
        close(np.asarray(scope.find_var("scheduled_ema_decay_rate").get_tensor()), [decay])
        with ema.apply(exe, need_restore=False):
            pass
        kept = exe.run(test, feed={"v": A["v"]}, fetch_list=[w])[0]
        ema.restore(exe)
        back = exe.run(test, feed={"v": A["v"]}, fetch_list=[w])[0]
    close(aw, applied[0], rtol=1e-4)
    close(ab, applied[1], rtol=1e-4)
    close(rw, trained[0], rtol=1e-5)
    close(rb, trained[1], rtol=1e-5)
    close(kept, applied[0], rtol=1e-4)
    close(back, trained[0], rtol=1e-5)


def test_exponential_moving_average_misuse_raises():
    with pytest.raises(ValueError, match=r"decay must be a float in \[0, 1\]"):
        S.ExponentialMovingAverage(1.5)
    paddle.disable_static()
    with pytest.raises(RuntimeError, match="static mode only"):
        S.ExponentialMovingAverage(0.9)
    paddle.enable_static()


# ---- amp, py_func ------------------------------------------------------------------------------------------
def _fc_program(opt_fn):
    main, startup = S.Program(), S.Program()
    with paddle.utils.unique_name.guard(), S.program_guard(main, startup):
        x = S.data("v", [None, 6], "float32")
        out = S.nn.fc(x, 3, weight_attr=cases.attr(paddle, A, "fc_w"), bias_attr=cases.attr(paddle, A, "fc_b"))
        loss = paddle.mean(out * out)
        opt = opt_fn()
        opt.minimize(loss)
    exe = S.Executor()
    with S.scope_guard(S.Scope()):
        exe.run(startup)
        return [float(exe.run(main, feed={"v": A["v"]}, fetch_list=[loss])[0]) for _ in range(3)], opt


def test_amp_decorate_trains_as_the_optimizer():
    plain, _ = _fc_program(lambda: paddle.optimizer.SGD(0.3))
    amp, opt = _fc_program(lambda: S.amp.decorate(paddle.optimizer.SGD(0.3), S.amp.CustomOpLists(
        custom_black_list=["matmul"]), init_loss_scaling=1024.0))
    assert amp == plain
    assert opt.get_scaled_loss() is not None and opt.get_loss_scaling().shape == [1]
    with S.amp.fp16_guard():
        pass
    with pytest.raises(NotImplementedError, match="level 'O2'.*mixed precision is off"):
        S.amp.decorate(paddle.optimizer.SGD(0.1), level="O2")
    with pytest.raises(ValueError, match="in both the custom white and black lists"):
        S.amp.AutoMixedPrecisionLists(custom_white_list=["mul"], custom_black_list=["mul"])


def test_py_func_forward_and_backward_against_numpy():
    calls = []

    def tanh(x):
        calls.append(x.shape)
        return np.tanh(x)

    main, startup = S.Program(), S.Program()
    with S.program_guard(main, startup):
        x = S.data("x", [None, 3], "float32")
        x.stop_gradient = False
        y = main.current_block().create_var(name="y", shape=[-1, 3], dtype="float32")
        S.py_func(tanh, x, y, backward_func=lambda x, y, dy: dy * (1 - np.square(y)),
                  skip_vars_in_backward_input=None)
        z = main.current_block().create_var(name="z", shape=[-1, 3], dtype="float32")
        S.py_func(np.exp, y, z)  # (no backward_func: no gradient through it)
        loss = paddle.mean(y * y) + paddle.mean(z)
        (g,) = S.gradients([loss], [x])
    xv = A["v"][:, :3]
    got_y, got_z, got_g = S.Executor().run(main, feed={"x": xv}, fetch_list=[y, z, g])
    close(got_y, np.tanh(xv))
    close(got_z, np.exp(np.tanh(xv)))
    close(got_g, 2 * np.tanh(xv) * (1 - np.tanh(xv) ** 2) / xv.size, atol=1e-7)
    assert calls and calls[0] == (4, 3)


def test_py_func_misuse_raises():
    main, startup = S.Program(), S.Program()
    with S.program_guard(main, startup):
        x = S.data("x", [None, 3], "float32")
        y = main.current_block().create_var(name="y", shape=[3, -1], dtype="float32")
        with pytest.raises(NotImplementedError, match="dimension 1 of the output y is unknown"):
            S.py_func(np.tanh, x, y)
        with pytest.raises(TypeError, match="func must be callable"):
            S.py_func(3, x, y)
        with pytest.raises(ValueError, match="skip_vars_in_backward_input is read only with a backward_func"):
            S.py_func(np.tanh, x, main.current_block().create_var(name="w", shape=[-1, 3]),
                      skip_vars_in_backward_input=[x])


# ---- what is not available ----------------------------------------------------------------------------------
@pytest.mark.parametrize("call, match", [
    (lambda: S.IpuStrategy(), "IpuStrategy: this package runs programs with XLA"),
    (lambda: S.IpuCompiledProgram(), "IpuCompiledProgram: .* no IPU"),
    (lambda: S.ipu_shard_guard(), "ipu_shard_guard"),
    (lambda: S.set_ipu_shard(None), "set_ipu_shard"),
    (lambda: S.MetaTensor(), "MetaTensor: the shape-inference handle"),
    (lambda: S.register_op("x"), "register_op: there is no C\\+\\+ operator registry"),
    (lambda: S.ctr_metric_bundle(None, None), "ctr_metric_bundle: its statistics are summed across the trainers"),
    (lambda: S.quantization.QuantizationTransformPass(), "quantization.QuantizationTransformPass: static-graph"),
    (lambda: S.quantization.quant_aware(None, None), "quant_aware"),
    (lambda: S.nn.sequence_pool(None, "sum"), "sequence_pool: LoD .* masked sum"),
    (lambda: S.nn.sequence_conv(None, 3), "sequence_conv: LoD"),
    (lambda: S.nn.sequence_softmax(None), "sequence_softmax: LoD"),
    (lambda: S.nn.sequence_first_step(None), "sequence_first_step: LoD"),
    (lambda: S.nn.sequence_last_step(None), "sequence_last_step: LoD"),
    (lambda: S.nn.sequence_expand(None, None), "sequence_expand: LoD"),
    (lambda: S.amp.cast_model_to_fp16(None), "cast_model_to_fp16: mixed precision is off"),
    (lambda: S.amp.cast_parameters_to_fp16(None, None), "cast_parameters_to_fp16"),
])
def test_unavailable_apis_raise_not_implemented(call, match):
    with pytest.raises(NotImplementedError, match=match):
        call()


def test_module_paths_as_paddle():
    assert S.nn.common.conv2d is S.nn.conv2d and S.nn.control_flow.Print is S.Print
    assert S.nn.metric.auc is S.auc and S.nn.loss.nce is S.nn.nce and S.nn.common.ExponentialMovingAverage is \
        S.ExponentialMovingAverage
    assert S.io.save_vars is S.save_vars and S.input.data is S.data and S.input.setitem is S.setitem
    assert S.nn.create_parameter is S.create_parameter and S.nn.py_func is S.py_func
