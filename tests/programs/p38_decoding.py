"""Sequence generation: a tiny seq2seq (GRU encoder, GRUCell decoder with an output layer) trained a few steps with
teacher forcing (embedding with padding_idx, CrossEntropyLoss(ignore_index, reduction='none') with a sequence_mask),
then decoding: nn.BeamSearchDecoder + nn.dynamic_decode (beam_size 3, max_step_num, with and without
return_length / output_time_major / impute_finished; its outputs, final states and lengths), the same over an
LSTMCell, BeamSearchDecoder's static helpers (tile_beam_merge_with_batch), F.gather_tree on hand-made ids and
parents, greedy decoding written by hand (argmax, topk, masked_fill, paddle.where, an early stop when every row has
produced the end token), top-k / top-p filtering of logits written with sort / cumsum / scatter, and
F.embedding with padding_idx (its gradient); a Decoder of one's own (greedy, with keyword arguments to its step,
impute_finished; and one with teacher forcing whose loss is differentiated through dynamic_decode), and a
BeamSearchDecoder over a cell with attention that gets the encoder memory as dynamic_decode keyword arguments.

Also the losses of padded batches (cross_entropy with label_smoothing / weights / soft labels and ignore_index,
CrossEntropyLoss), put_along_axis / scatter variants and a beam step's flattened topk. Hard labels of shape
[batch, time, 1] with label_smoothing are left out: Paddle 3.3.1 fails there (no int64 label_smooth kernel), the
labels here are [batch, time].

Not mirrored, left out: with impute_finished, Paddle 3.3.1 reads a 1-D state of a batch ([batch]) as [batch, 1] and
broadcasts it to [batch, batch] (then fails on the next stack); pylayer_jax keeps each row's state. The states here
are [batch, hidden]."""
import json
import os

import numpy as np
import paddle
import paddle.nn as nn
import paddle.nn.functional as F

V, E, H, S, T = 10, 6, 8, 5, 6
BOS, EOS, PAD = 1, 2, 0
rng = np.random.default_rng(0)
B = 8
src = rng.integers(3, V, size=(B, S)).astype("int64")
src_len = rng.integers(2, S + 1, size=B).astype("int64")
for i, n in enumerate(src_len):
    src[i, n:] = PAD
tgt = np.full((B, T + 1), PAD, "int64")
tgt[:, 0] = BOS
tgt_len = np.zeros(B, "int64")
for i in range(B):
    body = np.sort(src[i, :src_len[i]])[: T - 1]
    tgt[i, 1:1 + len(body)] = body
    tgt[i, 1 + len(body)] = EOS
    tgt_len[i] = len(body) + 1
rec = {}


def v(t):
    return t.numpy().astype("float64").tolist()


def iv(t):
    return t.numpy().tolist()


class Seq2Seq(nn.Layer):
    def __init__(self):
        super().__init__()
        self.src_emb = nn.Embedding(V, E, padding_idx=PAD)
        self.tgt_emb = nn.Embedding(V, E, padding_idx=PAD)
        self.enc = nn.GRU(E, H)
        self.cell = nn.GRUCell(E, H)
        self.out = nn.Linear(H, V)

    def encode(self, x, lens):
        _, h = self.enc(self.src_emb(x), sequence_length=lens)
        return h[0]

    def forward(self, x, lens, y_in):
        state = self.encode(x, lens)
        logits = []
        for t in range(y_in.shape[1]):
            o, state = self.cell(self.tgt_emb(y_in[:, t]), state)
            logits.append(self.out(o))
        return paddle.stack(logits, axis=1)


