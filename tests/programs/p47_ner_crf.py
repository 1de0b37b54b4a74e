"""NLP sequence labelling: a vocabulary built in Python, token ids padded into a batch with paddle.to_tensor of lists,
nn.Embedding loaded from a numpy matrix (set_value, paddle.nn.initializer.Assign as weight_attr, assignment to
.weight through paddle.assign), a BiLSTM (nn.LSTM direction='bidirect' with sequence_length), a CRF written by hand
(the forward algorithm with paddle.logsumexp over tags, the gold path score by take_along_axis / gather / gather_nd,
masks from paddle.arange < lengths, paddle.where over time steps) trained with Adam and gradient clipping; then
paddle.text.viterbi_decode and paddle.text.ViterbiDecoder on the learned transitions (include_bos_eos_tag both
ways), token-level accuracy with masks (masked_select, sum of a bool), a softmax baseline trained with
F.cross_entropy(ignore_index=..., reduction='none') and nn.CrossEntropyLoss(ignore_index=...), and the losses,
decoded paths and scores recorded.

Known differences (not mirrored), left out here: with an initial state and sequence_length together, Paddle 3.3.1's
bidirectional nn.GRU gives a wrong gradient at each shorter sequence's last step (its own finite differences
disagree; LSTM and SimpleRNN are right), and pylayer_jax gives the true gradient. paddle.text.viterbi_decode with
int32 lengths fails in Paddle (its kernel reads them as int64); pylayer_jax takes them. F.cross_entropy with
label_smoothing and hard labels of shape [..., 1] fails in Paddle (it smooths the integer labels); pylayer_jax
takes them as the labels without that axis."""
import json
import os

import numpy as np
import paddle
import paddle.nn as nn
import paddle.nn.functional as F

rng = np.random.default_rng(0)
WORDS = ["the", "a", "john", "mary", "paris", "london", "lives", "in", "visited", "loves", "big", "city", "google",
         "works", "at", "bob"]
TAGS = ["O", "B-PER", "I-PER", "B-LOC", "B-ORG"]
ENT = {"john": "B-PER", "mary": "B-PER", "bob": "B-PER", "paris": "B-LOC", "london": "B-LOC", "google": "B-ORG"}


def make_sentence(r):
    n = int(r.integers(3, 9))
    words = [WORDS[int(i)] for i in r.integers(0, len(WORDS), size=n)]
    tags = [ENT.get(w, "O") for w in words]
    # a person's first name followed by "bob" becomes a two-token name (B-PER I-PER)
    for i in range(1, n):
        if words[i] == "bob" and tags[i - 1] == "B-PER":
            tags[i] = "I-PER"
    return words, tags


data = [make_sentence(rng) for _ in range(48)]

# vocabulary built in Python: 0 = <pad>, 1 = <unk>, then words by frequency (ties by first appearance)
counts = {}
for words, _ in data:
    for w in words:
        counts[w] = counts.get(w, 0) + 1
vocab = {"<pad>": 0, "<unk>": 1}
for w, _c in sorted(counts.items(), key=lambda kv: -kv[1]):
    vocab[w] = len(vocab)
tag_id = {t: i for i, t in enumerate(TAGS)}
PAD_TAG = -100
K = len(TAGS)

rec = {"vocab_size": len(vocab), "first_words": list(vocab)[:6]}


def batchify(items):
    lens = [len(w) for w, _ in items]
    n = max(lens)
    ids = [[vocab.get(w, 1) for w in words] + [0] * (n - len(words)) for words, _ in items]
    tg = [[tag_id[t] for t in tags] + [PAD_TAG] * (n - len(tags)) for _, tags in items]
    return paddle.to_tensor(ids), paddle.to_tensor(tg), paddle.to_tensor(lens, dtype="int64")


batches = [batchify(data[i:i + 8]) for i in range(0, len(data), 8)]
ids0, tags0, lens0 = batches[0]
rec["batch0"] = [ids0.numpy().tolist(), tags0.numpy().tolist(), lens0.numpy().tolist(), str(ids0.dtype),
                 str(lens0.dtype)]

V, E, H = len(vocab), 8, 6
r = np.random.default_rng(1)
emb_matrix = (r.standard_normal((V, E)) * 0.5).astype("float32")
emb_matrix[0] = 0.0


def init_from_numpy(layer, r):
    for _name, p in layer.named_parameters():
        p.set_value((r.standard_normal(p.shape) * 0.3).astype("float32"))


