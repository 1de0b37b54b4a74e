"""Cases of Paddle 3.3.1's smaller public names (``paddle.range``, ``positive``, ``ger``, ``tolist``, ``pdist``,
``flops``, the typed Tensor factories, the dtype aliases, ``manual_seed`` / ``Generator``, the autocast queries,
the samplers' laws and edge values, the tensor-array helpers, ``compat_softmax``, ``MmapStorage``,
``enable_compat``, and the ``paddle.device`` / ``paddle.jit`` additions): ``record(paddle)`` runs each with the
library given and returns what it gave (plain JSON values). ``record_paddle_namespace_extras.py`` stores Paddle
3.3.1's into ``tests/data/paddle_namespace_extras.json``; ``test_namespace_extras.py`` compares this package's
with them.

Facts that need a CPU-only machine (making a CUDAPinnedPlace fails there) and errors whose type differs on purpose
are checked in the test file instead."""

from __future__ import annotations

import contextlib
import io
import os
import re
import sys
import tempfile
import warnings
from typing import Any

import numpy as np


def _err(fn: Any) -> Any:
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            fn()
    except Exception as e:  # noqa: BLE001  (the type is what is recorded)
        return {"error": type(e).__name__}
    return {"error": None}


def _t(t: Any) -> dict[str, Any]:
    v = t.numpy()
    if str(t.dtype) == "paddle.bfloat16":
        v = t.astype("float32").numpy()
    return {"dtype": str(t.dtype), "shape": list(t.shape), "values": v.tolist(), "stop_gradient": t.stop_gradient}


def _meta(t: Any) -> dict[str, Any]:
    return {"dtype": str(t.dtype), "shape": list(t.shape), "stop_gradient": t.stop_gradient}


def _quiet(fn: Any) -> Any:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return fn()


def _printed(fn: Any) -> tuple[Any, str]:
    buf = io.StringIO()
    with contextlib.redirect_stdout(buf):
        r = fn()
    # the layer classes print with their module path, which is the library's own
    return r, re.sub(r"<class '[\w.]*\.(\w+)'>", r"<class \1>", buf.getvalue())


def _range_cases(paddle: Any, out: dict[str, Any]) -> None:
    cases = {
        "n": ((5,), {}), "start_end_float_step": ((3, 9, 2.0), {}), "float_end": ((4.999,), {"dtype": "float32"}),
        "tensor_start": ((paddle.to_tensor(3), 7), {}), "fraction_step": ((0, 1, 0.3), {}),
        "int64": ((5,), {"dtype": "int64"}), "int32": ((5,), {"dtype": "int32"}), "down": ((5, 0, -1), {}),
        "float64": ((0.5, 2.5, 0.5), {"dtype": "float64"}), "requires_grad": ((5,), {"requires_grad": True}),
        "int_step3": ((0, 10, 3), {"dtype": "int64"}), "tenths": ((1, 2, 0.1), {}),
        "float_end_int": ((2.5,), {"dtype": "int64"}), "int_short": ((0, -1, 2), {"dtype": "int64"}),
        "float_short": ((0, -1, 2.0), {}), "dtype_obj": ((3,), {"dtype": paddle.float64}),
        "tensor_step": ((0, 2, paddle.to_tensor(0.5)), {}),
    }
    for key, (args, kwargs) in cases.items():
        out[f"range_{key}"] = _t(_quiet(lambda a=args, k=kwargs: paddle.range(*a, **k)))
    out["range_step0"] = _err(lambda: paddle.range(0, 5, 0))
    out["range_wrong_way"] = _err(lambda: paddle.range(5, 0, 1))
    with warnings.catch_warnings(record=True) as got:
        warnings.simplefilter("always")
        paddle.range(2)
    out["range_warns"] = sorted({w.category.__name__ for w in got})
    o = paddle.zeros([3], "int64")
    r = _quiet(lambda: paddle.range(2, out=o))
    out["range_out"] = {"same": r is o, "out": _t(o), "r": _t(r)}