model = Seq2Seq()
r = np.random.default_rng(1)
model.set_state_dict({k: (r.standard_normal(p.shape) * 0.4).astype("float32") for k, p in model.state_dict().items()})
rec["state_keys"] = list(model.state_dict().keys())
opt = paddle.optimizer.Adam(learning_rate=0.05, parameters=model.parameters())
ce = nn.CrossEntropyLoss(ignore_index=PAD, reduction="none")
x, xl = paddle.to_tensor(src), paddle.to_tensor(src_len)
y_in, y_out = paddle.to_tensor(tgt[:, :-1]), paddle.to_tensor(tgt[:, 1:])
mask = F.sequence_mask(paddle.to_tensor(tgt_len), maxlen=T, dtype="float32")
rec["mask"] = [v(mask), str(mask.dtype), iv(F.sequence_mask(paddle.to_tensor([1, 3, 0])))]
rec["mask_dtype_default"] = str(F.sequence_mask(paddle.to_tensor([1, 3])).dtype)
rec["train"] = []
for step in range(15):
    logits = model(x, xl, y_in)
    per_tok = ce(logits, y_out.unsqueeze(-1))
    if step == 0:
        rec["per_tok_shape"] = list(per_tok.shape)
        rec["per_tok0"] = v(per_tok.squeeze(-1)[0])
    loss = (per_tok.squeeze(-1) * mask).sum() / mask.sum()
    loss.backward()
    if step == 0:
        rec["emb_grad_pad_row"] = v(model.tgt_emb.weight.grad[PAD])
        rec["emb_grad_row3"] = v(model.tgt_emb.weight.grad[3])
    opt.step()
    opt.clear_grad()
    rec["train"].append(loss.item())
acc = ((logits.argmax(-1) == y_out).astype("float32") * mask).sum() / mask.sum()
rec["teacher_acc"] = acc.item()

# --- beam search over the trained GRUCell ---
model.eval()
with paddle.no_grad():
    enc_state = model.encode(x[:3], xl[:3])
    dec = nn.BeamSearchDecoder(model.cell, start_token=BOS, end_token=EOS, beam_size=3,
                               embedding_fn=model.tgt_emb, output_fn=model.out)
    init = nn.BeamSearchDecoder.tile_beam_merge_with_batch(enc_state, 3)
    rec["tiled"] = [list(init.shape), v(init[:4, :3])]
    outs, states = nn.dynamic_decode(dec, inits=enc_state, max_step_num=T)
    rec["beam_out_type"] = type(outs).__name__
    rec["beam_ids"] = [list(outs.shape), str(outs.dtype), iv(outs)]
    rec["beam_states"] = [type(states).__name__, sorted(states._fields) if hasattr(states, "_fields") else None]
    rec["beam_log_probs"] = v(states.log_probs)
    rec["beam_finished"] = iv(states.finished)
    rec["beam_lengths"] = iv(states.lengths)
    rec["beam_cell_state"] = [list(states.cell_states.shape), v(states.cell_states[0, 0])]
    outs2, states2, lens2 = nn.dynamic_decode(dec, inits=enc_state, max_step_num=T, output_time_major=True,
                                              impute_finished=True, return_length=True)
    rec["beam_tm"] = [list(outs2.shape), iv(outs2), iv(lens2), str(lens2.dtype)]
    outs3, _ = nn.dynamic_decode(dec, inits=enc_state, max_step_num=2)
    rec["beam_short"] = [list(outs3.shape), iv(outs3)]

    # over an LSTMCell (a tuple state)
    lstm = nn.LSTMCell(E, H)
    r2 = np.random.default_rng(2)
    lstm.set_state_dict({k: (r2.standard_normal(p.shape) * 0.5).astype("float32")
                         for k, p in lstm.state_dict().items()})
    dec2 = nn.BeamSearchDecoder(lstm, BOS, EOS, 3, embedding_fn=model.tgt_emb, output_fn=model.out)
    h0 = paddle.to_tensor(rng.standard_normal((2, H)).astype("float32"))
    c0 = paddle.zeros([2, H])
    outs4, states4 = nn.dynamic_decode(dec2, inits=[h0, c0], max_step_num=4)
    rec["lstm_beam"] = [list(outs4.shape), iv(outs4), v(states4.log_probs), iv(states4.lengths),
                        type(states4.cell_states).__name__, len(states4.cell_states)]

    # a cell with attention over the encoder memory, passed to every step as keyword arguments
    class AttnCell(nn.Layer):
        def __init__(self, m):
            super().__init__()
            self.m = m
            self.q = nn.Linear(H, H)

        def forward(self, ids, state, memory=None, memory_mask=None):
            o, h = self.m.cell(self.m.tgt_emb(ids), state)
            score = paddle.matmul(memory, self.q(o).unsqueeze(-1)).squeeze(-1)
            score = score.masked_fill(memory_mask.logical_not(), -1e9)
            ctx = (F.softmax(score, -1).unsqueeze(-1) * memory).sum(1)
            return o + ctx, h

    attn = AttnCell(model)
    attn.q.weight.set_value(paddle.to_tensor(rng.standard_normal((H, H)).astype("float32") * 0.3))
    attn.q.bias.set_value(paddle.zeros([H]))
    mem = model.src_emb(x[:3]).matmul(paddle.ones([E, H]) * 0.1)
    mmask = F.sequence_mask(xl[:3], maxlen=S).astype("bool")
    dec3 = nn.BeamSearchDecoder(attn, BOS, EOS, 3, output_fn=model.out)
    tile = nn.BeamSearchDecoder.tile_beam_merge_with_batch
    outs5, states5, lens5 = nn.dynamic_decode(dec3, inits=enc_state, max_step_num=5, is_test=True,
                                              return_length=True, memory=tile(mem, 3), memory_mask=tile(mmask, 3))
    rec["attn_beam"] = [list(outs5.shape), iv(outs5), v(states5.log_probs), iv(lens5)]

