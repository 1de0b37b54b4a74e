"""``paddle.inference``: a model saved by ``paddle.jit.save`` (or ``static.save_inference_model``) run by a predictor.

Oracles: the eager model's outputs (the predictor must give the same numbers for any batch size of a dynamic
InputSpec), and Paddle 3.3.1's behaviour recorded in ``tests/data/paddle_inference.json`` by
``tests/record_paddle_inference.py`` (path forms, defaults, enums, names, what handles report, the exception type
of each misuse).
"""

from __future__ import annotations

import json
import os
import pathlib

import numpy as np
import pytest

import pylayer_jax as paddle
from pylayer_jax import inference as pi
from pylayer_jax._runtime import device as _device

PADDLE = json.loads((pathlib.Path(__file__).resolve().parents[1] / "data" / "paddle_inference.json").read_text())
ERR = PADDLE["errors"]
EXC = {"ValueError": ValueError, "TypeError": TypeError, "RuntimeError": RuntimeError}
HAS_GPU = bool(_device.gpus())
# the predictor runs on the CPU by default (as Paddle's Config); on a GPU host the eager model runs on the GPU, whose
# float32 matmuls may round through TF32
TOL = {"rtol": 5e-3, "atol": 5e-3} if HAS_GPU else {"rtol": 1e-6, "atol": 1e-6}
IS = paddle.static.InputSpec


class Two(paddle.nn.Layer):
    def __init__(self):
        super().__init__()
        self.emb = paddle.nn.Embedding(10, 3)
        self.fc = paddle.nn.Linear(3, 2)

    def forward(self, ids, scale):
        h = self.emb(ids).mean(1)
        return self.fc(h) * scale, {"h": h}


@pytest.fixture(scope="module")
def saved(tmp_path_factory):
    d = tmp_path_factory.mktemp("infer")
    paddle.seed(3)
    net = paddle.nn.Sequential(paddle.nn.Linear(4, 8), paddle.nn.Tanh(), paddle.nn.Linear(8, 2))
    net.eval()
    paddle.jit.save(net, str(d / "net"), input_spec=[IS([None, 4], "float32", "x")])
    two = Two()
    two.eval()
    paddle.jit.save(two, str(d / "two"), input_spec=[IS([None, 5], "int64"), IS([1], "float32")])
    return d, net, two


def _pred(prefix):
    return pi.create_predictor(pi.Config(str(prefix) + ".json", str(prefix) + ".pdiparams"))


# ---- results against the eager model ---------------------------------------------------------------------
@pytest.mark.parametrize("batch", [1, 5])
def test_predictor_matches_the_eager_model_for_any_batch(saved, batch):
    d, net, _ = saved
    pred = _pred(d / "net")
    assert pred.get_input_names() == PADDLE["names"][0] and pred.get_output_names() == PADDLE["names"][1]
    x = np.random.default_rng(batch).standard_normal((batch, 4)).astype("float32")
    h = pred.get_input_handle("x")
    h.reshape([batch, 4])
    h.copy_from_cpu(x)
    assert pred.run() is None and repr(None) == PADDLE["run_returns"]
    out = pred.get_output_handle("fetch_name_0")
    np.testing.assert_allclose(out.copy_to_cpu(), net(paddle.to_tensor(x)).numpy(), **TOL)
    assert out.shape() == [batch, 2] and out.type() == pi.DataType.FLOAT32 and h.shape() == [batch, 4]


def test_run_with_a_list_of_tensors_returns_tensors_and_fills_the_handles(saved):
    d, net, _ = saved
    pred = _pred(d / "net")
    x = np.linspace(-1, 1, 12, dtype="float32").reshape(3, 4)
    outs = pred.run([paddle.to_tensor(x)])
    assert type(outs).__name__ == PADDLE["run_list"]["type"] and isinstance(outs[0], paddle.Tensor)
    assert outs[0].stop_gradient is PADDLE["run_list"]["stop_gradient"]
    np.testing.assert_allclose(outs[0].numpy(), net(paddle.to_tensor(x)).numpy(), **TOL)
    assert np.array_equal(pred.get_output_handle("fetch_name_0").copy_to_cpu(), outs[0].numpy()) \
        is PADDLE["run_list"]["same_as_handle"]


