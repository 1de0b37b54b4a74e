"""Cases found by the whole programs ``tests/programs/p65_rnn_zoo.py`` and ``p66_static_pylayer.py``, as Paddle
code: ``record(paddle)`` runs them with the given library and returns what they give (values, type names, the type
of each error). ``record_paddle_program_diffs_u.py`` runs it with Paddle 3.3.1 into
``data/paddle_program_diffs_u.json``; ``test_program_diffs_u.py`` runs it with pylayer_jax and compares."""

from __future__ import annotations

from typing import Any

import numpy as np


def _attempt(f: Any) -> Any:
    try:
        f()
        return "accepted"
    except Exception as e:  # noqa: BLE001  (the type is the result)
        return type(e).__name__


def rnn_bad_states(paddle: Any, out: dict[str, Any]) -> None:
    """Recurrent layers and cells given states (or inputs) that are not Tensors of the right count raise
    ValueError, as Paddle's kernels do (its pybind layer reports a wrong argument type as InvalidArgument)."""
    nn = paddle.nn
    h, x = paddle.ones([1, 2, 3]), paddle.ones([2, 5, 4])
    cases = {
        "grucell_tuple": lambda: nn.GRUCell(4, 3)(paddle.ones([2, 4]), (h[0], h[0])),
        "simplecell_list": lambda: nn.SimpleRNNCell(4, 3)(paddle.ones([2, 4]), [h[0]]),
        "grucell_numpy_input": lambda: nn.GRUCell(4, 3)(np.ones([2, 4], "float32")),
        "lstmcell_one_state": lambda: nn.LSTMCell(4, 3)(paddle.ones([2, 4]), (h[0],)),
        "gru_tuple": lambda: nn.GRU(4, 3)(x, (h, h)),
        "gru_numpy_state": lambda: nn.GRU(4, 3)(x, np.ones([1, 2, 3], "float32")),
        "gru_numpy_input": lambda: nn.GRU(4, 3)(np.ones([2, 5, 4], "float32")),
        "lstm_single": lambda: nn.LSTM(4, 3)(x, h),
        "rnn_gru_tuple": lambda: nn.RNN(nn.GRUCell(4, 3))(x, (h[0], h[0])),
        "rnn_numpy_input": lambda: nn.RNN(nn.GRUCell(4, 3))(np.ones([2, 5, 4], "float32")),
    }
    for k, f in cases.items():
        out[f"rnn_bad_{k}"] = _attempt(f)


def gru_bidirect_init_len_forward(paddle: Any, out: dict[str, Any]) -> None:
    """A bidirectional GRU run with both initial_states and sequence_length: outputs and final states, and the gradient of a loss by the initial state (Paddle's is wrong
    for the reverse direction, see test_program_diffs_u.py: not compared)."""
    rng = np.random.default_rng(0)
    g = paddle.nn.GRU(5, 7, direction="bidirect")
    r = np.random.default_rng(4)
    g.set_state_dict({k: (r.standard_normal(v.shape) * 0.3).astype("float32") for k, v in g.state_dict().items()})
    x = rng.standard_normal((4, 6, 5)).astype("float32")
    h0 = r.standard_normal((2, 4, 7)).astype("float32")
    ht = paddle.to_tensor(h0, stop_gradient=False)
    o, hn = g(paddle.to_tensor(x), initial_states=ht,
              sequence_length=paddle.to_tensor(np.array([6, 3, 5, 1], "int64")))
    out["gru_bi_init_len_out"] = o.numpy().ravel().tolist()
    out["gru_bi_init_len_h"] = hn.numpy().ravel().tolist()
    ((o * o).sum() + (hn * 0.5).sum()).backward()
    out["gru_bi_init_len_h0_grad"] = ht.grad.numpy().sum(-1).tolist()  # per direction and sequence


