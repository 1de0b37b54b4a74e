"""A tiny LLaMA-style decoder as PaddleNLP users write it: a hand-written RMSNorm (paddle.rsqrt of the mean square)
checked against paddle.incubate.nn.functional.fused_rms_norm (outputs, used under no_grad), rotary position
embeddings written by hand (inverse frequencies, paddle.outer, cos / sin caches, rotate_half with paddle.concat, a
position offset for cached decoding), a SwiGLU MLP (F.silu(gate) * up, checked against F.swiglu(gate, up) and the
incubate swiglu of the concatenated projection), grouped-query attention (fewer key / value heads, repeat_interleave
along the heads axis) through F.scaled_dot_product_attention in Paddle's [batch, seq, heads, dim] layout with
is_causal and with an explicit additive mask (and unbatched [seq, heads, dim] inputs with fewer key heads), tied
input / output embeddings (matmul with transpose_y), trained 15 steps with AdamW (weight decay off for norms and
biases through apply_decay_param_fun), LinearWarmup over CosineAnnealingDecay and ClipGradByGlobalNorm; then, with
weights loaded from numpy, greedy generation with a key / value cache (concatenated along the sequence axis) checked
against recomputing the whole sequence, and inference with weights rounded through bfloat16 and float16 casts
(Layer.to(dtype=...), then back to float32). Recorded: losses, learning rates, gradients of a few parameters,
logits, generated ids, cast dtypes and values.

Left out (Paddle 3.3.1 on CPU has no kernel): fused_rotary_position_embedding, paddle.tensor.top_p_sampling, the
backward of fused_rms_norm (fused_rms_norm_quant_grad), and any compute in bfloat16 / float16 (matmul, softmax,
silu, ...): only the casts of weights are exercised."""
import json
import os

import numpy as np
import paddle
import paddle.incubate.nn.functional as IF
import paddle.nn as nn
import paddle.nn.functional as F

V, D, H, KVH, FF, L, B, T = 29, 16, 4, 2, 24, 2, 4, 8
HD = D // H
EPS = 1e-6
rng = np.random.default_rng(0)
rec = {}


def v(t):
    return t.astype("float32").numpy().astype("float64").tolist()


class RMSNorm(nn.Layer):
    def __init__(self, dim, fused=False):
        super().__init__()
        self.weight = self.create_parameter([dim], default_initializer=nn.initializer.Constant(1.0))
        self.fused = fused

    def forward(self, x):
        if self.fused:
            return IF.fused_rms_norm(x, self.weight, None, EPS, x.ndim - 1)[0]
        var = x.astype("float32").pow(2).mean(-1, keepdim=True)
        return (x * paddle.rsqrt(var + EPS)) * self.weight


def rope_cache(seq_len, offset=0, base=10000.0):
    inv = 1.0 / (base ** (paddle.arange(0, HD, 2, dtype="float32") / HD))
    t = paddle.arange(offset, offset + seq_len, dtype="float32")
    freqs = paddle.outer(t, inv)
    emb = paddle.concat([freqs, freqs], axis=-1)
    return emb.cos()[None, :, None, :], emb.sin()[None, :, None, :]


