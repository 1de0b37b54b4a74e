"""Record Paddle 3.3.1's ``paddle.inference`` behaviour that tests/inference/test_inference.py follows.

Run with ``/tmp/paddle/bin/python tests/record_paddle_inference.py``; writes ``tests/data/paddle_inference.json``:
the path forms a ``Config`` accepts for a saved prefix (relative to the save directory), the defaults of the
common switches, the enums' members and values, ``get_num_bytes_of_data_type``, the input and output names of a
model with two inputs (no InputSpec names) and a tuple-with-dict output, what the handles report before data is
written, and the exception type of each misuse. (Paddle's files are not read here: only its behaviour is kept.)
"""

import json
import os
import tempfile

import numpy as np
import paddle
import paddle.inference as pi

OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "data", "paddle_inference.json")


def error_type(fn):
    try:
        fn()
    except Exception as e:  # noqa: BLE001 - recording which type Paddle raises
        return type(e).__name__
    return None


class Two(paddle.nn.Layer):
    def __init__(self):
        super().__init__()
        self.emb = paddle.nn.Embedding(10, 3)
        self.fc = paddle.nn.Linear(3, 2)

    def forward(self, ids, scale):
        h = self.emb(ids).mean(1)
        return self.fc(h) * scale, {"h": h}


def config(prefix):
    c = pi.Config(prefix + ".json", prefix + ".pdiparams")
    c.disable_glog_info()
    return c