class BiLSTMCRF(nn.Layer):
    def __init__(self):
        super().__init__()
        self.emb = nn.Embedding(V, E, padding_idx=0)
        self.emb.weight.set_value(emb_matrix)
        self.lstm = nn.LSTM(E, H, direction="bidirect", time_major=False)
        self.proj = nn.Linear(2 * H, K)
        self.start = self.create_parameter([K], default_initializer=nn.initializer.Constant(0.0))
        self.end = self.create_parameter([K], default_initializer=nn.initializer.Constant(0.0))
        self.trans = self.create_parameter(
            [K, K], default_initializer=nn.initializer.Assign((r.standard_normal((K, K)) * 0.1).astype("float32")))

    def emissions(self, ids, lens):
        out, (h, c) = self.lstm(self.emb(ids), sequence_length=lens)
        return self.proj(out), h, c

    def log_partition(self, em, mask):
        alpha = self.start.unsqueeze(0) + em[:, 0]
        for t in range(1, em.shape[1]):
            nxt = paddle.logsumexp(alpha.unsqueeze(2) + self.trans.unsqueeze(0) + em[:, t].unsqueeze(1), axis=1)
            alpha = paddle.where(mask[:, t].unsqueeze(1), nxt, alpha)
        return paddle.logsumexp(alpha + self.end.unsqueeze(0), axis=1)

    def gold_score(self, em, tags, mask, lens):
        safe = paddle.where(mask, tags, paddle.zeros_like(tags))
        emit = paddle.take_along_axis(em, safe.unsqueeze(-1), axis=2).squeeze(-1)
        score = (emit * mask.astype("float32")).sum(1)
        score = score + paddle.gather(self.start, safe[:, 0])
        flat = safe[:, :-1] * K + safe[:, 1:]
        tr = paddle.gather(self.trans.flatten(), flat.flatten()).reshape(flat.shape)
        score = score + (tr * mask[:, 1:].astype("float32")).sum(1)
        last = paddle.take_along_axis(safe, (lens - 1).unsqueeze(1), axis=1).squeeze(1)
        return score + paddle.gather_nd(self.end, last.unsqueeze(1))

    def forward(self, ids, tags, lens):
        em, _, _ = self.emissions(ids, lens)
        mask = paddle.arange(ids.shape[1]).unsqueeze(0) < lens.unsqueeze(1)
        return (self.log_partition(em, mask) - self.gold_score(em, tags, mask, lens)).mean()


paddle.seed(0)
model = BiLSTMCRF()
init_from_numpy(model.lstm, np.random.default_rng(2))
init_from_numpy(model.proj, np.random.default_rng(3))
rec["param_names"] = [n for n, _ in model.named_parameters()]
rec["param_shapes"] = [list(p.shape) for p in model.parameters()]
rec["state_keys"] = list(model.state_dict().keys())
rec["pad_row_before"] = model.emb.weight.numpy()[0].tolist()

clip = nn.ClipGradByGlobalNorm(5.0)
opt = paddle.optimizer.Adam(learning_rate=0.05, parameters=model.parameters(), grad_clip=clip)
rec["crf_loss"], rec["trans_grad_norm"] = [], []
for _epoch in range(4):
    for ids, tags, lens in batches:
        loss = model(ids, tags, lens)
        loss.backward()
        rec["trans_grad_norm"].append(float(paddle.linalg.norm(model.trans.grad)))
        opt.step()
        opt.clear_grad()
        rec["crf_loss"].append(float(loss))
rec["pad_row_after"] = model.emb.weight.numpy()[0].tolist()
rec["trans"] = model.trans.numpy().tolist()

# shapes of the BiLSTM's outputs and final states
model.eval()
with paddle.no_grad():
    em0, h0, c0 = model.emissions(ids0, lens0)
rec["lstm_shapes"] = [list(em0.shape), list(h0.shape), list(c0.shape)]
rec["em0_row"] = em0.numpy()[1].tolist()

# decoding: Viterbi with the learned transitions, without and with start/stop tags
trans = model.trans.detach()
acc_total, acc_right = 0, 0
rec["paths_plain"], rec["scores_plain"] = [], []
for ids, tags, lens in batches:
    with paddle.no_grad():
        em, _, _ = model.emissions(ids, lens)
    scores, paths = paddle.text.viterbi_decode(em, trans, lens, include_bos_eos_tag=False)
    rec["paths_plain"].append(paths.numpy().tolist())
    rec["scores_plain"].append(scores.numpy().tolist())
    n = paths.shape[1]
    mask = paddle.arange(n).unsqueeze(0) < lens.unsqueeze(1)
    right = (paths == tags[:, :n]) & mask
    acc_right += int(right.astype("int64").sum())
    acc_total += int(mask.sum())
rec["paths_dtype"] = str(paths.dtype)
rec["scores_dtype"] = str(scores.dtype)
rec["viterbi_acc"] = acc_right / acc_total

