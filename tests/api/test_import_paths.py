"""Paddle's import paths and small surfaces: flags, devices, Tensor placement, ``dir()``, behaviours.

Facts about Paddle (flag defaults, exception types, dygraph while_loop) come from
``tests/data/paddle_paths.json``, recorded by ``tests/record_paddle_paths.py``.
"""

from __future__ import annotations

import importlib.metadata
import json
import os
import pathlib
import subprocess
import sys

import jax
import jax.numpy as jnp
import numpy as np
import pytest

import pylayer_jax as paddle
from pylayer_jax._ops.table import TABLE
from pylayer_jax._runtime import device as _device
from pylayer_jax._runtime import flags as _flags
from pylayer_jax._tensor.dispatch import apply_op

PADDLE = json.loads((pathlib.Path(__file__).resolve().parents[1] / "data" / "paddle_paths.json").read_text())
ERR = {"ValueError": ValueError, "TypeError": TypeError, "RuntimeError": RuntimeError}
HAS_GPU = bool(_device.gpus())


# ---- import paths ---------------------------------------------------------------------------------
def test_import_paths_name_the_same_objects() -> None:
    from pylayer_jax.autograd.py_layer import PyLayer, PyLayerContext
    from pylayer_jax.base import core
    from pylayer_jax.base.backward import append_backward

    assert PyLayer is paddle.autograd.PyLayer and PyLayerContext is paddle.autograd.PyLayerContext
    assert append_backward is paddle.static.append_backward
    for name in ("Program", "program_guard", "Executor", "Scope", "scope_guard", "global_scope", "CPUPlace",
                 "default_main_program", "default_startup_program"):
        assert getattr(paddle.base, name) is getattr(paddle.static, name), name
    assert paddle.CPUPlace is paddle.base.CPUPlace
    assert core.grad_var_suffix() == PADDLE["grad_var_suffix"]
    assert paddle.framework.in_dynamic_mode() is PADDLE["in_dynamic_mode"]
    assert paddle.framework.in_pir_mode() is False
    assert paddle.set_device is paddle.device.set_device and paddle.get_device is paddle.device.get_device
    assert paddle.framework.set_flags is paddle.set_flags and paddle.framework.get_flags is paddle.get_flags
    assert paddle.framework.core is core


def test_version_is_the_installed_package_version() -> None:
    assert paddle.__version__ == importlib.metadata.version("pylayer_jax")


def test_dir_shows_paddle_names_only() -> None:
    names = dir(paddle)
    for internal in ("Any", "TABLE", "apply_op", "annotations", "public", "Tensor_", "_tensor", "_ops", "_functional",
                     "_tensor_device", "_device", "_flags"):
        assert internal not in names, internal
    assert [n for n in names if n.startswith("_")] == ["__version__"]
    for public in ("Tensor", "to_tensor", "get_flags", "set_flags", "device", "base", "framework", "static", "autograd",
                   "set_device", "is_compiled_with_cuda", "float32", "full", "enable_static"):
        assert public in names, public
    assert all(hasattr(paddle, n) for n in names)



def test_import_loads_only_what_an_eager_script_needs() -> None:
    # a fresh interpreter: the static graph, jit, the high-level API, optax and tqdm load on first use, the import
    # compiles no XLA program, and every lazy name then resolves to the object its module defines
    code = """
import sys, jax.monitoring
compiles = []
jax.monitoring.register_event_duration_secs_listener(
    lambda name, secs, **kw: compiles.append(name) if name.endswith("backend_compile_duration") else None)
import pylayer_jax as paddle
lazy = ["pylayer_jax.static", "pylayer_jax.jit", "pylayer_jax.hapi", "pylayer_jax.io", "pylayer_jax.metric",
        "pylayer_jax.optimizer", "pylayer_jax.base", "optax", "tqdm", "IPython"]
print([m for m in lazy if m in sys.modules], len(compiles))
from pylayer_jax.static._executor import CPUPlace
from pylayer_jax.hapi import Model
print(paddle.CPUPlace is CPUPlace, paddle.Model is Model, paddle.static.Executor is paddle.base.Executor,
      paddle.optimizer.SGD.__name__, "static" in dir(paddle), "Model" in dir(paddle))
# each public module imported first, as a script that starts with it would (the modules the others loaded are
# forgotten before each): an import cycle between public packages shows as an ImportError here
import importlib, pkgutil
core = set(sys.modules)
names = [m.name for m in pkgutil.walk_packages(paddle.__path__, "pylayer_jax.")
         if not any(part.startswith("_") for part in m.name.split(".")[1:])]
failed = []
for name in names:
    for k in [k for k in sys.modules if k.startswith("pylayer_jax.") and k not in core]:
        del sys.modules[k]
        parent, _, child = k.rpartition(".")
        if parent in sys.modules and child in vars(sys.modules[parent]):
            delattr(sys.modules[parent], child)
    try:
        importlib.import_module(name)
    except Exception as e:
        failed.append(f"{name}: {type(e).__name__}: {e}")
print(len(names) > 40, failed)
"""
    src = os.path.dirname(os.path.dirname(os.path.abspath(paddle.__file__)))
    env = {**os.environ, "PYTHONPATH": src + os.pathsep + os.environ.get("PYTHONPATH", "")}
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stderr
    assert out.stdout.split("\n")[:3] == ["[] 0", "True True True SGD True True", "True []"]
    with pytest.raises(AttributeError, match="module 'pylayer_jax' has no attribute 'no_such_name'"):
        paddle.no_such_name  # noqa: B018

