"""Sequence-layer cases shared by ``record_paddle_seq_layers.py`` (run under Paddle) and
``test_layer_seq.py`` (run under pylayer_jax): each builds the same layer with either library and
calls it on the same inputs.

A case is ``(build, inputs, call)``: ``build(lib)`` returns the layer, ``inputs(rng)`` a dict of numpy
arrays (floating ones get gradients), ``call(lib, layer, t)`` the outputs (a Tensor or a nested
tuple of Tensors) from the dict ``t`` of Tensors.
"""

from __future__ import annotations

import numpy as np


def _lstm_bi2(lib):
    return lib.nn.LSTM(3, 4, num_layers=2, direction="bidirect")


def _lstm_bi2_inputs(rng):
    return {"x": rng.standard_normal((2, 5, 3)), "h0": rng.standard_normal((4, 2, 4)),
            "c0": rng.standard_normal((4, 2, 4)), "seq": np.array([3, 5], np.int64)}


def _call_states2(lib, m, t):
    return m(t["x"], (t["h0"], t["c0"]), sequence_length=t["seq"])


def _seq_only(lib, m, t):
    return m(t["x"], sequence_length=t["seq"])


def _plain(lib, m, t):
    return m(t["x"])


def _x(*shape):
    return lambda rng: {"x": rng.standard_normal(shape)}


def _x_seq(shape, seq):
    return lambda rng: {"x": rng.standard_normal(shape), "seq": np.array(seq, np.int64)}


def _gru_h0(lib, m, t):
    return m(t["x"], t["h0"])


def _cell_lstm(lib, m, t):
    return m(t["x"], (t["h"], t["c"]))


def _mha(lib, m, t):
    mask = lib.to_tensor(np.array([[[[True, True, False], [True, False, True], [True, True, True],
                                     [False, True, True]]]] * 2))
    return m(t["q"], t["k"], t["v"], attn_mask=mask)


def _mha_float(lib, m, t):
    return m(t["q"], attn_mask=t["mask"])


def _enc(lib, m, t):
    mask = lib.to_tensor(np.array([[[[1, 1, 1, 0]]], [[[1, 1, 1, 1]]]], np.int64))  # key padding of batch 0
    return m(t["src"], src_mask=mask)


def _dec(lib, m, t):
    causal = lib.nn.Transformer.generate_square_subsequent_mask(None, 3)
    mem_mask = lib.to_tensor(np.array([[[[True, True, True, False]]], [[[True, True, True, True]]]]))
    return m(t["tgt"], t["mem"], tgt_mask=causal, memory_mask=mem_mask)


def _transformer(lib, m, t):
    causal = m.generate_square_subsequent_mask(3)
    src_mask = lib.to_tensor(np.array([[[[True, True, True, False]]], [[[True, True, True, True]]]]))
    return m(t["src"], t["tgt"], src_mask=src_mask, tgt_mask=causal)


def _custom_cell_rnn(lib):
    """A user-written cell (run step by step): its output differs from its state, so masking shows."""

    class Cell(lib.nn.RNNCellBase):
        def __init__(self):
            super().__init__()
            self.input_size = 3
            self.lin = lib.nn.Linear(7, 4)

        def forward(self, x, h):
            h = lib.tanh(self.lin(lib.concat([x, h], -1)))
            return 2.0 * h, h

        @property
        def state_shape(self):
            return (4,)

    return lib.nn.RNN(Cell(), is_reverse=True)