def _factories(paddle: Any, out: dict[str, Any]) -> None:
    out["FloatTensor_empty"] = _t(paddle.FloatTensor())
    out["FloatTensor_list"] = _t(paddle.FloatTensor([1, 2]))
    out["LongTensor_floats"] = _t(paddle.LongTensor([1.5, 2]))
    out["FloatTensor_sizes"] = _meta(paddle.FloatTensor(2, 3))
    out["IntTensor_size"] = _meta(paddle.IntTensor(3))
    out["BoolTensor"] = _t(paddle.BoolTensor([0, 1]))
    out["ByteTensor_tuple"] = _t(paddle.ByteTensor((1, 2)))
    out["FloatTensor_of_tensor"] = _t(paddle.FloatTensor(paddle.to_tensor([1, 2])))
    out["FloatTensor_of_array"] = _t(paddle.FloatTensor(np.array([1, 2])))
    out["HalfTensor"] = _t(paddle.HalfTensor([1.0, 2.5]))
    out["BFloat16Tensor"] = _t(paddle.BFloat16Tensor([1.0, 2.5]))
    out["CharTensor"] = _t(paddle.CharTensor([1, -2]))
    out["ShortTensor"] = _t(paddle.ShortTensor([1, 300]))
    out["DoubleTensor_nested"] = _t(paddle.DoubleTensor([[1, 2], [3, 4]]))
    out["FloatTensor_isinstance"] = isinstance(paddle.to_tensor([1.0]), paddle.FloatTensor)
    out["FloatTensor_bad"] = _err(lambda: paddle.FloatTensor(2, 3.0))
    out["device_factories"] = [getattr(mod, n) is getattr(paddle, n) for mod in (paddle.device, paddle.cuda) for n in (
        "FloatTensor", "DoubleTensor", "HalfTensor", "BFloat16Tensor", "ByteTensor", "CharTensor", "ShortTensor",
        "IntTensor", "LongTensor", "BoolTensor")]


def _dtypes(paddle: Any, out: dict[str, Any]) -> None:
    pairs = {"float": "float32", "double": "float64", "half": "float16", "cfloat": "complex64",
             "cdouble": "complex128"}
    out["dtype_alias_is"] = {a: getattr(paddle, a) is getattr(paddle, b) for a, b in pairs.items()}
    out["dtype_alias_eq"] = {a: getattr(paddle, a) == getattr(paddle, b) for a, b in pairs.items()}
    out["dtype_unsigned_str"] = [str(paddle.uint32), str(paddle.uint64)]
    out["dtype_uint16_not_bf16"] = paddle.uint16 == paddle.bfloat16
    out["dtype_distinct"] = [paddle.uint32 == paddle.int32, paddle.uint64 == paddle.int64,
                             paddle.pstring == paddle.float32, paddle.raw == paddle.float32]
    x = paddle.to_tensor([1.0, 2.5, 7.9])
    for n in ("uint16", "uint32", "uint64"):
        out[f"astype_{n}"] = x.astype(getattr(paddle, n)).numpy().tolist()
    for n in ("uint32", "uint64"):
        out[f"astype_{n}_dtype"] = str(x.astype(getattr(paddle, n)).dtype)
    out["astype_pstring"] = _err(lambda: x.astype(paddle.pstring))
    out["astype_raw"] = _err(lambda: x.astype(paddle.raw))
    out["to_tensor_float"] = _t(paddle.to_tensor([1, 2], dtype=paddle.float))
    out["astype_half"] = _t(x.astype(paddle.half))
    out["astype_cdouble"] = str(x.astype(paddle.cdouble).dtype)


