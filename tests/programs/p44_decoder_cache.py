"""Transformer generation with caches: nn.TransformerDecoder over nn.TransformerDecoderLayer (post- and pre-norm,
a final LayerNorm) attending to an encoder memory, the causal tgt_mask from
nn.Transformer.generate_square_subsequent_mask, a memory_mask hiding padded source positions; MultiHeadAttention
with need_weights=True (its weights), its caches (gen_cache with MultiHeadAttention.Cache — empty, and built from
given keys / values —, with MultiHeadAttention.StaticCache, compute_kv), and incremental decoding step by step
with TransformerDecoderLayer.gen_cache / TransformerDecoder.gen_cache (do_zip too), checking that the incremental
outputs equal the full-sequence outputs; a greedy generation loop with the cache (argmax, early stop on the end
token); then an nn.Transformer trained a few steps (AdamW, cross_entropy with label_smoothing and with soft labels
from F.label_smooth) with weight tying between the embedding and the output projection
(paddle.matmul(h, embedding.weight, transpose_y=True)), its encode / decode parts used for greedy decoding;
the AssertionError of impossible sizes (embed_dim not divisible by num_heads, sizes of 0) and an empty stack
(num_layers=0).
Recorded: outputs, attention weights, cache shapes, the differences between incremental and full outputs, losses,
gradients (the tied embedding's), generated ids.

Left out: cross_entropy with hard labels of shape [batch, time, 1] and label_smoothing fails in Paddle 3.3.1 (no
integer label_smooth kernel); pylayer_jax reads them as the [batch, time] labels (tests/program_diff_cases_i.py)."""
import json
import os

import numpy as np
import paddle
import paddle.nn as nn
import paddle.nn.functional as F

D, H, FF, V, S, T, B = 16, 4, 32, 11, 6, 5, 3
BOS, EOS = 1, 2
rng = np.random.default_rng(0)
memory_np = rng.standard_normal((B, S, D)).astype("float32")
tgt_np = rng.standard_normal((B, T, D)).astype("float32")
rec = {}


def v(t):
    return t.numpy().astype("float64").tolist()


def set_params(layer, seed, scale=0.3):
    r = np.random.default_rng(seed)
    sd = {}
    for k, p in layer.state_dict().items():
        a = r.standard_normal(p.shape) * scale
        if "norm" in k and k.endswith("weight"):
            a = 1.0 + 0.1 * a
        sd[k] = a.astype("float32")
    layer.set_state_dict(sd)


def maxdiff(a, b):
    return float((a - b).abs().max())


# ---- the causal mask (an instance method in Paddle: taken from a Transformer)
causal = nn.Transformer(D, H, 1, 1, FF, dropout=0.0).generate_square_subsequent_mask
mask = causal(T)
rec["mask_tensor_len"] = v(causal(paddle.to_tensor(3)))
rec["mask"] = [v(mask), mask.shape, str(mask.dtype)]

# ---- MultiHeadAttention: weights, caches
mha = nn.MultiHeadAttention(D, H, need_weights=True)
set_params(mha, 1)
q = paddle.to_tensor(tgt_np)
mem = paddle.to_tensor(memory_np)
out, w = mha(q, mem, mem)
rec["mha"] = [v(out[0]), v(w[0, 0]), w.shape, v(w.sum(-1)[0])]
out_self, w_self = mha(q, attn_mask=mask)
rec["mha_self"] = [v(out_self[1]), v(w_self[1, 2])]
bool_mask = paddle.to_tensor(np.tril(np.ones((T, T), bool)))
out_b, w_b = mha(q, q, q, attn_mask=bool_mask)
rec["mha_bool_mask"] = [maxdiff(out_b, out_self), maxdiff(w_b, w_self)]

static = mha.gen_cache(mem, mem, type=nn.MultiHeadAttention.StaticCache)
rec["static_cache"] = [type(static).__name__, static.k.shape, static.v.shape,
                       isinstance(static, nn.MultiHeadAttention.StaticCache)]
out_s, w_s, static2 = mha(q, mem, mem, cache=static)
rec["static_cache_out"] = [maxdiff(out_s, out), static2 is static or type(static2).__name__]
k_ref, v_ref = mha.compute_kv(mem, mem)
rec["compute_kv"] = [k_ref.shape, maxdiff(k_ref, static.k), maxdiff(v_ref, static.v)]