def test_two_inputs_named_after_the_forward_with_int_ids_and_a_dict_output(saved):
    d, _, two = saved
    pred = _pred(d / "two")
    assert [pred.get_input_names(), pred.get_output_names()] == PADDLE["two_names"]
    assert [pred.get_input_handle(n).type().name for n in pred.get_input_names()] == PADDLE["two_in_types"]
    ids = np.array([[1, 2, 3, 4, 5], [0, 9, 8, 7, 6], [3, 3, 3, 3, 3]], "int64")
    pred.get_input_handle("ids").copy_from_cpu(ids)
    pred.get_input_handle("scale").copy_from_cpu(np.array([2.0], "float32"))
    assert pred.get_input_handle("ids").type() == pi.DataType.INT64
    pred.run()
    y, extra = two(paddle.to_tensor(ids), paddle.to_tensor([2.0]))
    got = [pred.get_output_handle(n).copy_to_cpu() for n in pred.get_output_names()]
    np.testing.assert_allclose(got[0], y.numpy(), **TOL)
    np.testing.assert_allclose(got[1], extra["h"].numpy(), **TOL)


def test_a_static_inference_model_runs_with_its_feed_names(tmp_path):
    paddle.enable_static()
    try:
        main, start = paddle.static.Program(), paddle.static.Program()
        with paddle.static.program_guard(main, start):
            x = paddle.static.data("xin", [None, 4], "float32")
            y = paddle.static.nn.fc(x, 3)
            z = paddle.nn.functional.relu(y)
        exe = paddle.static.Executor(paddle.CPUPlace())
        exe.run(start)
        xv = np.linspace(-2, 2, 8, dtype="float32").reshape(2, 4)
        want = exe.run(main, feed={"xin": xv}, fetch_list=[y, z])
        paddle.static.save_inference_model(str(tmp_path / "st"), [x], [y, z], exe, program=main)
    finally:
        paddle.disable_static()
    pred = _pred(tmp_path / "st")
    assert [pred.get_input_names(), pred.get_output_names()] == PADDLE["static_names"]
    pred.get_input_handle("xin").copy_from_cpu(xv)
    pred.run()
    for n, w in zip(pred.get_output_names(), want):
        np.testing.assert_allclose(pred.get_output_handle(n).copy_to_cpu(), w, **TOL)


def test_share_external_data_clone_and_pool(saved):
    d, net, _ = saved
    pred = _pred(d / "net")
    x = paddle.to_tensor(np.full((2, 4), 0.5, "float32"))
    pred.get_input_handle("x").share_external_data(x)
    pred.run()
    want = net(x).numpy()
    np.testing.assert_allclose(pred.get_output_handle("fetch_name_0").copy_to_cpu(), want, **TOL)
    assert (pred.get_input_handle("x") is not pred.get_input_handle("x")) is PADDLE["handles_distinct_objects"]
    clone = pred.clone()
    assert [clone.get_input_names(), clone.get_output_names()] == PADDLE["clone"]["names"]
    assert clone.get_input_handle("x").shape() == PADDLE["clone"]["in_shape"]  # a clone's handles start empty
    with pytest.raises(EXC[PADDLE["clone"]["run_before_copy"]], match=r"input 'x' holds no data"):
        clone.run()
    pool = pi.PredictorPool(pi.Config(str(d / "net.json"), str(d / "net.pdiparams")), 2)
    p1 = pool.retrieve(1)
    out = p1.run([x])[0].numpy()
    np.testing.assert_allclose(out, want, **TOL)
    with pytest.raises(IndexError, match=r"retrieve: idx must be in \[0, 2\), but received 2"):
        pool.retrieve(2)
    assert pred.try_shrink_memory() == PADDLE["try_shrink_memory"] and pred.clear_intermediate_tensor() is None


def test_copy_to_cpu_is_a_copy_and_reshape_keeps_or_drops_the_data(saved):
    d, _, _ = saved
    pred = _pred(d / "net")
    h = pred.get_input_handle("x")
    x = np.arange(8, dtype="float32").reshape(2, 4)
    h.copy_from_cpu(x)
    x[0, 0] = 99  # the handle holds a copy
    got = h.copy_to_cpu()
    got[0, 1] = 77
    np.testing.assert_array_equal(h.copy_to_cpu(), np.arange(8, dtype="float32").reshape(2, 4))
    h.reshape([4, 2])  # same element count: the values stay
    np.testing.assert_array_equal(h.copy_to_cpu(), np.arange(8, dtype="float32").reshape(4, 2))
    h.reshape([3, 4])  # another count: the data must be written again
    assert h.shape() == [3, 4]
    with pytest.raises(RuntimeError, match=r"copy_to_cpu \(input 'x'\): the Tensor holds no data"):
        h.copy_to_cpu()
    with pytest.raises(ValueError, match=r"Predictor.run: input 'x' holds no data"):
        pred.run()
    with pytest.raises(ValueError, match=r"reshape \(input 'x'\): every size must be >= 0.*received \[-1, 4\]"):
        h.reshape([-1, 4])
    with pytest.raises(TypeError, match=r"reshape \(input 'x'\): shape must be a list of ints, but received 3"):
        h.reshape(3)