# --- gather_tree ---
ids = paddle.to_tensor([[[2, 2], [6, 1]], [[3, 9], [6, 1]], [[0, 1], [9, 0]]], dtype="int64")
parents = paddle.to_tensor([[[0, 0], [1, 1]], [[1, 0], [1, 0]], [[0, 0], [0, 1]]], dtype="int64")
gt = F.gather_tree(ids, parents)
rec["gather_tree"] = [iv(gt), str(gt.dtype)]
ids_r = paddle.to_tensor(rng.integers(0, V, size=(4, 2, 3)), dtype="int64")
par_r = paddle.to_tensor(rng.integers(0, 3, size=(4, 2, 3)), dtype="int64")
rec["gather_tree_rand"] = iv(F.gather_tree(ids_r, par_r))


# --- greedy decoding by hand, with an early stop ---
def greedy(m, xs, lens, max_len=8):
    state = m.encode(xs, lens)
    tok = paddle.full([xs.shape[0]], BOS, dtype="int64")
    finished = paddle.zeros([xs.shape[0]], dtype="bool")
    out, scores, steps = [], [], 0
    for _ in range(max_len):
        o, state = m.cell(m.tgt_emb(tok), state)
        logp = F.log_softmax(m.out(o), axis=-1)
        top_v, top_i = paddle.topk(logp, k=2, axis=-1)
        nxt = logp.argmax(-1)
        nxt = paddle.where(finished, paddle.full_like(nxt, PAD), nxt)
        sc = top_v[:, 0].masked_fill(finished, 0.0)
        out.append(nxt)
        scores.append(sc)
        finished = paddle.logical_or(finished, nxt == EOS)
        tok = nxt
        steps += 1
        if finished.all():
            break
    return paddle.stack(out, 1), paddle.stack(scores, 1).sum(1), steps, top_i


with paddle.no_grad():
    g_out, g_score, g_steps, last_top = greedy(model, x, xl)
rec["greedy"] = [iv(g_out), v(g_score), g_steps, iv(last_top)]
rec["greedy_len"] = iv(((g_out != PAD) & (g_out != EOS)).astype("int64").sum(1))


# --- top-k / top-p filtering ---
def top_k_filter(logits, k):
    kth = paddle.topk(logits, k, axis=-1)[0][:, -1:]
    return paddle.where(logits < kth, paddle.full_like(logits, -1e9), logits)


def top_p_filter(logits, p):
    sorted_logits, sorted_idx = paddle.sort(logits, descending=True, axis=-1), paddle.argsort(logits, -1, True)
    cum = paddle.cumsum(F.softmax(sorted_logits, axis=-1), axis=-1)
    remove = cum > p
    remove = paddle.concat([paddle.zeros_like(remove[:, :1]), remove[:, :-1]], axis=-1)
    filtered_sorted = paddle.where(remove, paddle.full_like(sorted_logits, -1e9), sorted_logits)
    out = paddle.zeros_like(logits)
    rows = paddle.arange(logits.shape[0]).unsqueeze(-1).expand_as(sorted_idx)
    index = paddle.stack([rows, sorted_idx], axis=-1).reshape([-1, 2])
    out = paddle.scatter_nd_add(out, index, filtered_sorted.reshape([-1]))
    alt = paddle.put_along_axis(paddle.zeros_like(logits), sorted_idx, filtered_sorted, axis=-1)
    flat = paddle.scatter(paddle.zeros([logits.shape[1]]), sorted_idx[0], filtered_sorted[0])
    return out, alt, flat, cum