inc = mha.gen_cache(q, type=nn.MultiHeadAttention.Cache)
rec["empty_cache"] = [type(inc).__name__, inc.k.shape, inc.v.shape, str(inc.k.dtype)]
steps = []
for t in range(T):
    o, wt, inc = mha(q[:, t:t + 1], q[:, t:t + 1], q[:, t:t + 1], cache=inc)
    steps.append(o)
    rec.setdefault("inc_cache_shapes", []).append([inc.k.shape, wt.shape])
inc_out = paddle.concat(steps, axis=1)
rec["mha_incremental_vs_full"] = maxdiff(inc_out, out_self)
given = mha.gen_cache(k_ref, v_ref, type=nn.MultiHeadAttention.Cache)
rec["given_cache"] = [type(given).__name__, given.k.shape, maxdiff(given.k, k_ref)]
o_g, w_g, given2 = mha(q[:, :1], q[:, :1], q[:, :1], cache=given)
rec["given_cache_step"] = [v(o_g[0]), w_g.shape, given2.k.shape]

mha_nw = nn.MultiHeadAttention(D, H, kdim=8, vdim=12)
set_params(mha_nw, 2)
k8 = paddle.to_tensor(rng.standard_normal((B, S, 8)).astype("float32"))
v12 = paddle.to_tensor(rng.standard_normal((B, S, 12)).astype("float32"))
o_nw = mha_nw(q, k8, v12)
rec["mha_kdim_vdim"] = [v(o_nw[2]), o_nw.shape, isinstance(o_nw, paddle.Tensor)]
o_c = mha_nw(q, k8, v12, cache=mha_nw.gen_cache(k8, v12, type=nn.MultiHeadAttention.StaticCache))
rec["mha_nw_cache_return"] = [type(o_c).__name__, len(o_c)]

# ---- decoder layer / decoder: full vs incremental
src_pad = np.zeros((B, 1, 1, S), "float32")
src_pad[0, ..., 4:] = -1e9
src_pad[2, ..., 5:] = -1e9
mem_mask = paddle.to_tensor(src_pad)
tgt = paddle.to_tensor(tgt_np)
for pre in (False, True):
    name = "pre" if pre else "post"
    layer = nn.TransformerDecoderLayer(D, H, FF, dropout=0.0, normalize_before=pre)
    dec = nn.TransformerDecoder(layer, 2, norm=nn.LayerNorm(D) if pre else None)
    set_params(dec, 3)
    dec.eval()
    full = dec(tgt, mem, tgt_mask=mask, memory_mask=mem_mask)
    rec[f"dec_{name}_full"] = [v(full[0]), v(full[2, -1])]
    caches = dec.gen_cache(mem)
    rec[f"dec_{name}_cache_types"] = [type(caches).__name__, len(caches), [type(c).__name__ for c in caches[0]],
                                      caches[0][0].k.shape, caches[0][1].k.shape]
    outs = []
    for t in range(T):
        o, caches = dec(tgt[:, t:t + 1], mem, None, mem_mask, caches)
        outs.append(o)
    rec[f"dec_{name}_inc_vs_full"] = maxdiff(paddle.concat(outs, 1), full)
    rec[f"dec_{name}_cache_after"] = [caches[1][0].k.shape, caches[1][1].k.shape]
    zipped = dec.gen_cache(mem, do_zip=True)
    rec[f"dec_{name}_zip"] = [type(zipped).__name__, len(zipped), [type(z).__name__ for z in zipped],
                              len(zipped[0])]
    one = dec.layers[0]
    lc = one.gen_cache(mem)
    rec[f"layer_{name}_cache"] = [type(lc).__name__, [type(c).__name__ for c in lc]]
    o1, lc = one(tgt[:, :1], mem, None, mem_mask, lc)
    o2, lc = one(tgt[:, 1:2], mem, None, mem_mask, lc)
    ref = one(tgt[:, :2], mem, tgt_mask=causal(2), memory_mask=mem_mask)
    rec[f"layer_{name}_inc"] = [maxdiff(paddle.concat([o1, o2], 1), ref), lc[0].k.shape]

