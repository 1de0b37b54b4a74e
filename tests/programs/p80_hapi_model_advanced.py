"""paddle.Model beyond the basics: a network of two inputs (float features and int64 ids, InputSpecs with names and
None dims) trained against two labels (the class and a per-sample weight) by a custom loss Layer; prepare with a
list of metrics (Accuracy(topk=(1, 2)), and Precision / Recall / Auc subclassed with a compute() that turns the
logits into the probabilities they take) and amp_configs=None; fit with eval_data, eval_freq, log_freq, verbose,
save_dir / save_freq, shuffle=False, drop_last and callbacks (EarlyStopping on a metric with mode, min_delta,
patience, baseline and save_best_model, ModelCheckpoint, LRScheduler by epoch, and a Callback recording the keys and
values of the logs of every hook); the text fit / evaluate print with verbose=2 (the timings masked); evaluate /
predict with batch_size, stack_outputs True / False and num_workers=0 (predict from a dataset that also yields the
labels); train_batch / eval_batch / predict_batch results; Model.summary's text and dict; save(training=True /
False) and load (reset_optimizer, skip_mismatch into a model whose head has another shape); parameters().

Not mirrored, left out here: training a Model after load() without reset_optimizer when its parameters were created
after the saved model's in the same process (Paddle keys the optimizer state by the parameters' generated names,
e.g. embedding_0.w_0 saved but embedding_4.w_0 asked for, and its next step fails with an AssertionError); here the
state is matched to the parameters in order, so the step runs. Paddle's Model.summary() without dtype builds every
input as float32 (an Embedding then fails), so the dtypes are passed. fit(save_freq=0) (accepted by Paddle when
there is no save_dir, a ZeroDivisionError at the first epoch's end when there is one) is a ValueError here."""
import contextlib
import io
import json
import os
import re
import tempfile

import numpy as np
import paddle
import paddle.nn as nn
import paddle.nn.functional as F
from paddle.io import Dataset
from paddle.static import InputSpec

rng = np.random.default_rng(0)
N = 72
X = rng.standard_normal((N, 6)).astype("float32")
IDS = rng.integers(0, 10, size=(N, 3)).astype("int64")
SCORE = X[:, 0] - X[:, 1] + 0.3 * (IDS[:, 0] % 3)
LABEL = np.digitize(SCORE, [-0.5, 0.7]).astype("int64")[:, None]
WEIGHT = (0.5 + (np.arange(N) % 4) / 4).astype("float32")[:, None]


class DS(Dataset):
    def __init__(self, lo, hi, with_labels=True):
        self.idx = list(range(lo, hi))
        self.with_labels = with_labels

    def __getitem__(self, i):
        j = self.idx[i]
        if self.with_labels:
            return X[j], IDS[j], LABEL[j], WEIGHT[j]
        return X[j], IDS[j]

    def __len__(self):
        return len(self.idx)


class Net(nn.Layer):
    def __init__(self, n_out=3):
        super().__init__()
        self.emb = nn.Embedding(10, 4)
        self.fc = nn.Linear(6, 8)
        self.head = nn.Linear(12, n_out)

    def forward(self, x, ids):
        h = paddle.concat([F.relu(self.fc(x)), self.emb(ids).mean(axis=1)], axis=-1)
        return self.head(h)


def make_net(seed, n_out=3):
    net = Net(n_out)
    r = np.random.default_rng(seed)
    net.set_state_dict({k: (r.standard_normal(v.shape) * 0.4).astype("float32") for k, v in net.state_dict().items()})
    return net


class WeightedCE(nn.Layer):
    def forward(self, logits, label, weight):
        ce = F.cross_entropy(logits, label, reduction="none")
        return (ce * weight).sum() / weight.sum()


class TopClass:
    """compute(): the probability of class 2 against the rest, and whether the label is class 2."""

    def compute(self, logits, label, weight):
        return F.softmax(logits, axis=-1)[:, 2:], (label == 2).astype("int64")


