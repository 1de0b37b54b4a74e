"""Sequence utilities and decoding: F.sequence_mask (maxlen None / int / a Tensor, lengths of int32 and int64, 2-D
lengths, dtypes bool / float32 / int32), F.one_hot (num_classes given, a float, a Tensor and the default -1, its dtype), F.embedding
with padding_idx (positive and negative: the pad row's gradient; out of range an error), max_norm with norm_type 2, 1,
inf, 0 and 3 and max_norm=0 (no renorm; the weight renormed in place), scale_grad_by_freq, a sparse gradient through
Adam (lazy_mode both ways), nn.Embedding(padding_idx=-1, max_norm=..., _weight=...), F.gather_tree on hand-made
beams, paddle.text.viterbi_decode and ViterbiDecoder (include_bos_eos_tag True / False, ragged lengths), greedy
CTC-style decoding (argmax, paddle.unique_consecutive with return_inverse / return_counts, blank removal by
masked_select), masking of padded steps by lengths (mean over valid steps); then a seq2seq (Embedding, GRU encoder,
GRUCell decoder, teacher forcing, cross_entropy weighted by a sequence_mask) trained with Adam, and decoded by
nn.BeamSearchDecoder + nn.dynamic_decode: GRUCell and LSTMCell, beam sizes 1 and 3, max_step_num, output_time_major,
impute_finished, is_test, return_length (predicted ids, scores, lengths, final states' shapes).

Kept out or recorded only as an error type, where Paddle 3.3.1 gives garbage or crashes and we raise a clear error
(or give the sane result): viterbi_decode with int32 lengths (Paddle: a dtype mismatch error; recorded), an
embedding id out of range or negative (Paddle reads stray memory), F.embedding(padding_idx=-rows-1) (Paddle
converts it before its range check, so accepts it), sequence_mask(maxlen=0) and of bool lengths, unique_consecutive
of bools (Paddle: no kernel)."""
import json
import os

import numpy as np
import paddle
import paddle.nn as nn
import paddle.nn.functional as F

rec = {}


def v(t):
    return t.numpy().tolist()


def g(t):
    return None if t.grad is None else t.grad.numpy().tolist()


# ---- sequence_mask ----------------------------------------------------------------------------
lens = paddle.to_tensor([3, 1, 4, 0])
for name, kw in (("none", {}), ("int", {"maxlen": 6}), ("tensor", {"maxlen": paddle.to_tensor(5)}),
                 ("bool", {"maxlen": 4, "dtype": "bool"}), ("f32", {"dtype": "float32"}),
                 ("i32", {"maxlen": 2, "dtype": paddle.int32})):
    m = F.sequence_mask(lens, **kw)
    rec[f"smask_{name}"] = [v(m), str(m.dtype), list(m.shape)]
m = F.sequence_mask(paddle.to_tensor([[1, 2], [3, 0]], dtype="int32"))
rec["smask_2d"] = [v(m), str(m.dtype)]
rec["smask_int32"] = str(F.sequence_mask(paddle.to_tensor([2, 1], dtype="int32"), 3).dtype)

# ---- one_hot ----------------------------------------------------------------------------------
for nc in (5, -1):
    oh = F.one_hot(paddle.to_tensor([[0, 3], [2, 1]]), num_classes=nc)
    rec[f"one_hot_{nc}"] = [v(oh), str(oh.dtype), list(oh.shape)]

# ---- embeddings -------------------------------------------------------------------------------
W = np.arange(24, dtype="float32").reshape([6, 4]) / 10 - 1
ids = paddle.to_tensor([[1, 0, 5], [5, 5, 2]])
for pi in (None, 0, 5, -1):
    w = paddle.to_tensor(W)
    w.stop_gradient = False
    e = F.embedding(ids, w, padding_idx=pi)
    (e * paddle.arange(24, dtype="float32").reshape([2, 3, 4])).sum().backward()
    rec[f"emb_pad_{pi}"] = [v(e), g(w)]
for nt in (2.0, 1.0):
    w = paddle.to_tensor(W)
    e = F.embedding(ids, w, max_norm=1.0, norm_type=nt)
    rec[f"emb_maxnorm_{nt}"] = [v(e), v(w)]
