"""Record real Paddle 3.3.1's answers for ``tests/test_leftovers_q.py`` (run with Paddle's interpreter:
``/tmp/paddle/bin/python tests/record_paddle_leftovers_q.py``). Writes ``tests/data/paddle_leftovers_q.json`` and
``tests/data/paddle_leftovers_q_lstm.pdparams`` (a state dict ``paddle.save`` wrote, of the recorded LSTM).

What is recorded:
- float -> integer casts of values out of the target's range (and NaN, +-inf), from float32 and float64, by
  ``x.astype``, ``paddle.cast`` and ``paddle.to_tensor(ndarray, dtype=...)``; int64 -> narrower integers;
- ``Tensor.set_value`` with a value of another dtype, shape or type (what it raises);
- two dygraph parameters of one explicit ``ParamAttr(name=...)`` (what it raises, and under ``unique_name.guard``);
- ``nn.LSTM``/``GRU``/``SimpleRNN`` state-dict keys and buffers; an LSTM's saved state dict and its outputs;
- ``optimizer.LBFGS``'s state dict after two steps.
"""

from __future__ import annotations

import json
import os

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))

CAST_VALUES = [300.0, -1.0, -300.0, 255.9, 256.0, 3e9, -3e9, 1e20, -1e20, float("nan"), float("inf"), float("-inf"),
               2147483648.0, -2147483649.0, 9.3e18, -9.3e18, 1e30, 128.0, -129.0, 40000.0, -40000.0, 65536.0,
               70000.5, -0.7, 0.9, 2147483520.0]
HALF_VALUES = [300.0, -1.0, float("inf"), float("-inf"), float("nan"), 60000.0, -60000.0, 2.5, -2.5]
INT_VALUES = [300, -1, -129, 128, 2 ** 40 + 5, -(2 ** 40) - 7, 2 ** 31, -(2 ** 31) - 1, 65537]
INT_TARGETS = ["int8", "int16", "int32", "int64", "uint8", "bool"]


def _err(f):
    try:
        f()
    except Exception as e:  # noqa: BLE001 (the recorded answer is the exception's type)
        return type(e).__name__
    return None


def casts(paddle):
    out = {}
    for src in ("float32", "float64"):
        for dt in INT_TARGETS:
            x = paddle.to_tensor(np.array(CAST_VALUES, dtype=src))
            a = x.astype(dt).numpy().tolist()
            assert a == paddle.cast(x, dt).numpy().tolist()
            out[f"{src}->{dt}"] = a
    for src in ("float16", "bfloat16"):
        x = paddle.to_tensor(np.array(HALF_VALUES, dtype="float32")).astype(src)
        for dt in INT_TARGETS:
            out[f"{src}->{dt}"] = x.astype(dt).numpy().tolist()
    out["to_tensor_uint8"] = paddle.to_tensor(np.array(CAST_VALUES), dtype="uint8").numpy().tolist()
    out["to_tensor_int32"] = paddle.to_tensor(np.array(CAST_VALUES), dtype="int32").numpy().tolist()
    for dt in ("int8", "int16", "int32", "uint8"):
        out[f"int64->{dt}"] = paddle.to_tensor(np.array(INT_VALUES, dtype="int64")).astype(dt).numpy().tolist()
    return out


def _same(paddle):
    t = paddle.ones([2, 3])
    r = t.set_value(np.full([2, 3], 1.5, dtype="float32"))
    return {"returns_none": r is None, "value": t.numpy().tolist()}


def set_value(paddle):
    def tv(value, dtype="float32"):
        return lambda: paddle.ones([2, 3], dtype=dtype).set_value(value)

    return {
        "f64_array": _err(tv(np.full([2, 3], 1.5))),
        "int_array": _err(tv(np.full([2, 3], 5, dtype="int64"))),
        "float_into_int": _err(tv(np.full([2, 3], 2.5, dtype="float32"), "int32")),
        "f64_tensor": _err(tv(paddle.full([2, 3], 1.5, dtype="float64"))),
        "shape_array": _err(tv(np.ones([3, 2], dtype="float32"))),
        "shape_broadcast": _err(tv(np.ones([1, 3], dtype="float32"))),
        "shape_tensor": _err(tv(paddle.ones([3, 2]))),
        "scalar": _err(tv(2.0)),
        "list": _err(tv([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]])),
        "np_scalar": _err(lambda: paddle.ones([], dtype="float64").set_value(np.float64(2.0))),
        "zero_d_array": _err(lambda: paddle.ones([], dtype="float64").set_value(np.array(2.0))),
        "parameter_f64": _err(lambda: paddle.create_parameter([2, 3], "float32").set_value(np.full([2, 3], 1.5))),
        "same": _same(paddle),
    }