class Prec(TopClass, paddle.metric.Precision):
    pass


class Rec(TopClass, paddle.metric.Recall):
    pass


class AucTop(paddle.metric.Auc):
    def compute(self, logits, label, weight):
        p = F.softmax(logits, axis=-1)[:, 2:]
        return paddle.concat([1 - p, p], axis=-1), (label == 2).astype("int64")


def plain(x):
    if isinstance(x, (list, tuple)):
        return [plain(a) for a in x]
    if isinstance(x, dict):
        return {k: plain(a) for k, a in x.items()}
    if isinstance(x, (np.ndarray, np.generic)) or hasattr(x, "numpy"):
        a = np.asarray(x)
        return a.tolist() if a.dtype.kind in "biu" else a.astype("float64").tolist()
    return x


def shapes(x):
    if isinstance(x, (list, tuple)):
        return [type(x).__name__, [shapes(a) for a in x]]
    return [type(x).__name__, list(np.asarray(x).shape), str(np.asarray(x).dtype)]


def masked(text):
    """Printed text with the timings (which differ run to run) masked, and the backspaces the progress bar erases
    its previous line with (as many as that line's length, timing included) dropped."""
    text = text.replace("\b", "")
    text = re.sub(r"\d+(\.\d+)?(ms|s|us)/step", "T/step", text)
    return [line.rstrip() for line in text.splitlines() if line.strip()]


class Recorder(paddle.callbacks.Callback):
    """Records every hook. ``skip``: log keys left out (an earlier model's metric keys, which Paddle's logs dict,
    shared by every Model of the process, carries into later models' logs: see p32's docstring)."""

    def __init__(self, skip=()):
        super().__init__()
        self.hooks = []
        self.skip = set(skip)

    def _add(self, name, arg, logs):
        self.hooks.append([name, arg, {k: plain(v) for k, v in sorted((logs or {}).items()) if k not in self.skip}])

    def on_train_begin(self, logs=None):
        self._add("train_begin", sorted(self.params), logs)

    def on_train_end(self, logs=None):
        self._add("train_end", None, logs)

    def on_epoch_begin(self, epoch, logs=None):
        self._add("epoch_begin", epoch, logs)

    def on_epoch_end(self, epoch, logs=None):
        self._add("epoch_end", epoch, logs)

    def on_train_batch_begin(self, step, logs=None):
        self._add("train_batch_begin", step, logs)

    def on_train_batch_end(self, step, logs=None):
        self._add("train_batch_end", step, logs)

    def on_eval_begin(self, logs=None):
        self._add("eval_begin", None, logs)

    def on_eval_batch_end(self, step, logs=None):
        self._add("eval_batch_end", step, logs)

    def on_eval_end(self, logs=None):
        self._add("eval_end", None, logs)

    def on_predict_begin(self, logs=None):
        self._add("predict_begin", None, logs)

    def on_predict_batch_end(self, step, logs=None):
        self._add("predict_batch_end", step, logs)

    def on_predict_end(self, logs=None):
        self._add("predict_end", None, logs)


inputs = [InputSpec([None, 6], "float32", "x"), InputSpec([None, 3], "int64", "ids")]
labels = [InputSpec([None, 1], "int64", "label"), InputSpec([None, 1], "float32", "weight")]
rec = {}
tmp = tempfile.mkdtemp()


def metrics():
    return [paddle.metric.Accuracy(topk=(1, 2)), Prec(name="prec"), Rec(name="rec"), AucTop(name="auc")]


model = paddle.Model(make_net(1), inputs, labels)
sched = paddle.optimizer.lr.ExponentialDecay(learning_rate=0.05, gamma=0.8)
model.prepare(paddle.optimizer.Adam(learning_rate=sched, parameters=model.parameters()), WeightedCE(), metrics(),
              amp_configs=None)
