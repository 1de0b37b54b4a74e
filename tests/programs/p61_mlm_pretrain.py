"""A tiny BERT-style masked-language-model pretraining loop: token, position and segment embeddings summed and
normalised, ``nn.TransformerEncoder`` (pre- and post-norm layers) fed attention masks built three ways (a float
additive mask of -1e4 from the lengths, a bool keep-mask, and a -inf float mask), tokens masked at random with
numpy (80/10/10 rule), masked positions gathered with ``paddle.gather`` on the flattened sequence,
``masked_select`` and boolean indexing, a decoder tied to the word embedding (``matmul(..., transpose_y=True)``
plus a bias), ``cross_entropy`` with ``ignore_index=-100`` under each reduction, accuracy by ``argmax``, a
``LinearWarmup`` around ``PolynomialDecay``, ``AdamW`` with ``apply_decay_param_fun`` that excludes biases and
norms, ``ClipGradByGlobalNorm``; 20 steps, then evaluation under ``paddle.no_grad()``; the optimizer's and
schedule's state dicts, ``clip_grad_norm_``, ``scaled_dot_product_attention`` and label smoothing.

Left out: ``F.nll_loss(..., ignore_index=-100)`` on labels holding -100 corrupts Paddle 3.3.1's heap on CPU (it
aborts with ``free(): invalid next size``); pylayer_jax gives the mean over the kept labels."""
import json
import os

import numpy as np
import paddle
import paddle.nn as nn
import paddle.nn.functional as F

V, H, L, B, HEADS, FF = 24, 16, 10, 6, 4, 32
PAD, CLS, SEP, MASK = 0, 1, 2, 3
rng = np.random.default_rng(0)
rec = {}


class Embeddings(nn.Layer):
    def __init__(self):
        super().__init__()
        self.word = nn.Embedding(V, H, padding_idx=PAD)
        self.pos = nn.Embedding(L, H)
        self.seg = nn.Embedding(2, H)
        self.norm = nn.LayerNorm(H)
        self.drop = nn.Dropout(0.0)

    def forward(self, ids, segs):
        pos = paddle.arange(ids.shape[1], dtype="int64").unsqueeze(0).expand_as(ids)
        return self.drop(self.norm(self.word(ids) + self.pos(pos) + self.seg(segs)))


class MLM(nn.Layer):
    def __init__(self, pre_norm):
        super().__init__()
        self.emb = Embeddings()
        layer = nn.TransformerEncoderLayer(H, HEADS, FF, dropout=0.0, activation="gelu", normalize_before=pre_norm)
        self.encoder = nn.TransformerEncoder(layer, 2, norm=nn.LayerNorm(H) if pre_norm else None)
        self.transform = nn.Linear(H, H)
        self.tnorm = nn.LayerNorm(H)
        self.dec_bias = self.create_parameter([V], is_bias=True)

    def forward(self, ids, segs, mask, positions=None):
        h = self.encoder(self.emb(ids, segs), src_mask=mask)
        if positions is not None:
            h = paddle.gather(h.reshape([-1, H]), positions)
        h = self.tnorm(F.gelu(self.transform(h)))
        return paddle.matmul(h, self.emb.word.weight, transpose_y=True) + self.dec_bias, h


def init(model, seed):
    r = np.random.default_rng(seed)
    for name, p in model.named_parameters():
        if "norm" in name and name.endswith("weight"):
            p.set_value(np.ones(p.shape, "float32"))
        elif name.endswith("bias") or "bias" in name:
            p.set_value((r.standard_normal(p.shape) * 0.02).astype("float32"))
        else:
            p.set_value((r.standard_normal(p.shape) * 0.2).astype("float32"))


