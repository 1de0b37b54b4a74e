"""Time-series code: a temporal convolutional network (causal Conv1D with left padding by F.pad, dilated stacks,
data_format NCL and NLC), F.pad's constant / reflect / replicate / circular modes on 3-D input, a recurrent model
with a custom cell (a subclass of nn.RNNCellBase with state_shape, run by nn.RNN and by nn.BiRNN), F.unfold /
F.fold of sliding windows, paddle.signal.frame / overlap_add, paddle.signal.stft / istft with windows from paddle.audio.functional.get_window,
paddle.fft.rfft features, moving averages by cumsum and by a conv1d with a box kernel, paddle.diff (prepend /
append), paddle.roll; training by Adam under a MultiStepDecay schedule, then forecasting by a Python loop that
feeds predictions back (concat and slicing)."""
import json
import os

import numpy as np
import paddle
import paddle.nn as nn
import paddle.nn.functional as F

rng = np.random.default_rng(0)
rec = {}

# ---- data: a few noisy periodic series ----------------------------------------------------------
N, L, C = 12, 40, 2
t = np.arange(L + 8)
series = np.stack([np.stack([np.sin(2 * np.pi * t / (6 + i % 4)) + 0.3 * np.cos(2 * np.pi * t / 11 + i),
                             0.5 * np.sin(2 * np.pi * t / 9 + 0.2 * i)]) for i in range(N)])
series = (series + 0.05 * rng.standard_normal(series.shape)).astype("float32")      # [N, C, L + 8]

# ---- F.pad modes on 3-D input -------------------------------------------------------------------
x3 = paddle.to_tensor(np.arange(2 * 3 * 5, dtype="float32").reshape([2, 3, 5]))
pads = {}
for mode in ("constant", "reflect", "replicate", "circular"):
    pads[mode + "_ncl"] = F.pad(x3, [2, 1], mode=mode, data_format="NCL").numpy()[0].tolist()
    pads[mode + "_nlc"] = F.pad(x3.transpose([0, 2, 1]), [2, 1], mode=mode, data_format="NLC").numpy()[0].tolist()
pads["constant_value"] = F.pad(x3, [3, 0], value=-1.0).numpy()[1, 0].tolist()
pads["layer"] = nn.Pad1D([1, 2], mode="replicate")(x3).shape
rec["pads"] = pads


# ---- a TCN ------------------------------------------------------------------------------------------
class CausalConv(nn.Layer):
    def __init__(self, cin, cout, k, dilation, data_format="NCL"):
        super().__init__()
        self.left = (k - 1) * dilation
        self.data_format = data_format
        self.conv = nn.Conv1D(cin, cout, k, dilation=dilation, data_format=data_format)

    def forward(self, x):
        return self.conv(F.pad(x, [self.left, 0], mode="constant", data_format=self.data_format))


class TCNBlock(nn.Layer):
    def __init__(self, cin, cout, k, dilation):
        super().__init__()
        self.c1 = CausalConv(cin, cout, k, dilation)
        self.c2 = CausalConv(cout, cout, k, dilation)
        self.skip = nn.Conv1D(cin, cout, 1) if cin != cout else None

    def forward(self, x):
        h = F.relu(self.c1(x))
        h = F.relu(self.c2(h))
        return F.relu(h + (x if self.skip is None else self.skip(x)))


class TCN(nn.Layer):
    def __init__(self):
        super().__init__()
        self.blocks = nn.LayerList([TCNBlock(C, 8, 3, 1), TCNBlock(8, 8, 3, 2), TCNBlock(8, 8, 3, 4)])
        self.head = nn.Conv1D(8, C, 1)

    def forward(self, x):
        for b in self.blocks:
            x = b(x)
        return self.head(x)


tcn = TCN()
r = np.random.default_rng(1)
tcn.set_state_dict({k: (r.standard_normal(v.shape) * 0.3).astype("float32") for k, v in tcn.state_dict().items()})
rec["tcn_keys"] = sorted(tcn.state_dict().keys())