# ---- Paddle's behaviour -----------------------------------------------------------------------------------
def test_config_path_forms(saved):
    d, _, _ = saved
    rel = {}
    for label, args in {"prog_params": (str(d / "net.json"), str(d / "net.pdiparams")), "dir_prefix": (str(d), "net"),
                        "dir": (str(d),), "empty": ()}.items():
        c = pi.Config(*args)
        rel[label] = [os.path.relpath(p, d) if p else p for p in (c.model_dir(), c.prog_file(), c.params_file())]
    assert rel == PADDLE["forms"]
    # the .pdmodel of the same prefix names the same model here (the StableHLO file)
    pred = pi.create_predictor(pi.Config(str(d / "net.pdmodel"), str(d / "net.pdiparams")))
    assert pred.get_input_names() == ["x"]
    pred2 = pi.create_predictor(pi.Config(str(d), "net"))
    assert pred2.get_output_names() == ["fetch_name_0"]
    c = pi.Config()
    c.set_model(str(d / "net.json"), str(d / "net.pdiparams"))
    assert pi.create_predictor(c).get_input_names() == ["x"]
    c = pi.Config()
    c.set_prog_file(str(d / "two.json"))
    c.set_params_file(str(d / "two.pdiparams"))
    assert pi.create_predictor(c).get_input_names() == PADDLE["two_names"][0]


def test_config_path_errors(saved):
    d, _, _ = saved
    with pytest.raises(EXC[PADDLE["missing_prog_file"]], match=r"Config: the program file '.*nothere.json' does not "
                                                                r"exist"):
        pi.Config(str(d / "nothere.json"), str(d / "net.pdiparams"))
    with pytest.raises(EXC[PADDLE["dir_prefix_missing"]], match=r"program file '.*nothere.json' does not exist"):
        pi.Config(str(d), "nothere")
    with pytest.raises(EXC[PADDLE["config_int"]], match=r"Config: model_dir must be a str path, but received int"):
        pi.Config(3)
    with pytest.raises(EXC[PADDLE["config_dir_predictor"]], match=r"Config\(model_dir\) reads a model saved as "
                                                                   r"separate files.*__model__"):
        pi.create_predictor(pi.Config(str(d)))
    with pytest.raises(ValueError, match=r"create_predictor: the config names no model"):
        pi.create_predictor(pi.Config())
    with pytest.raises(RuntimeError, match=r"create_predictor: the parameter file '.*none.pdiparams' does not exist"):
        pi.create_predictor(pi.Config(str(d / "net.json"), str(d / "none.pdiparams")))
    (d / "odd.txt").write_text("x")
    with pytest.raises(ValueError, match=r"the program file '.*odd.txt' must end in '.json' or '.pdmodel'"):
        pi.create_predictor(pi.Config(str(d / "odd.txt"), str(d / "net.pdiparams")))
    c = pi.Config(str(d / "net.json"), str(d / "net.pdiparams"))
    pi.create_predictor(c)
    with pytest.raises(EXC[PADDLE["config_reuse"]], match=r"Each config can only be used for one predictor"):
        pi.create_predictor(c)
    assert pi.create_predictor(pi.Config(c)).get_input_names() == ["x"]  # a copy is a new config


def test_config_defaults_switches_and_summary(saved):
    d, _, _ = saved
    c = pi.Config(str(d / "net.json"), str(d / "net.pdiparams"))
    defaults = {k: getattr(c, k)() for k in PADDLE["defaults"] if k != "summary_is_str"}
    assert defaults == {k: v for k, v in PADDLE["defaults"].items() if k != "summary_is_str"}
    assert isinstance(c.summary(), str) is PADDLE["defaults"]["summary_is_str"]
    s = pi.Config(c)
    s.switch_ir_optim(False)
    s.set_cpu_math_library_num_threads(3)
    s.disable_mkldnn()
    s.disable_glog_info()
    s.enable_memory_optim()
    assert {k: getattr(s, k)() for k in PADDLE["after_switches"]} == PADDLE["after_switches"]
    assert (s.prog_file() == c.prog_file() and s.params_file() == c.params_file()) is PADDLE["copy_keeps_files"]
    assert c.ir_optim() is PADDLE["copy_is_independent"]
    rows = {k: v for k, v in ([x.strip() for x in line.strip("|").split("|")]
                              for line in s.summary().splitlines() if line.startswith("| "))}
    assert {k: rows[k] for k in PADDLE["summary_rows"]} == PADDLE["summary_rows"]
    assert rows["model_file"] == str(d / "net.json")
    # the switches change nothing the predictor computes
    x = np.ones((2, 4), "float32")
    want = _pred(d / "net").run([paddle.to_tensor(x)])[0].numpy()
    np.testing.assert_array_equal(pi.create_predictor(s).run([paddle.to_tensor(x)])[0].numpy(), want)
    with pytest.raises(TypeError, match=r"set_cpu_math_library_num_threads: the thread count must be an int"):
        s.set_cpu_math_library_num_threads(2.5)
    with pytest.raises(TypeError, match=r"Config.switch_ir_optim: the switch must be a bool, but received str"):
        s.switch_ir_optim("no")