L = paddle.to_tensor(rng.standard_normal((3, V)).astype("float32") * 2)
rec["top_k"] = v(top_k_filter(L, 3))
tp, alt, flat, cum = top_p_filter(L, 0.8)
rec["top_p"] = [v(tp), v(alt), v(flat), v(cum)]
probs = F.softmax(top_k_filter(L, 3), axis=-1)
rec["top_k_probs"] = v(probs)

# --- F.embedding with padding_idx, and its gradient ---
W = paddle.to_tensor(rng.standard_normal((V, 4)).astype("float32"), stop_gradient=False)
ids2 = paddle.to_tensor([[0, 3, 3], [5, 0, 9]])
e = F.embedding(ids2, W, padding_idx=0)
(e * paddle.arange(24, dtype="float32").reshape([2, 3, 4])).sum().backward()
rec["embedding"] = [v(e), v(W.grad)]
W.clear_gradient()
e = F.embedding(ids2, W, padding_idx=-1)
e.sum().backward()
rec["embedding_neg_pad"] = [v(e[1, 2]), v(W.grad)]


# --- a Decoder of one's own driven by dynamic_decode (greedy; teacher forcing with gradients) ---
class GreedyDecoder(nn.decode.Decoder):
    def __init__(self, m, memory_scale):
        self.m = m
        self.memory_scale = memory_scale

    def initialize(self, inits):
        b = inits.shape[0]
        tok = paddle.full([b], BOS, dtype="int64")
        return self.m.tgt_emb(tok), inits, paddle.zeros([b], dtype="bool")

    def step(self, time, inputs, states, bias=None):
        o, h = self.m.cell(inputs, states)
        logits = self.m.out(o) * self.memory_scale
        if bias is not None:
            logits = logits + bias
        ids = logits.argmax(-1)
        return (logits, ids), h, self.m.tgt_emb(ids), ids == EOS


with paddle.no_grad():
    enc_state = model.encode(x, xl)
    gdec = GreedyDecoder(model, 1.0)
    (g_logits, g_ids), g_state, g_len = nn.dynamic_decode(gdec, inits=enc_state, max_step_num=6,
                                                          return_length=True)
    rec["custom_greedy"] = [list(g_logits.shape), iv(g_ids), iv(g_len), v(g_state[:2])]
    (_, g_ids2), g_state2, g_len2 = nn.dynamic_decode(gdec, inits=enc_state, max_step_num=6, impute_finished=True,
                                                      return_length=True, bias=paddle.to_tensor([0.0, 0.0, 0.5] + [0.0] * (V - 3)))
    rec["custom_impute"] = [iv(g_ids2), iv(g_len2), v(g_state2[:3])]
    (_, g_ids3), _ = nn.dynamic_decode(gdec, inits=enc_state, max_step_num=1, output_time_major=True)
    rec["custom_short"] = iv(g_ids3)


class ForcedDecoder(nn.decode.Decoder):
    def __init__(self, m, targets):
        self.m, self.targets = m, targets

    def initialize(self, inits):
        return self.m.tgt_emb(self.targets[:, 0]), inits, paddle.zeros([inits.shape[0]], dtype="bool")

    def step(self, time, inputs, states):
        o, h = self.m.cell(inputs, states)
        t = int(time.item()) + 1
        nxt = self.targets[:, min(t, self.targets.shape[1] - 1)]
        return self.m.out(o), h, self.m.tgt_emb(nxt), paddle.full([inputs.shape[0]], t >= self.targets.shape[1], "bool")

    @property
    def tracks_own_finished(self):
        return False