# with start/stop tags: the transition matrix grows by two rows/columns (second last = start, last = stop)
big = np.zeros((K + 2, K + 2), "float32")
big[:K, :K] = model.trans.numpy()
big[K, :K] = model.start.numpy()
big[:K, K + 1] = model.end.numpy()
big_t = paddle.to_tensor(big)
em_big = paddle.concat([em0, paddle.full([em0.shape[0], em0.shape[1], 2], -1e4)], axis=-1)
s_bos, p_bos = paddle.text.viterbi_decode(em_big, big_t, lens0, include_bos_eos_tag=True)
s_nob, p_nob = paddle.text.viterbi_decode(em_big, big_t, lens0, include_bos_eos_tag=False)
rec["bos_paths"] = p_bos.numpy().tolist()
rec["bos_scores"] = s_bos.numpy().tolist()
rec["nobos_paths"] = p_nob.numpy().tolist()
rec["nobos_scores"] = s_nob.numpy().tolist()

decoder = paddle.text.ViterbiDecoder(big_t, include_bos_eos_tag=True)
s_dec, p_dec = decoder(em_big, lens0)
rec["decoder_same"] = [bool((p_dec == p_bos).all()), float((s_dec - s_bos).abs().max())]
decoder2 = paddle.text.ViterbiDecoder(trans, include_bos_eos_tag=False)
s2, p2 = decoder2(em0, lens0)
rec["decoder_plain"] = [p2.numpy().tolist(), s2.numpy().tolist()]
rec["decoder_params"] = len(decoder2.parameters())

# the CRF's own best path score equals the gold score of the decoded path (without start/end this time)
mask0 = paddle.arange(em0.shape[1]).unsqueeze(0) < lens0.unsqueeze(1)
safe = paddle.where(mask0, p2, paddle.zeros_like(p2))
emit = paddle.take_along_axis(em0, safe.unsqueeze(-1), axis=2).squeeze(-1)
path_score = (emit * mask0.astype("float32")).sum(1)
pair = paddle.stack([safe[:, :-1], safe[:, 1:]], axis=-1)
path_score += (paddle.gather_nd(trans, pair) * mask0[:, 1:].astype("float32")).sum(1)
rec["path_score_check"] = path_score.numpy().tolist()

# token accuracy with masked_select over the padded batch
pred_tok = paddle.masked_select(p2, mask0)
gold_tok = paddle.masked_select(tags0, mask0)
rec["masked_tokens"] = [pred_tok.numpy().tolist(), gold_tok.numpy().tolist(),
                        float((pred_tok == gold_tok).astype("float32").mean())]

# a softmax baseline: per-token cross entropy with ignore_index, reduction 'none'
paddle.seed(1)
base_emb = nn.Embedding(V, E, weight_attr=paddle.ParamAttr(initializer=nn.initializer.Assign(emb_matrix)))
base_lstm = nn.LSTM(E, H, direction="bidirect")
base_out = nn.Linear(2 * H, K)
init_from_numpy(base_lstm, np.random.default_rng(4))
init_from_numpy(base_out, np.random.default_rng(5))
base_emb.weight = paddle.create_parameter([V, E], "float32",
                                          default_initializer=nn.initializer.Assign(emb_matrix * 0.5))
params = base_emb.parameters() + base_lstm.parameters() + base_out.parameters()
rec["base_emb_w0"] = base_emb.weight.numpy()[2].tolist()
opt2 = paddle.optimizer.Adam(learning_rate=0.05, parameters=params)
ce = nn.CrossEntropyLoss(ignore_index=PAD_TAG)
rec["ce_none"], rec["ce_mean"], rec["ce_layer"] = [], [], []
for _epoch in range(3):
    for ids, tags, lens in batches:
        out, _ = base_lstm(base_emb(ids), sequence_length=lens)
        logits = base_out(out)
        per_tok = F.cross_entropy(logits, tags.unsqueeze(-1), ignore_index=PAD_TAG, reduction="none")
        valid = (tags != PAD_TAG).astype("float32")
        loss = (per_tok.squeeze(-1) * valid).sum() / valid.sum()
        layer_loss = ce(logits.reshape([-1, K]), tags.reshape([-1]))
        loss.backward()
        opt2.step()
        opt2.clear_grad()
        rec["ce_mean"].append(float(loss))
        rec["ce_layer"].append(float(layer_loss))
    rec["ce_none"].append([list(per_tok.shape), per_tok.numpy()[0, :, 0].tolist()])
with paddle.no_grad():
    out, _ = base_lstm(base_emb(ids0), sequence_length=lens0)
    probs = F.softmax(base_out(out), axis=-1)
