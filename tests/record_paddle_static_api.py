"""Record Paddle 3.3.1's static-graph APIs that ``tests/static/test_static_api_*.py`` compare with.

Run with ``/tmp/paddle/bin/python tests/record_paddle_static_api.py``; writes
``tests/data/paddle_static_api.json`` and ``tests/data/paddle_static_vars/`` (files of ``save_vars``).
Paddle runs the Program IR (``FLAGS_enable_pir_api=0``): its default PIR mode rejects the legacy
``paddle.static.nn`` layers (``conv2d`` asserts, ``batch_norm`` raises TypeError on a PIR Value). Only
``case``/``switch_case`` are recorded in PIR mode (a subprocess), since ``cond`` fails in the Program IR
of 3.3.1. ``ExponentialMovingAverage`` fails in both modes there, so it is tested against numpy. The
programs are built by ``tests/static_api_cases.py``, shared with the tests.
"""

import contextlib
import json
import os
import shutil
import subprocess
import sys
import tempfile

PIR = "--pir" in sys.argv  # (the part recorded in Paddle's default PIR mode: case/switch_case)
os.environ["FLAGS_enable_pir_api"] = "1" if PIR else "0"

import numpy as np  # noqa: E402
import paddle  # noqa: E402

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import static_api_cases as cases  # noqa: E402

paddle.enable_static()
HERE = os.path.dirname(os.path.abspath(__file__))
A = cases.arrays()
S = paddle.static


def lists(xs):
    return [np.asarray(v).tolist() for v in xs]


@contextlib.contextmanager
def captured():
    """What the process writes to its stdout (C++ included) inside the block, as ``box[0]``."""
    box = [""]
    sys.stdout.flush()
    fd, path = tempfile.mkstemp()
    saved = os.dup(1)
    os.dup2(fd, 1)
    try:
        yield box
    finally:
        sys.stdout.flush()
        os.dup2(saved, 1)
        os.close(saved)
        os.close(fd)
        with open(path) as f:
            box[0] = f.read()
        os.remove(path)


def layers():
    return {name: cases.run_layer(paddle, A, name) for name in cases.LAYERS}


def training():
    out = {}
    for opt in ("sgd", "adam"):
        main, startup, loss, test, feed = cases.train(paddle, A, opt)
        exe = S.Executor(paddle.CPUPlace())
        scope = S.Scope()
        with S.scope_guard(scope):
            exe.run(startup)
            losses = [float(exe.run(main, feed=feed, fetch_list=[loss])[0]) for _ in range(5)]
            ev = float(exe.run(test, feed=feed, fetch_list=[loss])[0])
            names = [[p.name, list(p.shape), bool(p.trainable)] for p in main.all_parameters()]
            params = {p.name: np.asarray(scope.find_var(p.name).get_tensor()).tolist() for p in main.all_parameters()}
        out[opt] = {"loss": losses, "eval": ev, "names": names, "params": params}
    return out


def branches():
    main, startup, fetch = cases.branches(paddle)
    exe = S.Executor(paddle.CPUPlace())
    exe.run(startup)
    res = []
    for xv, iv in cases.BRANCH_FEEDS:
        got = exe.run(main, feed={"bx": np.array(xv, "float32"), "bi": np.array([iv], "int64")}, fetch_list=fetch)
        res.append(lists(got))
    return res


def metrics():
    main, startup, fetch = cases.metrics(paddle)
    exe = S.Executor(paddle.CPUPlace())
    exe.run(startup)
    res = []
    for k in range(3):
        feed = {"pred": A["pred"], "lab4": A["lab4"], "p2": np.roll(A["p2"], k, axis=0), "lab_auc": A["lab_auc"]}
        res.append(lists(exe.run(main, feed=feed, fetch_list=fetch)))
    return res