def test_gpu_switch_and_engines_that_would_change_results(saved):
    d, _, _ = saved
    c = pi.Config(str(d / "net.json"), str(d / "net.pdiparams"))
    if HAS_GPU:
        c.enable_use_gpu(256, 0)
        assert c.use_gpu() and c.memory_pool_init_size_mb() == 256
        with pytest.raises(NotImplementedError, match=r"precision_mode=Half is not supported"):
            c.enable_use_gpu(100, 0, pi.PrecisionType.Half)
    else:  # as Paddle's CPU build: a logged error, the predictor stays on the CPU
        with pytest.warns(UserWarning, match=r"enable_use_gpu: JAX sees no GPU here.*use_gpu\(\) stays False"):
            c.enable_use_gpu(256, 0, pi.PrecisionType.Half)
        assert c.use_gpu() is PADDLE["defaults"]["use_gpu"]
    x = np.ones((2, 4), "float32")
    want = _pred(d / "net").run([paddle.to_tensor(x)])[0].numpy()
    np.testing.assert_allclose(pi.create_predictor(c).run([paddle.to_tensor(x)])[0].numpy(), want, **TOL)
    c.disable_gpu()
    assert c.use_gpu() is False
    for call in (lambda: c.enable_tensorrt_engine(1 << 30, 1), c.enable_onnxruntime, c.enable_mkldnn_bfloat16,
                 lambda: c.enable_xpu(), lambda: c.enable_mkldnn_int8()):
        with pytest.raises(NotImplementedError, match=r"Config\.enable_\w+.*not"):
            call()
    assert c.tensorrt_engine_enabled() is PADDLE["defaults"]["tensorrt_engine_enabled"]
    with pytest.raises(NotImplementedError, match=r"convert_to_mixed_precision: converting .*Half.*not supported"):
        pi.convert_to_mixed_precision(str(d / "net.json"), str(d / "net.pdiparams"), str(d / "h.json"),
                                      str(d / "h.pdiparams"), pi.PrecisionType.Half, pi.PlaceType.GPU)


def test_enums_versions_and_byte_sizes():
    for name, members in PADDLE["enums"].items():
        assert {k: int(v) for k, v in getattr(pi, name).__members__.items()} == members
    assert [str(pi.DataType.FLOAT32), str(pi.PrecisionType.Half), str(pi.PlaceType.GPU)] == PADDLE["enum_str"]
    assert (pi.Config.Precision is pi.PrecisionType) is PADDLE["config_precision_is_precision_type"]
    assert {k: pi.get_num_bytes_of_data_type(v) for k, v in pi.DataType.__members__.items()} == PADDLE["num_bytes"]
    assert [list(pi.get_trt_compile_version()), list(pi.get_trt_runtime_version())] == PADDLE["trt_versions"]
    lines = pi.get_version().strip().splitlines()
    assert [ln.split(":")[0] for ln in lines] == PADDLE["version_lines"]
    assert lines[0] == f"version: {paddle.__version__}"
    with pytest.raises(TypeError, match=r"get_num_bytes_of_data_type: dtype must be a paddle.inference.DataType"):
        pi.get_num_bytes_of_data_type(42)


