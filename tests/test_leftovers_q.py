"""Small differences from Paddle 3.3.1, checked against ``tests/data/paddle_leftovers_q.json`` (recorded by
``tests/record_paddle_leftovers_q.py`` with real Paddle): float -> integer casts out of range, ``Tensor.set_value``
with another dtype/shape/type, two parameters of one name, the RNN layers' buffers and a Paddle-saved LSTM state
dict, and ``optimizer.LBFGS``'s state dict."""

from __future__ import annotations

import json
import os

import numpy as np
import pytest

import pylayer_jax as paddle

HERE = os.path.dirname(os.path.abspath(__file__))
with open(os.path.join(HERE, "data", "paddle_leftovers_q.json")) as fh:
    REC = json.load(fh)
CASTS = REC["casts"]


# ---- 1. float -> integer casts -----------------------------------------------------------------------------------
@pytest.mark.parametrize("src", ["float32", "float64", "float16", "bfloat16"])
@pytest.mark.parametrize("how", ["astype", "cast"])
def test_float_to_integer_casts_give_paddles_values(src: str, how: str) -> None:
    if src in ("float32", "float64"):
        x = paddle.to_tensor(np.array(REC["cast_values"], dtype=src))
    else:
        x = paddle.to_tensor(np.array(REC["half_values"], dtype="float32")).astype(src)
    for dt in ("int8", "int16", "int32", "int64", "uint8", "bool"):
        got = x.astype(dt) if how == "astype" else paddle.cast(x, dt)
        assert got.dtype == getattr(paddle, dt)
        assert got.numpy().tolist() == CASTS[f"{src}->{dt}"], (src, dt)


@pytest.mark.filterwarnings("ignore:invalid value encountered in cast")  # (numpy's, for NaN; Paddle warns too)
def test_to_tensor_with_an_integer_dtype_and_integer_narrowing() -> None:
    arr = np.array(REC["cast_values"])
    assert paddle.to_tensor(arr, dtype="uint8").numpy().tolist() == CASTS["to_tensor_uint8"]
    assert paddle.to_tensor(arr, dtype="int32").numpy().tolist() == CASTS["to_tensor_int32"]
    ints = paddle.to_tensor(np.array(REC["int_values"], dtype="int64"))
    for dt in ("int8", "int16", "int32", "uint8"):
        assert ints.astype(dt).numpy().tolist() == CASTS[f"int64->{dt}"], dt


def test_the_cast_keeps_its_gradient_and_works_traced() -> None:
    x = paddle.to_tensor([1.5, -2.5, 3e9], stop_gradient=False)
    y = x.astype("float64") * 2
    y.sum().backward()
    assert x.grad.numpy().tolist() == [2.0, 2.0, 2.0]
    f = paddle.jit.to_static(lambda t: t.astype("uint8"))
    assert f(paddle.to_tensor([300.0, -1.0, float("nan")])).numpy().tolist() == [44, 255, 0]


# ---- 2. Tensor.set_value -----------------------------------------------------------------------------------------
SET_CASES = {
    "f64_array": lambda: paddle.ones([2, 3]).set_value(np.full([2, 3], 1.5)),
    "int_array": lambda: paddle.ones([2, 3]).set_value(np.full([2, 3], 5, dtype="int64")),
    "float_into_int": lambda: paddle.ones([2, 3], dtype="int32").set_value(np.full([2, 3], 2.5, dtype="float32")),
    "f64_tensor": lambda: paddle.ones([2, 3]).set_value(paddle.full([2, 3], 1.5, dtype="float64")),
    "shape_array": lambda: paddle.ones([2, 3]).set_value(np.ones([3, 2], dtype="float32")),
    "shape_broadcast": lambda: paddle.ones([2, 3]).set_value(np.ones([1, 3], dtype="float32")),
    "shape_tensor": lambda: paddle.ones([2, 3]).set_value(paddle.ones([3, 2])),
    "scalar": lambda: paddle.ones([2, 3]).set_value(2.0),
    "list": lambda: paddle.ones([2, 3]).set_value([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]),
    "np_scalar": lambda: paddle.ones([], dtype="float64").set_value(np.float64(2.0)),
    "zero_d_array": lambda: paddle.ones([], dtype="float64").set_value(np.array(2.0)),
    "parameter_f64": lambda: paddle.create_parameter([2, 3], "float32").set_value(np.full([2, 3], 1.5)),
}
SET_MESSAGES = {
    "f64_array": r"Tensor.set_value: the value must have the tensor's dtype float32, but received float64",
    "int_array": r"dtype float32, but received int64 \(values are not cast\)",
    "float_into_int": r"dtype int32, but received float32",
    "f64_tensor": r"dtype float32, but received float64",
    "shape_array": r"Tensor.set_value: the value must have the tensor's shape \[2, 3\], but received \[3, 2\]",
    "shape_broadcast": r"shape \[2, 3\], but received \[1, 3\] \(nothing is broadcast\)",
    "shape_tensor": r"shape \[2, 3\], but received \[3, 2\]",
    "scalar": r"Tensor.set_value: the value must be a Tensor or a numpy array .* received float",
    "list": r"must be a Tensor or a numpy array .* received list",
    "np_scalar": r"must be a Tensor or a numpy array .* received float64",
    "parameter_f64": r"dtype float32, but received float64",
}