# ---- flags ----------------------------------------------------------------------------------------------
def test_flag_defaults_are_paddles() -> None:
    assert set(_flags._DEFAULTS) == set(PADDLE["flags"])
    assert paddle.get_flags(list(PADDLE["flags"])) == PADDLE["flags"]
    assert paddle.get_flags("FLAGS_check_nan_inf") == {"FLAGS_check_nan_inf": PADDLE["flags"]["FLAGS_check_nan_inf"]}


def test_set_flags_round_trips_with_paddles_casting() -> None:
    names = list(PADDLE["flags_after_set"])
    before = paddle.get_flags(names)
    try:
        paddle.set_flags({"FLAGS_paddle_num_threads": 4, "FLAGS_benchmark": 1})
        assert paddle.get_flags(names) == PADDLE["flags_after_set"]
    finally:
        paddle.set_flags(before)
    assert paddle.get_flags(names) == before


def test_flag_errors() -> None:
    e = PADDLE["errors"]
    with pytest.raises(ERR[e["get_flags_unknown"]], match="Flag FLAGS_no_such_flag cannot get its value"):
        paddle.get_flags("FLAGS_no_such_flag")
    with pytest.raises(ERR[e["set_flags_unknown"]], match="Flag FLAGS_no_such_flag cannot set its value"):
        paddle.set_flags({"FLAGS_no_such_flag": 1})
    with pytest.raises(ERR[e["get_flags_int"]], match="flags must be a str or a list or tuple of str"):
        paddle.get_flags(3)
    with pytest.raises(ERR[e["set_flags_str"]], match="flags must be a dict"):
        paddle.set_flags("FLAGS_benchmark")
    with pytest.raises(ERR[e["set_flags_bad_type"]], match="FLAGS_paddle_num_threads holds a int, but received 2.5"):
        paddle.set_flags({"FLAGS_paddle_num_threads": 2.5})
    with pytest.raises(NotImplementedError, match="FLAGS_check_nan_inf=True would change how Paddle computes"):
        paddle.set_flags({"FLAGS_check_nan_inf": True})
    assert paddle.get_flags("FLAGS_check_nan_inf")["FLAGS_check_nan_inf"] is False
    paddle.set_flags({"FLAGS_check_nan_inf": False})  # the default stays settable


# ---- devices ------------------------------------------------------------------------------------------
def test_device_queries_match_jax() -> None:
    assert paddle.is_compiled_with_cuda() is (HAS_GPU and "rocm" not in jax.devices()[0].client.platform_version)
    assert paddle.is_compiled_with_xpu() is False
    assert paddle.device.cuda.device_count() == len(_device.gpus())
    assert paddle.base.core.get_cuda_device_count() == paddle.device.cuda.device_count()
    assert paddle.get_device() == ("gpu:0" if jax.default_backend() == "gpu" else "cpu")