rec["metric_names"] = [m.name() for m in model._metrics]
rec["parameters"] = [[list(p.shape), str(p.dtype), p.stop_gradient] for p in model.parameters()]
cb = Recorder()
es = paddle.callbacks.EarlyStopping(monitor="acc_top1", mode="max", patience=1, min_delta=0.01, baseline=0.2,
                                    save_best_model=True)
save_dir = os.path.join(tmp, "fit")
buf = io.StringIO()
with contextlib.redirect_stdout(buf):
    model.fit(DS(0, 48), DS(48, N), batch_size=10, epochs=6, eval_freq=1, log_freq=2, verbose=0, save_dir=save_dir,
              save_freq=2, shuffle=False, drop_last=True, num_workers=0,
              callbacks=[cb, es, paddle.callbacks.LRScheduler(by_step=False, by_epoch=True)])
rec["fit_printed"] = masked(buf.getvalue().replace(tmp, "TMP"))
rec["hooks"] = cb.hooks
rec["es"] = [es.wait_epoch, es.stopped_epoch, plain(es.best_value), model.stop_training]
rec["sched"] = [sched.last_epoch, sched.get_lr()]
rec["save_dir"] = sorted(os.listdir(save_dir))

# ---- evaluate / predict ---------------------------------------------------------------------------------------------
cb2 = Recorder()
res = model.evaluate(DS(48, N), batch_size=7, num_workers=0, verbose=0, callbacks=[cb2])
rec["evaluate"] = {k: plain(v) for k, v in res.items()}
rec["evaluate_hooks"] = cb2.hooks
pred = model.predict(DS(48, 60, with_labels=False), batch_size=5, stack_outputs=False, verbose=0, callbacks=[cb2])
rec["predict"] = [shapes(pred), plain(pred[0][0][:2])]
rec["predict_hooks"] = cb2.hooks[-5:]
pred2 = model.predict(DS(48, 60), batch_size=5, stack_outputs=True, verbose=0)
rec["predict_stacked"] = [shapes(pred2), plain(pred2[0][-2:])]

# ---- train_batch / eval_batch / predict_batch ------------------------------------------------------------------
xb, ib, yb, wb = X[:6], IDS[:6], LABEL[:6], WEIGHT[:6]
tb = model.train_batch([xb, ib], [yb, wb])
rec["train_batch"] = [shapes(tb), plain(tb)]
eb = model.eval_batch([xb, ib], [yb, wb])
rec["eval_batch"] = [shapes(eb), plain(eb)]
pb = model.predict_batch([xb, ib])
rec["predict_batch"] = [shapes(pb), plain(pb)]
model3 = paddle.Model(make_net(3), inputs, labels)
model3.prepare(paddle.optimizer.SGD(learning_rate=0.1, parameters=model3.parameters()), WeightedCE())
tb3 = model3.train_batch([xb, ib], [yb, wb])
rec["train_batch_no_metrics"] = [shapes(tb3), plain(tb3)]
rec["eval_batch_no_metrics"] = shapes(model3.eval_batch([xb, ib], [yb, wb]))

# ---- summary ---------------------------------------------------------------------------------------------------------
buf = io.StringIO()
with contextlib.redirect_stdout(buf):
    info = model.summary(dtype=["float32", "int64"])
rec["summary"] = [masked(buf.getvalue()), {k: int(v) for k, v in info.items()}]
buf = io.StringIO()
with contextlib.redirect_stdout(buf):
    info = paddle.summary(make_net(4), input_size=[(2, 6), (2, 3)], dtypes=["float32", "int64"])
rec["paddle_summary"] = [masked(buf.getvalue()), {k: int(v) for k, v in info.items()}]

