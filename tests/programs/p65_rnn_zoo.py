"""Recurrent layers as users write them: nn.LSTM / nn.GRU / nn.SimpleRNN with num_layers=2, direction='bidirect'
(and 'bidirectional'), time_major=True and False, sequence_length (padded variable lengths), initial states given
and not, LSTM's proj_size, dropout between layers in eval mode; nn.RNN and nn.BiRNN wrapping LSTMCell, GRUCell,
SimpleRNNCell and a custom RNNCellBase subclass (its state_shape and get_initial_states), cells called one step at a
time; weights set from numpy so both libraries start equal; outputs, final states, input and parameter gradients,
state_dict keys and parameter shapes; then a sequence classifier (Embedding + bidirectional LSTM, Adam with
ClipGradByGlobalNorm) and a tagger (Embedding + 2-layer GRU + per-step Linear, cross_entropy with ignore_index on
padding, Momentum with ClipGradByNorm) trained 15 steps each, losses, gradient norms and predictions recorded.

Left out: Paddle 3.3.1 cannot backpropagate through an nn.LSTM / GRU / SimpleRNN in eval mode (its fused rnn op
then keeps no reserve space: ``RuntimeError: Tensor holds no memory``); pylayer_jax gives the gradients. So the
classifier trains with dropout=0 in train mode, and the eval-mode dropout is checked without gradients. Paddle
3.3.1's fused GRU gives wrong gradients for a bidirectional GRU run with both initial_states and sequence_length
(the reverse direction's gradient of the initial state and of the inputs of the shorter sequences disagree with
finite differences of Paddle's own forward; pylayer_jax's agree): that combination is recorded without gradients."""
import json
import os

import numpy as np
import paddle
import paddle.nn as nn
import paddle.nn.functional as F

rng = np.random.default_rng(0)
B, T, IN, H = 4, 6, 5, 7
X = rng.standard_normal((B, T, IN)).astype("float32")
LENS = np.array([6, 3, 5, 1], "int64")
rec = {}


def init(layer, seed, scale=0.3):
    r = np.random.default_rng(seed)
    layer.set_state_dict({k: (r.standard_normal(v.shape) * scale).astype("float32")
                          for k, v in layer.state_dict().items()})
    return layer


def flat(t):
    return np.asarray(t.numpy() if hasattr(t, "numpy") else t).ravel().tolist()


def states(s):
    """A layer's final states as nested lists (a tensor or a tuple of them)."""
    if isinstance(s, (tuple, list)):
        return [states(v) for v in s]
    return [list(s.shape), flat(s)]


def run_layer(name, layer, x, **kw):
    """Forward, then a loss on the outputs and the final states; record them and the gradients."""
    xt = paddle.to_tensor(x, stop_gradient=False)
    out, st = layer(xt, **kw)
    leaves = paddle.utils.flatten(st)
    loss = (out * out).sum() + sum((s * 0.5).sum() for s in leaves)
    loss.backward()
    rec[name] = {
        "out": [list(out.shape), flat(out)],
        "states": states(st),
        "x_grad": flat(xt.grad),
        "param_grads": {n: flat(p.grad) for n, p in layer.named_parameters()},
        "keys": list(layer.state_dict().keys()),
        "shapes": [[n, list(p.shape)] for n, p in layer.named_parameters()],
    }
    layer.clear_gradients()


# --- the three built-in multi-layer layers --------------------------------------------------------------------------
lstm = init(nn.LSTM(IN, H, num_layers=2, direction="bidirect"), 1)
run_layer("lstm_bi_len", lstm, X, sequence_length=paddle.to_tensor(LENS))
h0 = rng.standard_normal((4, B, H)).astype("float32")
c0 = rng.standard_normal((4, B, H)).astype("float32")
run_layer("lstm_bi_init", lstm, X, initial_states=(paddle.to_tensor(h0), paddle.to_tensor(c0)))

lstm_tm = init(nn.LSTM(IN, H, num_layers=2, time_major=True), 2)
run_layer("lstm_time_major_len", lstm_tm, X.transpose(1, 0, 2).copy(), sequence_length=paddle.to_tensor(LENS))

lstm_proj = init(nn.LSTM(IN, H, num_layers=2, direction="bidirect", proj_size=3), 3)
hp = rng.standard_normal((4, B, 3)).astype("float32")
cp = rng.standard_normal((4, B, H)).astype("float32")
run_layer("lstm_proj", lstm_proj, X, initial_states=(paddle.to_tensor(hp), paddle.to_tensor(cp)),
          sequence_length=paddle.to_tensor(LENS))