@pytest.mark.parametrize("case", sorted(SET_CASES))
def test_set_value_raises_where_paddle_does(case: str) -> None:
    want = REC["set_value"][case]
    if want is None:
        SET_CASES[case]()
        return
    assert want == "AssertionError"
    with pytest.raises(AssertionError, match=SET_MESSAGES[case]):
        SET_CASES[case]()


def test_set_value_of_a_matching_value_writes_it_and_returns_none() -> None:
    t = paddle.ones([2, 3])
    r = t.set_value(np.full([2, 3], 1.5, dtype="float32"))
    assert (r is None) == REC["set_value"]["same"]["returns_none"]
    assert t.numpy().tolist() == REC["set_value"]["same"]["value"]
    assert t.inplace_version == 1


def test_set_value_through_a_view_reaches_the_base() -> None:
    x = paddle.zeros([2, 3])
    y = x[:, 0]
    y.set_value(np.array([7.0, 8.0], np.float32))
    assert x.numpy()[:, 0].tolist() == [7.0, 8.0]


# ---- 3. two parameters of one name -------------------------------------------------------------------------------
def test_a_parameter_name_is_taken_once_per_name_scope() -> None:
    rec = REC["same_param_name"]
    assert {rec[k] for k in ("second_layer", "create_parameter", "create_parameter_twice", "reuse_generated")} == \
        {"ValueError"}
    attr = paddle.ParamAttr
    with paddle.utils.unique_name.guard():
        paddle.nn.Linear(2, 2, weight_attr=attr(name="q_w"))
        with pytest.raises(ValueError, match=r"Linear.create_parameter: a parameter named 'q_w' was made already"):
            paddle.nn.Linear(2, 2, weight_attr=attr(name="q_w"))
        with pytest.raises(ValueError, match=r"create_parameter: a parameter named 'q_w' was made already"):
            paddle.create_parameter([3], "float32", attr=attr(name="q_w"))
        paddle.create_parameter([3], "float32", attr=attr(name="q_p"))
        with pytest.raises(ValueError, match=r"named 'q_p' was made already"):
            paddle.create_parameter([3], "float32", attr=attr(name="q_p"))
        lin = paddle.nn.Linear(2, 2)
        assert lin.weight.name == rec["generated_name"]
        with pytest.raises(ValueError, match=r"two parameters cannot share a name"):
            paddle.create_parameter([3], "float32", attr=attr(name=lin.weight.name))
    with paddle.utils.unique_name.guard():
        assert paddle.nn.Linear(2, 2, weight_attr=attr(name="q_w")).weight.name == rec["fresh_guard"]
    with paddle.utils.unique_name.guard():
        paddle.utils.unique_name.switch()
        paddle.nn.Linear(2, 2, weight_attr=attr(name="q_s"))
        paddle.utils.unique_name.switch()
        assert paddle.nn.Linear(2, 2, weight_attr=attr(name="q_s")).weight.name == rec["after_switch"]


def test_a_guard_gives_back_the_names_taken_outside_it() -> None:
    with paddle.utils.unique_name.guard():
        paddle.create_parameter([1], "float32", attr=paddle.ParamAttr(name="q_outer"))
        with paddle.utils.unique_name.guard():
            paddle.create_parameter([1], "float32", attr=paddle.ParamAttr(name="q_outer"))
        with pytest.raises(ValueError, match=r"'q_outer' was made already"):
            paddle.create_parameter([1], "float32", attr=paddle.ParamAttr(name="q_outer"))


