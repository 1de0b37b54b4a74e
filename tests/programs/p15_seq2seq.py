"""Seq2seq with attention: GRU encoder, LSTMCell decoder with teacher forcing (a Python loop over time), additive
attention with a padding mask (masked_fill), label smoothing with one_hot + label_smooth, clip_grad_norm_, and a
greedy decoding loop with argmax feeding back; sequence_mask, paddle.where, cumsum-based lengths."""
import json
import os

import numpy as np
import paddle
import paddle.nn as nn
import paddle.nn.functional as F

V, E, Hd, S, T = 12, 8, 16, 6, 5
BOS, EOS, PAD = 1, 2, 0
rng = np.random.default_rng(0)
src = rng.integers(3, V, size=(32, S)).astype("int64")
src_len = rng.integers(3, S + 1, size=32).astype("int64")
for i, n in enumerate(src_len):
    src[i, n:] = PAD
tgt = np.full((32, T + 1), PAD, "int64")
tgt[:, 0] = BOS
for i in range(32):
    body = src[i, :min(src_len[i], T - 1)][::-1]
    tgt[i, 1:1 + len(body)] = body
    tgt[i, 1 + len(body)] = EOS


class Seq2Seq(nn.Layer):
    def __init__(self):
        super().__init__()
        self.src_emb = nn.Embedding(V, E, padding_idx=PAD)
        self.tgt_emb = nn.Embedding(V, E)
        self.enc = nn.GRU(E, Hd, time_major=False)
        self.cell = nn.LSTMCell(E + Hd, Hd)
        self.w_q, self.w_k, self.v = nn.Linear(Hd, Hd, bias_attr=False), nn.Linear(Hd, Hd), nn.Linear(Hd, 1, bias_attr=False)
        self.out = nn.Linear(2 * Hd, V)

    def encode(self, x, lens):
        mem, h = self.enc(self.src_emb(x), sequence_length=lens)
        mask = paddle.nn.functional.sequence_mask(lens, maxlen=x.shape[1]).astype("bool")
        return mem, h[0], mask

    def attend(self, q, mem, mask):
        score = self.v(F.tanh(self.w_q(q).unsqueeze(1) + self.w_k(mem))).squeeze(-1)
        score = paddle.where(mask, score, paddle.full_like(score, -1e9))
        a = F.softmax(score, axis=-1)
        return (a.unsqueeze(-1) * mem).sum(1), a

    def step(self, y_prev, state, ctx, mem, mask):
        h, c = self.cell(paddle.concat([self.tgt_emb(y_prev), ctx], -1), state)[1]
        ctx, a = self.attend(h, mem, mask)
        return self.out(paddle.concat([h, ctx], -1)), (h, c), ctx, a

    def forward(self, x, lens, y_in):
        mem, h, mask = self.encode(x, lens)
        state, ctx = (h, paddle.zeros_like(h)), paddle.zeros([x.shape[0], Hd])
        logits = []
        for t in range(y_in.shape[1]):
            lg, state, ctx, _ = self.step(y_in[:, t], state, ctx, mem, mask)
            logits.append(lg)
        return paddle.stack(logits, 1)


model = Seq2Seq()
r = np.random.default_rng(1)
model.set_state_dict({k: (r.standard_normal(v.shape) * 0.3).astype("float32") for k, v in model.state_dict().items()})
opt = paddle.optimizer.Adam(learning_rate=0.01, parameters=model.parameters())
rec = {"loss": [], "gnorm": []}
for step in range(10):
    i = (step % 4) * 8
    x, lens, y = paddle.to_tensor(src[i:i + 8]), paddle.to_tensor(src_len[i:i + 8]), paddle.to_tensor(tgt[i:i + 8])
    logits = model(x, lens, y[:, :-1])
    target = F.label_smooth(F.one_hot(y[:, 1:], V), epsilon=0.1)
    nonpad = (y[:, 1:] != PAD).astype("float32")
    loss = (F.cross_entropy(logits, target, soft_label=True, reduction="none").squeeze(-1) * nonpad).sum() / nonpad.sum()
    loss.backward()
    gn = paddle.nn.utils.clip_grad_norm_(model.parameters(), max_norm=2.0)
    opt.step()
    opt.clear_grad()
    rec["loss"].append(float(loss))
    rec["gnorm"].append(float(gn))

model.eval()
with paddle.no_grad():
    x, lens = paddle.to_tensor(src[:4]), paddle.to_tensor(src_len[:4])
    mem, h, mask = model.encode(x, lens)
    state, ctx = (h, paddle.zeros_like(h)), paddle.zeros([4, Hd])
    y_prev = paddle.full([4], BOS, "int64")
    out, done = [], paddle.zeros([4], "bool")
    for _t in range(T):
        lg, state, ctx, a = model.step(y_prev, state, ctx, mem, mask)
        y_prev = lg.argmax(-1)
        y_prev = paddle.where(done, paddle.full_like(y_prev, PAD), y_prev)
        done = done | (y_prev == EOS)
        out.append(y_prev)
    dec = paddle.stack(out, 1)
    rec["decoded"] = dec.numpy().tolist()
    rec["dec_len"] = ((dec != PAD).astype("int64").cumsum(1)[:, -1]).numpy().tolist()
    rec["attn_last"] = a.numpy().round(5).tolist()
with open(os.environ["PROGRAM_OUT"], "w") as f:
    json.dump(rec, f)