w = paddle.to_tensor(W)
w.stop_gradient = False
F.embedding(ids, w, scale_grad_by_freq=True).sum().backward()
rec["emb_freq"] = g(w)
emb = nn.Embedding(6, 4, padding_idx=-1, weight_attr=nn.initializer.Assign(W))
out = emb(ids)
out.sum().backward()
rec["Emb_neg_pad"] = [v(out), g(emb.weight), emb._padding_idx if hasattr(emb, "_padding_idx") else None]
emb2 = nn.Embedding(6, 4, max_norm=0.5, _weight=paddle.to_tensor(W))
rec["Emb_maxnorm"] = [v(emb2(paddle.to_tensor([0, 3]))), v(emb2.weight)]

# ---- gather_tree ------------------------------------------------------------------------------
gt_ids = paddle.to_tensor([[[2, 2], [6, 1]], [[3, 9], [6, 1]], [[0, 1], [9, 0]]])
gt_par = paddle.to_tensor([[[0, 0], [1, 1]], [[1, 0], [1, 0]], [[0, 0], [0, 1]]])
rec["gather_tree"] = v(F.gather_tree(gt_ids, gt_par))

# ---- viterbi ----------------------------------------------------------------------------------
rng = np.random.default_rng(4)
pots = paddle.to_tensor(rng.standard_normal((3, 5, 4)).astype("float32"))
trans = paddle.to_tensor(rng.standard_normal((4, 4)).astype("float32"))
vlen = paddle.to_tensor([5, 3, 1])
for bos in (True, False):
    sc, path = paddle.text.viterbi_decode(pots, trans, vlen, include_bos_eos_tag=bos)
    rec[f"viterbi_{bos}"] = [v(sc), v(path), str(path.dtype)]
    dec = paddle.text.ViterbiDecoder(trans, include_bos_eos_tag=bos)
    sc2, path2 = dec(pots, vlen)
    rec[f"viterbi_layer_{bos}"] = [v(sc2), v(path2)]

# ---- CTC-style greedy decoding ----------------------------------------------------------------
logits = paddle.to_tensor(rng.standard_normal((2, 9, 5)).astype("float32"))
best = logits.argmax(-1)
rec["ctc_best"] = v(best)
for b in range(2):
    u, inv, cnt = paddle.unique_consecutive(best[b], return_inverse=True, return_counts=True)
    rec[f"ctc_{b}"] = [v(u), v(inv), v(cnt), v(paddle.masked_select(u, u != 0))]
u2, c2 = paddle.unique_consecutive(paddle.to_tensor([[1, 1], [1, 1], [2, 3]]), return_counts=True, axis=0)
rec["uc_axis0"] = [v(u2), v(c2)]
u3 = paddle.unique_consecutive(paddle.to_tensor([2.0, 2.0, 1.0, 2.0]))
rec["uc_float"] = [v(u3), str(u3.dtype)]
tl = paddle.to_tensor([9, 6])
mask = F.sequence_mask(tl, maxlen=9, dtype="float32").unsqueeze(-1)
rec["masked_mean"] = v((logits * mask).sum(1) / tl.astype("float32").unsqueeze(-1))


# ---- more edges users meet ----------------------------------------------------------------------
def attempt(f):
    try:
        r = f()
        return [v(r), str(r.dtype), list(r.shape)]
    except Exception as e:  # noqa: BLE001
        return type(e).__name__