gru = init(nn.GRU(IN, H, num_layers=2, direction="bidirectional", time_major=True), 4)
g0 = rng.standard_normal((4, B, H)).astype("float32")
run_layer("gru_bi_tm", gru, X.transpose(1, 0, 2).copy(), initial_states=paddle.to_tensor(g0))
with paddle.no_grad():  # initial states and lengths together: the values only (see the docstring)
    go, gh = gru(paddle.to_tensor(X.transpose(1, 0, 2).copy()), initial_states=paddle.to_tensor(g0),
                 sequence_length=paddle.to_tensor(LENS))
rec["gru_bi_tm_init_len"] = [flat(go), flat(gh)]
run_layer("gru_fw_init_len", init(nn.GRU(IN, H, num_layers=2), 17), X, initial_states=paddle.to_tensor(g0[:2]),
          sequence_length=paddle.to_tensor(LENS))

srnn = init(nn.SimpleRNN(IN, H, num_layers=2, activation="relu"), 5)
run_layer("simple_relu", srnn, X, sequence_length=paddle.to_tensor(LENS))
srnn_bi = init(nn.SimpleRNN(IN, H, num_layers=2, direction="bidirect"), 6)
run_layer("simple_bi_tanh", srnn_bi, X)

# dropout between the layers: eval mode switches it off, so outputs are deterministic
drop = init(nn.LSTM(IN, H, num_layers=2, dropout=0.5), 7)
drop.eval()
with paddle.no_grad():
    o1, _ = drop(paddle.to_tensor(X))
    o2, _ = drop(paddle.to_tensor(X))
rec["dropout_eval"] = [flat(o1), bool(np.allclose(o1.numpy(), o2.numpy())), drop.training]
drop.train()
rec["dropout_train_mode"] = drop.training

# --- nn.RNN / nn.BiRNN wrapping cells --------------------------------------------------------------------------------
lcell = init(nn.LSTMCell(IN, H), 8)
run_layer("rnn_lstmcell", nn.RNN(lcell), X, sequence_length=paddle.to_tensor(LENS))
gcell = init(nn.GRUCell(IN, H), 9)
run_layer("rnn_grucell_rev", nn.RNN(gcell, is_reverse=True), X, sequence_length=paddle.to_tensor(LENS))
scell = init(nn.SimpleRNNCell(IN, H, activation="relu"), 10)
run_layer("rnn_simplecell_tm", nn.RNN(scell, time_major=True), X.transpose(1, 0, 2).copy(),
          initial_states=paddle.to_tensor(h0[0]))
birnn = nn.BiRNN(init(nn.LSTMCell(IN, H), 11), init(nn.LSTMCell(IN, H), 12))
run_layer("birnn_lstm", birnn, X, sequence_length=paddle.to_tensor(LENS))
birnn_g = nn.BiRNN(init(nn.GRUCell(IN, H), 13), init(nn.GRUCell(IN, H), 14))
run_layer("birnn_gru_init", birnn_g, X, initial_states=(paddle.to_tensor(h0[0]), paddle.to_tensor(h0[1])))


class MinimalRNNCell(nn.RNNCellBase):
    """h' = tanh(W x + U h + b): the custom cell pattern of Paddle's docs."""

    def __init__(self, input_size, hidden_size):
        super().__init__()
        self.input_size, self.hidden_size = input_size, hidden_size  # BiRNN compares the two cells' sizes
        self.w = self.create_parameter([input_size, hidden_size])
        self.u = self.create_parameter([hidden_size, hidden_size])
        self.b = self.create_parameter([hidden_size], is_bias=True)

    @property
    def state_shape(self):
        return (self.hidden_size,)

    def forward(self, inputs, states=None):
        if states is None:
            states = self.get_initial_states(inputs, self.state_shape)
        h = paddle.tanh(paddle.matmul(inputs, self.w) + paddle.matmul(states, self.u) + self.b)
        return h, h


mcell = init(MinimalRNNCell(IN, H), 15)
init_st = mcell.get_initial_states(paddle.to_tensor(X[:, 0]), mcell.state_shape, init_value=0.5)
rec["custom_initial_states"] = [list(init_st.shape), str(init_st.dtype), flat(init_st)[:3]]
run_layer("rnn_custom", nn.RNN(mcell), X, sequence_length=paddle.to_tensor(LENS))
try:  # a cell without input_size / hidden_size attributes cannot go into a BiRNN
    nn.BiRNN(nn.SimpleRNNCell(IN, H), MinimalRNNCell.__new__(MinimalRNNCell))
    rec["birnn_bad_cell"] = "accepted"
except Exception as e:
    rec["birnn_bad_cell"] = type(e).__name__
run_layer("birnn_custom", nn.BiRNN(mcell, init(MinimalRNNCell(IN, H), 16)), X)