def _small_functions(paddle: Any, out: dict[str, Any]) -> None:
    x = paddle.to_tensor([-1.5, 0.0, 2.5])
    out["positive"] = _t(paddle.positive(x))
    out["positive_is_x"] = paddle.positive(x) is x
    out["positive_int"] = _t(paddle.positive(paddle.to_tensor([-1, 0, 1])))
    out["positive_bool"] = _err(lambda: paddle.positive(paddle.to_tensor([True])))
    out["ger_is_outer"] = paddle.ger is paddle.outer
    out["ger"] = _t(paddle.ger(paddle.to_tensor([1.0, 2.0]), paddle.to_tensor([3.0, 4.0, 5.0])))
    out["ger_flattens"] = _t(paddle.ger(paddle.ones([2, 2]), paddle.to_tensor([1.0, 2.0])))
    out["tolist_int"] = paddle.tolist(paddle.to_tensor([[1, 2], [3, 4]]))
    out["tolist_float"] = paddle.tolist(paddle.to_tensor([1.0, 2.5]))
    out["tolist_0d"] = paddle.tolist(paddle.to_tensor(3.5))
    out["nn_functional_aliases"] = {n: getattr(paddle, n) is getattr(paddle.nn.functional, n) for n in (
        "adaptive_avg_pool1d", "conv1d", "conv2d", "conv3d", "group_norm", "layer_norm", "pdist")}
    out["tensor_paths"] = [paddle.tensor.range is paddle.range, paddle.tensor.creation.range is paddle.range,
                           paddle.tensor.positive is paddle.positive, paddle.tensor.math.positive is paddle.positive,
                           paddle.tensor.binomial is paddle.binomial, paddle.tensor.log_normal is paddle.log_normal,
                           paddle.tensor.random.binomial is paddle.binomial, paddle.tensor.MmapStorage is
                           paddle.MmapStorage]
    out["check_shape"] = [paddle.check_shape(s, "op") for s in (
        [2, 3], [2, 3.5], 3, (2, "a"), paddle.to_tensor([2, 3]), [paddle.to_tensor(2), 3])]
    out["jit_set_code_level"] = [paddle.jit.set_code_level(100), paddle.jit.set_code_level(2, True),
                                 paddle.jit.set_verbosity(1), paddle.jit.set_verbosity(0)]
    out["jit_set_code_level_bad"] = _err(lambda: paddle.jit.set_code_level("a"))
    out["jit_set_verbosity_bad"] = _err(lambda: paddle.jit.set_verbosity(1.5))
    out["device_queries"] = [paddle.device.is_bf16_supported(), paddle.device.is_bf16_supported(False),
                             paddle.device.is_current_stream_capturing()]
    out["device_XPUPlace"] = _err(lambda: paddle.device.XPUPlace(0))
    out["device_IPUPlace"] = _err(lambda: paddle.device.IPUPlace())
    out["XPUPinnedPlace"] = _err(lambda: paddle.XPUPinnedPlace())


def _pdist(paddle: Any, out: dict[str, Any]) -> None:
    a = np.array([[0.0, 1.0, -2.0], [2.0, 3.0, 0.5], [4.0, 6.0, 1.0], [-1.0, 0.5, 2.0]], np.float32)
    for p in (2.0, 1.0, float("inf"), 0.0, 0.5, 3.0):
        x = paddle.to_tensor(a, stop_gradient=False)
        d = paddle.pdist(x, p=p)
        res = _t(d)
        if p >= 1.0:  # (below 1 Paddle's gradients are NaN: it differentiates the zero self-distances too)
            (d * paddle.to_tensor(np.arange(1, 7, dtype=np.float32))).sum().backward()
            res["grad"] = x.grad.numpy().tolist()
        out[f"pdist_p{p}"] = res
    out["pdist_f64"] = _t(paddle.pdist(paddle.to_tensor(a.astype(np.float64)[:3])))
    out["pdist_one_row"] = _t(paddle.pdist(paddle.ones([1, 3])))