rec["smask_short_maxlen"] = attempt(lambda: F.sequence_mask(lens, maxlen=2))
rec["smask_float_len"] = attempt(lambda: F.sequence_mask(paddle.to_tensor([1.0, 2.5]), maxlen=3))
rec["smask_0d"] = attempt(lambda: F.sequence_mask(paddle.to_tensor(3), maxlen=4))
rec["smask_int32_maxlen_tensor"] = attempt(lambda: F.sequence_mask(lens, maxlen=paddle.to_tensor(3, dtype="int32")))
rec["one_hot_int32"] = attempt(lambda: F.one_hot(paddle.to_tensor([0, 2], dtype="int32"), 3))
rec["one_hot_tensor_nc"] = attempt(lambda: F.one_hot(paddle.to_tensor([0, 2]), paddle.to_tensor(4)))
rec["one_hot_0d"] = attempt(lambda: F.one_hot(paddle.to_tensor(1), 3))
rec["one_hot_out_of_range"] = attempt(lambda: F.one_hot(paddle.to_tensor([0, 3]), 3))
rec["emb_out_of_range"] = attempt(lambda: F.embedding(paddle.to_tensor([6]), paddle.to_tensor(W)))
rec["emb_int32_ids"] = attempt(lambda: F.embedding(paddle.to_tensor([[1, 5]], dtype="int32"), paddle.to_tensor(W), padding_idx=5))
# a sparse gradient (Paddle: SelectedRows, whose .numpy() shows its raw rows) seen through the update it makes
for lazy in (False, True):
    embs = nn.Embedding(6, 4, padding_idx=5, sparse=True, weight_attr=nn.initializer.Assign(W))
    sopt = paddle.optimizer.Adam(0.1, parameters=embs.parameters(), lazy_mode=lazy)
    for _ in range(2):
        (embs(ids) ** 2).sum().backward()
        sopt.step()
        sopt.clear_grad()
    rec[f"emb_sparse_adam_{lazy}"] = v(embs.weight)
emb3 = nn.Embedding(6, 4, padding_idx=2, max_norm=1.5, norm_type=2.0, weight_attr=nn.initializer.Assign(W))
o = emb3(ids)
(o * o).sum().backward()
rec["Emb_pad_maxnorm"] = [v(o), g(emb3.weight), v(emb3.weight)]
rec["Emb_repr"] = repr(emb3)
rec["Emb_bad_pad"] = attempt(lambda: nn.Embedding(6, 4, padding_idx=6))
rec["gather_tree_int32"] = attempt(lambda: F.gather_tree(gt_ids.astype("int32"), gt_par.astype("int32")))
rec["gather_tree_bad_shape"] = attempt(lambda: F.gather_tree(gt_ids, gt_par[:2]))
pots64 = pots.astype("float64")
sc, path = paddle.text.viterbi_decode(pots64, trans.astype("float64"), vlen, include_bos_eos_tag=True)
rec["viterbi_f64"] = [v(sc), v(path), str(sc.dtype), str(path.dtype)]
rec["viterbi_len32"] = attempt(lambda: paddle.text.viterbi_decode(pots, trans, vlen.astype("int32"))[1])
sc, path = paddle.text.viterbi_decode(pots[:, :3], trans, paddle.to_tensor([3, 3, 2]), False)
rec["viterbi_short"] = [v(sc), v(path), list(path.shape)]
rec["uc_dtype32"] = [attempt(lambda r=r: r) for r in paddle.unique_consecutive(paddle.to_tensor([1, 1, 2]), True, True, dtype="int32")]
rec["smask_neg_maxlen"] = attempt(lambda: F.sequence_mask(lens, maxlen=-1))
rec["smask_empty"] = attempt(lambda: F.sequence_mask(paddle.to_tensor([], dtype="int64")))
rec["one_hot_float_nc"] = attempt(lambda: F.one_hot(paddle.to_tensor([0, 2]), 3.0))
rec["one_hot_none_nc"] = attempt(lambda: F.one_hot(paddle.to_tensor([0, 2]), None))
rec["emb_pad_oob"] = attempt(lambda: F.embedding(paddle.to_tensor([1]), paddle.to_tensor(W), padding_idx=6))
rec["Emb_pad_float"] = attempt(lambda: nn.Embedding(6, 4, padding_idx=1.0))
for mn, nt in ((0.0, 2.0), (1.0, float("inf")), (2.0, 0.0), (0.8, 3.0)):
    w = paddle.to_tensor(W)
    rec[f"emb_renorm_{mn}_{nt}"] = [v(F.embedding(paddle.to_tensor([0, 2, 5]), w, max_norm=mn, norm_type=nt)), v(w)]
rec["uc_empty"] = attempt(lambda: paddle.unique_consecutive(paddle.to_tensor([], dtype="int64")))