# ---- 4. RNN buffers and a Paddle-saved state dict ----------------------------------------------------------------
RNN_KW = {"stack": {"num_layers": 2, "dropout": 0.5}, "bidirect": {"direction": "bidirect"},
          "nobias": {"bias_ih_attr": False}, "proj": {"proj_size": 2}}


@pytest.mark.parametrize("key", sorted(k for k in REC["rnns"] if k != "lstm_run"))
def test_rnn_state_dict_keys_and_buffers(key: str) -> None:
    cls, tag = key.split("_")
    rec = REC["rnns"][key]
    with paddle.utils.unique_name.guard():
        m = getattr(paddle.nn, cls)(3, 4, **RNN_KW[tag])
    assert [[k, list(v.shape)] for k, v in m.state_dict().items()] == rec["state_dict"]
    assert [[k, b.dtype.name, b.name] for k, b in m.named_buffers()] == rec["buffers"]


def test_a_paddle_saved_lstm_state_dict_loads_with_paddles_outputs() -> None:
    rec = REC["rnns"]["lstm_run"]
    sd = paddle.load(os.path.join(HERE, "data", "paddle_leftovers_q_lstm.pdparams"))
    m = paddle.nn.LSTM(3, 4, num_layers=2, dropout=0.5)
    assert sorted(sd) == sorted(m.state_dict())
    missing, unexpected = m.set_state_dict(sd)
    assert missing == [] and unexpected == []
    m.eval()
    y, (h, c) = m(paddle.to_tensor(np.array(rec["x"], np.float32)))
    np.testing.assert_allclose(y.numpy(), rec["y"], rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(h.numpy(), rec["h"], rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(c.numpy(), rec["c"], rtol=1e-5, atol=1e-6)


# ---- 5. LBFGS state dict -----------------------------------------------------------------------------------------
def _lbfgs_run() -> tuple[object, object]:
    lin = paddle.nn.Linear(3, 1)
    lin.weight.set_value(np.array([[0.1], [-0.2], [0.3]], dtype="float32"))
    lin.bias.set_value(np.array([0.05], dtype="float32"))
    x = paddle.to_tensor(np.arange(12, dtype="float32").reshape(4, 3) / 10)
    y = paddle.to_tensor(np.array([[1.0], [2.0], [0.5], [-1.0]], dtype="float32"))
    opt = paddle.optimizer.LBFGS(learning_rate=1.0, max_iter=3, history_size=3, parameters=lin.parameters())

    def closure():  # noqa: ANN202
        opt.clear_grad()
        loss = ((lin(x) - y) ** 2).mean()
        loss.backward()
        return loss

    for _ in range(2):
        opt.step(closure)
    return opt, closure


def _close(got: object, want: object) -> None:
    if isinstance(want, list):
        assert isinstance(got, list) and len(got) == len(want)
        for g, w in zip(got, want):
            _close(g, w)
    elif isinstance(want, dict):
        assert isinstance(got, paddle.Tensor) and got.dtype.name == want["dtype"]
        np.testing.assert_allclose(got.numpy(), want["tensor"], rtol=2e-4, atol=1e-6)
    elif want is None:
        assert got is None
    else:
        assert not isinstance(got, paddle.Tensor)
        np.testing.assert_allclose(got, want, rtol=1e-5)


def test_lbfgs_state_dict_has_paddles_keys_and_values() -> None:
    rec = REC["lbfgs"]
    opt, _ = _lbfgs_run()
    st = opt.state_dict()["state"]
    assert list(st) == rec["keys"]
    for k in rec["keys"]:
        _close(st[k], rec["state"][k])


def test_lbfgs_state_dict_round_trips() -> None:
    opt, closure = _lbfgs_run()
    sd = opt.state_dict()
    again = paddle.optimizer.LBFGS(learning_rate=1.0, max_iter=3, history_size=3, parameters=opt._parameter_list)
    again.set_state_dict(sd)
    assert list(again.state_dict()["state"]) == list(sd["state"])
    for k, v in sd["state"].items():
        w = again.state_dict()["state"][k]
        for a, b in zip(v if isinstance(v, list) else [v], w if isinstance(w, list) else [w]):
            a = a.numpy() if isinstance(a, paddle.Tensor) else a
            b = b.numpy() if isinstance(b, paddle.Tensor) else b
            np.testing.assert_array_equal(np.asarray(a, dtype=float), np.asarray(b, dtype=float))
    with pytest.raises(TypeError, match=r"LBFGS.set_state_dict: expected the dict state_dict\(\) returned"):
        again.set_state_dict([1])