def test_set_device_places_new_arrays() -> None:
    before = paddle.get_device()
    try:
        place = paddle.set_device("cpu")
        assert repr(place) == "Place(cpu)" and place == paddle.CPUPlace()
        assert paddle.get_device() == "cpu"
        p = paddle.to_tensor([1.0]).place
        # as Paddle 3.3.1's Place (checked with it): equal to CPUPlace(), not to its text; Paddle's queries
        assert str(p) == repr(p) == "Place(cpu)" and p == paddle.CPUPlace() and p != "Place(cpu)"
        assert p.is_cpu_place() and not p.is_gpu_place() and not p.is_cuda_pinned_place() and not p.is_xpu_place()
        assert not p.is_custom_place()
    finally:
        paddle.set_device(before)
    with pytest.raises(ERR[PADDLE["errors"]["set_device_bad"]], match="the device must be a string like 'cpu'"):
        paddle.set_device("foo")
    with pytest.raises(TypeError, match="the device must be a str"):
        paddle.set_device(3)


def test_a_place_that_is_neither_cpu_nor_gpu() -> None:
    # what x.place is for a tensor on a TPU, say (no such device here): Paddle's custom-place answers
    from pylayer_jax._runtime.device import CustomPlace

    p = CustomPlace("tpu", 1)
    assert str(p) == "Place(tpu:1)" and p == CustomPlace("tpu", 1) and p != CustomPlace("tpu", 0)
    assert p.is_custom_place() and not p.is_gpu_place() and not p.is_cpu_place() and p.gpu_device_id() == 0
    assert p != paddle.CPUPlace()


@pytest.mark.skipif(HAS_GPU, reason="checks the CPU-only errors; the GPU test below covers machines with a GPU")
def test_gpu_requests_on_a_cpu_only_machine_raise_as_paddle() -> None:
    e = PADDLE["errors"]
    with pytest.raises(ERR[e["set_device_gpu_on_cpu"]], match="JAX sees no GPU on this machine"):
        paddle.set_device("gpu:0")
    x = paddle.to_tensor([1.0])
    with pytest.raises(ERR[e["cuda_on_cpu"]], match="Tensor.cuda: no GPU is available"):
        x.cuda()
    with pytest.raises(ERR[e["pin_memory_on_cpu"]], match="Tensor.pin_memory: pinned"):
        x.pin_memory()
    with pytest.raises(ValueError, match="JAX sees no GPU"):
        x.to("gpu")
    with pytest.raises(ValueError, match="JAX sees no GPU"):
        paddle.to_tensor([1.0], place="gpu:0")


@pytest.mark.skipif(not HAS_GPU, reason="needs a GPU visible to JAX")
def test_cuda_and_cpu_move_tensors_and_gradients() -> None:
    x = paddle.to_tensor([1.0, 2.0, 3.0], place="cpu", stop_gradient=False)
    g = x.cuda()
    assert str(g.place) == "Place(gpu:0)" and g.place.is_gpu_place() and g.place.gpu_device_id() == 0
    assert g.place == paddle.CUDAPlace(0) and np.array_equal(g.numpy(), x.numpy())
    back = (g * g).cpu()
    assert back.place == paddle.CPUPlace()
    back.sum().backward()
    np.testing.assert_allclose(x.grad.numpy(), 2 * np.array([1.0, 2.0, 3.0]))
    pinned = paddle.to_tensor([1.0]).pin_memory()
    assert pinned._value.sharding.memory_kind == "pinned_host"
    with pytest.raises(ValueError, match="does not exist"):
        x.cuda(len(_device.gpus()))


# ---- Tensor.cpu / to ---------------------------------------------------------------------------------
def test_cpu_and_to_follow_paddle() -> None:
    rec = PADDLE["to"]
    x = paddle.to_tensor([1.0, 2.0], stop_gradient=False, place="cpu")
    assert (x.cpu() is x) is rec["cpu_is_self"]
    assert (x.to("cpu") is x) is rec["to_cpu_is_self"]
    assert (x.to(paddle.CPUPlace()) is x) is rec["to_cpu_is_self"]
    assert str(x.to("float64").dtype) == rec["to_dtype"]
    assert str(x.to(paddle.to_tensor([1], dtype="int32")).dtype) == rec["to_tensor"]
    assert str(x.to("cpu", "float16").dtype) == "paddle.float16"
    assert str(x.to(device="cpu", dtype=paddle.float64).dtype) == "paddle.float64"
    y = x.to("float64")
    (y * y).sum().backward()  # the cast is differentiable
    np.testing.assert_allclose(x.grad.numpy(), 2 * np.array([1.0, 2.0]))
    with pytest.raises(ERR[PADDLE["errors"]["to_int"]], match="the device must be a str"):
        x.to(3)
    with pytest.raises(TypeError, match="unexpected keyword argument foo"):
        x.to(foo=1)