def test_handles_before_data_and_dtype_conversions(saved):
    d, _, _ = saved
    pred = _pred(d / "net")
    ih, oh = pred.get_input_handle("x"), pred.get_output_handle("fetch_name_0")
    before = PADDLE["before"]
    assert [ih.shape(), ih.type().name, oh.shape(), oh.type().name, ih.lod()] == [
        before["in_shape"], before["in_type"], before["out_shape"], before["out_type"], before["lod"]]
    assert ih.name() == "x" and oh.name() == "fetch_name_0"
    for dt, want in PADDLE["widened"].items():
        ih.copy_from_cpu(np.ones((2, 4), dt))
        assert ih.type().name == want, dt
    ih.copy_from_cpu(np.ones((2, 4), "float64"))
    assert ih.type().name == PADDLE["type_after_float64"]
    ih.copy_from_cpu(np.ones((2, 4), "float32"))
    pred.run()
    after = PADDLE["after"]
    assert [ih.shape(), oh.shape(), oh.type().name] == [after["in_shape"], after["out_shape"], after["out_type"]]
    ih.set_lod([])
    with pytest.raises(NotImplementedError, match=r"set_lod \(input 'x'\): LoD .*not supported"):
        ih.set_lod([[0, 1, 2]])


def test_misuse_raises_what_paddle_raises(saved):
    d, _, _ = saved
    pred = _pred(d / "net")
    ih, oh = pred.get_input_handle("x"), pred.get_output_handle("fetch_name_0")
    cases = [
        ("in_copy_to_cpu_before", ih.copy_to_cpu, r"copy_to_cpu \(input 'x'\): the Tensor holds no data: it was "
                                                  r"never filled"),
        ("out_copy_to_cpu_before", oh.copy_to_cpu, r"copy_to_cpu \(output 'fetch_name_0'\).*has not run yet"),
        ("unknown_input", lambda: pred.get_input_handle("nope"), r"get_input_handle: the model has no input named "
                                                                 r"'nope'.*its inputs are \['x'\]"),
        ("unknown_output", lambda: pred.get_output_handle("nope"), r"get_output_handle: the model has no output "
                                                                   r"named 'nope'"),
        ("input_handle_int", lambda: pred.get_input_handle(0), r"get_input_handle: the name must be a str, but "
                                                               r"received int"),
        ("run_before_copy", pred.run, r"Predictor.run: input 'x' holds no data; fill it with "
                                      r"predictor.get_input_handle\('x'\).copy_from_cpu"),
        ("copy_list", lambda: ih.copy_from_cpu([[1.0, 2.0, 3.0, 4.0]]), r"we only support numpy ndarray.*received "
                                                                         r"list"),
        ("share_numpy", lambda: ih.share_external_data(np.ones((2, 4), "float32")), r"share_external_data \(input "
                                                                                    r"'x'\): In share_external_data, "
                                                                                    r"we only support Tensor"),
        ("copy_complex", lambda: ih.copy_from_cpu(np.ones((2, 4), "complex64")), r"dtype complex64 are not "
                                                                                 r"supported"),
    ]
    for key, call, match in cases:
        with pytest.raises(EXC[ERR[key]], match=match):
            call()
    for key, arr, match in [
        ("run_float64", np.ones((2, 4), "float64"), r"input 'x' holds float64 data, but the model takes float32; "
                                                    r"cast the array"),
        ("run_wrong_shape", np.ones((2, 3), "float32"), r"input 'x' holds shape \[2, 3\], but the model takes "
                                                        r"shape \[-1, 4\]"),
        ("run_wrong_rank", np.ones((2, 2, 4), "float32"), r"input 'x' holds shape \[2, 2, 4\]"),
    ]:
        ih.copy_from_cpu(arr)
        with pytest.raises(EXC[ERR[key]], match=match):
            pred.run()
    x = np.ones((2, 4), "float32")
    with pytest.raises(EXC[ERR["run_list_numpy"]], match=r"run: inputs must be a list of paddle Tensors, but "
                                                         r"received \['ndarray'\]"):
        pred.run([x])
    with pytest.raises(EXC[ERR["run_list_count"]], match=r"wrong feed input size, need 1 \(\['x'\]\) but get 2"):
        pred.run([paddle.to_tensor(x), paddle.to_tensor(x)])
    with pytest.raises(EXC[ERR["run_list_float64"]], match=r"input 'x' holds float64 data"):
        pred.run([paddle.to_tensor(x.astype("float64"))])
    with pytest.raises(RuntimeError, match=r"copy_from_cpu \(output 'fetch_name_0'\): this handle is an output"):
        oh.copy_from_cpu(x)
    with pytest.raises(NotImplementedError, match=r"register_input_hook: per-operator hooks are not supported"):
        pred.register_input_hook(print)
    with pytest.raises(TypeError, match=r"create_predictor: config must be a paddle.inference.Config, but received "
                                        r"str"):
        pi.create_predictor("net.json")


def test_lazy_import_path():
    import pylayer_jax.inference as mod

    assert paddle.inference is mod and "inference" in dir(paddle)
    assert pi.Tensor.__name__ == "Tensor" and pi.DataType is pi.DataType.FLOAT32.__class__