def main():
    tmp = tempfile.mkdtemp()
    rel = lambda p: os.path.relpath(p, tmp) if p else p  # noqa: E731
    rec = {}
    net = paddle.nn.Sequential(paddle.nn.Linear(4, 3), paddle.nn.ReLU(), paddle.nn.Linear(3, 2))
    prefix = os.path.join(tmp, "net")
    paddle.jit.save(net, prefix, input_spec=[paddle.static.InputSpec([None, 4], "float32", "x")])
    rec["saved_files"] = sorted(os.listdir(tmp))
    forms = {}
    for label, args in {"prog_params": (prefix + ".json", prefix + ".pdiparams"), "dir_prefix": (tmp, "net"),
                        "dir": (tmp,), "empty": ()}.items():
        c = pi.Config(*args)
        forms[label] = [rel(c.model_dir()), rel(c.prog_file()), rel(c.params_file())]
    rec["forms"] = forms
    rec["missing_prog_file"] = error_type(lambda: pi.Config(os.path.join(tmp, "nothere.json"), prefix + ".pdiparams"))
    rec["dir_prefix_missing"] = error_type(lambda: pi.Config(tmp, "nothere"))
    rec["config_int"] = error_type(lambda: pi.Config(3))
    rec["config_dir_predictor"] = error_type(lambda: pi.create_predictor(pi.Config(tmp)))
    c = pi.Config(prefix + ".json", prefix + ".pdiparams")
    rec["defaults"] = {"use_gpu": c.use_gpu(), "ir_optim": c.ir_optim(), "mkldnn_enabled": c.mkldnn_enabled(),
                       "cpu_math_library_num_threads": c.cpu_math_library_num_threads(),
                       "glog_info_disabled": c.glog_info_disabled(), "gpu_device_id": c.gpu_device_id(),
                       "memory_pool_init_size_mb": c.memory_pool_init_size_mb(),
                       "specify_input_name": c.specify_input_name(),
                       "use_feed_fetch_ops_enabled": c.use_feed_fetch_ops_enabled(),
                       "tensorrt_engine_enabled": c.tensorrt_engine_enabled(), "summary_is_str": isinstance(c.summary(), str)}
    s = pi.Config(c)  # (a copy: Paddle 3.3.1 cannot build a predictor with memory_optim and ir_optim off)
    s.switch_ir_optim(False)
    s.set_cpu_math_library_num_threads(3)
    s.disable_mkldnn()
    s.disable_glog_info()
    s.enable_memory_optim()
    rec["after_switches"] = {"ir_optim": s.ir_optim(), "cpu_math_library_num_threads": s.cpu_math_library_num_threads(),
                             "mkldnn_enabled": s.mkldnn_enabled(), "glog_info_disabled": s.glog_info_disabled()}
    rec["copy_keeps_files"] = s.prog_file() == c.prog_file() and s.params_file() == c.params_file()
    rec["copy_is_independent"] = c.ir_optim()
    summary = s.summary()
    rec["summary_rows"] = {k: v for k, v in (
        [x.strip() for x in line.strip("|").split("|")] for line in summary.splitlines() if line.startswith("| "))
        if k in ("cpu_math_thread", "enable_mkldnn", "ir_optim", "memory_optim", "enable_log", "use_gpu")}
    rec["enums"] = {name: {k: int(v) for k, v in getattr(pi, name).__members__.items()}
                    for name in ("DataType", "PlaceType", "PrecisionType")}
    rec["enum_str"] = [str(pi.DataType.FLOAT32), str(pi.PrecisionType.Half), str(pi.PlaceType.GPU)]
    rec["config_precision_is_precision_type"] = pi.Config.Precision is pi.PrecisionType
    rec["num_bytes"] = {k: pi.get_num_bytes_of_data_type(v) for k, v in pi.DataType.__members__.items()}
    rec["trt_versions"] = [list(pi.get_trt_compile_version()), list(pi.get_trt_runtime_version())]
    rec["version_lines"] = [line.split(":")[0] for line in pi.get_version().strip().splitlines()]

    c.disable_glog_info()
    pred = pi.create_predictor(c)
    rec["config_reuse"] = error_type(lambda: pi.create_predictor(c))
    ih = pred.get_input_handle("x")
    oh = pred.get_output_handle("fetch_name_0")
    rec["names"] = [pred.get_input_names(), pred.get_output_names()]
    rec["before"] = {"in_shape": ih.shape(), "in_type": ih.type().name, "out_shape": oh.shape(),
                     "out_type": oh.type().name, "lod": ih.lod()}
    rec["errors"] = {
        "in_copy_to_cpu_before": error_type(ih.copy_to_cpu),
        "out_copy_to_cpu_before": error_type(oh.copy_to_cpu),
        "unknown_input": error_type(lambda: pred.get_input_handle("nope")),
        "unknown_output": error_type(lambda: pred.get_output_handle("nope")),
        "input_handle_int": error_type(lambda: pred.get_input_handle(0)),
        "run_before_copy": error_type(pred.run),
        "copy_list": error_type(lambda: ih.copy_from_cpu([[1.0, 2.0, 3.0, 4.0]])),
        "share_numpy": error_type(lambda: ih.share_external_data(np.ones((2, 4), "float32"))),
    }
    ih.copy_from_cpu(np.ones((2, 4), "float64"))
    rec["errors"]["run_float64"] = error_type(pred.run)
    rec["type_after_float64"] = ih.type().name
    ih.copy_from_cpu(np.ones((2, 3), "float32"))
    rec["errors"]["run_wrong_shape"] = error_type(pred.run)
    ih.copy_from_cpu(np.ones((2, 2, 4), "float32"))
    rec["errors"]["run_wrong_rank"] = error_type(pred.run)
    rec["widened"] = {}
    for dt in ("int16", "uint16", "int8", "uint8", "bool", "float16"):
        ih.copy_from_cpu(np.ones((2, 4), dt))
        rec["widened"][dt] = ih.type().name
    rec["errors"]["copy_complex"] = error_type(lambda: ih.copy_from_cpu(np.ones((2, 4), "complex64")))
    x = np.linspace(-1, 1, 8, dtype="float32").reshape(2, 4)
    ih.copy_from_cpu(x)
    rec["run_returns"] = repr(pred.run())
    rec["after"] = {"in_shape": ih.shape(), "out_shape": oh.shape(), "out_type": oh.type().name}
    rec["errors"]["run_list_numpy"] = error_type(lambda: pred.run([x]))
    rec["errors"]["run_list_count"] = error_type(lambda: pred.run([paddle.to_tensor(x), paddle.to_tensor(x)]))
    rec["errors"]["run_list_float64"] = error_type(lambda: pred.run([paddle.to_tensor(x.astype("float64"))]))
    out = pred.run([paddle.to_tensor(x)])
    rec["run_list"] = {"type": type(out).__name__, "item": type(out[0]).__name__,
                       "stop_gradient": out[0].stop_gradient,
                       "same_as_handle": bool(np.array_equal(out[0].numpy(), oh.copy_to_cpu()))}
    rec["handles_distinct_objects"] = pred.get_input_handle("x") is not pred.get_input_handle("x")
    clone = pred.clone()
    rec["clone"] = {"names": [clone.get_input_names(), clone.get_output_names()],
                    "in_shape": clone.get_input_handle("x").shape(),
                    "run_before_copy": error_type(clone.run)}
    rec["try_shrink_memory"] = pred.try_shrink_memory()

    two = Two()
    two.eval()
    p2 = os.path.join(tmp, "two")
    paddle.jit.save(two, p2, input_spec=[paddle.static.InputSpec([None, 5], "int64"),
                                         paddle.static.InputSpec([1], "float32")])
    pred2 = pi.create_predictor(config(p2))
    rec["two_names"] = [pred2.get_input_names(), pred2.get_output_names()]
    rec["two_in_types"] = [pred2.get_input_handle(n).type().name for n in pred2.get_input_names()]

    paddle.enable_static()
    xv = paddle.static.data("xin", [None, 4], "float32")
    y = paddle.static.nn.fc(xv, 3)
    z = paddle.nn.functional.relu(y)
    exe = paddle.static.Executor(paddle.CPUPlace())
    exe.run(paddle.static.default_startup_program())
    paddle.static.save_inference_model(os.path.join(tmp, "st"), [xv], [y, z], exe)
    paddle.disable_static()
    pred3 = pi.create_predictor(config(os.path.join(tmp, "st")))
    rec["static_names"] = [pred3.get_input_names(), pred3.get_output_names()]

    out = {"paddle": paddle.__version__, **rec}
    with open(OUT, "w") as f:
        json.dump(out, f, indent=1, sort_keys=True)
    print(f"{len(rec)} entries -> {OUT}")


if __name__ == "__main__":
    main()
