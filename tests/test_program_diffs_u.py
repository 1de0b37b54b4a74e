"""The programs p65 (recurrent layers) and p66 (static graphs with static_pylayer) against Paddle 3.3.1: the
differences they showed, as focused cases (``tests/program_diff_cases_u.py``, recorded by
``tests/record_paddle_program_diffs_u.py``), and the messages of the errors changed for them.

Not mirrored: Paddle's fused GRU gives a wrong gradient for the reverse direction of a bidirectional GRU run with
both initial_states and sequence_length (it disagrees with finite differences of Paddle's own forward, which
pylayer_jax's values match); pylayer_jax's gradient is checked against finite differences here. Paddle aborts the
process (SIGABRT) where a fused GRU / LSTM / SimpleRNN gets a sequence_length past the inputs' time steps;
pylayer_jax raises a ValueError where the lengths are known (eager mode). A projected LSTMCell's ``state_shape`` is
``((hidden_size,), (proj_size,))`` in Paddle, the wrong way round (its forward without states then fails in matmul);
here it is ``((proj_size,), (hidden_size,))``, the shapes of h and c. A 1-D input to a cell raises here (Paddle
broadcasts it against a batch of 2)."""

from __future__ import annotations

import os
import sys

import numpy as np
import pytest

import pylayer_jax as paddle

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from program_diff_cases_u import record  # noqa: E402
from recorded import recorded_tests  # noqa: E402

REF, OURS, test_as_paddle, test_every_case_recorded = recorded_tests(
    record, "paddle_program_diffs_u.json", paddle, not_mirrored={"gru_bi_init_len_h0_grad"})


def test_rnn_state_errors_say_what_to_do() -> None:
    nn = paddle.nn
    h, x = paddle.ones([1, 2, 3]), paddle.ones([2, 5, 4])
    with pytest.raises(ValueError, match=r"GRUCell\.forward: the state must be a Tensor, but received tuple\."):
        nn.GRUCell(4, 3)(paddle.ones([2, 4]), (h[0], h[0]))
    with pytest.raises(ValueError, match=r"GRU\.forward: initial_states must be a Tensor, but received"):
        nn.GRU(4, 3)(x, (h, h))
    with pytest.raises(ValueError, match=r"LSTM\.forward: initial_states must be a pair \(h, c\) of Tensors"):
        nn.LSTM(4, 3)(x, h)
    with pytest.raises(ValueError, match=r"RNN\.forward: inputs must be a Tensor, but received ndarray\."):
        nn.RNN(nn.GRUCell(4, 3))(np.ones([2, 5, 4], "float32"))
    # Paddle unpacks a lone Tensor's rows into (h, c) here (a silent wrong result); the pair is required instead
    with pytest.raises(ValueError, match=r"RNN\.forward: LSTM states must be a pair \(h, c\) of Tensors, but "
                                         r"received Tensor\."):
        nn.RNN(nn.LSTMCell(4, 3))(x, h[0])


def test_gru_bidirect_init_len_gradient_matches_finite_differences() -> None:
    """Paddle's recorded gradient differs from ours in the reverse direction only; ours is the derivative of the
    forward both libraries agree on (float64 central differences)."""
    lens = paddle.to_tensor(np.array([6, 3, 5, 1], "int64"))
    rng = np.random.default_rng(0)
    x = rng.standard_normal((4, 6, 5))
    r = np.random.default_rng(4)
    paddle.set_default_dtype("float64")
    try:
        g = paddle.nn.GRU(5, 7, direction="bidirect")
    finally:
        paddle.set_default_dtype("float32")
    g.set_state_dict({k: r.standard_normal(v.shape) * 0.3 for k, v in g.state_dict().items()})
    h0 = r.standard_normal((2, 4, 7))

    def loss(h: np.ndarray) -> float:
        o, hn = g(paddle.to_tensor(x), initial_states=paddle.to_tensor(h), sequence_length=lens)
        return float((o * o).sum() + (hn * 0.5).sum())

    ht = paddle.to_tensor(h0, stop_gradient=False)
    o, hn = g(paddle.to_tensor(x), initial_states=ht, sequence_length=lens)
    ((o * o).sum() + (hn * 0.5).sum()).backward()
    eps, num = 1e-6, np.zeros((2, 4))
    for d in range(2):
        for b in range(4):
            up, down = h0.copy(), h0.copy()
            up[d, b] += eps
            down[d, b] -= eps
            num[d, b] = (loss(up) - loss(down)) / (2 * eps)
    ours = ht.grad.numpy().sum(-1)
    np.testing.assert_allclose(ours, num, rtol=1e-5, atol=1e-6)
    ref = np.array(REF["gru_bi_init_len_h0_grad"])
    np.testing.assert_allclose(ours[0], ref[0], rtol=1e-4)  # the forward direction agrees with Paddle
    assert not np.allclose(ours[1], ref[1], rtol=1e-2)  # the reverse one is where Paddle's is wrong


def test_rnn_length_errors_say_what_to_do() -> None:
    nn = paddle.nn
    x = paddle.ones([3, 4, 2])
    with pytest.raises(ValueError, match=r"RNN\.forward: sequence_length must have shape \[batch_size\] = \[3\], but "
                                         r"received shape \[1, 3\]\. Pass one length per sequence"):
        nn.RNN(nn.GRUCell(2, 3))(x, sequence_length=paddle.to_tensor([[1, 2, 4]]))
    with pytest.raises(ValueError, match=r"GRU\.forward: sequence_length must be int32 or int64, but received "
                                         r"float32\. Cast it: sequence_length\.astype\('int64'\)"):
        nn.GRU(2, 3)(x, sequence_length=paddle.to_tensor([1.0, 2.0, 4.0]))
    with pytest.raises(ValueError, match=r"LSTM\.forward: a sequence_length \(6\) exceeds the 4 time steps of the "
                                         r"inputs"):
        nn.LSTM(2, 3)(x, sequence_length=paddle.to_tensor([1, 2, 6]))
    with pytest.raises(ValueError, match=r"GRU\.forward: sequence_length must be a Tensor of shape \[batch_size\], "
                                         r"but received list"):
        nn.GRU(2, 3)(x, sequence_length=[1, 2, 4])
    # the step-by-step paths take lengths past the end (every step valid), as Paddle's
    o, _ = nn.RNN(nn.GRUCell(2, 3))(x, sequence_length=paddle.to_tensor([1, 2, 6]))
    assert o.shape == [3, 4, 3]


def test_projected_lstm_cell_state_shape_is_h_then_c() -> None:
    cell = paddle.nn.LSTMCell(2, 3, proj_size=2)
    assert cell.state_shape == ((2,), (3,))
    y, (h, c) = cell(paddle.ones([4, 2]))  # no states: made from state_shape
    assert y.shape == [4, 2] and h.shape == [4, 2] and c.shape == [4, 3]