def test_device_copy_op_passes_values_and_gradients() -> None:
    xv = np.array([[1.0, -2.0], [3.0, 0.5]])
    x = paddle.to_tensor(xv, stop_gradient=False)
    y = apply_op(TABLE["to_device"], (x, "cpu", None))  # what .cpu()/.cuda() record when the device differs
    assert next(iter(y._value.devices())).platform == "cpu"
    (y * y * y).sum().backward()
    np.testing.assert_allclose(x.grad.numpy(), jax.grad(lambda v: jnp.sum(v ** 3))(jnp.asarray(xv)))


# ---- backward on stop_gradient=True --------------------------------------------------------------------
def test_backward_on_stop_gradient_tensors_does_nothing() -> None:
    x = paddle.to_tensor([1.0, 2.0])
    assert x.backward() is None
    assert (x.grad is None) is PADDLE["backward_stop_gradient"]["grad_is_none"]
    y = paddle.to_tensor([1.0, 2.0], stop_gradient=False)
    paddle.autograd.backward([x, (y * 3.0).sum()])  # the stop_gradient tensor is skipped, the other runs
    np.testing.assert_allclose(y.grad.numpy(), [3.0, 3.0])


# ---- creation ops in static programs -------------------------------------------------------------------
@pytest.fixture
def static_mode():
    paddle.enable_static()
    try:
        yield
    finally:
        paddle.disable_static()


def _programs():
    return paddle.static.Program(), paddle.static.Program()


def test_creation_ops_record_into_the_program(static_mode) -> None:
    main, start = _programs()
    with paddle.static.program_guard(main, start):
        made = {
            "full": paddle.full([2, 3], 1.5),
            "zeros": paddle.zeros([2], dtype="int32"),
            "ones": paddle.ones([3]),
            "arange": paddle.arange(1, 7, 2),
            "eye": paddle.eye(3),
            "linspace": paddle.linspace(0.0, 1.0, 5),
            "to_tensor": paddle.to_tensor([[1.0, 2.0]]),
        }
        made["full_like"] = paddle.full_like(made["full"], 7.0)
        total = made["to_tensor"].sum() + made["ones"].sum()
    for v in [*made.values(), total]:
        assert isinstance(v, paddle.static.Variable), v
    exe = paddle.static.Executor(paddle.CPUPlace())
    got = exe.run(main, fetch_list=[*made.values(), total])
    expect = [np.full((2, 3), 1.5, np.float32), np.zeros(2, np.int32), np.ones(3, np.float32), np.arange(1, 7, 2),
              np.eye(3, dtype=np.float32), np.linspace(0.0, 1.0, 5, dtype=np.float32),
              np.array([[1.0, 2.0]], np.float32), np.full((2, 3), 7.0, np.float32), np.float32(6.0)]
    for g, e in zip(got, expect):
        assert g.dtype == np.asarray(e).dtype
        np.testing.assert_allclose(g, e, rtol=1e-6)


def test_static_pylayer_over_full_returns_a_variable_0d(static_mode) -> None:
    # the gist of Paddle's test_return_0d_tensor / test_0d_tensor_backward
    main, start = _programs()
    with paddle.static.program_guard(main, start):
        data = paddle.full(shape=[], dtype="float32", fill_value=-2.0)
        data.stop_gradient = False
        out = paddle.static.nn.static_pylayer(lambda x: 3 * x, [data], lambda dy: -5 * dy)
        grads = paddle.base.backward.append_backward(out, [data])
    assert isinstance(out, paddle.static.Variable)
    (p, g), = grads
    assert p.is_same(data) and not p.is_same(out)
    assert g.name == data.grad_name == data.name + paddle.base.core.grad_var_suffix()
    exe = paddle.base.Executor(paddle.CPUPlace())
    ret, x_grad = exe.run(main, fetch_list=[out.name, data.grad_name])
    assert ret.shape == () and x_grad.shape == ()
    np.testing.assert_allclose(ret, 3 * -2.0)
    np.testing.assert_allclose(x_grad, -5.0)