def rotate_half(x):
    x1, x2 = x[..., : HD // 2], x[..., HD // 2:]
    return paddle.concat([-x2, x1], axis=-1)


def apply_rope(x, cos, sin):
    return x * cos + rotate_half(x) * sin


class Attention(nn.Layer):
    def __init__(self):
        super().__init__()
        self.q_proj = nn.Linear(D, H * HD, bias_attr=False)
        self.k_proj = nn.Linear(D, KVH * HD, bias_attr=False)
        self.v_proj = nn.Linear(D, KVH * HD, bias_attr=False)
        self.o_proj = nn.Linear(H * HD, D, bias_attr=False)

    def forward(self, x, cache=None, mask=None, causal=True):
        b, s = x.shape[0], x.shape[1]
        q = self.q_proj(x).reshape([b, s, H, HD])
        k = self.k_proj(x).reshape([b, s, KVH, HD])
        val = self.v_proj(x).reshape([b, s, KVH, HD])
        past = 0 if cache is None else cache[0].shape[1]
        cos, sin = rope_cache(s, past)
        q, k = apply_rope(q, cos, sin), apply_rope(k, cos, sin)
        if cache is not None:
            k = paddle.concat([cache[0], k], axis=1)
            val = paddle.concat([cache[1], val], axis=1)
        new_cache = (k, val)
        k = k.repeat_interleave(H // KVH, axis=2)
        val = val.repeat_interleave(H // KVH, axis=2)
        if mask is not None:
            out = F.scaled_dot_product_attention(q, k, val, attn_mask=mask)
        else:
            out = F.scaled_dot_product_attention(q, k, val, is_causal=causal and s > 1)
        return self.o_proj(out.reshape([b, s, H * HD])), new_cache


class MLP(nn.Layer):
    def __init__(self, mode):
        super().__init__()
        self.gate_proj = nn.Linear(D, FF, bias_attr=False)
        self.up_proj = nn.Linear(D, FF, bias_attr=False)
        self.down_proj = nn.Linear(FF, D, bias_attr=False)
        self.mode = mode

    def forward(self, x):
        if self.mode == "silu":
            h = F.silu(self.gate_proj(x)) * self.up_proj(x)
        elif self.mode == "swiglu":
            h = F.swiglu(self.gate_proj(x), self.up_proj(x))
        else:
            h = IF.swiglu(paddle.concat([self.gate_proj(x), self.up_proj(x)], axis=-1))
        return self.down_proj(h)


class Block(nn.Layer):
    def __init__(self, fused_norm, mlp_mode):
        super().__init__()
        self.input_layernorm = RMSNorm(D, fused_norm)
        self.self_attn = Attention()
        self.post_attention_layernorm = RMSNorm(D, fused_norm)
        self.mlp = MLP(mlp_mode)

    def forward(self, x, cache=None, mask=None):
        a, cache = self.self_attn(self.input_layernorm(x), cache, mask)
        x = x + a
        return x + self.mlp(self.post_attention_layernorm(x)), cache


class TinyLlama(nn.Layer):
    def __init__(self, fused_norm=False, mlp_mode="silu"):
        super().__init__()
        self.embed_tokens = nn.Embedding(V, D)
        self.layers = nn.LayerList([Block(fused_norm, mlp_mode) for _ in range(L)])
        self.norm = RMSNorm(D, fused_norm)

    def forward(self, ids, caches=None, mask=None):
        h = self.embed_tokens(ids)
        new = []
        for i, layer in enumerate(self.layers):
            h, c = layer(h, None if caches is None else caches[i], mask)
            new.append(c)
        h = self.norm(h)
        return paddle.matmul(h, self.embed_tokens.weight, transpose_y=True), new


def init_weights(model, seed=1):
    r = np.random.default_rng(seed)
    sd = {}
    for k, p in model.state_dict().items():
        a = r.standard_normal(p.shape) * (0.5 if "embed" in k else 0.25)
        if "layernorm" in k or k.startswith("norm"):
            a = 1.0 + 0.1 * a
        sd[k] = a.astype("float32")
    model.set_state_dict(sd)


ids_np = rng.integers(0, V, (B, T + 1))
inp, labels = paddle.to_tensor(ids_np[:, :-1]), paddle.to_tensor(ids_np[:, 1:])

# ---- the pieces against their fused / library forms
x = paddle.to_tensor(rng.standard_normal((B, T, D)).astype("float32"), stop_gradient=False)
hand, fused = RMSNorm(D), RMSNorm(D, fused=True)
w_np = (1.0 + 0.1 * rng.standard_normal(D)).astype("float32")
hand.weight.set_value(w_np)
fused.weight.set_value(w_np)
yh = hand(x)
(yh * yh.sin()).sum().backward()
gx_h, gw_h = x.grad.clone(), hand.weight.grad.clone()
with paddle.no_grad():
    yf = fused(x)
rec["rms_norm"] = [v(yh[0, 0]), float((yh - yf).abs().max()), v(gx_h[1, 2]), v(gw_h)]
full_out = IF.fused_rms_norm(x, fused.weight, None, EPS, 2)
rec["fused_rms_norm_outputs"] = [type(full_out).__name__, len(full_out), full_out[0].shape]

g = paddle.to_tensor(rng.standard_normal((B, T, FF)).astype("float32"))
u = paddle.to_tensor(rng.standard_normal((B, T, FF)).astype("float32"))
ref = F.silu(g) * u
rec["swiglu"] = [v(ref[0, 0]), float((F.swiglu(g, u) - ref).abs().max()),
                 float((IF.swiglu(paddle.concat([g, u], -1)) - ref).abs().max()),
                 F.swiglu(paddle.concat([g, u], -1)).shape]

cos, sin = rope_cache(T)
rec["rope_cache"] = [cos.shape, v(cos[0, :, 0, 1]), v(sin[0, -1, 0])]
qx = paddle.to_tensor(rng.standard_normal((B, T, H, HD)).astype("float32"))
rq = apply_rope(qx, cos, sin)
# rotations keep norms; relative positions: <R_m q, R_n k> depends on m - n only
rec["rope"] = [v(rq[0, 3, 1]), float((rq.norm(axis=-1) - qx.norm(axis=-1)).abs().max())]

kx = paddle.to_tensor(rng.standard_normal((B, T, KVH, HD)).astype("float32"))
rep = kx.repeat_interleave(H // KVH, axis=2)
rec["repeat_interleave"] = [rep.shape, float((rep[:, :, 1] - kx[:, :, 0]).abs().max()),
                            float((rep[:, :, 2] - kx[:, :, 1]).abs().max())]
vx = paddle.to_tensor(rng.standard_normal((B, T, H, HD)).astype("float32"))
o_causal = F.scaled_dot_product_attention(qx, rep, vx, is_causal=True)
add_mask = paddle.triu(paddle.full([T, T], float("-inf")), diagonal=1)[None, None]
o_mask = F.scaled_dot_product_attention(qx, rep, vx, attn_mask=add_mask)
scores = paddle.matmul(qx.transpose([0, 2, 1, 3]), rep.transpose([0, 2, 3, 1])) / HD ** 0.5 + add_mask
manual = paddle.matmul(F.softmax(scores, -1), vx.transpose([0, 2, 1, 3])).transpose([0, 2, 1, 3])
o_full = F.scaled_dot_product_attention(qx, rep, vx)
rec["sdpa"] = [o_causal.shape, v(o_causal[1, 2]), float((o_causal - o_mask).abs().max()),
               float((o_causal - manual).abs().max()), v(o_full[0, 0])]
pad = np.zeros((B, 1, 1, T), "float32")
pad[0, ..., :2] = -1e4
o_pad = F.scaled_dot_product_attention(qx, rep, vx, attn_mask=paddle.to_tensor(pad) + add_mask)
one = F.scaled_dot_product_attention(qx[1], kx[1], kx[1] * 0.5, is_causal=True)  # unbatched [seq, heads, dim], GQA
one_b = F.scaled_dot_product_attention(qx[1:2], rep[1:2], rep[1:2] * 0.5, is_causal=True)
rec["sdpa_unbatched"] = [one.shape, v(one[2]), float((one - one_b[0]).abs().max())]
rec["sdpa_padded"] = [v(o_pad[0, 3]), float((o_pad[1:] - o_causal[1:]).abs().max())]

# ---- training
model = TinyLlama()
init_weights(model)
rec["state_dict_keys"] = list(model.state_dict().keys())
rec["num_params"] = int(sum(p.numel() for p in model.parameters()))
sched = paddle.optimizer.lr.LinearWarmup(paddle.optimizer.lr.CosineAnnealingDecay(0.02, T_max=12), warmup_steps=3,
                                         start_lr=0.002, end_lr=0.02)
decay_names = {p.name for n, p in model.named_parameters() if "norm" not in n}
opt = paddle.optimizer.AdamW(learning_rate=sched, parameters=model.parameters(), weight_decay=0.1,
                             beta2=0.95, grad_clip=nn.ClipGradByGlobalNorm(1.0),
                             apply_decay_param_fun=lambda name: name in decay_names)
losses, lrs, gnorms = [], [], []
for step in range(15):
    logits, _ = model(inp)
    loss = F.cross_entropy(logits.reshape([-1, V]), labels.reshape([-1]))
    loss.backward()
    gnorms.append(float(paddle.sqrt(sum((p.grad ** 2).sum() for p in model.parameters()))))
    if step == 0:
        rec["grads0"] = {n: v(p.grad.flatten()[:12]) for n, p in model.named_parameters()
                         if n in ("embed_tokens.weight", "layers.0.self_attn.k_proj.weight",
                                  "layers.1.mlp.gate_proj.weight", "layers.0.input_layernorm.weight", "norm.weight")}
    opt.step()
    opt.clear_grad()
    lrs.append(opt.get_lr())
    sched.step()
    losses.append(float(loss))
rec["losses"], rec["lrs"], rec["gnorms"] = losses, lrs, gnorms
rec["trained"] = {n: v(p.flatten()[:10]) for n, p in model.named_parameters()
                  if n in ("embed_tokens.weight", "layers.1.self_attn.o_proj.weight", "norm.weight")}

# evaluation of the trained model; the inference below loads "pretrained" weights from numpy instead, so that
# float32 rounding gathered over the training steps does not blur its logits
model.eval()
with paddle.no_grad():
    lg, _ = model(inp)
    rec["trained_eval"] = [float(F.cross_entropy(lg.reshape([-1, V]), labels.reshape([-1]))),
                           float((lg.argmax(-1) == labels).astype("float32").mean())]
model = TinyLlama()
init_weights(model, seed=2)
model.eval()
with paddle.no_grad():
    base_logits, _ = model(inp)
    rec["logits"] = [v(base_logits[0, -1]), v(base_logits[2, 3])]
    for fused_norm, mode in ((True, "swiglu"), (False, "concat")):
        other = TinyLlama(fused_norm, mode)
        other.set_state_dict(model.state_dict())
        rec[f"variant_{fused_norm}_{mode}"] = float((other(inp)[0] - base_logits).abs().max())
    masked, _ = model(inp, mask=add_mask)
    rec["explicit_mask_vs_causal"] = float((masked - base_logits).abs().max())

# ---- greedy generation with a kv-cache, checked against full recomputation
prompt = paddle.to_tensor(ids_np[:2, :4])
with paddle.no_grad():
    mask = paddle.triu(paddle.full([4, 4], -1e9), diagonal=1).reshape([1, 1, 4, 4])
    logits, caches = model(prompt, mask=mask)
    nxt = logits[:, -1].argmax(-1, keepdim=True)
    gen, step_logits = [nxt], [v(logits[:, -1])]
    for _ in range(6):
        logits, caches = model(nxt, caches)
        nxt = logits[:, -1].argmax(-1, keepdim=True)
        gen.append(nxt)
        step_logits.append(v(logits[:, -1]))
    cached_ids = paddle.concat([prompt] + gen, axis=1)
    rec["cache_shapes"] = [list(c.shape) for c in caches[0]]
    seq = prompt
    for _ in range(7):
        lg, _ = model(seq)
        seq = paddle.concat([seq, lg[:, -1].argmax(-1, keepdim=True)], axis=1)
rec["generated"] = cached_ids.numpy().tolist()
rec["generated_dtype"] = str(cached_ids.dtype)
rec["generated_same_without_cache"] = bool((seq == cached_ids).all())
rec["step_logits"] = step_logits[::3]

# ---- weights rounded through bfloat16 / float16 casts for inference
ref_sd = {k: t.clone() for k, t in model.state_dict().items()}
for dt in ("bfloat16", "float16"):
    model.to(dtype=dt)
    w = model.layers[0].self_attn.q_proj.weight
    rec[f"{dt}_cast"] = [str(w.dtype), str(model.norm.weight.dtype), v(w.flatten()[:8]),
                         str(model.embed_tokens.weight.dtype)]
    model.to(dtype="float32")
    rec[f"{dt}_back"] = str(model.layers[0].self_attn.q_proj.weight.dtype)
    err = max(float((model.state_dict()[k] - ref_sd[k]).abs().max()) for k in ref_sd)
    with paddle.no_grad():
        lg, _ = model(inp)
    rec[f"{dt}_inference"] = [err, v(lg[0, -1]), lg.argmax(-1).numpy().tolist(),
                              float((lg - base_logits).abs().max())]
    model.set_state_dict(ref_sd)
half = paddle.cast(ref_sd["norm.weight"], "bfloat16")
rec["cast_api"] = [str(half.dtype), v(half), v(ref_sd["embed_tokens.weight"].astype("float16")[0])]

with open(os.environ["PROGRAM_OUT"], "w") as f:
    json.dump(rec, f)