class PairCell(nn.RNNCellBase):
    """A cell with two states of different sizes and an extra forward argument (nn.RNN passes **kwargs on)."""

    def __init__(self, input_size, hidden_size):
        super().__init__()
        self.input_size, self.hidden_size = input_size, hidden_size
        self.lin = nn.Linear(input_size + hidden_size, hidden_size)

    @property
    def state_shape(self):
        return ((self.hidden_size,), (1,))

    def forward(self, inputs, states=None, scale=1.0):
        if states is None:
            states = self.get_initial_states(inputs, self.state_shape)
        h, n = states
        h = paddle.tanh(self.lin(paddle.concat([inputs, h], axis=-1))) * scale
        return h, (h, n + 1.0)


pcell = init(PairCell(IN, H), 18)
run_layer("rnn_pair_kwargs", nn.RNN(pcell), X, sequence_length=paddle.to_tensor(LENS), scale=0.5)
rec["pair_initial_states"] = [list(t.shape) for t in pcell.get_initial_states(paddle.to_tensor(X[:, 0]),
                                                                             pcell.state_shape)]

# LSTM details: time-major bidirectional projection, gradients of the initial states, the stack's attributes
lstm_tp = init(nn.LSTM(IN, H, num_layers=2, direction="bidirect", time_major=True, proj_size=4), 19)
h0t = paddle.to_tensor(rng.standard_normal((4, B, 4)).astype("float32"), stop_gradient=False)
c0t = paddle.to_tensor(rng.standard_normal((4, B, H)).astype("float32"), stop_gradient=False)
o, (hn, cn) = lstm_tp(paddle.to_tensor(X.transpose(1, 0, 2).copy()), (h0t, c0t), paddle.to_tensor(LENS))
(o.mean() + hn.sum() * 0.3 + cn.sum() * 0.2).backward()
rec["lstm_tm_proj_init_grads"] = [list(o.shape), list(hn.shape), list(cn.shape), flat(h0t.grad), flat(c0t.grad)]
rec["lstm_attrs"] = [lstm.num_directions, lstm.state_components, lstm.num_layers, lstm.hidden_size,
                     lstm_tp.proj_size, lstm_tp.time_major, gru.mode if hasattr(gru, "mode") else None,
                     lstm.could_use_cudnn, len(lstm), type(lstm[0]).__name__]
lstm.flatten_parameters()  # a no-op users call after moving a model
train_drop = init(nn.GRU(IN, H, num_layers=2, dropout=0.5), 22)
od, hd = train_drop(paddle.to_tensor(X))  # train mode: random, only the shapes compare
rec["dropout_train_shapes"] = [list(od.shape), list(hd.shape)]

# cells one step at a time
x0 = paddle.to_tensor(X[:, 0])
y, (hh, cc) = lcell(x0)
y2, (hh2, cc2) = lcell(paddle.to_tensor(X[:, 1]), (hh, cc))
rec["lstmcell_steps"] = [flat(y), flat(cc), flat(y2), flat(cc2), lcell.state_shape]
gy, gh = gcell(x0, paddle.to_tensor(h0[0]))
rec["grucell_step"] = [flat(gy), bool(np.allclose(gy.numpy(), gh.numpy())), list(gcell.state_shape)]
sy, _ = scell(x0)
rec["simplecell_step"] = flat(sy)
rec["cell_keys"] = [list(lcell.state_dict().keys()), list(gcell.state_dict().keys()),
                    [list(p.shape) for p in gcell.parameters()]]

# what users print, and the errors code catches
rec["reprs"] = [str(lstm), str(lstm_proj), str(gru), str(srnn), str(lcell), str(gcell), str(scell),
                str(nn.RNN(scell)), str(birnn)]
attempts = {
    "bad_state_shape": lambda: lstm(paddle.to_tensor(X), initial_states=(paddle.to_tensor(h0[:2]),
                                                                          paddle.to_tensor(c0[:2]))),
    "bad_input_size": lambda: gru(paddle.to_tensor(X[..., :3])),
    "bad_direction": lambda: nn.GRU(IN, H, direction="backward"),
    "gru_state_tuple": lambda: gcell(x0, (paddle.to_tensor(h0[0]), paddle.to_tensor(h0[0]))),
}
rec["errors"] = {}
for k, f in attempts.items():
    try:
        f()
        rec["errors"][k] = "accepted"
    except Exception as e:
        rec["errors"][k] = type(e).__name__
wattr = nn.LSTM(IN, H, weight_ih_attr=paddle.ParamAttr(initializer=nn.initializer.Constant(0.1)),
                bias_hh_attr=False)
