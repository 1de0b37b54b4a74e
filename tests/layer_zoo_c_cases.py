"""Cases shared by ``record_paddle_layers_zoo_c.py`` and ``tests/nn/test_layer_zoo_c.py``: (name, Paddle's
constructor expression over ``nn``, ours (None: the same), input shape, train steps (0: eval only)).

The old-style ``nn.BatchNorm`` creates float32 parameters unless given ``dtype``, so its cases pass the default
dtype. Paddle 3.3.1 has no CPU kernel for ``SyncBatchNorm``: its forward here (one process) is compared with
Paddle's ``BatchNorm1D/2D/3D`` of the same configuration."""

import numpy as np

DT = "dtype=paddle.get_default_dtype()"

CASES = [
    ("batchnorm", f"nn.BatchNorm(3, {DT})", None, [4, 3, 2, 2], 2),
    ("batchnorm_nhwc_relu", f"nn.BatchNorm(3, act='relu', data_layout='NHWC', momentum=0.8, {DT})", None,
     [4, 2, 3], 2),
    ("batchnorm_2d_global", f"nn.BatchNorm(3, use_global_stats=True, epsilon=1e-3, {DT})", None, [5, 3], 1),
    ("batchnorm_trainable_stats", f"nn.BatchNorm(2, trainable_statistics=True, act='tanh', {DT})", None,
     [3, 2, 4], 1),
    ("batchnorm_5d_noaffine", f"nn.BatchNorm(2, param_attr=False, bias_attr=False, {DT})", None, [2, 2, 2, 3, 2], 1),
    ("sync_as_bn2d", "nn.BatchNorm2D(3, momentum=0.7)", "nn.SyncBatchNorm(3, momentum=0.7)", [4, 3, 2, 2], 2),
    ("sync_as_bn1d_nlc", "nn.BatchNorm1D(3, data_format='NLC')", "nn.SyncBatchNorm(3, data_format='NLC')",
     [4, 5, 3], 1),
]

# constructed only (Paddle cannot run these forwards on the CPU): repr, state_dict keys, parameter names
META_CASES = [
    ("sync", "nn.SyncBatchNorm(3)"),
    ("sync_noaffine", "nn.SyncBatchNorm(4, weight_attr=False, bias_attr=False, data_format='NHWC')"),
    ("sync_converted", "nn.SyncBatchNorm.convert_sync_batchnorm(nn.Sequential(nn.Conv2D(3, 5, 3), "
                       "nn.BatchNorm2D(5, momentum=0.8), nn.Sequential(nn.BatchNorm1D(5, data_format='NLC'))))"),
    ("spectral", "nn.SpectralNorm([2, 3, 4], dim=1, power_iters=2)"),
    ("batchnorm_named", "nn.BatchNorm(3, moving_mean_name='mm', moving_variance_name='mv', act='relu')"),
    ("hsigmoid", "nn.HSigmoidLoss(3, 7)"),
    ("hsigmoid_custom_nobias", "nn.HSigmoidLoss(3, 5, is_custom=True, bias_attr=False)"),
]

# SpectralNorm: (name, constructor, weight shape); outputs recorded, and Paddle's gradient (see the test)
SPECTRAL = [
    ("spectral_dim1", "nn.SpectralNorm([2, 3, 4], dim=1, power_iters=2, dtype=paddle.get_default_dtype())", [2, 3, 4]),
    ("spectral_dim0", "nn.SpectralNorm([4, 3], power_iters=1, eps=1e-6, dtype=paddle.get_default_dtype())", [4, 3]),
]

# AdaptiveLogSoftmaxWithLoss: (name, constructor, input shape, labels); forward, loss, gradients of every weight,
# log_prob and predict
ADAPTIVE = [
    ("adaptive", "nn.AdaptiveLogSoftmaxWithLoss(8, 13, [3, 7], div_value=2.0, head_bias=True)", [6, 8],
     [0, 4, 8, 12, 2, 6]),
    ("adaptive_one_cluster", "nn.AdaptiveLogSoftmaxWithLoss(6, 9, [4])", [5, 6], [8, 8, 1, 5, 0]),
]

# BeamSearchDecoder + dynamic_decode: (name, cell constructor, end_token, beam_size, dynamic_decode keywords);
# an Embedding(10, 4) in, the cell, a Linear(hidden, 10) out, all set from RandomState(0)
DECODE = [
    ("beam_gru", "nn.GRUCell(4, 6)", 3, 3, {"max_step_num": 6}),
    ("beam_lstm_ends", "nn.LSTMCell(4, 5)", 1, 2, {"output_time_major": True, "max_step_num": 20}),
    ("beam_rnn_one", "nn.SimpleRNNCell(4, 6)", 4, 1, {"max_step_num": 3}),
]


def decoder(paddle, cell_ctor, end_token, beam):
    """A BeamSearchDecoder over Embedding(10, 4) -> cell -> Linear(hidden, 10), weights from RandomState(0),
    and a [2, hidden] initial state (a pair of them for an LSTM cell). (``paddle``: the framework module, Paddle or pylayer_jax.)"""
    nn = paddle.nn
    rs = np.random.RandomState(0)
    cell = eval(cell_ctor)
    emb = nn.Embedding(10, 4)
    out = nn.Linear(cell.hidden_size, 10)
    emb.weight.set_value(rs.standard_normal((10, 4)).astype("float32"))
    out.weight.set_value(rs.standard_normal((cell.hidden_size, 10)).astype("float32"))
    out.bias.set_value(rs.standard_normal(10).astype("float32"))
    for _, p in cell.named_parameters():
        p.set_value((rs.standard_normal(p.shape) * 0.5).astype("float32"))
    h = paddle.to_tensor(rs.standard_normal((2, cell.hidden_size)).astype("float32"))
    if "LSTM" in cell_ctor:
        h = [h, paddle.to_tensor(rs.standard_normal((2, cell.hidden_size)).astype("float32"))]
    dec = nn.BeamSearchDecoder(cell, start_token=0, end_token=end_token, beam_size=beam, embedding_fn=emb,
                               output_fn=out)
    return dec, h, out