def make_batch():
    lens = rng.integers(5, L + 1, size=B)
    ids = np.full((B, L), PAD, "int64")
    segs = np.zeros((B, L), "int64")
    for i, n in enumerate(lens):
        ids[i, 0] = CLS
        ids[i, 1:n - 1] = rng.integers(4, V, size=n - 2)
        ids[i, n - 1] = SEP
        segs[i, n // 2:n] = 1
    labels = np.full((B, L), -100, "int64")
    inp = ids.copy()
    for i, n in enumerate(lens):
        cand = np.arange(1, n - 1)
        pick = rng.choice(cand, size=max(1, int(round(0.3 * len(cand)))), replace=False)
        labels[i, pick] = ids[i, pick]
        for p in pick:
            u = rng.random()
            inp[i, p] = MASK if u < 0.8 else (rng.integers(4, V) if u < 0.9 else ids[i, p])
    return inp, segs, lens, labels


def additive_mask(lens_t, kind):
    keep = paddle.arange(L).unsqueeze(0) < lens_t.unsqueeze(1)  # [B, L] bool
    if kind == "bool":
        return keep.unsqueeze(1).unsqueeze(1)
    m = (1.0 - keep.astype("float32")).unsqueeze([1, 2])
    if kind == "neg_inf":
        return paddle.where(m > 0, paddle.full_like(m, float("-inf")), paddle.zeros_like(m))
    return m * -1e4


batches = [make_batch() for _ in range(4)]
rec["first_batch"] = [b.tolist() for b in batches[0]]

for pre_norm, kind in ((False, "float"), (True, "bool")):
    tag = f"{'pre' if pre_norm else 'post'}_{kind}"
    model = MLM(pre_norm)
    init(model, 1)
    rec[f"{tag}_param_names"] = [n for n, _ in model.named_parameters()]
    rec[f"{tag}_tied"] = model.emb.word.weight is model.emb.word.weight
    decay_names = set()

    def decay_fun(name, _names=decay_names):
        ok = not any(s in name for s in ("bias", "norm"))
        if ok:
            _names.add(name)
        return ok

    names = {p.name: n for n, p in model.named_parameters()}
    sched = paddle.optimizer.lr.LinearWarmup(
        paddle.optimizer.lr.PolynomialDecay(learning_rate=5e-3, decay_steps=16, end_lr=1e-4, power=1.0),
        warmup_steps=4, start_lr=0.0, end_lr=5e-3)
    opt = paddle.optimizer.AdamW(learning_rate=sched, parameters=model.parameters(), weight_decay=0.05,
                                 apply_decay_param_fun=lambda n, _m=names: decay_fun(_m.get(n, n)),
                                 grad_clip=nn.ClipGradByGlobalNorm(1.0))
    losses, lrs, accs, norms = [], [], [], []
    for step in range(20):
        inp, segs, lens, labels = batches[step % len(batches)]
        ids_t, segs_t, lab_t = paddle.to_tensor(inp), paddle.to_tensor(segs), paddle.to_tensor(labels)
        mask = additive_mask(paddle.to_tensor(lens), kind)
        if step % 2 == 0:
            flat = lab_t.reshape([-1])
            pos = paddle.nonzero(flat != -100).squeeze(-1)
            logits, _ = model(ids_t, segs_t, mask, positions=pos)
            tgt = paddle.gather(flat, pos)
            loss = F.cross_entropy(logits, tgt)
        else:
            logits, _ = model(ids_t, segs_t, mask)
            loss = F.cross_entropy(logits.reshape([-1, V]), lab_t.reshape([-1]), ignore_index=-100)
            sel = lab_t != -100
            tgt = paddle.masked_select(lab_t, sel)
            logits = logits[sel]
        accs.append(float((logits.argmax(-1) == tgt).astype("float32").mean()))
        loss.backward()
        if step == 3:
            rec[f"{tag}_grads"] = {
                "word": model.emb.word.weight.grad.numpy()[:6].tolist(),
                "dec_bias": model.dec_bias.grad.numpy().tolist(),
                "q0": model.encoder.layers[0].self_attn.q_proj.weight.grad.numpy()[:3].tolist(),
                "ln_last": model.tnorm.weight.grad.numpy().tolist(),
            }
            norms.append(float(paddle.sqrt(sum((p.grad ** 2).sum() for p in model.parameters()))))
        opt.step()
        opt.clear_grad()
        lrs.append(opt.get_lr())
        sched.step()
        losses.append(float(loss))
    rec[f"{tag}_losses"], rec[f"{tag}_lrs"], rec[f"{tag}_accs"], rec[f"{tag}_norm"] = losses, lrs, accs, norms
    rec[f"{tag}_decayed"] = sorted(decay_names)
    rec[f"{tag}_word_pad_row"] = model.emb.word.weight.numpy()[PAD].tolist()

    model.eval()
    with paddle.no_grad():
        inp, segs, lens, labels = batches[0]
        lab_t = paddle.to_tensor(labels)
        logits, h = model(paddle.to_tensor(inp), paddle.to_tensor(segs), additive_mask(paddle.to_tensor(lens), kind))
        rec[f"{tag}_eval_stop_grad"] = [logits.stop_gradient, h.stop_gradient]
        flat_l, flat_y = logits.reshape([-1, V]), lab_t.reshape([-1])
        for red in ("mean", "sum", "none"):
            v = F.cross_entropy(flat_l, flat_y, ignore_index=-100, reduction=red)
            rec[f"{tag}_eval_ce_{red}"] = [v.numpy().tolist(), list(v.shape)]
        valid = flat_y != -100
        pred = flat_l.argmax(-1)
        rec[f"{tag}_eval_acc"] = float(((pred == flat_y) & valid).astype("float32").sum() / valid.astype("float32").sum())
        rec[f"{tag}_eval_pred_dtype"] = str(pred.dtype)
        m = paddle.metric.Accuracy(topk=(1, 3))
        corr = m.compute(flat_l[valid], flat_y[valid].unsqueeze(-1))
        m.update(corr)
        rec[f"{tag}_eval_metric"] = m.accumulate()

# the three mask forms agree on a model with identical parameters
model = MLM(False)
init(model, 2)
model.eval()
inp, segs, lens, _ = batches[1]
outs = [model(paddle.to_tensor(inp), paddle.to_tensor(segs), additive_mask(paddle.to_tensor(lens), k))[0].numpy()
        for k in ("float", "bool", "neg_inf")]
rec["mask_forms"] = [float(np.abs(outs[0] - outs[1]).max()), float(np.abs(outs[0] - outs[2]).max()),
                     outs[0][0, :3, :4].tolist()]
attn = nn.MultiHeadAttention(H, HEADS, need_weights=True)
init(attn, 3)
x = paddle.to_tensor(rng.standard_normal((2, 5, H)).astype("float32"))
keep = paddle.to_tensor([[True] * 5, [True] * 3 + [False] * 2]).unsqueeze([1, 2])
o, w = attn(x, x, x, attn_mask=keep)
rec["mha_weights"] = w.numpy()[1, 0].tolist()
rec["mha_out"] = o.numpy()[1, :2].tolist()
mask_sq = nn.Transformer(H, HEADS, 1, 1, FF).generate_square_subsequent_mask(4)
rec["causal_mask"] = [mask_sq.numpy().tolist(), str(mask_sq.dtype)]

# checkpoint-style utilities users call around such a loop
sched = paddle.optimizer.lr.LinearWarmup(
    paddle.optimizer.lr.PolynomialDecay(learning_rate=1e-3, decay_steps=10, end_lr=0.0), warmup_steps=3,
    start_lr=0.0, end_lr=1e-3)
small = nn.Linear(H, 3)
opt = paddle.optimizer.AdamW(learning_rate=sched, parameters=small.parameters(), weight_decay=0.01)
small(paddle.ones([2, H])).sum().backward()
opt.step()
sched.step()
sd = opt.state_dict()
rec["opt_state_keys"] = sorted(k.split("_", 1)[-1] if k != "LR_Scheduler" else k for k in sd)
rec["sched_state"] = {k: v for k, v in sorted(sched.state_dict().items()) if isinstance(v, (int, float, bool))}
rec["lr_sched_in_opt"] = {k: v for k, v in sorted(sd["LR_Scheduler"].items()) if isinstance(v, (int, float, bool))}
small.weight.grad.set_value(paddle.full([H, 3], 0.5))
total = nn.utils.clip_grad_norm_(small.parameters(), max_norm=1.0)
rec["clip_grad_norm"] = [float(total), small.weight.grad.numpy()[0].tolist()]
q = paddle.to_tensor(rng.standard_normal((2, 5, 2, 4)).astype("float32"))
sdpa_mask = paddle.to_tensor([[True] * 5, [True] * 3 + [False] * 2]).reshape([2, 1, 1, 5])
rec["sdpa_bool"] = F.scaled_dot_product_attention(q, q, q, attn_mask=sdpa_mask).numpy()[1, :2].tolist()
rec["sdpa_causal"] = F.scaled_dot_product_attention(q, q, q, is_causal=True).numpy()[0, :2].tolist()
lab = paddle.to_tensor([3, 1, 0, 2])
lg = paddle.to_tensor(rng.standard_normal((4, 5)).astype("float32"))
rec["ce_smooth"] = [float(F.cross_entropy(lg, lab, label_smoothing=0.1)),
                    float(nn.CrossEntropyLoss(reduction="sum", label_smoothing=0.2)(lg, lab))]

with open(os.environ["PROGRAM_OUT"], "w") as f:
    json.dump(rec, f)