# ---- masks of other kinds, chunked decoding with the cache, an encoder cache, layer options, reprs
dec = nn.TransformerDecoder(nn.TransformerDecoderLayer(D, H, FF, dropout=0.0, activation="gelu"), 2)
set_params(dec, 7)
full = dec(tgt, mem, tgt_mask=mask, memory_mask=mem_mask)
int_mask = paddle.to_tensor(np.tril(np.ones((T, T), "int64")))
rec["int_mask"] = maxdiff(dec(tgt, mem, tgt_mask=int_mask, memory_mask=mem_mask), full)
bool_mem = paddle.to_tensor(src_pad == 0)
rec["bool_memory_mask"] = maxdiff(dec(tgt, mem, tgt_mask=bool_mask, memory_mask=bool_mem), full)
head_mask = paddle.to_tensor(np.broadcast_to(np.triu(np.full((T, T), -1e9, "float32"), 1), (B, H, T, T)).copy())
rec["head_mask"] = maxdiff(dec(tgt, mem, tgt_mask=head_mask, memory_mask=mem_mask), full)
caches = dec.gen_cache(mem)
chunks = []
for a, b in ((0, 2), (2, 3), (3, 5)):
    m = np.zeros((b - a, b), "float32")
    m[np.arange(b - a)[:, None] + a < np.arange(b)[None]] = -np.inf
    o, caches = dec(tgt[:, a:b], mem, paddle.to_tensor(m), mem_mask, caches)
    chunks.append(o)
rec["chunked_vs_full"] = maxdiff(paddle.concat(chunks, 1), full)
rec["chunked_cache"] = caches[0][0].k.shape

enc = nn.TransformerEncoder(nn.TransformerEncoderLayer(D, H, FF, dropout=0.0, normalize_before=True), 2,
                            norm=nn.LayerNorm(D))
set_params(enc, 8)
src = paddle.to_tensor(memory_np)
causal_src = causal(S)
enc_full = enc(src, src_mask=causal_src)
ecache = enc.gen_cache(src)
rec["enc_cache"] = [type(ecache).__name__, len(ecache), type(ecache[0]).__name__, ecache[0].k.shape]
eouts = []
for t in range(S):
    o, ecache = enc(src[:, t:t + 1], None, ecache)
    eouts.append(o)
rec["enc_inc_vs_full"] = maxdiff(paddle.concat(eouts, 1), enc_full)
rec["enc_full"] = v(enc_full[1, -1])

opts = nn.TransformerDecoderLayer(D, H, FF, dropout=0.0, bias_attr=[False, None, False],
                                  weight_attr=[None, paddle.ParamAttr(initializer=nn.initializer.Constant(0.05)), None])
rec["layer_opts_keys"] = sorted(opts.state_dict().keys())
rec["layer_opts_const"] = [float(opts.cross_attn.q_proj.weight.mean()), opts.self_attn.q_proj.bias is None,
                           opts.linear1.bias is None, opts.cross_attn.q_proj.bias is None]
rec["repr_layer"] = repr(nn.TransformerDecoderLayer(D, H, FF, dropout=0.0))
rec["repr_mha"] = repr(nn.MultiHeadAttention(D, H, dropout=0.1, need_weights=True))
rec["mha_attrs"] = [mha.embed_dim, mha.num_heads, mha.head_dim, mha.need_weights, mha.kdim, mha.vdim,
                    mha_nw.kdim, mha_nw.vdim]
bad_sizes = {"mha_heads": lambda: nn.MultiHeadAttention(10, 3), "mha_zero": lambda: nn.MultiHeadAttention(0, 2),
             "layer_heads": lambda: nn.TransformerDecoderLayer(10, 3, 8),
             "layer_ff": lambda: nn.TransformerDecoderLayer(8, 2, 0),
             "tf_nhead": lambda: nn.Transformer(8, 0, 1, 1, 8)}
for k, make in bad_sizes.items():
    try:
        make()
        rec["bad_" + k] = "ok"
    except AssertionError as e:
        rec["bad_" + k] = type(e).__name__

# an empty stack (num_layers=0): the output is the input, through the final norm
empty = nn.TransformerDecoder(nn.TransformerDecoderLayer(D, H, FF, dropout=0.0), 0, norm=nn.LayerNorm(D))
out0, c0 = empty(tgt, mem, mask, None, empty.gen_cache(mem))
rec["empty_decoder"] = [len(empty.layers), c0, v(out0[0, 0]), maxdiff(empty(tgt, mem), nn.LayerNorm(D)(tgt))]

# ---- greedy generation with the cache over an embedding + decoder + tied projection
emb = nn.Embedding(V, D)
set_params(emb, 4, scale=1.0)
layer = nn.TransformerDecoderLayer(D, H, FF, dropout=0.0)
gen_dec = nn.TransformerDecoder(layer, 2)
set_params(gen_dec, 5)
gen_dec.eval()
pos = paddle.to_tensor(np.sin(np.arange(8)[:, None] / 10 ** (np.arange(D)[None] / D)).astype("float32"))


def logits_of(h):
    return paddle.matmul(h, emb.weight, transpose_y=True)