def _generator(paddle: Any, out: dict[str, Any]) -> None:
    out["manual_seed_is_seed"] = paddle.manual_seed is paddle.seed
    g = paddle.manual_seed(5)
    out["manual_seed_gives_generator"] = [g is paddle.Generator(), g is paddle.Generator("cpu"),
                                          g is paddle.Generator(paddle.CPUPlace()), g is paddle.Generator(0)]
    out["initial_seed"] = [g.initial_seed(), paddle.manual_seed(7).initial_seed(), paddle.Generator().initial_seed()]
    paddle.manual_seed(3)
    a = paddle.rand([4]).numpy()
    paddle.seed(3)
    b = paddle.rand([4]).numpy()
    g = paddle.Generator()
    g2 = g.manual_seed(3)
    c = paddle.rand([4]).numpy()
    out["manual_seed_repeats"] = [bool((a == b).all()), bool((a == c).all()), g2 is g, g.initial_seed()]
    s = g.seed()
    out["generator_seed"] = [type(s).__name__, g.initial_seed() == s, type(g.random()).__name__]
    out["generator_gpu"] = _err(lambda: paddle.Generator("gpu"))
    out["generator_negative"] = _err(lambda: paddle.Generator().manual_seed(-1))


def _autocast(paddle: Any, out: dict[str, Any]) -> None:
    names = ("autocast", "is_autocast_enabled", "get_autocast_dtype", "get_autocast_cpu_dtype",
             "get_autocast_gpu_dtype")
    out["autocast_aliases"] = [getattr(paddle, n) is getattr(paddle.amp, n) for n in names]
    out["autocast_off"] = [paddle.is_autocast_enabled(), str(paddle.get_autocast_dtype()),
                           str(paddle.get_autocast_cpu_dtype()), str(paddle.get_autocast_gpu_dtype())]
    with paddle.autocast("cpu", dtype="bfloat16"):
        out["autocast_on"] = [paddle.is_autocast_enabled(), paddle.is_autocast_enabled("cpu"),
                              str(paddle.get_autocast_dtype()), str(paddle.get_autocast_cpu_dtype())]


def _samplers(paddle: Any, out: dict[str, Any]) -> None:
    # (few shapes: each new shape of a sampler is compiled anew)
    paddle.seed(11)
    out["binomial_edges"] = _t(paddle.binomial(paddle.to_tensor([10, -1, 7, 6]),
                                               paddle.to_tensor([1.5, 0.5, 0.0, 1.0])))
    out["binomial_meta"] = _meta(paddle.binomial(paddle.to_tensor([10, 5, 3, 2]), paddle.to_tensor([0.3] * 4)))
    out["binomial_float_count"] = _meta(paddle.binomial(paddle.to_tensor([4.0] * 4), paddle.to_tensor([0.5] * 4)))
    out["binomial_meta_f64"] = _meta(paddle.binomial(paddle.to_tensor([[3], [4]], dtype="int32"),
                                                     paddle.to_tensor([0.3, 0.5], dtype="float64")))
    out["binomial_0d"] = _meta(paddle.binomial(paddle.to_tensor(7), paddle.to_tensor(0.5)))
    out["log_normal_meta"] = _meta(paddle.log_normal(0.0, 0.5, [2, 3]))
    out["log_normal_default"] = _meta(paddle.log_normal(shape=[4]))
    out["log_normal_tensor_mean"] = _meta(paddle.log_normal(paddle.to_tensor([0.0, 1.0]), 0.5))
    out["log_normal_f64"] = _meta(paddle.log_normal(paddle.to_tensor([0.0, 1.0], dtype="float64"), 0.5))
    m = paddle.to_tensor([0.0, 1.0, -1.0], stop_gradient=False)
    y = paddle.log_normal(m, 0.7)
    y.sum().backward()
    out["log_normal_grad_is_output"] = [y.stop_gradient, bool(np.allclose(m.grad.numpy(), y.numpy(), rtol=1e-6))]
    out["log_normal_positive"] = bool((paddle.log_normal(0.0, 3.0, [100]).numpy() > 0).all())
    out["standard_gamma_nonpositive"] = _t(paddle.standard_gamma(paddle.to_tensor([-1.0, 0.0])))
    out["standard_gamma_meta"] = _meta(paddle.standard_gamma(paddle.full([2], 2.0)))
    out["standard_gamma_f64"] = _meta(paddle.standard_gamma(paddle.full([2], 0.5, "float64")))
    a = paddle.full([2], 2.0)
    a.stop_gradient = False
    out["standard_gamma_stop_gradient"] = paddle.standard_gamma(a).stop_gradient