pred = probs.argmax(-1)
rec["base_pred"] = pred.numpy().tolist()
rec["base_acc"] = float(((pred == tags0) & mask0).astype("float32").sum() / mask0.astype("float32").sum())
rec["base_maxprob"] = probs.max(-1).numpy()[0].tolist()

# more of the sequence toolkit: sequence_mask, a bidirectional GRU with initial states, nll_loss / cross_entropy
# with class weights and ignore_index together, label smoothing, Viterbi on float64 potentials with int32 lengths
sm = F.sequence_mask(lens0, maxlen=9, dtype="float32")
rec["sequence_mask"] = [sm.numpy().tolist(), str(sm.dtype), str(F.sequence_mask(lens0).dtype)]
gru = nn.GRU(E, 4, num_layers=2, direction="bidirectional")
init_from_numpy(gru, np.random.default_rng(6))
x0 = base_emb(ids0).detach()
x0.stop_gradient = False
h_init = paddle.to_tensor(np.random.default_rng(7).standard_normal((4, 8, 4)).astype("float32"))
g_out, g_h = gru(x0, sequence_length=lens0)
(g_out.sum() + (g_h ** 2).sum()).backward()
rec["gru"] = [list(g_out.shape), list(g_h.shape), g_out.numpy()[2, :, :].tolist(), g_h.numpy()[:, 2].tolist(),
              x0.grad.numpy()[2].tolist(), float(paddle.linalg.norm(gru.weight_hh_l1_reverse.grad))]
x0.clear_gradient()
gru.clear_gradients()
g_out, g_h = gru(x0, h_init)
(g_out.sum() + (g_h ** 2).sum()).backward()
rec["gru_h0"] = [g_out.numpy()[2, :, :].tolist(), g_h.numpy()[:, 2].tolist(), x0.grad.numpy()[2].tolist(),
                 float(paddle.linalg.norm(gru.weight_hh_l1_reverse.grad))]
with paddle.no_grad():
    logits0 = base_out(base_lstm(x0.detach(), sequence_length=lens0)[0])
w = paddle.to_tensor([0.5, 2.0, 2.0, 1.5, 3.0])
lp = F.log_softmax(logits0, axis=-1)
rec["nll_weight_ignore"] = [
    float(F.nll_loss(lp.reshape([-1, K]), tags0.reshape([-1]), weight=w, ignore_index=PAD_TAG)),
    F.nll_loss(lp.reshape([-1, K]), tags0.reshape([-1]), ignore_index=PAD_TAG, reduction="none").numpy().tolist(),
    float(F.nll_loss(lp.reshape([-1, K]), tags0.reshape([-1]), weight=w, ignore_index=PAD_TAG, reduction="sum")),
]
rec["ce_weight_ignore"] = [
    float(F.cross_entropy(logits0, tags0.unsqueeze(-1), weight=w, ignore_index=PAD_TAG)),
    float(F.cross_entropy(logits0.reshape([-1, K]), tags0.reshape([-1]), weight=w, ignore_index=PAD_TAG,
                          reduction="sum")),
    F.cross_entropy(logits0, tags0.unsqueeze(-1), weight=w, ignore_index=PAD_TAG,
                    reduction="none").numpy()[1, :, 0].tolist(),
    float(nn.CrossEntropyLoss(weight=w, ignore_index=PAD_TAG)(logits0.reshape([-1, K]), tags0.reshape([-1]))),
]
safe_tags = paddle.where(mask0, tags0, paddle.zeros_like(tags0))
rec["ce_smooth"] = [
    float(F.cross_entropy(logits0, safe_tags, label_smoothing=0.1)),
    float(F.cross_entropy(logits0, F.one_hot(safe_tags, K), soft_label=True)),
    float(F.cross_entropy(F.softmax(logits0), safe_tags.unsqueeze(-1), use_softmax=False)),
    float(nn.CrossEntropyLoss(label_smoothing=0.2, reduction="sum")(logits0, safe_tags)),
]
s64, p64 = paddle.text.viterbi_decode(em0.astype("float64"), trans.astype("float64"), lens0,
                                      include_bos_eos_tag=False)
rec["viterbi_f64"] = [s64.numpy().tolist(), p64.numpy().tolist(), str(s64.dtype), str(p64.dtype)]
one = paddle.ones([3], dtype="int64")
s1, p1 = paddle.text.viterbi_decode(em0[:3], trans, one, include_bos_eos_tag=False)
rec["viterbi_len1"] = [s1.numpy().tolist(), p1.numpy().tolist(), list(p1.shape)]
with open(os.environ["PROGRAM_OUT"], "w") as f:
    json.dump(rec, f)
