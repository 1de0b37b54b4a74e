"""Write checkpoint fixtures with real Paddle and describe what Paddle's load returns.

    /tmp/paddle/bin/python tests/record_paddle_checkpoints.py            # writes tests/data/paddle_ckpt/
    /tmp/paddle/bin/python tests/record_paddle_checkpoints.py --describe [--return-numpy] FILE...

The first form saves small checkpoints with `paddle.save` (layer and optimizer state dicts, a bare
Parameter, nested structures of every dtype, protocols 2/3/4, the binary tensor format) and
records in `expected.json` how `paddle.load` reads each back (structure, types, names, dtypes,
values). The second form prints those descriptions for the files as a JSON list; the tests run it to check
that Paddle reads the files pylayer_jax writes.
"""

from __future__ import annotations

import collections
import json
import os
import sys
import warnings

import numpy as np
import paddle

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.join(HERE, "data", "paddle_ckpt")


def describe(obj):
    """A JSON description of a loaded object (shared in spirit with tests/test_checkpoint.py)."""
    if isinstance(obj, paddle.Tensor):
        arr = obj.numpy()
        dtype = str(obj.dtype).replace("paddle.", "")
        if dtype == "bfloat16":
            arr = (arr.astype(np.uint32) << 16).view(np.float32)  # Paddle's numpy() of bf16 is uint16 bits
        return {"kind": "Tensor", "name": obj.name, "dtype": dtype, "shape": list(obj.shape),
                "stop_gradient": bool(obj.stop_gradient), "values": _values(arr)}
    if isinstance(obj, np.ndarray):
        return {"kind": "ndarray", "dtype": str(obj.dtype), "shape": list(obj.shape), "values": _values(obj)}
    if isinstance(obj, dict):
        kind = "OrderedDict" if type(obj) is collections.OrderedDict else "dict"
        return {"kind": kind, "items": [[_key(k), describe(v)] for k, v in obj.items()]}
    if isinstance(obj, list | tuple):
        return {"kind": type(obj).__name__, "items": [describe(v) for v in obj]}
    if isinstance(obj, set):
        return {"kind": "set", "items": sorted(repr(v) for v in obj)}
    return {"kind": type(obj).__name__, "value": repr(obj)}


def _key(k):
    return k if isinstance(k, str) else repr(k)


def _values(arr):
    arr = np.asarray(arr)
    if arr.dtype.kind == "c":
        return [np.real(arr).reshape(-1).tolist(), np.imag(arr).reshape(-1).tolist()]
    if arr.dtype.kind == "f":
        return [repr(float(v)) for v in arr.reshape(-1)]  # exact, nan/inf safe
    return arr.reshape(-1).tolist()


def _tensor(values, dtype):
    return paddle.to_tensor(np.asarray(values)).astype(dtype)


def record():
    os.makedirs(OUT, exist_ok=True)
    paddle.seed(2024)
    files = {}

    net = paddle.nn.Sequential(paddle.nn.Linear(3, 2), paddle.nn.BatchNorm1D(2))
    files["layer.pdparams"] = (net.state_dict(), {})

    sched = paddle.optimizer.lr.StepDecay(learning_rate=0.1, step_size=2, gamma=0.5)
    opt = paddle.optimizer.Adam(learning_rate=sched, parameters=net.parameters())
    for _ in range(2):
        net(paddle.rand([4, 3])).mean().backward()
        opt.step()
        opt.clear_grad()
        sched.step()
    files["adam.pdopt"] = (opt.state_dict(), {})
    mom = paddle.optimizer.Momentum(learning_rate=0.01, parameters=net.parameters())
    net(paddle.rand([4, 3])).mean().backward()
    mom.step()
    files["momentum.pdopt"] = (mom.state_dict(), {})

    files["weight.pdtensor"] = (net[0].weight, {})
    x = paddle.to_tensor([1.5, -2.0, 3.25])
    x.stop_gradient = False
    y = x * 2  # a non-leaf Tensor
    files["nonleaf.pdtensor"] = (y, {})

    dtypes = ["float32", "float64", "float16", "bfloat16", "int64", "int32", "uint8", "int8", "bool",
              "complex64"]
    vals = [[1.5, -2.25, 0.0], [3.0, 1.0, 0.0]]
    by_dtype = {dt: _tensor(vals, dt) for dt in dtypes}
    files["dtypes.pdparams"] = (by_dtype, {})
    files["dtypes_p2.pdparams"] = (by_dtype, {"protocol": 2})
    files["dtypes_p3.pdparams"] = (by_dtype, {"protocol": 3})

    scalar = paddle.to_tensor(7.0)
    nested = {
        "model": {"w": by_dtype["float32"], "b": by_dtype["int64"]},
        "list": [by_dtype["bfloat16"], 3, 2.5, "text", None, True, (scalar, by_dtype["bool"])],
        "epoch": 4,
        "array": np.arange(4, dtype=np.int32),
    }
    files["nested.pdparams"] = (nested, {})
    files["nested_p2.pdparams"] = (nested, {"protocol": 2})
    files["list.pdtensor"] = ([by_dtype["float64"], [scalar]], {})
    files["ordered.pdparams"] = (collections.OrderedDict([("z", scalar), ("a", by_dtype["float16"])]), {})
    files["numpy_only.pdparams"] = ({"a": np.ones((2, 2), np.float64), "n": 3}, {})
    files["number.pdparams"] = (3.5, {})
    files["binary.pdtensor"] = (by_dtype["float32"], {"use_binary_format": True})
    files["binary_bf16.pdtensor"] = (by_dtype["bfloat16"], {"use_binary_format": True})

    expected = {}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for fname, (obj, kw) in files.items():
            path = os.path.join(OUT, fname)
            paddle.save(obj, path, **kw)
            expected[fname] = {
                "load": describe(paddle.load(path)),
                "load_numpy": describe(paddle.load(path, return_numpy=True)),
            }
            if fname.endswith(".pdparams") or fname.endswith(".pdopt"):
                expected[fname]["keep_name_table"] = describe(paddle.load(path, keep_name_table=True))
    with open(os.path.join(OUT, "expected.json"), "w") as f:
        json.dump({"paddle": paddle.__version__, "files": expected}, f, sort_keys=True, separators=(",", ":"))
        f.write("\n")
    print(f"wrote {len(files)} checkpoints to {OUT}")


if __name__ == "__main__":
    if len(sys.argv) > 2 and sys.argv[1] == "--describe":
        numpy_out = "--return-numpy" in sys.argv
        paths = [a for a in sys.argv[2:] if not a.startswith("--")]
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            print(json.dumps([describe(paddle.load(p, return_numpy=numpy_out)) for p in paths]))
    else:
        record()