def test_static_pylayer_backward_over_full(static_mode) -> None:
    # the gist of Paddle's test_static_pylayer_backward: y = 3x, dx = tanh(dy), loss = mean(y)
    main, start = _programs()
    with paddle.static.program_guard(main, start):
        data = paddle.full(shape=[3, 4], dtype="float32", fill_value=-2.0)
        data.stop_gradient = False
        out = paddle.static.nn.static_pylayer(lambda x: 3 * x, [data], lambda dy: paddle.tanh(dy))
        loss = paddle.mean(out)
        paddle.static.append_backward(loss, [data])
    ret, x_grad = paddle.static.Executor().run(main, fetch_list=[out, data.grad_name])
    np.testing.assert_allclose(ret, np.full((3, 4), -6.0))
    np.testing.assert_allclose(x_grad, np.tanh(np.full((3, 4), 1 / 12)), rtol=1e-6)


def test_creation_ops_inside_pylayer_functions_are_not_recorded(static_mode) -> None:
    main, start = _programs()
    with paddle.static.program_guard(main, start):
        x = paddle.static.data("X", [2], "float32")
        x.stop_gradient = False
        y = paddle.static.nn.static_pylayer(lambda a: a + paddle.ones([2]), [x], lambda dy: dy * paddle.full([2], 4.0))
        (gx,) = paddle.static.gradients([y], x)
    assert [op.type for op in main.global_block().ops] == ["pylayer", "grad"]
    ret, g = paddle.static.Executor().run(main, feed={"X": np.array([1.0, 2.0], np.float32)}, fetch_list=[y, gx])
    np.testing.assert_allclose(ret, [2.0, 3.0])
    np.testing.assert_allclose(g, [4.0, 4.0])


def test_grad_name_fetches_the_gradient_of_intermediates(static_mode) -> None:
    main, start = _programs()
    with paddle.static.program_guard(main, start):
        x = paddle.static.data("X", [3], "float32")
        x.stop_gradient = False
        h = paddle.exp(x)
        loss = paddle.sum(h * h)
        paddle.static.append_backward(loss, [x, h])
    xv = np.array([0.1, -0.2, 0.3], np.float32)
    gh, gx = paddle.static.Executor().run(main, feed={"X": xv}, fetch_list=[h.grad_name, x.grad_name])
    np.testing.assert_allclose(gh, 2 * np.exp(xv), rtol=1e-6)
    np.testing.assert_allclose(gx, 2 * np.exp(2 * xv), rtol=1e-6)


# ---- static.nn.cond ------------------------------------------------------------------------------------
def test_cond_eager_runs_only_the_chosen_branch() -> None:
    calls = []
    x = paddle.to_tensor([3.0])

    def t():
        calls.append("t")
        return x + x

    def f():
        calls.append("f")
        return x - x

    np.testing.assert_allclose(paddle.static.nn.cond(x < 5.0, t, f).numpy(), [6.0])
    np.testing.assert_allclose(paddle.static.nn.cond(x > 5.0, t, f).numpy(), [0.0])
    assert calls == ["t", "f"]
    assert paddle.static.nn.cond(x > 5.0, t) is None
    with pytest.raises(ValueError, match="pred must have exactly one element"):
        paddle.static.nn.cond(paddle.to_tensor([True, False]), t, f)
    with pytest.raises(TypeError, match="pred must be a boolean Tensor"):
        paddle.static.nn.cond(True, t, f)
    with pytest.raises(TypeError, match="true_fn must be callable"):
        paddle.static.nn.cond(x < 5.0, 3, f)


def test_cond_under_jax_jit_is_lax_cond() -> None:
    def f(v):
        t = paddle.Tensor(v)
        out = paddle.static.nn.cond(t.sum() > 0.0, lambda: paddle.exp(t), lambda: t * 3.0)
        return out._value.sum()

    def ref(v):
        return jnp.where(jnp.sum(v) > 0, jnp.exp(v), 3.0 * v).sum()

    for xv in (np.array([1.0, 2.0]), np.array([-1.0, -2.0])):
        np.testing.assert_allclose(jax.jit(f)(xv), ref(xv))
        np.testing.assert_allclose(jax.grad(f)(xv), jax.grad(ref)(jnp.asarray(xv)))