def _arrays(paddle: Any, out: dict[str, Any]) -> None:
    pt = paddle.tensor
    arr = pt.create_array("float32")
    out["array_empty"] = [type(arr).__name__, len(arr)]
    r = pt.array_write(paddle.to_tensor([5.0]), paddle.zeros([1], "int64"), arr)
    pt.array_write(paddle.to_tensor([6.0, 7.0]), paddle.to_tensor([1]), arr)
    pt.array_write(paddle.to_tensor([8.0]), paddle.to_tensor([0]), arr)
    out["array_write"] = [r is arr, pt.array_length(arr), [_t(t) for t in arr]]
    out["array_read"] = _t(pt.array_read(arr, paddle.to_tensor([1])))
    out["array_new"] = [len(pt.array_write(paddle.to_tensor([1.0]), paddle.to_tensor([0]))), type(
        pt.array_length([])).__name__]
    out["array_initialized"] = [_t(t) for t in pt.create_array("float32", [paddle.to_tensor([1.0])])]
    out["array_initialized_bad"] = _err(lambda: pt.create_array("float32", paddle.to_tensor([1.0])))
    out["array_path"] = [pt.array.create_array is pt.create_array, pt.array.array_write is pt.array_write]
    sm = pt.compat_softmax.softmax
    x = paddle.to_tensor([[1.0, 2.0, 0.5], [3.0, 4.0, -1.0]])
    out["compat_softmax_dim0"] = _t(sm(x, 0))
    out["compat_softmax_default"] = _t(sm(x))
    out["compat_softmax_1d_default"] = _t(sm(paddle.to_tensor([1.0, 2.0])))
    out["compat_softmax_f64"] = _t(sm(x, dim=1, dtype="float64"))
    out["compat_softmax_axis"] = _err(lambda: sm(x, axis=1))


def _mmap(paddle: Any, out: dict[str, Any]) -> None:
    with tempfile.TemporaryDirectory() as d:
        path = os.path.join(d, "m.bin")
        np.arange(10, dtype=np.float32).tofile(path)
        m = paddle.MmapStorage(path, 40)
        out["mmap_float32"] = _t(m.get_slice(paddle.float32, 0, 10))
        out["mmap_prefix"] = _t(m.get_slice("float32", 0, 3))
        out["mmap_int16"] = _t(m.get_slice("int16", 0, 4))
        out["mmap_short_map"] = _t(paddle.MmapStorage(path, 8).get_slice("float32", 0, 2))
        out["mmap_missing"] = _err(lambda: paddle.MmapStorage(os.path.join(d, "none.bin"), 8))
        out["mmap_too_big"] = _err(lambda: paddle.MmapStorage(path, 100))
        t = m.get_slice("float32", 0, 4)
        t[0] = 100.0
        out["mmap_copy"] = np.fromfile(path, np.float32)[:2].tolist()