with paddle.no_grad():
    ids = paddle.full([B, 1], BOS, dtype="int64")
    caches = gen_dec.gen_cache(mem)
    done = paddle.zeros([B], dtype="bool")
    all_logits = []
    for t in range(7):
        x = emb(ids[:, -1:]) + pos[t]
        h, caches = gen_dec(x, mem, None, mem_mask, caches)
        lg = logits_of(h[:, -1])
        all_logits.append(lg)
        nxt = paddle.argmax(lg, axis=-1)
        nxt = paddle.where(done, paddle.full_like(nxt, EOS), nxt)
        ids = paddle.concat([ids, nxt.unsqueeze(-1)], axis=1)
        done = done | (nxt == EOS)
        if bool(done.all()):
            break
    full_x = emb(ids[:, :-1]) + pos[:ids.shape[1] - 1]
    full_h = gen_dec(full_x, mem, causal(ids.shape[1] - 1), mem_mask)
rec["greedy_ids"] = ids.numpy().tolist()
rec["greedy_logits"] = [v(all_logits[0]), v(all_logits[-1])]
rec["greedy_inc_vs_full"] = maxdiff(logits_of(full_h), paddle.stack(all_logits, 1))


# ---- nn.Transformer trained with label smoothing and tied embeddings
class Seq2Seq(nn.Layer):
    def __init__(self):
        super().__init__()
        self.emb = nn.Embedding(V, D)
        self.tf = nn.Transformer(D, H, num_encoder_layers=1, num_decoder_layers=2, dim_feedforward=FF, dropout=0.0)
        self.bias = self.create_parameter([V], is_bias=True)

    def embed(self, ids):
        return self.emb(ids) * (D ** 0.5) + pos[:ids.shape[1]]

    def forward(self, src, tgt_in):
        tmask = self.tf.generate_square_subsequent_mask(tgt_in.shape[1])
        h = self.tf(self.embed(src), self.embed(tgt_in), tgt_mask=tmask)
        return paddle.matmul(h, self.emb.weight, transpose_y=True) + self.bias


model = Seq2Seq()
set_params(model, 6)
src_ids = rng.integers(3, V, size=(8, S)).astype("int64")
tgt_ids = np.concatenate([np.full((8, 1), BOS), np.sort(src_ids, 1)[:, :T - 1], np.full((8, 1), EOS)], 1)
opt = paddle.optimizer.AdamW(learning_rate=0.01, parameters=model.parameters(), weight_decay=0.01,
                             grad_clip=nn.ClipGradByGlobalNorm(1.0))
rec["train"] = {"loss": [], "soft_loss": [], "emb_grad_norm": []}
for _ in range(8):
    s = paddle.to_tensor(src_ids)
    t_in = paddle.to_tensor(tgt_ids[:, :-1])
    t_out = paddle.to_tensor(tgt_ids[:, 1:])
    logits = model(s, t_in)
    loss = F.cross_entropy(logits.reshape([-1, V]), t_out.reshape([-1]), label_smoothing=0.1)
    soft = F.label_smooth(F.one_hot(t_out, V), epsilon=0.1)
    soft_loss = F.cross_entropy(logits, soft, soft_label=True)
    loss.backward()
    rec["train"]["emb_grad_norm"].append(float(model.emb.weight.grad.norm()))
    opt.step()
    opt.clear_grad()
    rec["train"]["loss"].append(loss.item())
    rec["train"]["soft_loss"].append(soft_loss.item())
rec["train"]["sd_keys"] = sorted(model.state_dict().keys())
rec["train"]["n_params"] = len(model.parameters())

model.eval()
with paddle.no_grad():
    s = paddle.to_tensor(src_ids[:3])
    enc_mem = model.tf.encoder(model.embed(s))
    ids = paddle.full([3, 1], BOS, dtype="int64")
    caches = model.tf.decoder.gen_cache(enc_mem)
    for t in range(T):
        h, caches = model.tf.decoder(model.emb(ids[:, -1:]) * (D ** 0.5) + pos[t], enc_mem, None, None, caches)
        nxt = paddle.matmul(h[:, -1], model.emb.weight, transpose_y=True) + model.bias
        ids = paddle.concat([ids, nxt.argmax(-1, keepdim=True)], 1)
    full = model(s, ids[:, :-1])
rec["tf_greedy"] = ids.numpy().tolist()
rec["tf_greedy_vs_full"] = bool((full.argmax(-1) == ids[:, 1:]).all())

with open(os.environ["PROGRAM_OUT"], "w") as f:
    json.dump(rec, f)
