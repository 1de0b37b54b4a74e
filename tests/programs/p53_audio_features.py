"""Speech-feature code with ``paddle.audio``: the feature layers ``Spectrogram`` / ``MelSpectrogram`` /
``LogMelSpectrogram`` / ``MFCC`` under several ``n_fft`` / ``hop_length`` / ``win_length`` / ``window`` /
``power`` / ``center`` / ``pad_mode`` / ``n_mels`` / ``f_min`` / ``f_max`` / ``htk`` / ``norm`` / ``top_db``
settings (on 1-D and batched waveforms), the functional helpers (``get_window`` for many windows, with and
without ``fftbins`` and in both dtypes, ``compute_fbank_matrix``, ``hz_to_mel`` / ``mel_to_hz`` on numbers and
tensors, ``mel_frequencies``, ``fft_frequencies``, ``power_to_db``, ``create_dct``), ``paddle.signal.stft`` /
``istft`` (a round trip with and without ``center``, ``normalized``, a two-sided transform of a complex signal,
``length``) and the gradient through ``stft``; then a tiny keyword-spotting classifier (MFCC front end, a
Conv1D + pooling + Linear head) trained 20 steps by Adam on synthetic tones, its losses, gradients and
predictions."""
import json
import os

import numpy as np
import paddle
import paddle.nn as nn
import paddle.nn.functional as F
from paddle.audio import features
from paddle.audio import functional as AF

rng = np.random.default_rng(0)
rec = {}


def v(t):
    a = np.asarray(t.numpy())
    return a.tolist() if a.dtype.kind in "biu" else a.astype("float64").tolist()


