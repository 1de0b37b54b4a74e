"""Sequence regression: bidirectional 2-layer LSTM with sequence_length, a GRU on top, last valid states gathered
by gather_nd and by final states, MSE loss, Adam; then a variable-length inference batch."""
import json
import os

import numpy as np
import paddle
import paddle.nn as nn
import paddle.nn.functional as F

rng = np.random.default_rng(0)
N, T, IN = 24, 7, 5
X = rng.standard_normal((N, T, IN)).astype("float32")
lens = rng.integers(2, T + 1, size=N).astype("int64")
Y = np.stack([X[i, :lens[i]].sum(0)[:2] for i in range(N)]).astype("float32")


class SeqModel(nn.Layer):
    def __init__(self):
        super().__init__()
        self.lstm = nn.LSTM(IN, 8, num_layers=2, direction="bidirect")
        self.gru = nn.GRU(16, 6)
        self.out = nn.Linear(16 + 6 + 6, 2)

    def forward(self, x, seq_len):
        y, (h, c) = self.lstm(x, sequence_length=seq_len)
        last_fw_bw = paddle.concat([h[-2], h[-1]], axis=-1)  # the last layer's two directions
        z, hg = self.gru(y, sequence_length=seq_len)
        idx = paddle.stack([paddle.arange(x.shape[0]), seq_len - 1], axis=1)
        z_last = paddle.gather_nd(z, idx)
        return self.out(paddle.concat([last_fw_bw, z_last, hg[0]], axis=-1))


model = SeqModel()
r = np.random.default_rng(1)
model.set_state_dict({k: (r.standard_normal(v.shape) * 0.3).astype("float32") for k, v in model.state_dict().items()})
opt = paddle.optimizer.Adam(learning_rate=0.01, parameters=model.parameters())
rec = {"loss": [], "names": sorted(model.state_dict().keys())}
for step in range(12):
    i = (step % 3) * 8
    x, sl, y = paddle.to_tensor(X[i:i + 8]), paddle.to_tensor(lens[i:i + 8]), paddle.to_tensor(Y[i:i + 8])
    loss = F.mse_loss(model(x, sl), y)
    loss.backward()
    opt.step()
    opt.clear_grad()
    rec["loss"].append(float(loss))
model.eval()
with paddle.no_grad():
    out, (h, c) = model.lstm(paddle.to_tensor(X[:4]), sequence_length=paddle.to_tensor(lens[:4]))
    rec["padded_out"] = out[:, -1].numpy().tolist()  # zeros past each length
    rec["h_shape"] = list(h.shape)
    rec["pred"] = model(paddle.to_tensor(X), paddle.to_tensor(lens)).numpy().tolist()
with open(os.environ["PROGRAM_OUT"], "w") as f:
    json.dump(rec, f)