def test_cond_in_a_static_program_with_gradients(static_mode) -> None:
    main, start = _programs()
    with paddle.static.program_guard(main, start):
        x = paddle.static.data("x", [3], "float32")
        x.stop_gradient = False
        y = paddle.static.nn.cond(paddle.sum(x) > 0.0, lambda: paddle.exp(x), lambda: x * 3.0)
        (g,) = paddle.static.gradients([paddle.sum(y)], [x])
    assert "cond" in [op.type for op in main.global_block().ops] and main.num_blocks == 3
    exe = paddle.static.Executor()
    for xv in (np.array([1.0, 2.0, 3.0], np.float32), np.array([-1.0, -2.0, 0.0], np.float32)):
        yv, gv = exe.run(main, feed={"x": xv}, fetch_list=[y, g])
        pos = xv.sum() > 0
        np.testing.assert_allclose(yv, np.exp(xv) if pos else 3 * xv, rtol=1e-6)
        np.testing.assert_allclose(gv, np.exp(xv) if pos else np.full(3, 3.0), rtol=1e-6)


def test_cond_branch_mismatch_errors(static_mode) -> None:
    main, start = _programs()
    with paddle.static.program_guard(main, start):
        x = paddle.static.data("x", [3], "float32")
        with pytest.raises(ValueError, match="must have the same shape and dtype"):
            paddle.static.nn.cond(paddle.sum(x) > 0.0, lambda: x, lambda: paddle.sum(x))
        with pytest.raises(ValueError, match="true_fn returns non-None while false_fn returns None"):
            paddle.static.nn.cond(paddle.sum(x) > 0.0, lambda: x, lambda: None)


def test_cond_inside_static_pylayer(static_mode) -> None:
    # the gist of Paddle's test_cond_inside_static_pylayer, against the same closed-form expectations
    def forward_fn(i, a):
        return i, paddle.static.nn.cond(i < 5.0, lambda: paddle.add(a, a), lambda: paddle.subtract(a, a))

    def backward_fn(diout, daout):
        return daout * 3.0, paddle.static.nn.cond(diout < 5.0, lambda: -1 * daout, lambda: daout * daout)

    main, start = _programs()
    with paddle.static.program_guard(main, start):
        i = paddle.static.data(name="i", shape=[1], dtype="float32")
        i.stop_gradient = False
        a = 2.0 * i
        out_i, out_a = paddle.static.nn.static_pylayer(forward_fn, [i, a], backward_fn)
        out = out_i + out_a
        loss = paddle.exp(out)
        paddle.static.append_backward(loss, [i, a, out_i, out_a, out])
    exe = paddle.base.Executor(paddle.CPUPlace())
    for feed_i in range(0, 10):
        e_a = 2.0 * feed_i
        e_out = feed_i + (e_a + e_a if feed_i < 5 else 0.0)
        e_out_grad = np.exp(e_out)
        e_a_grad = -1 * e_out_grad if e_out_grad < 5 else e_out_grad * e_out_grad
        e_i_grad = 3 * e_out_grad + 2 * e_a_grad
        ret = exe.run(main, feed={"i": np.full((1,), feed_i, np.float32)},
                      fetch_list=[out.name, out.grad_name, out_i.grad_name, out_a.grad_name, a.grad_name,
                                  i.grad_name])
        for got, want in zip(ret, [e_out, e_out_grad, e_out_grad, e_out_grad, e_a_grad, e_i_grad]):
            np.testing.assert_allclose(got, [want], rtol=1e-5)


# ---- static.nn.while_loop ------------------------------------------------------------------------------
def test_while_loop_eager_writes_back_like_paddle() -> None:
    rec = PADDLE["while_loop_eager"]
    i, s = paddle.full([1], 0, "int64"), paddle.to_tensor([1.5], stop_gradient=False)
    lv = [i, s]
    res = paddle.static.nn.while_loop(lambda i, s: i < 3, lambda i, s: [i + 1, s * 2.0], lv)
    assert (res is lv) is rec["returns_loop_vars"] and (res[1] is s) is rec["same_tensor"]
    assert int(i.item()) == rec["i"] and float(s.item()) == rec["s"]