# causality: changing the future does not change the past outputs
xa = paddle.to_tensor(series[:2, :, :L])
xb = xa.clone()
xb[:, :, 30:] = 5.0
rec["causal"] = bool(paddle.allclose(tcn(xa)[:, :, :30], tcn(xb)[:, :, :30]).item())

# the same causal conv in NLC
cc = CausalConv(C, 4, 3, 2, data_format="NLC")
cc.set_state_dict({k: (r.standard_normal(v.shape) * 0.3).astype("float32") for k, v in cc.state_dict().items()})
rec["nlc_out"] = cc(xa.transpose([0, 2, 1]))[0, :6].numpy().tolist()
rec["nlc_w_shape"] = cc.conv.weight.shape

sched = paddle.optimizer.lr.MultiStepDecay(learning_rate=0.02, milestones=[4, 8], gamma=0.5)
opt = paddle.optimizer.Adam(learning_rate=sched, parameters=tcn.parameters())
rec["tcn_loss"], rec["lr"] = [], []
X_in = paddle.to_tensor(series[:, :, :L])
Y_next = paddle.to_tensor(series[:, :, 1:L + 1])
for _epoch in range(10):
    for i in range(0, N, 6):
        pred = tcn(X_in[i:i + 6])
        loss = F.mse_loss(pred, Y_next[i:i + 6])
        loss.backward()
        opt.step()
        opt.clear_grad()
        rec["tcn_loss"].append(loss.item())
    rec["lr"].append(opt.get_lr())
    sched.step()
rec["head_grad_none"] = tcn.head.weight.grad is None


# ---- a custom RNN cell --------------------------------------------------------------------------
class MinimalCell(nn.RNNCellBase):
    def __init__(self, input_size, hidden_size):
        super().__init__()
        self.input_size = input_size
        self.hidden_size = hidden_size
        self.ih = nn.Linear(input_size, 2 * hidden_size)
        self.hh = nn.Linear(hidden_size, 2 * hidden_size, bias_attr=False)

    @property
    def state_shape(self):
        return (self.hidden_size,)

    def forward(self, inputs, states=None):
        if states is None:
            states = self.get_initial_states(inputs, self.state_shape)
        z, c = paddle.split(self.ih(inputs) + self.hh(states), 2, axis=-1)
        z = F.sigmoid(z)
        h = z * states + (1 - z) * paddle.tanh(c)
        return h, h


class RNNForecaster(nn.Layer):
    def __init__(self):
        super().__init__()
        self.rnn = nn.RNN(MinimalCell(C, 10))
        self.birnn = nn.BiRNN(MinimalCell(10, 6), MinimalCell(10, 6))
        self.out = nn.Linear(12, C)

    def forward(self, x, seq_len=None):
        y, h = self.rnn(x, sequence_length=seq_len)
        z, (hf, hb) = self.birnn(y, sequence_length=seq_len)
        return self.out(z), h, hf, hb


rnn_model = RNNForecaster()
r = np.random.default_rng(2)
rnn_model.set_state_dict({k: (r.standard_normal(v.shape) * 0.3).astype("float32")
                          for k, v in rnn_model.state_dict().items()})
rec["rnn_keys"] = sorted(rnn_model.state_dict().keys())
cell = rnn_model.rnn.cell
init = cell.get_initial_states(paddle.zeros([3, C]), cell.state_shape, init_value=0.5)
rec["init_state"] = [init.shape, init.numpy()[0, :3].tolist(), str(init.dtype)]

seq = paddle.to_tensor(series[:, :, :16].transpose(0, 2, 1))          # [N, 16, C]
tgt = paddle.to_tensor(series[:, :, 1:17].transpose(0, 2, 1))
ropt = paddle.optimizer.Adam(learning_rate=0.01, parameters=rnn_model.parameters())
rec["rnn_loss"] = []
for step in range(8):
    pred, h, hf, hb = rnn_model(seq)
    loss = F.mse_loss(pred, tgt)
    loss.backward()
    if step == 0:
        rec["rnn_grad0"] = rnn_model.rnn.cell.hh.weight.grad.numpy()[0].tolist()
    ropt.step()
    ropt.clear_grad()
    rec["rnn_loss"].append(loss.item())