rec["attr_lstm"] = [[n, list(p.shape)] for n, p in wattr.named_parameters()]
rec["attr_lstm_w"] = flat(wattr.weight_ih_l0)[:4]
mask = paddle.nn.functional.sequence_mask(paddle.to_tensor(LENS), maxlen=T, dtype="float32")
rec["sequence_mask"] = flat(mask)
bst = lcell.get_initial_states(paddle.to_tensor(X), batch_dim_idx=1)
rec["init_states_batch_idx"] = [list(t.shape) for t in bst]

# --- a sequence classifier with gradient clipping ----------------------------------------------------------------------
V, E, C, N, TT = 20, 6, 3, 16, 7
ids = rng.integers(1, V, size=(N, TT)).astype("int64")
lens = rng.integers(2, TT + 1, size=N).astype("int64")
for i, n in enumerate(lens):
    ids[i, n:] = 0
labels = (ids.sum(1) % C).astype("int64")


class Classifier(nn.Layer):
    def __init__(self):
        super().__init__()
        self.emb = nn.Embedding(V, E, padding_idx=0)
        self.rnn = nn.LSTM(E, 8, num_layers=2, direction="bidirect")
        self.fc = nn.Linear(16, C)

    def forward(self, x, seq_len):
        out, (h, c) = self.rnn(self.emb(x), sequence_length=seq_len)
        feat = paddle.concat([h[-2], h[-1]], axis=-1)
        return self.fc(feat)


clf = init(Classifier(), 20)
opt = paddle.optimizer.Adam(learning_rate=0.02, parameters=clf.parameters(),
                            grad_clip=nn.ClipGradByGlobalNorm(clip_norm=0.5))
rec["clf"] = {"loss": [], "gnorm": [], "keys": list(clf.state_dict().keys())}
for step in range(15):
    i = (step % 2) * 8
    logits = clf(paddle.to_tensor(ids[i:i + 8]), paddle.to_tensor(lens[i:i + 8]))
    loss = F.cross_entropy(logits, paddle.to_tensor(labels[i:i + 8]))
    loss.backward()
    rec["clf"]["gnorm"].append(float(paddle.sqrt(sum((p.grad ** 2).sum() for p in clf.parameters()))))
    opt.step()
    opt.clear_grad()
    rec["clf"]["loss"].append(float(loss))
clf.eval()
with paddle.no_grad():
    probs = F.softmax(clf(paddle.to_tensor(ids), paddle.to_tensor(lens)), axis=-1)
rec["clf"]["probs"] = flat(probs)
rec["clf"]["pred"] = flat(probs.argmax(-1))
rec["clf"]["emb_pad_row"] = flat(clf.emb.weight[0])

# --- a tagger (seq2seq-style: one label per step) ----------------------------------------------------------------------
tags = (ids % 4).astype("int64")
tags[ids == 0] = -100


class Tagger(nn.Layer):
    def __init__(self):
        super().__init__()
        self.emb = nn.Embedding(V, E)
        self.enc = nn.GRU(E, 8, num_layers=2, time_major=True)
        self.dec = nn.RNN(nn.SimpleRNNCell(8, 8), time_major=True)
        self.out = nn.Linear(8, 4)

    def forward(self, x, seq_len):
        e = self.emb(x).transpose([1, 0, 2])
        h, last = self.enc(e, sequence_length=seq_len)
        d, _ = self.dec(h, initial_states=last[-1], sequence_length=seq_len)
        return self.out(d).transpose([1, 0, 2])


tagger = init(Tagger(), 21)
topt = paddle.optimizer.Momentum(learning_rate=0.1, momentum=0.9, parameters=tagger.parameters(),
                                 grad_clip=nn.ClipGradByNorm(clip_norm=0.3))
rec["tagger"] = {"loss": [], "keys": list(tagger.state_dict().keys()), "grad0": None}
for step in range(15):
    i = (step % 2) * 8
    logits = tagger(paddle.to_tensor(ids[i:i + 8]), paddle.to_tensor(lens[i:i + 8]))
    loss = F.cross_entropy(logits.reshape([-1, 4]), paddle.to_tensor(tags[i:i + 8].reshape(-1)), ignore_index=-100)
    loss.backward()
    if step == 0:
        rec["tagger"]["grad0"] = {n: flat(p.grad) for n, p in tagger.named_parameters()}
    topt.step()
    topt.clear_grad()
    rec["tagger"]["loss"].append(float(loss))
with paddle.no_grad():
    pred = tagger(paddle.to_tensor(ids), paddle.to_tensor(lens)).argmax(-1)
rec["tagger"]["acc"] = float(((pred.numpy() == tags) & (tags >= 0)).sum() / (tags >= 0).sum())
rec["tagger"]["pred"] = flat(pred)
with open(os.environ["PROGRAM_OUT"], "w") as f:
    json.dump(rec, f)
