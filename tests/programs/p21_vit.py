"""A ViT-style classifier: Conv2D patch embedding flattened to tokens, a CLS token and position embedding created
with TruncatedNormal (checked by statistics, then set from numpy), TransformerEncoderLayer(normalize_before=True)
stacked by a LayerList, LayerNorm(epsilon=1e-6), mixup with soft labels (cross_entropy(soft_label=True)) and
label_smooth, AdamW with apply_decay_param_fun and ClipGradByNorm under OneCycleLR, then LinearWarmup around
PolynomialDecay for a fine-tuning phase with a frozen patch embedding."""
import json
import os

import numpy as np
import paddle
import paddle.nn as nn
import paddle.nn.functional as F

IMG, P, C, D, H, NC = 8, 4, 3, 24, 4, 5
rng = np.random.default_rng(0)
X = rng.standard_normal((40, C, IMG, IMG)).astype("float32")
Y = (X[:, 0, :4, :4].mean((1, 2)) > 0).astype("int64") + 2 * (X[:, 1].mean((1, 2)) > 0).astype("int64")


class ViT(nn.Layer):
    def __init__(self, depth=2):
        super().__init__()
        self.patch = nn.Conv2D(C, D, P, stride=P)
        n = (IMG // P) ** 2
        tn = nn.initializer.TruncatedNormal(std=0.02)
        self.cls_token = self.create_parameter([1, 1, D], default_initializer=tn)
        self.pos_embed = self.create_parameter([1, n + 1, D], default_initializer=tn)
        self.blocks = nn.LayerList([
            nn.TransformerEncoderLayer(D, H, dim_feedforward=2 * D, dropout=0.0, activation="gelu",
                                       attn_dropout=0.0, act_dropout=0.0, normalize_before=True)
            for _ in range(depth)])
        self.norm = nn.LayerNorm(D, epsilon=1e-6)
        self.head = nn.Linear(D, NC)

    def forward(self, x):
        t = self.patch(x).flatten(2).transpose([0, 2, 1])          # [B, n, D]
        cls = self.cls_token.expand([x.shape[0], -1, -1])
        t = paddle.concat([cls, t], axis=1) + self.pos_embed
        for blk in self.blocks:
            t = blk(t)
        return self.head(self.norm(t)[:, 0])


paddle.seed(3)
model = ViT()
rec = {"cls_std_small": bool(float(model.cls_token.std()) < 0.05),
       "pos_trunc": bool(float(model.pos_embed.abs().max()) <= 0.04 + 1e-6),
       "names": [n for n, _ in model.named_parameters()][:8]}
r = np.random.default_rng(1)
model.set_state_dict({k: (r.standard_normal(v.shape) * 0.2).astype("float32") for k, v in model.state_dict().items()})

no_decay = {p.name for n, p in model.named_parameters() if n.endswith("bias") or "norm" in n or n in ("cls_token", "pos_embed")}
rec["n_no_decay"] = len(no_decay)
sched = paddle.optimizer.lr.OneCycleLR(max_learning_rate=3e-3, total_steps=15, phase_pct=0.3, anneal_strategy="cos")
opt = paddle.optimizer.AdamW(learning_rate=sched, parameters=model.parameters(), weight_decay=0.05, beta2=0.99,
                             apply_decay_param_fun=lambda name: name not in no_decay,
                             grad_clip=nn.ClipGradByNorm(0.5))
rec["loss"], rec["lr"] = [], []
lam = rng.beta(0.4, 0.4, size=15).astype("float32")
perm = [rng.permutation(8) for _ in range(15)]
for step in range(15):
    i = (step % 5) * 8
    x, y = paddle.to_tensor(X[i:i + 8]), paddle.to_tensor(Y[i:i + 8])
    soft = F.label_smooth(F.one_hot(y, NC), epsilon=0.1)
    pi = paddle.to_tensor(perm[step])
    xm = lam[step] * x + (1 - lam[step]) * paddle.gather(x, pi)
    ym = lam[step] * soft + (1 - lam[step]) * soft[pi]
    loss = F.cross_entropy(model(xm), ym, soft_label=True)
    loss.backward()
    opt.step()
    opt.clear_grad()
    sched.step()
    rec["loss"].append(loss.item())
    rec["lr"].append(opt.get_lr())

# fine-tune: freeze the patch embedding, warm up a polynomial decay
for p in model.patch.parameters():
    p.stop_gradient = True
ft_sched = paddle.optimizer.lr.LinearWarmup(paddle.optimizer.lr.PolynomialDecay(1e-3, decay_steps=6, end_lr=1e-5, power=2.0),
                                            warmup_steps=3, start_lr=1e-4, end_lr=1e-3)
ft_opt = paddle.optimizer.AdamW(learning_rate=ft_sched, parameters=[p for p in model.parameters() if not p.stop_gradient])
before = model.patch.weight.numpy().copy()
rec["ft_loss"], rec["ft_lr"] = [], []
for step in range(8):
    i = (step % 5) * 8
    loss = F.cross_entropy(model(paddle.to_tensor(X[i:i + 8])), paddle.to_tensor(Y[i:i + 8]), label_smoothing=0.1)
    loss.backward()
    rec.setdefault("patch_grad_none", model.patch.weight.grad is None)
    ft_opt.step()
    ft_opt.clear_grad()
    ft_sched.step()
    rec["ft_loss"].append(loss.item())
    rec["ft_lr"].append(ft_sched.last_lr)
rec["patch_unchanged"] = bool(np.array_equal(before, model.patch.weight.numpy()))
model.eval()
with paddle.no_grad():
    logits = model(paddle.to_tensor(X))
rec["acc"] = float((logits.argmax(-1).numpy() == Y).mean())
rec["probs"] = F.softmax(logits[:4], axis=-1).numpy().tolist()
with open(os.environ["PROGRAM_OUT"], "w") as f:
    json.dump(rec, f)