def test_while_loop_traced_and_static_match_python() -> None:
    def py(n, v):
        while n < 5:
            n, v = n + 1, v * 1.5 + 1.0
        return n, v

    def traced(v):
        n, out = paddle.static.nn.while_loop(lambda n, s: n < 5, lambda n, s: [n + 1, s * 1.5 + 1.0],
                                              [paddle.Tensor(jnp.zeros((), jnp.int64)), paddle.Tensor(v)])
        return out._value

    xv = np.array([1.0, -2.0])
    np.testing.assert_allclose(jax.jit(traced)(xv), py(0, xv)[1])
    paddle.enable_static()
    try:
        main, start = _programs()
        with paddle.static.program_guard(main, start):
            x = paddle.static.data("x", [2], "float64")
            n0 = paddle.full([1], 2, "int64")
            n, y = paddle.static.nn.while_loop(lambda n, s: n < 5, lambda n, s: [n + 1, s * 1.5 + 1.0], [n0, x])
        nv, yv = paddle.static.Executor().run(main, feed={"x": xv}, fetch_list=[n, y])
    finally:
        paddle.disable_static()
    pn, pv = py(2, xv)
    assert nv.tolist() == [pn]
    np.testing.assert_allclose(yv, pv)


def test_while_loop_errors_as_paddle() -> None:
    e = PADDLE["errors"]
    one = paddle.to_tensor([1.0])
    with pytest.raises(ERR[e["while_loop_empty"]], match="loop_vars must not be empty"):
        paddle.static.nn.while_loop(lambda i: i < 3, lambda i: i + 1, [])
    with pytest.raises(ERR[e["while_loop_not_callable"]], match="cond must be callable"):
        paddle.static.nn.while_loop(3, lambda i: i + 1, [one])
    with pytest.raises(ERR[e["while_loop_arity"]], match="same arity"):
        paddle.static.nn.while_loop(lambda i: i < 3, lambda i: [i + 1, i], [one])
    with pytest.raises(TypeError, match="cond must return a bool Tensor"):
        paddle.static.nn.while_loop(lambda i: i + 1, lambda i: i + 1, [one])
    with pytest.raises(TypeError, match="loop_vars must be a list or tuple"):
        paddle.static.nn.while_loop(lambda i: i < 3, lambda i: i + 1, one)


# ---- PyLayerContext.set_grad_in_dtype_consistent --------------------------------------------------------
class _Tanh(paddle.autograd.PyLayer):
    @staticmethod
    def forward(ctx, x, flag):
        y = paddle.tanh(x)
        ctx.save_for_backward(y)
        ctx.set_grad_in_dtype_consistent(flag)
        return y

    @staticmethod
    def backward(ctx, dy):
        (y,) = ctx.saved_tensor()
        assert dy.dtype == y.dtype
        return dy * (1 - paddle.square(y))


@pytest.mark.parametrize("flag", [True, False])
def test_set_grad_in_dtype_consistent(flag: bool) -> None:
    xv = np.array([[0.5, -1.0, 2.0]], np.float32)
    x = paddle.to_tensor(xv, stop_gradient=False)
    _Tanh.apply(x, flag).sum().backward()
    ref = jax.grad(lambda v: jnp.tanh(v).sum())(jnp.asarray(xv))
    np.testing.assert_allclose(x.grad.numpy(), ref, rtol=1e-6)
    np.testing.assert_allclose(jax.grad(lambda v: _Tanh.apply(v, flag).sum())(jnp.asarray(xv)), ref, rtol=1e-6)


# what Paddle 3.3.1 does (CPU): a PyLayer D whose backward returns a float32 gradient for its float16 input y,
# y being the output of a PyLayer C. C's backward gets that gradient cast to float16 by default; after
# ctx.set_grad_in_dtype_consistent(False) in C's forward it gets it as float32. The gradient C's backward
# returns is cast to the leaf's dtype here (ours: see the spec's rule that returned gradients take their
# input's dtype; Paddle would store a float16 .grad for a float32 leaf in the mirrored case).
@pytest.mark.parametrize("low", ["float16", "bfloat16"])
@pytest.mark.parametrize("flag", [True, False])
def test_set_grad_in_dtype_consistent_false_keeps_the_incoming_dtype(flag: bool, low: str) -> None:
    seen = []

    class C(paddle.autograd.PyLayer):
        @staticmethod
        def forward(ctx, x):
            ctx.set_grad_in_dtype_consistent(flag)
            return (x * 2).astype(low)

        @staticmethod
        def backward(ctx, dy):
            seen.append((str(dy.dtype).replace("paddle.", ""), dy.numpy().astype(np.float64)))
            return dy.astype("float32") * 2

    class D(paddle.autograd.PyLayer):
        @staticmethod
        def forward(ctx, y):
            return y * 1

        @staticmethod
        def backward(ctx, dy):
            return paddle.cast(dy, "float32") * 1.25  # float32, for a float16/bfloat16 input

    xv = np.array([0.5, 1.0, -2.0], np.float32)
    for _ in range(3):  # the first step and repeated (replayed) ones
        x = paddle.to_tensor(xv, stop_gradient=False)
        D.apply(C.apply(x)).sum().backward()
        dtype, values = seen[-1]
        assert dtype == ("float32" if not flag else low)
        np.testing.assert_allclose(values, np.full(3, 1.25))
        assert x.grad.dtype == paddle.float32
        np.testing.assert_allclose(x.grad.numpy(), np.full(3, 2.5))
        (g,) = paddle.grad(D.apply(C.apply(x)).sum(), [x])
        assert seen[-1][0] == dtype and g.dtype == paddle.float32


