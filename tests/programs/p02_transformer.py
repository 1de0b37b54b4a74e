"""Transformer text classifier: Embedding + positional Embedding, TransformerEncoder with a padding src_mask,
attention pooling by a MultiHeadAttention query, LayerNorm, GELU, masked mean pooling, AdamW with
LinearWarmup(CosineAnnealingDecay), ClipGradByGlobalNorm, apply_decay_param_fun by parameter name."""
import json
import os

import numpy as np
import paddle
import paddle.nn as nn
import paddle.nn.functional as F

VOCAB, L, D, H, PAD = 40, 10, 32, 4, 0
rng = np.random.default_rng(0)
lengths = rng.integers(3, L + 1, size=48)
ids = np.zeros((48, L), "int64")
for i, n in enumerate(lengths):
    ids[i, :n] = rng.integers(1, VOCAB, size=n)
labels = ((ids == 5).any(1) | (ids == 7).any(1)).astype("int64")


class TextClassifier(nn.Layer):
    def __init__(self):
        super().__init__()
        self.embed = nn.Embedding(VOCAB, D, padding_idx=PAD)
        self.pos = nn.Embedding(L, D)
        layer = nn.TransformerEncoderLayer(D, H, dim_feedforward=64, dropout=0.0, activation="gelu",
                                           normalize_before=True)
        self.encoder = nn.TransformerEncoder(layer, num_layers=2, norm=nn.LayerNorm(D))
        self.query = self.create_parameter([1, 1, D], default_initializer=nn.initializer.Constant(0.1))
        self.pool_attn = nn.MultiHeadAttention(D, H)
        self.head = nn.Sequential(nn.Linear(2 * D, D), nn.GELU(), nn.Linear(D, 2))

    def forward(self, x):
        pad = (x == PAD)
        pos = paddle.arange(x.shape[1]).unsqueeze(0)
        h = self.embed(x) + self.pos(pos)
        mask = paddle.where(pad, paddle.full([], -1e9, "float32"), paddle.zeros([], "float32"))
        mask = mask.unsqueeze([1, 2])  # [B, 1, 1, L]
        h = self.encoder(h, src_mask=mask)
        keep = (~pad).astype("float32").unsqueeze(-1)
        mean = (h * keep).sum(axis=1) / keep.sum(axis=1)
        q = self.query.expand([x.shape[0], 1, D])
        attn = self.pool_attn(q, h, h, attn_mask=(~pad).unsqueeze([1, 2]))  # bool mask: True attends
        return self.head(paddle.concat([mean, attn.squeeze(1)], axis=-1))


model = TextClassifier()
r = np.random.default_rng(1)
model.set_state_dict({k: (r.standard_normal(v.shape) * 0.2).astype("float32") for k, v in model.state_dict().items()})

decay = [p.name for n, p in model.named_parameters() if not any(s in n for s in ("bias", "norm"))]
sched = paddle.optimizer.lr.LinearWarmup(paddle.optimizer.lr.CosineAnnealingDecay(3e-3, T_max=12), warmup_steps=4,
                                         start_lr=0.0, end_lr=3e-3)
opt = paddle.optimizer.AdamW(learning_rate=sched, parameters=model.parameters(), weight_decay=0.05,
                             apply_decay_param_fun=lambda name: name in decay,
                             grad_clip=nn.ClipGradByGlobalNorm(1.0))
rec = {"loss": [], "lr": [], "gnorm": [], "n_decay": len(decay), "n_params": len(model.parameters())}
for _epoch in range(3):
    for i in range(0, 48, 12):
        x, y = paddle.to_tensor(ids[i:i + 12]), paddle.to_tensor(labels[i:i + 12])
        logits = model(x)
        loss = F.cross_entropy(logits, y)
        loss.backward()
        gn = paddle.sqrt(sum((p.grad ** 2).sum() for p in model.parameters() if p.grad is not None))
        rec["gnorm"].append(float(gn))
        opt.step()
        opt.clear_grad()
        sched.step()
        rec["loss"].append(loss.item())
        rec["lr"].append(sched.get_lr())
model.eval()
with paddle.no_grad():
    out = model(paddle.to_tensor(ids))
    rec["pred"] = out.argmax(-1).numpy().tolist()
    rec["probs"] = F.softmax(out, -1)[:6].numpy().tolist()
rec["query"] = model.query.numpy().ravel()[:5].tolist()
with open(os.environ["PROGRAM_OUT"], "w") as f:
    json.dump(rec, f)