# ---- save / load ----------------------------------------------------------------------------------------------------
path = os.path.join(tmp, "m", "ckpt")
model.save(path)
rec["save_files"] = sorted(os.listdir(os.path.dirname(path)))
model.save(os.path.join(tmp, "inf", "m"), training=False)
rec["save_infer"] = [f for f in sorted(os.listdir(os.path.join(tmp, "inf"))) if f in ("m.json", "m.pdiparams")]
infer = paddle.jit.load(os.path.join(tmp, "inf", "m"))
rec["infer"] = plain(infer(paddle.to_tensor(X[:3]), paddle.to_tensor(IDS[:3])))
ref = plain(model.predict_batch([xb, ib]))
model4 = paddle.Model(make_net(5), inputs, labels)
model4.prepare(paddle.optimizer.Adam(learning_rate=0.05, parameters=model4.parameters()), WeightedCE(), metrics())
model4.load(path, reset_optimizer=True)
rec["load_same"] = bool(np.allclose(plain(model4.predict_batch([xb, ib])), ref, rtol=1e-6, atol=1e-7))
rec["load_reset_train"] = plain(model4.train_batch([xb, ib], [yb, wb]))
model6 = paddle.Model(make_net(7), inputs, labels)
model6.prepare(paddle.optimizer.Adam(learning_rate=0.05, parameters=model6.parameters()), WeightedCE())
model6.load(path)
rec["load_with_opt"] = plain(model6.predict_batch([xb[:2], ib[:2]]))
model5 = paddle.Model(make_net(6, n_out=4), inputs, labels)
model5.prepare(paddle.optimizer.SGD(learning_rate=0.1, parameters=model5.parameters()), WeightedCE())
head_before = model5.network.head.weight.numpy().copy()
model5.load(path, skip_mismatch=True, reset_optimizer=True)
rec["skip_mismatch"] = [bool(np.array_equal(head_before, model5.network.head.weight.numpy())),
                        plain(model5.network.fc.weight[0]), plain(model5.predict_batch([xb[:2], ib[:2]]))]
try:
    model5.load(path)
    rec["mismatch_error"] = "ok"
except Exception as e:  # noqa: BLE001
    rec["mismatch_error"] = type(e).__name__

# ---- a network of two outputs fed from DataLoaders; ModelCheckpoint and LRScheduler by step --------------------------
class TwoHead(nn.Layer):
    def __init__(self):
        super().__init__()
        self.body = make_net(8)
        self.aux = nn.Linear(3, 1)

    def forward(self, x, ids):
        logits = self.body(x, ids)
        return logits, F.sigmoid(self.aux(logits))


class TwoLoss(nn.Layer):
    def forward(self, logits, aux, label, weight):
        return F.cross_entropy(logits, label) + F.mse_loss(aux, weight)


class AccFirst(paddle.metric.Accuracy):
    def compute(self, logits, aux, label, weight):
        return super().compute(logits, label)


net7 = TwoHead()
r7 = np.random.default_rng(9)
net7.aux.weight.set_value((r7.standard_normal((3, 1)) * 0.3).astype("float32"))
net7.aux.bias.set_value(np.zeros(1, "float32"))
model7 = paddle.Model(net7, inputs, labels)
sched7 = paddle.optimizer.lr.StepDecay(learning_rate=0.1, step_size=3, gamma=0.5)
model7.prepare(paddle.optimizer.Momentum(learning_rate=sched7, momentum=0.9, parameters=model7.parameters()),
               TwoLoss(), AccFirst(topk=(1, 2), name="acc7"))
cb7 = Recorder(skip=("acc_top1", "acc_top2", "prec", "rec", "auc"))
ck_dir = os.path.join(tmp, "ck7")
train_loader = paddle.io.DataLoader(DS(0, 40), batch_size=8, shuffle=False)
eval_loader = paddle.io.DataLoader(DS(40, 56), batch_size=8, shuffle=False)
model7.fit(train_loader, eval_loader, epochs=3, eval_freq=3, verbose=0,
           callbacks=[cb7, paddle.callbacks.ModelCheckpoint(save_freq=1, save_dir=ck_dir),
                      paddle.callbacks.LRScheduler(by_step=True, by_epoch=False)])