def same_param_name(paddle):
    out = {}
    with paddle.utils.unique_name.guard():
        paddle.nn.Linear(2, 2, weight_attr=paddle.ParamAttr(name="q_w"))
        out["second_layer"] = _err(lambda: paddle.nn.Linear(2, 2, weight_attr=paddle.ParamAttr(name="q_w")))
        out["create_parameter"] = _err(
            lambda: paddle.create_parameter([3], "float32", attr=paddle.ParamAttr(name="q_w")))
        paddle.create_parameter([3], "float32", attr=paddle.ParamAttr(name="q_p"))
        out["create_parameter_twice"] = _err(
            lambda: paddle.create_parameter([3], "float32", attr=paddle.ParamAttr(name="q_p")))
        # a generated name is taken too
        lin = paddle.nn.Linear(2, 2)
        out["generated_name"] = lin.weight.name
        out["reuse_generated"] = _err(
            lambda: paddle.create_parameter([3], "float32", attr=paddle.ParamAttr(name=lin.weight.name)))
    with paddle.utils.unique_name.guard():  # a fresh guard: the names are free again
        out["fresh_guard"] = paddle.nn.Linear(2, 2, weight_attr=paddle.ParamAttr(name="q_w")).weight.name
    with paddle.utils.unique_name.guard():
        paddle.utils.unique_name.switch()  # switch() also starts a fresh set of names
        paddle.nn.Linear(2, 2, weight_attr=paddle.ParamAttr(name="q_s"))
        paddle.utils.unique_name.switch()
        out["after_switch"] = paddle.nn.Linear(2, 2, weight_attr=paddle.ParamAttr(name="q_s")).weight.name
    return out


def rnns(paddle):
    out = {}
    for cls in ("LSTM", "GRU", "SimpleRNN"):
        for tag, kw in (("stack", {"num_layers": 2, "dropout": 0.5}), ("bidirect", {"direction": "bidirect"}),
                        ("nobias", {"bias_ih_attr": False}), ("proj", {"proj_size": 2})):
            if tag == "proj" and cls != "LSTM":
                continue
            with paddle.utils.unique_name.guard():
                m = getattr(paddle.nn, cls)(3, 4, **kw)
                out[f"{cls}_{tag}"] = {
                    "state_dict": [[k, list(v.shape)] for k, v in m.state_dict().items()],
                    "buffers": [[k, str(b.dtype).replace("paddle.", ""), b.name] for k, b in m.named_buffers()],
                }
    paddle.seed(7)
    with paddle.utils.unique_name.guard():
        lstm = paddle.nn.LSTM(3, 4, num_layers=2, dropout=0.5)
    lstm.eval()
    x = paddle.to_tensor(np.linspace(-1, 1, 2 * 5 * 3, dtype="float32").reshape(2, 5, 3))
    y, (h, c) = lstm(x)
    paddle.save(lstm.state_dict(), os.path.join(HERE, "data", "paddle_leftovers_q_lstm.pdparams"))
    out["lstm_run"] = {"x": x.numpy().tolist(), "y": y.numpy().tolist(), "h": h.numpy().tolist(),
                       "c": c.numpy().tolist()}
    return out


def lbfgs(paddle):
    lin = paddle.nn.Linear(3, 1)
    lin.weight.set_value(np.array([[0.1], [-0.2], [0.3]], dtype="float32"))
    lin.bias.set_value(np.array([0.05], dtype="float32"))
    x = paddle.to_tensor(np.arange(12, dtype="float32").reshape(4, 3) / 10)
    y = paddle.to_tensor(np.array([[1.0], [2.0], [0.5], [-1.0]], dtype="float32"))
    opt = paddle.optimizer.LBFGS(learning_rate=1.0, max_iter=3, history_size=3, parameters=lin.parameters())

    def closure():
        opt.clear_grad()
        loss = ((lin(x) - y) ** 2).mean()
        loss.backward()
        return loss

    for _ in range(2):
        opt.step(closure)
    st = opt.state_dict()["state"]

    def conv(v):
        if isinstance(v, list):
            return [conv(u) for u in v]
        if isinstance(v, paddle.Tensor):
            return {"tensor": v.numpy().tolist(), "dtype": str(v.dtype).replace("paddle.", "")}
        return v

    out = {"keys": list(st.keys()), "state": {k: conv(v) for k, v in st.items()}}
    opt2 = paddle.optimizer.LBFGS(learning_rate=1.0, max_iter=3, history_size=3, parameters=lin.parameters())
    opt2.set_state_dict(opt.state_dict())
    out["set_state_dict_keys"] = list(opt2.state_dict()["state"].keys())
    return out


def main():
    import paddle

    out = {"paddle": paddle.__version__, "cast_values": CAST_VALUES, "half_values": HALF_VALUES, "int_values": INT_VALUES, "casts": casts(paddle),
           "set_value": set_value(paddle), "same_param_name": same_param_name(paddle), "rnns": rnns(paddle),
           "lbfgs": lbfgs(paddle)}
    path = os.path.join(HERE, "data", "paddle_leftovers_q.json")
    with open(path, "w") as fh:
        json.dump(out, fh, indent=1, sort_keys=True, allow_nan=True)
    print(f"-> {path}")


if __name__ == "__main__":
    main()