CASES = {
    "rnn_custom_cell_reverse_seqlen": (_custom_cell_rnn, _x_seq((2, 4, 3), [3, 4]), _seq_only),
    "lstm_bidirect_2layer_seqlen": (_lstm_bi2, _lstm_bi2_inputs, _call_states2),
    "gru_time_major": (lambda lib: lib.nn.GRU(3, 4, time_major=True),
                       lambda rng: {"x": rng.standard_normal((5, 2, 3)), "h0": rng.standard_normal((1, 2, 4))},
                       _gru_h0),
    "gru_bidirect_seqlen": (lambda lib: lib.nn.GRU(3, 4, direction="bidirectional"), _x_seq((3, 4, 3), [2, 4, 1]),
                            _seq_only),
    "simple_rnn_relu_2layer_seqlen": (lambda lib: lib.nn.SimpleRNN(3, 4, num_layers=2, activation="relu"),
                                      _x_seq((2, 4, 3), [4, 2]), _seq_only),
    "simple_rnn_tanh_time_major_bidirect": (
        lambda lib: lib.nn.SimpleRNN(3, 4, direction="bidirect", time_major=True), _x(4, 2, 3), _plain),
    "lstm_proj_seqlen": (lambda lib: lib.nn.LSTM(3, 5, proj_size=2), _x_seq((2, 4, 3), [2, 4]), _seq_only),
    "rnn_lstm_cell_no_bias": (lambda lib: lib.nn.RNN(lib.nn.LSTMCell(3, 4, bias_ih_attr=False, bias_hh_attr=False)),
                              _x(2, 3, 3), _plain),
    "rnn_gru_cell_reverse_seqlen": (lambda lib: lib.nn.RNN(lib.nn.GRUCell(3, 4), is_reverse=True),
                                    _x_seq((2, 4, 3), [2, 4]), _seq_only),
    "birnn_lstm_cells_seqlen": (lambda lib: lib.nn.BiRNN(lib.nn.LSTMCell(3, 4), lib.nn.LSTMCell(3, 4)),
                                _x_seq((2, 4, 3), [3, 1]), _seq_only),
    "rnn_simple_cell_time_major": (lambda lib: lib.nn.RNN(lib.nn.SimpleRNNCell(3, 4), time_major=True),
                                   _x(4, 2, 3), _plain),
    "lstm_cell_step": (lambda lib: lib.nn.LSTMCell(3, 4),
                       lambda rng: {"x": rng.standard_normal((2, 3)), "h": rng.standard_normal((2, 4)),
                                    "c": rng.standard_normal((2, 4))}, _cell_lstm),
    "gru_cell_default_state": (lambda lib: lib.nn.GRUCell(3, 4), _x(2, 3), _plain),
    "mha_kdim_vdim_bool_mask_weights": (
        lambda lib: lib.nn.MultiHeadAttention(8, 2, kdim=6, vdim=5, need_weights=True),
        lambda rng: {"q": rng.standard_normal((2, 4, 8)), "k": rng.standard_normal((2, 3, 6)),
                     "v": rng.standard_normal((2, 3, 5))}, _mha),
    "mha_self_float_mask_no_bias": (
        lambda lib: lib.nn.MultiHeadAttention(8, 4, bias_attr=False),
        lambda rng: {"q": rng.standard_normal((2, 3, 8)), "mask": rng.standard_normal((2, 1, 3, 3))}, _mha_float),
    "encoder_post_norm_int_mask": (
        lambda lib: lib.nn.TransformerEncoder(lib.nn.TransformerEncoderLayer(8, 2, 16, dropout=0.0), 2),
        lambda rng: {"src": rng.standard_normal((2, 4, 8))}, _enc),
    "encoder_layer_pre_norm_gelu": (
        lambda lib: lib.nn.TransformerEncoderLayer(8, 2, 16, dropout=0.0, activation="gelu", normalize_before=True),
        lambda rng: {"src": rng.standard_normal((2, 4, 8))}, _enc),
    "decoder_masks": (
        lambda lib: lib.nn.TransformerDecoder(lib.nn.TransformerDecoderLayer(8, 2, 16, dropout=0.0), 2),
        lambda rng: {"tgt": rng.standard_normal((2, 3, 8)), "mem": rng.standard_normal((2, 4, 8))}, _dec),
    "decoder_layer_pre_norm": (
        lambda lib: lib.nn.TransformerDecoderLayer(8, 2, 16, dropout=0.0, normalize_before=True),
        lambda rng: {"tgt": rng.standard_normal((2, 3, 8)), "mem": rng.standard_normal((2, 4, 8))}, _dec),
    "transformer_full": (
        lambda lib: lib.nn.Transformer(8, 2, 1, 2, 16, dropout=0.0),
        lambda rng: {"src": rng.standard_normal((2, 4, 8)), "tgt": rng.standard_normal((2, 3, 8))}, _transformer),
}


def flatten(out):
    """The Tensors of a nested output, in order."""
    if isinstance(out, list | tuple):
        return [t for o in out for t in flatten(o)]
    return [out]


# Paddle 3.3.1's fused RNN kernel (CPU) returns wrong gradients for the hidden-to-hidden weights of the
# reverse direction when initial states and sequence lengths are both given (its own central finite
# differences disagree); for these entries the recording keeps Paddle's finite differences as the oracle.
PADDLE_GRAD_BY_DIFFERENCES = {
    "lstm_bidirect_2layer_seqlen": ("weight_hh_l0_reverse", "weight_hh_l1_reverse", "0.cell_bw.weight_hh",
                                    "1.cell_bw.weight_hh"),
}