rec["rnn_state_shapes"] = [h.shape, hf.shape, hb.shape]
with paddle.no_grad():
    lens = paddle.to_tensor([16, 10, 5, 12], dtype="int64")
    pred, h, hf, hb = rnn_model(seq[:4], lens)
    rec["rnn_var_len"] = [pred[1, 9].numpy().tolist(), pred[1, 12].numpy().tolist(), h.numpy()[2].tolist(),
                          hb.numpy()[2].tolist()]

# ---- sliding windows: unfold / fold -------------------------------------------------------------
x4 = paddle.to_tensor(series[:2, :, :12]).unsqueeze(2)                   # [2, C, 1, 12]
win = F.unfold(x4, kernel_sizes=[1, 4], strides=[1, 2])
rec["unfold"] = [win.shape, win.numpy()[0, :, 1].tolist()]
back = F.fold(win, output_sizes=[1, 12], kernel_sizes=[1, 4], strides=[1, 2])
count = F.fold(F.unfold(paddle.ones_like(x4), [1, 4], strides=[1, 2]), [1, 12], [1, 4], strides=[1, 2])
rec["fold"] = [back.shape, (back / count).numpy()[0, 0, 0].tolist(), count.numpy()[0, 0, 0].tolist()]
img = paddle.to_tensor(rng.standard_normal((1, 2, 5, 6)).astype("float32"))
u2 = F.unfold(img, kernel_sizes=3, strides=1, paddings=1, dilations=1)
rec["unfold_2d"] = [u2.shape, u2.numpy()[0, 4, :6].tolist(),
                    F.fold(u2, [5, 6], 3, paddings=1).numpy()[0, 1, 2].tolist()]

# ---- spectral features ------------------------------------------------------------------------
from paddle.audio.functional import get_window  # noqa: E402

sig = paddle.to_tensor(series[:3, 0, :])                                 # [3, 48]
hann = get_window("hann", 16)
rec["hann"] = [str(hann.dtype), hann.numpy()[:5].tolist()]
hamming = get_window("hamming", 16, fftbins=False, dtype="float32")
rec["hamming"] = [str(hamming.dtype), hamming.numpy()[:5].tolist()]
spec = paddle.signal.stft(sig, n_fft=16, hop_length=4, window=hann.astype("float32"))
rec["stft"] = [spec.shape, str(spec.dtype), spec.abs().numpy()[0, :4, 2].tolist()]
spec2 = paddle.signal.stft(sig, n_fft=16, hop_length=8, win_length=12, center=False, onesided=False,
                           normalized=True)
rec["stft_full"] = [spec2.shape, spec2.real().numpy()[1, :3, 1].tolist(), spec2.imag().numpy()[1, 1:4, 0].tolist()]
spec3 = paddle.signal.stft(sig, n_fft=16, hop_length=4, pad_mode="constant",
                           window=get_window("blackman", 16, dtype="float32"))
rec["stft_const"] = spec3.abs().numpy()[2, :3, 0].tolist()
recon = paddle.signal.istft(spec, n_fft=16, hop_length=4, window=hann.astype("float32"), length=48)
rec["istft"] = [recon.shape, float(paddle.abs(recon - sig).max()), recon.numpy()[0, 10:14].tolist()]

frames = paddle.signal.frame(sig, frame_length=8, hop_length=4)                 # [3, 8, 11]
frame_energy = (frames ** 2).mean(axis=1)
rec["frames"] = [frames.shape, frame_energy.numpy()[0].tolist(),
                 paddle.signal.frame(sig.T, 8, 8, axis=0).shape]
tapered = frames * hann.astype("float32")[::2].unsqueeze(-1)
rec["overlap_add"] = [paddle.signal.overlap_add(tapered, hop_length=4).numpy()[0, :10].tolist(),
                      paddle.signal.overlap_add(frames.transpose([2, 1, 0]), 4, axis=0).shape]