def static_dense_tensors(paddle: Any, out: dict[str, Any]) -> None:
    """``Executor.run(..., return_numpy=False)`` and ``scope.find_var(name).get_tensor()`` give DenseTensors (no
    autograd Tensor): ``shape()`` a method, ``np.array(t)`` the value, ``lod()`` empty."""
    static = paddle.static
    paddle.enable_static()
    try:
        main, startup = static.Program(), static.Program()
        with static.program_guard(main, startup):
            x = static.data("x", [None, 2], "float32")
            y = static.nn.fc(x, 3, weight_attr=paddle.ParamAttr(name="u_w"), bias_attr=paddle.ParamAttr(name="u_b"))
        exe = static.Executor(paddle.CPUPlace())
        exe.run(startup)
        w = static.global_scope().find_var("u_w").get_tensor()
        w.set(np.arange(6, dtype="float32").reshape(2, 3) / 10, paddle.CPUPlace())
        static.global_scope().find_var("u_b").get_tensor().set(np.zeros(3, "float32"), paddle.CPUPlace())
        (t,) = exe.run(main, feed={"x": np.ones((4, 2), "float32")}, fetch_list=[y], return_numpy=False)
        out["dense_fetch"] = [type(t).__name__, t.shape(), np.array(t).ravel().tolist(), t.lod(),
                              str(t._dtype()), t._is_initialized(), hasattr(t, "numpy")]
        out["dense_scope"] = [type(w).__name__, w.shape(), np.array(w).ravel().tolist(), t.lod()]
    finally:
        paddle.disable_static()


def rnn_stack_attrs(paddle: Any, out: dict[str, Any]) -> None:
    """A recurrent stack's ``could_use_cudnn`` (all four plain weights in every layer: no projection, both biases)
    and its ``flatten_parameters()`` (nothing to return, values unchanged)."""
    nn = paddle.nn
    layers = {
        "lstm": nn.LSTM(3, 4, num_layers=2),
        "lstm_proj": nn.LSTM(3, 4, proj_size=2),
        "gru_no_bias": nn.GRU(3, 4, bias_ih_attr=False),
        "srnn_bi": nn.SimpleRNN(3, 4, direction="bidirect"),
    }
    out["rnn_could_use_cudnn"] = {k: v.could_use_cudnn for k, v in layers.items()}
    lstm = layers["lstm"]
    before = lstm.weight_ih_l0.numpy().copy()
    out["rnn_flatten_parameters"] = [lstm.flatten_parameters(), bool((lstm.weight_ih_l0.numpy() == before).all())]


def rnn_lengths(paddle: Any, out: dict[str, Any]) -> None:
    """``sequence_length`` must be one length per sequence ([batch_size]): another shape raises ValueError; the
    fused stacks (no projection) also need int32 / int64 lengths, while a projected LSTM and nn.RNN / nn.BiRNN take
    float ones (their masks compare positions with them)."""
    nn = paddle.nn
    rng = np.random.default_rng(3)
    x = paddle.to_tensor(rng.standard_normal((3, 4, 2)).astype("float32"))

    def run(layer: Any, lengths: Any) -> Any:
        r = np.random.default_rng(5)
        layer.set_state_dict({k: (r.standard_normal(v.shape) * 0.5).astype("float32")
                              for k, v in layer.state_dict().items()})
        o, _ = layer(x, sequence_length=paddle.to_tensor(lengths))
        return [round(float(v), 5) for v in o.numpy().sum((1, 2))]

    f, i32, two_d = np.array([1.0, 2.0, 4.0], "float32"), np.array([1, 2, 4], "int32"), np.array([[1, 2, 4]])
    cases = {
        "rnn_2d": lambda: run(nn.RNN(nn.GRUCell(2, 3)), two_d),
        "birnn_2d": lambda: run(nn.BiRNN(nn.GRUCell(2, 3), nn.GRUCell(2, 3)), two_d),
        "gru_2d": lambda: run(nn.GRU(2, 3), two_d),
        "gru_float": lambda: run(nn.GRU(2, 3), f),
        "lstm_float": lambda: run(nn.LSTM(2, 3, direction="bidirect"), f),
        "gru_int32": lambda: run(nn.GRU(2, 3), i32),
        "rnn_float": lambda: run(nn.RNN(nn.GRUCell(2, 3)), f),
        "lstm_proj_float": lambda: run(nn.LSTM(2, 3, proj_size=2), f),
    }
    for k, fn in cases.items():
        try:
            out[f"rnn_lengths_{k}"] = fn()
        except Exception as e:  # noqa: BLE001  (the type is the result)
            out[f"rnn_lengths_{k}"] = type(e).__name__


CASES = [rnn_bad_states, rnn_stack_attrs, rnn_lengths, gru_bidirect_init_len_forward, static_dense_tensors]


def record(paddle: Any) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for case in CASES:
        case(paddle, out)
    return out