# ---- seq2seq trained with teacher forcing, decoded by beam search --------------------------------
V, EMB, HID, B, TS, TT = 8, 6, 10, 4, 5, 4
BOS, EOS = 0, 1
src = paddle.to_tensor(rng.integers(2, V, size=(B, TS)))
src_len = paddle.to_tensor([5, 3, 4, 2])
tgt = paddle.to_tensor(np.concatenate([rng.integers(2, V, size=(B, TT - 1)), np.full((B, 1), EOS)], 1))
tgt_len = paddle.to_tensor([4, 3, 4, 2])


class Seq2Seq(nn.Layer):
    def __init__(self):
        super().__init__()
        self.src_emb = nn.Embedding(V, EMB)
        self.tgt_emb = nn.Embedding(V, EMB)
        self.enc = nn.GRU(EMB, HID)
        self.cell = nn.GRUCell(EMB, HID)
        self.out = nn.Linear(HID, V)

    def encode(self, s, sl):
        _, h = self.enc(self.src_emb(s), sequence_length=sl)
        return h[-1]

    def forward(self, s, sl, t):
        h = self.encode(s, sl)
        inp = paddle.concat([paddle.full([B, 1], BOS, dtype="int64"), t[:, :-1]], 1)
        outs = []
        for i in range(TT):
            o, h = self.cell(self.tgt_emb(inp[:, i]), h)
            outs.append(self.out(o))
        return paddle.stack(outs, 1)


model = Seq2Seq()
r = np.random.default_rng(11)
model.set_state_dict({k: (r.standard_normal(p.shape) * 0.4).astype("float32") for k, p in model.state_dict().items()})
opt = paddle.optimizer.Adam(learning_rate=0.03, parameters=model.parameters())
tmask = F.sequence_mask(tgt_len, maxlen=TT, dtype="float32")
losses = []
for _ in range(15):
    lg = model(src, src_len, tgt)
    ce = F.cross_entropy(lg, tgt.unsqueeze(-1), reduction="none").squeeze(-1)
    loss = (ce * tmask).sum() / tmask.sum()
    loss.backward()
    opt.step()
    opt.clear_grad()
    losses.append(loss.item())
rec["s2s_loss"] = losses
model.eval()
h0 = model.encode(src, src_len)
for bs in (1, 3):
    for kw in ({}, {"output_time_major": True}, {"impute_finished": True, "return_length": True},
               {"is_test": True, "return_length": True}):
        dec = nn.BeamSearchDecoder(model.cell, start_token=BOS, end_token=EOS, beam_size=bs,
                                   embedding_fn=model.tgt_emb, output_fn=model.out)
        res = nn.dynamic_decode(dec, inits=h0, max_step_num=6, **kw)
        key = f"beam{bs}_" + "_".join(sorted(kw)) if kw else f"beam{bs}_plain"
        outs, states = res[0], res[1]
        rec[key] = [v(outs), list(outs.shape), str(outs.dtype), list(states.cell_states.shape), v(states.log_probs),
                    v(states.finished), v(states.lengths)]
        if kw.get("return_length"):
            rec[key].append(v(res[2]))

lstm = nn.LSTMCell(EMB, HID)
r = np.random.default_rng(12)
lstm.set_state_dict({k: (r.standard_normal(p.shape) * 0.5).astype("float32") for k, p in lstm.state_dict().items()})
dec = nn.BeamSearchDecoder(lstm, start_token=BOS, end_token=EOS, beam_size=2, embedding_fn=model.tgt_emb,
                           output_fn=model.out)
c0 = paddle.zeros([B, HID])
outs, states, slen = nn.dynamic_decode(dec, inits=(h0, c0),
                                       max_step_num=5, return_length=True, impute_finished=True)
rec["tile_beam"] = v(nn.BeamSearchDecoder.tile_beam_merge_with_batch(paddle.to_tensor([[1.0, 2.0], [3.0, 4.0]]), 3))
rec["beam_lstm"] = [v(outs), v(states.log_probs), v(slen), [list(s.shape) for s in states.cell_states]]

with open(os.environ["PROGRAM_OUT"], "w") as f:
    json.dump(rec, f)