rec["two_head_hooks"] = [h for h in cb7.hooks if h[0] in ("train_batch_end", "epoch_end", "eval_end", "train_end")]
rec["two_head_lr"] = [sched7.last_epoch, sched7.get_lr()]
rec["two_head_ckpt"] = sorted(os.listdir(ck_dir))
rec["two_head_metric"] = [model7._metrics[0].name(), plain(model7._metrics[0].accumulate())]
p7 = model7.predict(DS(56, N, with_labels=False), batch_size=6, verbose=0)
rec["two_head_predict"] = [shapes(p7), plain(p7[1][0])]
p7s = model7.predict(paddle.io.DataLoader(DS(56, N, with_labels=False), batch_size=6), stack_outputs=True, verbose=0)
rec["two_head_predict_stacked"] = [shapes(p7s), plain(p7s[1][-3:])]
rec["two_head_eval"] = plain(model7.evaluate(eval_loader, verbose=0))
rec["two_head_batches"] = [shapes(model7.train_batch([xb, ib], [yb, wb])),
                           shapes(model7.predict_batch([xb, ib]))]


# ---- odds and ends: summary with None dims, num_iters, a single-input model fed bare arrays, misuse ----------------
buf = io.StringIO()
with contextlib.redirect_stdout(buf):
    info = model.summary(input_size=[(None, 6), (None, 3)], dtype=["float32", "int64"])
rec["summary_none"] = [masked(buf.getvalue())[3:6], {k: int(v) for k, v in info.items()}]
cb8 = Recorder(skip=("acc_top1", "acc_top2", "prec", "rec", "auc", "acc7_top1", "acc7_top2"))
model.fit(DS(0, 48), batch_size=8, epochs=2, num_iters=3, verbose=0, shuffle=False, callbacks=[cb8])
rec["num_iters"] = [[h[0], h[1]] for h in cb8.hooks]
rec["eval_num_iters"] = plain(model.evaluate(DS(48, N), batch_size=4, num_iters=2, verbose=0))


class Bare(Dataset):
    def __getitem__(self, i):
        return X[i]

    def __len__(self):
        return 10


single = paddle.Model(nn.Linear(6, 2), [InputSpec([None, 6], "float32", "x")])
single.prepare()
sp = single.predict(Bare(), batch_size=4, verbose=0)
rec["bare_predict"] = shapes(sp)
for name, call in [("fit_no_loss", lambda: single.fit(Bare(), batch_size=4, epochs=1, verbose=0)),
                   ("train_batch_no_opt", lambda: single.train_batch([X[:2]])),
                   ("eval_no_labels", lambda: single.eval_batch([X[:2]]))]:
    try:
        call()
        rec["err_" + name] = "ok"
    except Exception as e:  # noqa: BLE001
        rec["err_" + name] = type(e).__name__
# ---- the printed progress: verbose=2 once per epoch, verbose=1 per log_freq steps -----------------------------------
model2 = paddle.Model(make_net(2), inputs, labels)
model2.prepare(paddle.optimizer.SGD(learning_rate=0.1, parameters=model2.parameters()), WeightedCE(),
               [paddle.metric.Accuracy()])
buf = io.StringIO()
with contextlib.redirect_stdout(buf):
    model2.fit(DS(0, 40), DS(40, 60), batch_size=8, epochs=2, eval_freq=1, log_freq=2, verbose=2, shuffle=False)
    res = model2.evaluate(DS(60, N), batch_size=5, log_freq=1, verbose=2)
rec["fit_text"] = masked(buf.getvalue())
rec["evaluate_v2"] = plain(res)
buf = io.StringIO()
with contextlib.redirect_stdout(buf):
    model2.fit(DS(0, 24), batch_size=8, epochs=1, log_freq=1, verbose=1, shuffle=False)
rec["fit_text_v1"] = [line.split("\r")[-1] for line in masked(buf.getvalue())]

with open(os.environ["PROGRAM_OUT"], "w") as f:
    json.dump(rec, f)