feats = paddle.fft.rfft(sig, axis=-1)
power = (feats.abs() ** 2) / 48
rec["rfft_feats"] = [feats.shape, power.numpy()[:, :6].tolist(),
                     paddle.argmax(power[:, 1:], axis=-1).numpy().tolist()]
rec["rfft_n"] = paddle.fft.rfft(sig, n=32, norm="forward").abs().numpy()[0, :4].tolist()

# ---- moving averages, diff, roll --------------------------------------------------------------
k = 5
cs = paddle.cumsum(sig, axis=-1)
cs = paddle.concat([paddle.zeros([3, 1]), cs], axis=-1)
ma_cumsum = (cs[:, k:] - cs[:, :-k]) / k
box = paddle.full([1, 1, k], 1.0 / k)
ma_conv = F.conv1d(sig.unsqueeze(1), box).squeeze(1)
rec["ma"] = [ma_cumsum.shape, ma_cumsum.numpy()[0, :5].tolist(),
             bool(paddle.allclose(ma_cumsum, ma_conv, atol=1e-5).item())]
ma_same = F.conv1d(F.pad(sig.unsqueeze(1), [k - 1, 0], mode="replicate", data_format="NCL"), box)
rec["ma_causal"] = ma_same.numpy()[1, 0, :6].tolist()
ema = [sig[:, 0]]
for i in range(1, 10):
    ema.append(0.3 * sig[:, i] + 0.7 * ema[-1])
rec["ema"] = paddle.stack(ema, axis=1).numpy()[0].tolist()
rec["diff"] = [paddle.diff(sig, axis=-1).numpy()[0, :4].tolist(),
               paddle.diff(sig[:, :6], n=2).numpy()[0].tolist(),
               paddle.diff(sig[:, :4], prepend=sig[:, :1], append=paddle.zeros([3, 2])).numpy()[2].tolist(),
               paddle.diff(paddle.to_tensor([1, 4, 9, 16])).numpy().tolist()]
rec["roll"] = [paddle.roll(sig[:, :6], shifts=2, axis=-1).numpy()[0].tolist(),
               paddle.roll(sig[:, :4], shifts=[1, -1], axis=[0, 1]).numpy().tolist(),
               paddle.roll(paddle.arange(6).reshape([2, 3]), 1).numpy().tolist()]
lagged = paddle.stack([paddle.roll(sig, s, axis=-1)[:, 4:] for s in range(4)], axis=-1)
rec["lagged"] = [lagged.shape, lagged.numpy()[0, 0].tolist()]

# roll / diff gradients
w = paddle.to_tensor(series[0, 0, :6], stop_gradient=False)
(paddle.diff(w, n=2) * paddle.arange(4, dtype="float32")).sum().backward()
rec["diff_grad"] = w.grad.numpy().tolist()
w.clear_grad()
(paddle.roll(w, 2) * paddle.arange(6, dtype="float32")).sum().backward()
rec["roll_grad"] = w.grad.numpy().tolist()

# ---- forecasting by feeding predictions back --------------------------------------------------
tcn.eval()
hist = paddle.to_tensor(series[:2, :, :L])
preds = []
with paddle.no_grad():
    for _ in range(6):
        nxt = tcn(hist)[:, :, -1:]
        preds.append(nxt)
        hist = paddle.concat([hist[:, :, 1:], nxt], axis=-1)
fc = paddle.concat(preds, axis=-1)
rec["forecast"] = [fc.shape, fc.numpy()[0].tolist(), hist.shape]
rec["forecast_mse"] = F.mse_loss(fc, paddle.to_tensor(series[:2, :, L:L + 6])).item()

rnn_model.eval()
ctx = seq[:2]
out_steps = []
with paddle.no_grad():
    for _ in range(4):
        p, _, _, _ = rnn_model(ctx)
        out_steps.append(p[:, -1:])
        ctx = paddle.concat([ctx, p[:, -1:]], axis=1)
rec["rnn_forecast"] = [ctx.shape, paddle.concat(out_steps, axis=1).numpy()[1].tolist()]

with open(os.environ["PROGRAM_OUT"], "w") as f:
    json.dump(rec, f)