def printing():
    main, startup = S.Program(), S.Program()
    with S.program_guard(main, startup):
        x = S.data("px", [2, 3], "float32")
        x.stop_gradient = False
        y = S.Print(x, message="hello", summarize=4)
        z = S.Print(y * 2.0, first_n=1, print_tensor_layout=False, print_tensor_lod=False, print_phase="forward")
        S.Print(S.data("pi", [2, 2], "int64"), print_tensor_name=False, print_tensor_type=False, summarize=-1)
        loss = paddle.mean(z)
        S.append_backward(loss)
    exe = S.Executor(paddle.CPUPlace())
    exe.run(startup)
    texts = []
    for _ in range(2):
        with captured() as box:
            exe.run(main, feed={"px": np.arange(6, dtype="float32").reshape(2, 3),
                                "pi": np.array([[1, -2], [3, 4]], "int64")}, fetch_list=[loss])
        texts.append(box[0])
    return {"runs": texts, "print_out_name": y.name}


def misc():
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
    scopes = [op.attr("op_namescope") for op in main.global_block().ops]
    devices = [op.attr("op_device") for op in main.global_block().ops]
    exe = S.Executor(paddle.CPUPlace())
    exe.run(startup)
    cp = S.CompiledProgram(main, build_strategy=S.BuildStrategy())
    got = lists(exe.run(cp, feed={"x": np.array([1.0, 2.0], "float32")}, fetch_list=[d, g, gp, s]))
    errors = {}
    for what, fn in {"device_bad": lambda: S.device_guard("tpu").__enter__(),
                     "cuda_places": S.cuda_places, "xpu_places": S.xpu_places}.items():
        try:
            fn()
            errors[what] = None
        except Exception as e:  # noqa: BLE001
            errors[what] = type(e).__name__
    bs = S.BuildStrategy()
    return {"scopes": scopes, "devices": devices, "values": got, "persistable": [S.is_persistable(v) for v in
                                                                                 (x, g, gp)],
            "errors": errors, "cpu_places": [str(p) for p in S.cpu_places(2)],
            "build_strategy": {k: repr(getattr(bs, k)) for k in dir(bs) if not k.startswith("_") and k !=
                               "ReduceStrategy"}}


def save_vars_files():
    """save_vars of a small program, per file and combined, and serialize_persistables' bytes."""
    target = os.path.join(HERE, "data", "paddle_static_vars")
    shutil.rmtree(target, ignore_errors=True)
    main, startup = S.Program(), S.Program()
    with paddle.utils.unique_name.guard(), S.program_guard(main, startup):
        x = S.data("v", [None, 6], "float32")
        y = S.nn.fc(x, 3, weight_attr=cases.attr(paddle, A, "fc_w", name="w"),
                    bias_attr=cases.attr(paddle, A, "fc_b", name="b"))
        c = S.create_global_var([2], 7, "int64", persistable=True, name="cnt")
    exe = S.Executor(paddle.CPUPlace())
    exe.run(startup)
    vs = [main.global_block().var("w"), main.global_block().var("b"), c]
    S.save_vars(exe, os.path.join(target, "each"), main, vars=vs)
    S.save_vars(exe, os.path.join(target, "combined"), main, vars=vs, filename="all")
    mem = S.save_vars(exe, None, main, vars=vs)
    ser = S.serialize_persistables([x], [y], exe, program=main)
    out = exe.run(main, feed={"v": A["v"]}, fetch_list=[y])[0]
    return {"memory_hex": mem.hex(), "serialized_hex": ser.hex(), "out": np.asarray(out).tolist()}


if PIR:  # cond is broken in Paddle 3.3.1's Program IR (logical_not rejects its Variables): PIR records these
    json.dump({"branches": branches()}, sys.stdout)
    sys.exit(0)
pir = subprocess.run([sys.executable, os.path.abspath(__file__), "--pir"], capture_output=True, text=True, check=True)
res = {"paddle": paddle.__version__, "layers": layers(), "training": training(),
       "branches": json.loads(pir.stdout.strip().splitlines()[-1])["branches"], "metrics": metrics(),
       "print": printing(), "misc": misc(), "save_vars": save_vars_files()}


def short(v):
    """Floats with 8 significant digits (float32 values stay exact to well below the tests' tolerances)."""
    if isinstance(v, float):
        return float(f"{v:.8g}")
    if isinstance(v, list):
        return [short(e) for e in v]
    if isinstance(v, dict):
        return {k: short(e) for k, e in v.items()}
    return v


with open(os.path.join(HERE, "data", "paddle_static_api.json"), "w") as f:
    json.dump(short(res), f, sort_keys=True, separators=(",", ":"))
print("written", os.path.join(HERE, "data", "paddle_static_api.json"))
