"""A character-level language model: Embedding, a 2-layer nn.LSTM (its dropout between layers is 0 while training,
as masks come from the random stream; a dropout LSTM is checked in eval mode), a SimpleRNN(tanh) on top with initial states, per-token F.cross_entropy with
ignore_index and reduction='none' masked by hand, perplexity, clip_grad_norm_, RMSProp; then generation: greedy
decoding with argmax and concat, and sampling with paddle.multinomial under paddle.seed (its draws come from
Paddle's generator, so only what does not depend on the stream is recorded: shapes, ranges, repeatability)."""
import json
import math
import os

import numpy as np
import paddle
import paddle.nn as nn
import paddle.nn.functional as F

text = "the cat sat on the mat. the dog ate the hat. a cat and a dog. "
chars = sorted(set(text))
PAD = len(chars)
V = PAD + 1
stoi = {c: i for i, c in enumerate(chars)}
data = np.array([stoi[c] for c in text * 3], "int64")
rng = np.random.default_rng(0)
T, B = 12, 6


class CharLM(nn.Layer):
    def __init__(self):
        super().__init__()
        self.emb = nn.Embedding(V, 16, padding_idx=PAD)
        self.lstm = nn.LSTM(16, 24, num_layers=2, dropout=0.0)
        self.rnn = nn.SimpleRNN(24, 20, activation="tanh")
        self.out = nn.Linear(20, V)

    def forward(self, x, state=None):
        h, (hn, cn) = self.lstm(self.emb(x), None if state is None else state[0])
        init = None if state is None else state[1]
        h2, hr = self.rnn(h, init)
        return self.out(h2), ((hn, cn), hr)


model = CharLM()
r = np.random.default_rng(1)
model.set_state_dict({k: (r.standard_normal(v.shape) * 0.25).astype("float32") for k, v in model.state_dict().items()})
opt = paddle.optimizer.RMSProp(learning_rate=0.01, rho=0.9, momentum=0.5, parameters=model.parameters())
rec = {"loss": [], "ppl": [], "gnorm": []}
for _step in range(12):
    starts = rng.integers(0, len(data) - T - 1, size=B)
    x = np.stack([data[s:s + T] for s in starts])
    y = np.stack([data[s + 1:s + T + 1] for s in starts])
    cut = rng.integers(T // 2, T + 1, size=B)
    for b, c in enumerate(cut):                 # ragged batch: padded inputs, ignored targets
        x[b, c:] = PAD
        y[b, c:] = PAD
    logits, _ = model(paddle.to_tensor(x))
    tgt = paddle.to_tensor(y)
    tok = F.cross_entropy(logits.reshape([-1, V]), tgt.reshape([-1]), ignore_index=PAD, reduction="none")
    mask = (tgt.reshape([-1]) != PAD).astype("float32")
    loss = (tok.squeeze(-1) * mask).sum() / mask.sum() if tok.ndim == 2 else (tok * mask).sum() / mask.sum()
    mean_loss = F.cross_entropy(logits.reshape([-1, V]), tgt.reshape([-1]), ignore_index=PAD)
    loss.backward()
    gn = nn.utils.clip_grad_norm_(model.parameters(), max_norm=2.0)
    opt.step()
    opt.clear_grad()
    rec["loss"].append([loss.item(), mean_loss.item()])
    rec["ppl"].append(math.exp(loss.item()))
    rec["gnorm"].append(float(gn))
rec["tok_shape"] = list(tok.shape)

model.eval()
with paddle.no_grad():
    drop_lstm = nn.LSTM(16, 24, num_layers=2, dropout=0.3)
    drop_lstm.set_state_dict(model.lstm.state_dict())
    drop_lstm.eval()
    xe = model.emb(paddle.to_tensor(data[:T].reshape(1, T)))
    rec["eval_dropout_lstm_same"] = bool(paddle.allclose(drop_lstm(xe)[0], model.lstm(xe)[0]).item())
    seq = paddle.to_tensor([[stoi["t"], stoi["h"]]])
    logits, state = model(seq)
    for _ in range(10):
        nxt = logits[:, -1].argmax(-1, keepdim=True)
        seq = paddle.concat([seq, nxt], axis=1)
        logits, state = model(nxt, state)
    rec["greedy"] = "".join(chars[i] for i in seq.numpy()[0].tolist())

    probs = F.softmax(logits[:, -1] / 0.8, axis=-1).tile([4, 1])
    paddle.seed(11)
    s1 = paddle.multinomial(probs, num_samples=5, replacement=True)
    paddle.seed(11)
    s2 = paddle.multinomial(probs, num_samples=5, replacement=True)
    s3 = paddle.multinomial(probs, num_samples=V, replacement=False)
    rec["multinomial"] = {"shape": list(s1.shape), "dtype": str(s1.dtype), "repeat": bool((s1 == s2).all()),
                          "in_range": bool(((s1 >= 0) & (s1 < V)).all()),
                          "no_repl_perm": sorted(s3[0].numpy().tolist()) == list(range(V))}
    top = paddle.topk(probs[0], k=3)
    rec["top3"] = [top[0].numpy().tolist(), top[1].numpy().tolist()]
with open(os.environ["PROGRAM_OUT"], "w") as f:
    json.dump(rec, f)