def test_set_grad_in_dtype_consistent_misuse() -> None:
    ctx = paddle.autograd.PyLayerContext()
    with pytest.raises(RuntimeError, match="set_grad_in_dtype_consistent can only be called inside forward"):
        ctx.set_grad_in_dtype_consistent(False)
    x = paddle.to_tensor([1.0], stop_gradient=False)
    with pytest.raises(TypeError, match="set_grad_in_dtype_consistent takes a bool, but received int"):
        _Tanh.apply(x, 1)


def test_while_loop_static_with_closures_and_nesting(static_mode) -> None:
    # the gist of Paddle's test_var_tuple, test_var_list and test_nested_net (cond and body read outer Variables)
    main, start = _programs()
    with paddle.static.program_guard(main, start):
        one = paddle.full([1], 1, "int64")
        ten = paddle.full([1], 10, "int64")
        (count,) = paddle.static.nn.while_loop(lambda i: paddle.less_than(i, ten), lambda i: paddle.add(i, one),
                                               (paddle.full([1], 0, "int64"),))
        mem = paddle.static.data(name="mem", shape=[10], dtype="float32")
        ones10 = paddle.full([10], 1.0)
        _, mem_out = paddle.static.nn.while_loop(lambda i, m: paddle.less_than(i, ten),
                                                 lambda i, m: [paddle.increment(i), paddle.add(m, ones10)],
                                                 [paddle.zeros([1], dtype="int64"), mem])
        init = paddle.static.data(name="init", shape=[3, 3], dtype="float32")
        sums = paddle.static.data(name="sums", shape=[3, 3], dtype="float32")
        len1, len2 = paddle.full([1], 2, "int64"), paddle.full([1], 3, "int64")
        ones = paddle.full([3, 3], 1.0)

        def outer_body(i, j, init, sums):
            def inner_body(j, init, sums):
                init = paddle.add(init, ones)
                return [paddle.increment(j), init, paddle.add(init, sums)]

            j, init, sums = paddle.static.nn.while_loop(lambda j, a, b: paddle.less_than(j, len2), inner_body,
                                                        [j, init, sums])
            return [paddle.increment(i), j, init, paddle.add(init, sums)]

        nested = paddle.static.nn.while_loop(lambda i, j, a, b: paddle.less_than(i, len1), outer_body,
                                             [paddle.zeros([1], dtype="int64"), paddle.zeros([1], dtype="int64"),
                                              init, sums])
    rng = np.random.default_rng(0)
    mem_v, init_v = rng.random(10).astype(np.float32), rng.random((3, 3)).astype(np.float32)
    got = paddle.static.Executor().run(main, feed={"mem": mem_v, "init": init_v, "sums": np.zeros((3, 3), np.float32)},
                                       fetch_list=[count, mem_out, nested[3]])
    # the same loops in numpy (the inner loop's j is not reset, so it runs 3 times in the first outer pass only)
    want_sums, a, j = np.zeros((3, 3), np.float32), init_v.copy(), 0
    for _ in range(2):
        while j < 3:
            a, j = a + 1, j + 1
            want_sums = a + want_sums
        want_sums = a + want_sums
    assert got[0].tolist() == [10]
    np.testing.assert_allclose(got[1], mem_v + 10, rtol=1e-6)
    np.testing.assert_allclose(got[2], want_sums, rtol=1e-6)