def s(t):
    """A compact summary of a big feature tensor (shape, dtype, sums and a few values)."""
    a = np.asarray(t.numpy()).astype("float64")
    return [list(t.shape), str(t.dtype), float(a.sum()), float(np.abs(a).sum()), a.reshape(-1)[:: max(1, a.size // 23)].tolist()]


sr = 8000
tt = np.arange(2000) / sr
wave = (0.5 * np.sin(2 * np.pi * 440 * tt) + 0.2 * np.sin(2 * np.pi * 1250 * tt)
        + 0.05 * rng.standard_normal(2000)).astype("float32")
batch = np.stack([wave, np.roll(wave, 300) * 0.7, rng.standard_normal(2000).astype("float32") * 0.1])
xw = paddle.to_tensor(wave)
xb = paddle.to_tensor(batch)

# ---- windows ---------------------------------------------------------------------------------
for name in ("hann", "hamming", "blackman", "bartlett", "triang", "cosine", "bohman", "nuttall", "taylor",
             "tukey"):
    rec[f"win_{name}"] = v(AF.get_window(name, 16))
    rec[f"win_{name}_sym"] = v(AF.get_window(name, 15, fftbins=False))
rec["win_gaussian"] = v(AF.get_window(("gaussian", 3.0), 12))
rec["win_kaiser"] = v(AF.get_window(("kaiser", 8.0), 12, fftbins=False))
rec["win_exponential"] = [v(AF.get_window(("exponential", None, 2.0), 11)), v(AF.get_window(("exponential", 3.0, 1.5), 9))]
rec["win_tuple_params"] = [v(AF.get_window(("tukey", 0.3), 10)), v(AF.get_window(("taylor", 3, 25), 10))]
for bad in ("gaussian", "kaiser", "exponential", "nosuch", ("exponential", 3.0, 1.0)):
    try:
        AF.get_window(bad, 8, fftbins=False)
        rec[f"win_err_{bad!s}"] = None
    except Exception as e:
        rec[f"win_err_{bad!s}"] = type(e).__name__
rec["win_general_gaussian"] = v(AF.get_window(("general_gaussian", 1.5, 2.0), 10))
rec["win_dtypes"] = [str(AF.get_window("hann", 8).dtype), str(AF.get_window("hann", 8, dtype="float32").dtype)]

# ---- mel helpers -------------------------------------------------------------------------------
rec["hz_to_mel"] = [AF.hz_to_mel(440.0), AF.hz_to_mel(440.0, htk=True), AF.hz_to_mel(3000.0)]
rec["mel_to_hz"] = [AF.mel_to_hz(10.0), AF.mel_to_hz(1500.0, htk=True), AF.mel_to_hz(40.0)]
freqs = paddle.to_tensor([0.0, 300.0, 1000.0, 2500.0, 4000.0])
rec["hz_to_mel_t"] = [v(AF.hz_to_mel(freqs)), v(AF.hz_to_mel(freqs, htk=True))]
rec["mel_to_hz_t"] = [v(AF.mel_to_hz(AF.hz_to_mel(freqs))), v(AF.mel_to_hz(paddle.to_tensor([5.0, 20.0, 35.0])))]
rec["mel_frequencies"] = [v(AF.mel_frequencies(10, 0.0, 4000.0)), v(AF.mel_frequencies(6, 100.0, 3000.0, htk=True))]
rec["fft_frequencies"] = v(AF.fft_frequencies(sr, 16))
fb = AF.compute_fbank_matrix(sr, 64, n_mels=12, f_min=20.0, f_max=3800.0)
rec["fbank"] = [list(fb.shape), str(fb.dtype), v(fb)]
rec["fbank_htk"] = v(AF.compute_fbank_matrix(sr, 32, n_mels=8, htk=True, norm=1.0))
rec["fbank_f64"] = s(AF.compute_fbank_matrix(sr, 32, n_mels=6, dtype="float64"))
spect = paddle.to_tensor(np.abs(rng.standard_normal((3, 5))).astype("float32") ** 3)
rec["power_to_db"] = [v(AF.power_to_db(spect)), v(AF.power_to_db(spect, ref_value=2.0, top_db=10.0)),
                      v(AF.power_to_db(spect, amin=1e-3, top_db=None))]
rec["dct"] = [v(AF.create_dct(5, 8)), v(AF.create_dct(4, 6, norm=None)), str(AF.create_dct(3, 4, dtype="float64").dtype)]

# ---- feature layers ------------------------------------------------------------------------------
rec["spec_default"] = s(features.Spectrogram(n_fft=128)(xw))
rec["spec_opts"] = s(features.Spectrogram(n_fft=64, hop_length=16, win_length=48, window="hamming", power=2.0)(xb))
rec["spec_nocenter"] = s(features.Spectrogram(n_fft=100, hop_length=25, center=False, window="blackman")(xb))
rec["spec_const"] = s(features.Spectrogram(n_fft=64, hop_length=32, pad_mode="constant", power=1.0)(xb))
rec["mel"] = s(features.MelSpectrogram(sr=sr, n_fft=256, hop_length=64, n_mels=20, f_min=0.0)(xb))
rec["mel_htk"] = s(features.MelSpectrogram(sr=sr, n_fft=128, hop_length=32, n_mels=16, htk=True, norm=2.0,
                                           f_max=3500.0, power=1.0, window="hamming")(xw))
rec["logmel"] = s(features.LogMelSpectrogram(sr=sr, n_fft=256, hop_length=80, n_mels=24, f_min=30.0)(xb))
rec["logmel_topdb"] = s(features.LogMelSpectrogram(sr=sr, n_fft=128, n_mels=16, top_db=40.0, ref_value=0.5)(xw))
rec["mfcc"] = s(features.MFCC(sr=sr, n_mfcc=13, n_fft=256, hop_length=80, n_mels=26)(xb))
rec["mfcc_opts"] = s(features.MFCC(sr=sr, n_mfcc=8, n_fft=128, hop_length=64, win_length=100, n_mels=20,
                                   window="blackman", center=False, top_db=60.0, htk=True)(xb[:1]))
m64 = features.MFCC(sr=sr, n_mfcc=6, n_fft=64, hop_length=32, n_mels=10, dtype="float64")
rec["mfcc_f64"] = s(m64(paddle.to_tensor(batch.astype("float64"))))
rec["mfcc_params"] = sorted(k for k, _ in m64.named_parameters())

# gradient through a feature layer
xg = paddle.to_tensor(batch[:2, :400], stop_gradient=False)
lm = features.LogMelSpectrogram(sr=sr, n_fft=64, hop_length=32, n_mels=8, f_min=0.0)
(lm(xg) * paddle.linspace(0.1, 1.0, 13)).mean().backward()
rec["logmel_grad"] = s(xg.grad)

# ---- stft / istft --------------------------------------------------------------------------------
win = paddle.to_tensor(np.hanning(64).astype("float32"))
S = paddle.signal.stft(xb, n_fft=64, hop_length=16, window=win)
rec["stft"] = [list(S.shape), str(S.dtype), float(paddle.abs(S).sum()), v(paddle.real(S[0, :3, :4])),
               v(paddle.imag(S[1, 5:8, 2:5]))]
rec["istft"] = v(paddle.signal.istft(S, n_fft=64, hop_length=16, window=win, length=2000)[:, ::97])
rec["roundtrip_err"] = float(paddle.abs(paddle.signal.istft(S, 64, 16, window=win, length=2000) - xb).max()) < 1e-4
Sn = paddle.signal.stft(xw, n_fft=32, hop_length=8, normalized=True, center=False)
rec["stft_norm"] = [list(Sn.shape), v(paddle.abs(Sn[:4, :5]))]
rec["istft_norm"] = v(paddle.signal.istft(Sn, n_fft=32, hop_length=8, normalized=True, center=False)[100:130])
xc = paddle.complex(paddle.to_tensor(batch[:2, :256]), paddle.to_tensor(batch[1:, :256]))
Sc = paddle.signal.stft(xc, n_fft=32, hop_length=8, onesided=False, pad_mode="constant")
rec["stft_complex"] = [list(Sc.shape), float(paddle.abs(Sc).sum())]
back = paddle.signal.istft(Sc, n_fft=32, hop_length=8, onesided=False, return_complex=True)
rec["istft_complex"] = [str(back.dtype), list(back.shape), float(paddle.abs(back - xc[:, :back.shape[1]]).max()) < 1e-4]
xs = paddle.to_tensor(wave[:300], stop_gradient=False)
Sg = paddle.signal.stft(xs, n_fft=32, hop_length=8, win_length=24, window=paddle.to_tensor(np.hamming(24).astype("float32")))
(paddle.abs(Sg) ** 2).sum().backward()
rec["stft_grad"] = v(xs.grad[::7])


# ---- keyword spotting --------------------------------------------------------------------------
def make_clip(k, r):
    f0 = [300.0, 700.0, 1500.0, 2500.0][k]
    t = np.arange(1600) / sr
    ph = r.uniform(0, 2 * np.pi)
    sig = np.sin(2 * np.pi * f0 * t + ph) * np.hanning(1600) + 0.1 * r.standard_normal(1600)
    return sig.astype("float32")


dr = np.random.default_rng(3)
labels = np.array([i % 4 for i in range(32)], dtype="int64")
clips = np.stack([make_clip(k, dr) for k in labels])


class KWS(nn.Layer):
    def __init__(self):
        super().__init__()
        self.mfcc = features.MFCC(sr=sr, n_mfcc=12, n_fft=256, hop_length=128, n_mels=20, f_min=20.0)
        self.conv = nn.Conv1D(12, 16, 3, padding=1, bias_attr=False)  # BN follows
        self.bn = nn.BatchNorm1D(16)
        self.fc = nn.Linear(16, 4)

    def forward(self, x):
        f = self.mfcc(x)                      # [B, n_mfcc, T]
        f = (f - f.mean(axis=-1, keepdim=True)) / 50.0
        h = F.relu(self.bn(self.conv(f)))
        h = F.adaptive_avg_pool1d(h, 1).squeeze(-1)
        return self.fc(h)


model = KWS()
pr = np.random.default_rng(7)
init = {}
for k, p in model.named_parameters():
    init[k] = (pr.standard_normal(p.shape) * 0.3).astype("float32") if k.endswith("weight") and p.ndim > 1 else \
        (np.ones(p.shape, "float32") if k == "bn.weight" else np.zeros(p.shape, "float32"))
model.set_state_dict(init)
rec["buffers"] = sorted(k for k, _ in model.named_buffers())
rec["state_keys"] = sorted(model.state_dict().keys())
opt = paddle.optimizer.Adam(learning_rate=0.02, parameters=model.parameters())
rec["loss"], rec["acc"] = [], []
for step in range(20):
    i = (step % 4) * 8
    xb_ = paddle.to_tensor(clips[i:i + 8])
    yb_ = paddle.to_tensor(labels[i:i + 8])
    logits = model(xb_)
    loss = F.cross_entropy(logits, yb_)
    loss.backward()
    if step in (0, 19):
        rec[f"grads_{step}"] = {n: None if p.grad is None else s(p.grad) for n, p in model.named_parameters()}
    opt.step()
    opt.clear_grad()
    rec["loss"].append(loss.item())
    rec["acc"].append(float(paddle.metric.accuracy(F.softmax(logits), yb_.unsqueeze(-1))))
model.eval()
with paddle.no_grad():
    out = model(paddle.to_tensor(clips))
rec["eval_pred"] = v(out.argmax(-1))
rec["eval_logits"] = v(out[:6])
rec["bn_stats"] = [v(model.bn._mean), v(model.bn._variance)]

with open(os.environ["PROGRAM_OUT"], "w") as f:
    json.dump(rec, f)