model.train()
fd = ForcedDecoder(model, y_in)
logits_fd, _, lens_fd = nn.dynamic_decode(fd, inits=model.encode(x, xl), return_length=True)
loss_fd = (ce(logits_fd, y_out.unsqueeze(-1)).squeeze(-1) * mask).sum() / mask.sum()
loss_fd.backward()
rec["forced"] = [list(logits_fd.shape), loss_fd.item(), iv(lens_fd), v(model.out.bias.grad),
                 float(model.cell.weight_hh.grad.abs().sum())]
opt.clear_grad()

# --- odds and ends of decoding code: masks, losses over padded batches, scatter variants ---
lens_t = paddle.to_tensor([3, 1, 4], dtype="int32")
rec["seq_mask_variants"] = [iv(F.sequence_mask(lens_t)), str(F.sequence_mask(lens_t).dtype),
                            iv(F.sequence_mask(lens_t, maxlen=paddle.to_tensor(5))),
                            v(F.sequence_mask(paddle.to_tensor([[1, 2], [0, 3]]), maxlen=3, dtype="float64"))]
lg = paddle.to_tensor(rng.standard_normal((2, 4, V)).astype("float32"), stop_gradient=False)
lab = paddle.to_tensor([[3, 4, PAD, PAD], [5, 6, 7, PAD]])
ls_loss = F.cross_entropy(lg, lab, ignore_index=PAD, label_smoothing=0.1, reduction="mean")
w = paddle.to_tensor(np.linspace(0.5, 1.5, V).astype("float32"))
w_loss = F.cross_entropy(lg, lab, weight=w, ignore_index=PAD, reduction="none")
soft = F.softmax(paddle.to_tensor(rng.standard_normal((2, 4, V)).astype("float32")), -1)
soft_loss = F.cross_entropy(lg, soft, soft_label=True, reduction="sum")
oh = F.one_hot(lab, V)
sm_loss = F.cross_entropy(lg, F.label_smooth(oh, epsilon=0.2), soft_label=True)
(ls_loss + w_loss.sum() + soft_loss + sm_loss).backward()
rec["losses"] = [ls_loss.item(), v(w_loss), list(w_loss.shape), soft_loss.item(), sm_loss.item(),
                 float(lg.grad.abs().sum()), v(lg.grad[0, 2])]
mean_ign = nn.CrossEntropyLoss(ignore_index=PAD)(lg, lab.unsqueeze(-1))
mean_w = nn.CrossEntropyLoss(weight=w, ignore_index=PAD)(lg.reshape([-1, V]), lab.reshape([-1]))
rec["loss_means"] = [mean_ign.item(), mean_w.item()]
base = paddle.zeros([3, 5])
idx3 = paddle.to_tensor([[0, 1], [2, 2], [4, 0]])
val3 = paddle.to_tensor([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]])
rec["scatter_variants"] = [
    v(paddle.put_along_axis(base, idx3, val3, axis=1, reduce="add")),
    v(paddle.put_along_axis(base + 1.0, idx3, val3, axis=1, reduce="multiply")),
    v(paddle.scatter(paddle.zeros([4, 2]), paddle.to_tensor([1, 1, 3]), paddle.ones([3, 2]) * 2.0, overwrite=False)),
    v(paddle.scatter(paddle.zeros([4, 2]), paddle.to_tensor([1, 1, 3]),
                     paddle.to_tensor([[1.0, 1.0], [2.0, 2.0], [3.0, 3.0]]), overwrite=True)),
    v(paddle.take_along_axis(val3, paddle.to_tensor([[1], [0], [1]]), axis=1)),
    v(paddle.where(val3 > 2.5, val3, paddle.zeros_like(val3))),
    v(val3.masked_fill(paddle.to_tensor([True, False]), -1.0)),
]
beams = paddle.to_tensor(rng.standard_normal((2, 3, V)).astype("float32"))
flat_scores, flat_idx = paddle.topk(beams.reshape([2, -1]), k=3)
rec["flat_topk"] = [v(flat_scores), iv(flat_idx // V), iv(flat_idx % V), iv(paddle.floor_divide(flat_idx, paddle.to_tensor(V)))]
with open(os.environ["PROGRAM_OUT"], "w") as fh:
    json.dump(rec, fh)