def _flops(paddle: Any, out: dict[str, Any]) -> None:
    nn = paddle.nn

    class LeNet(nn.Layer):
        def __init__(self) -> None:
            super().__init__()
            self.features = nn.Sequential(nn.Conv2D(1, 6, 3, stride=1, padding=1), nn.ReLU(), nn.MaxPool2D(2, 2),
                                          nn.Conv2D(6, 16, 5, stride=1, padding=0), nn.LeakyReLU(),
                                          nn.AvgPool2D(2, 2))
            self.fc = nn.Sequential(nn.Linear(400, 120), nn.Dropout(0.5), nn.Linear(120, 84), nn.Linear(84, 10))

        def forward(self, x: Any) -> Any:
            return self.fc(paddle.flatten(self.features(x), 1))

    class Mixed(nn.Layer):
        def __init__(self) -> None:
            super().__init__()
            self.conv = nn.Conv1D(4, 8, 3, groups=2, bias_attr=False)
            self.bn = nn.BatchNorm1D(8)
            self.conv2 = nn.Conv2D(2, 4, 3, padding=1)
            self.bn2 = nn.BatchNorm2D(4)
            self.pool = nn.AdaptiveAvgPool2D(3)
            self.relu6 = nn.ReLU6()
            self.up = nn.Conv2DTranspose(4, 2, 2, stride=2)

        def forward(self, x: Any) -> Any:
            y = self.bn(self.conv(x.reshape([1, 4, -1])))
            z = self.pool(self.bn2(self.conv2(x.reshape([1, 2, 8, 8]))))
            return self.up(self.relu6(z)), y

    def count_leaky(m: Any, x: Any, y: Any) -> None:
        m.total_ops += int(x[0].numel()) * 3

    with paddle.utils.unique_name.guard():
        net = LeNet()
    net.train()
    keys = sorted(net.state_dict())
    n, text = _printed(lambda: paddle.flops(net, [1, 1, 28, 28], print_detail=True))
    out["flops_lenet"] = {"total": n, "printed": text, "training_kept": net.training,
                          "state_kept": sorted(net.state_dict()) == keys}
    with paddle.utils.unique_name.guard():
        net = LeNet()
    n, text = _printed(lambda: paddle.flops(net, [1, 1, 28, 28], custom_ops={nn.LeakyReLU: count_leaky}))
    out["flops_custom"] = {"total": n, "printed": text}
    with paddle.utils.unique_name.guard():
        mixed = Mixed()
    n, text = _printed(lambda: paddle.flops(mixed, [1, 128], print_detail=True))
    out["flops_mixed"] = {"total": n, "printed": text}
    with paddle.utils.unique_name.guard():
        lin = nn.Linear(3, 2)
    out["flops_leaf"] = _printed(lambda: paddle.flops(lin, [1, 3]))[0]
    with warnings.catch_warnings(record=True) as got:
        warnings.simplefilter("always")
        out["flops_not_a_layer"] = [_printed(lambda: paddle.flops("net", [1, 3]))[0],
                                    sorted({w.category.__name__ for w in got})]


def _compat(paddle: Any, out: dict[str, Any]) -> None:
    had = "torch" in sys.modules
    paddle.enable_compat()
    try:
        import torch  # type: ignore[import-not-found]
        import torch.nn.functional as F  # type: ignore[import-not-found]  # noqa: N812

        out["compat_torch"] = [torch is paddle, torch.sin is paddle.sin, F is paddle.nn.functional,
                               F.relu is paddle.nn.functional.relu, type(torch.ones([2])) is paddle.Tensor]
    finally:
        paddle.disable_compat()
    try:
        import torch  # type: ignore[import-not-found]  # noqa: F401,F811

        out["compat_after"] = "imported"
    except ModuleNotFoundError:
        out["compat_after"] = "ModuleNotFoundError"
    out["compat_had_torch"] = had
    with warnings.catch_warnings(record=True) as got:
        warnings.simplefilter("always")
        paddle.disable_compat()
    out["compat_disable_twice"] = [w.category.__name__ for w in got]


def record(paddle: Any) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for part in (_range_cases, _factories, _dtypes, _small_functions, _pdist, _generator, _autocast, _samplers,
                 _arrays, _mmap, _flops, _compat):
        part(paddle, out)
    return out
