"""hapi with callbacks: paddle.Model(net, InputSpec, InputSpec).prepare(Momentum over a StepDecay / PiecewiseDecay
scheduler, CrossEntropyLoss, Accuracy(topk)) and fit with paddle.callbacks.LRScheduler (by_step and by_epoch),
EarlyStopping (monitor, patience, mode, min_delta, baseline, save_best_model), ReduceLROnPlateau (with Adam,
accumulate_grad_batches and drop_last),
ModelCheckpoint (save_freq, save_dir), ProgBarLogger(verbose=0) and a custom Callback recording every hook (the
params it is given, on_train_batch_end's log keys and values, on_epoch_end, on_eval_end, predict hooks);
evaluate / predict with batch_size and num_workers=0, Model.save(training=True / False) and load (files written),
Model.parameters(), model.summary()'s dict, train_batch with update=False; a Model without inputs saved for
inference after a batch (the batch's shapes, with Paddle's warning), loaded back by paddle.jit.load.

Not mirrored: Paddle's loops share one logs dict among every Model of the process (keys of an earlier model's metrics
stay in a later model's logs; here each Model has its own, so the models below record only their own keys). Not mirrored: Model.save(training=False) (paddle.jit.save) also writes
``path.pdmodel`` here (the exported StableHLO), besides Paddle's ``path.json`` and ``path.pdiparams``. Not mirrored:
Paddle's ReduceLROnPlateau callback sets ``optimizer._learning_rate`` to the reduced float, which its optimizers
ignore once they have stepped (a float rate is copied into a tensor at the first step), so get_lr() reports the
cut while training goes on at the old rate; here the cut rate is used, so fit6's losses are recorded up to the first
cut only."""
import json
import os
import tempfile
import warnings

import numpy as np
import paddle
import paddle.nn as nn
from paddle.io import Dataset
from paddle.static import InputSpec

rng = np.random.default_rng(0)
X = rng.standard_normal((80, 6)).astype("float32")
Y = ((X[:, 0] + 0.5 * X[:, 1] > 0).astype("int64") + (X[:, 2] > 0.8).astype("int64"))[:, None]


class DS(Dataset):
    def __init__(self, x, y=None):
        self.x, self.y = x, y

    def __getitem__(self, i):
        return (self.x[i], self.y[i]) if self.y is not None else (self.x[i],)

    def __len__(self):
        return len(self.x)


def plain(x):
    if isinstance(x, (list, tuple)):
        return [plain(a) for a in x]
    if isinstance(x, dict):
        return {k: plain(a) for k, a in x.items()}
    if isinstance(x, (np.ndarray, np.generic)) or hasattr(x, "numpy"):
        a = np.asarray(x)
        return a.tolist() if a.dtype.kind in "biu" else a.astype("float64").tolist()
    return x


class Recorder(paddle.callbacks.Callback):
    """Records every hook. ``skip``: log keys left out (the first model's metric keys, which Paddle's shared logs
    dict carries into later models' logs: see the docstring)."""

    def __init__(self, skip=()):
        super().__init__()
        self.skip = set(skip)
        self.events = []
        self.batch_logs = []
        self.epoch_logs = []
        self.eval_logs = []
        self.lrs = []

    def own(self, logs):
        return {k: v for k, v in (logs or {}).items() if k not in self.skip}

    def on_train_begin(self, logs=None):
        p = self.params
        self.events.append(["train_begin", sorted(p), p.get("epochs"), p.get("steps"), p.get("metrics"),
                            p.get("batch_size"), p.get("verbose")])

    def on_train_end(self, logs=None):
        self.events.append(["train_end", sorted(self.own(logs))])

    def on_epoch_begin(self, epoch, logs=None):
        self.events.append(["epoch_begin", epoch])

    def on_epoch_end(self, epoch, logs=None):
        self.epoch_logs.append([epoch, {k: plain(v) for k, v in self.own(logs).items()}])

    def on_train_batch_begin(self, step, logs=None):
        self.lrs.append(self.model._optimizer.get_lr())

    def on_train_batch_end(self, step, logs=None):
        self.batch_logs.append([step, sorted(self.own(logs)), plain(logs.get("loss")), plain(logs.get("acc_top1")),
                                logs.get("batch_size"), type(logs.get("loss")).__name__])

    def on_eval_begin(self, logs=None):
        self.events.append(["eval_begin", sorted(self.own(logs)), (logs or {}).get("steps")])

    def on_eval_batch_end(self, step, logs=None):
        self.events.append(["eval_batch_end", step, sorted(self.own(logs))])

    def on_eval_end(self, logs=None):
        self.eval_logs.append({k: plain(v) for k, v in self.own(logs).items()})

    def on_predict_begin(self, logs=None):
        self.events.append(["predict_begin", sorted(self.own(logs))])

    def on_predict_batch_end(self, step, logs=None):
        self.events.append(["predict_batch_end", step, sorted(self.own(logs))])

    def on_predict_end(self, logs=None):
        self.events.append(["predict_end", sorted(self.own(logs))])


def make_net(seed):
    net = nn.Sequential(nn.Linear(6, 16), nn.Tanh(), nn.Dropout(0.0), nn.Linear(16, 3))
    r = np.random.default_rng(seed)
    net.set_state_dict({k: (r.standard_normal(v.shape) * 0.4).astype("float32") for k, v in net.state_dict().items()})
    return net


inputs = [InputSpec([None, 6], "float32", "x")]
labels = [InputSpec([None, 1], "int64", "label")]
rec = {}
tmp = tempfile.mkdtemp()

# ---- 1: LR stepped per batch, checkpoints every 2 epochs -----------------------------------------------------------
model = paddle.Model(make_net(1), inputs, labels)
sched = paddle.optimizer.lr.StepDecay(learning_rate=0.1, step_size=4, gamma=0.5)
model.prepare(paddle.optimizer.Momentum(learning_rate=sched, momentum=0.9, parameters=model.parameters()),
              nn.CrossEntropyLoss(), [paddle.metric.Accuracy(topk=(1, 2))])
rec["n_params"] = [len(model.parameters()), [list(p.shape) for p in model.parameters()]]
cb = Recorder()
ckpt_dir = os.path.join(tmp, "ckpt")
model.fit(DS(X[:48], Y[:48]), DS(X[48:], Y[48:]), batch_size=16, epochs=4, eval_freq=2, shuffle=False, verbose=0,
          num_workers=0, callbacks=[cb, paddle.callbacks.LRScheduler(by_step=True, by_epoch=False),
                                    paddle.callbacks.ModelCheckpoint(save_freq=2, save_dir=ckpt_dir),
                                    paddle.callbacks.ProgBarLogger(log_freq=1, verbose=0)])
rec["fit1_events"] = cb.events
rec["fit1_batch_logs"] = cb.batch_logs
rec["fit1_epoch_logs"] = cb.epoch_logs
rec["fit1_eval_logs"] = cb.eval_logs
rec["fit1_lrs"] = cb.lrs
rec["fit1_sched"] = [sched.last_epoch, sched.get_lr()]
rec["ckpt_files"] = sorted(os.listdir(ckpt_dir))

# ---- 2: LR stepped per epoch, early stopping on eval loss with the best model saved --------------------------------
model2 = paddle.Model(make_net(2), inputs, labels)
sched2 = paddle.optimizer.lr.PiecewiseDecay(boundaries=[2, 4], values=[0.2, 0.1, 0.05])
model2.prepare(paddle.optimizer.Momentum(learning_rate=sched2, momentum=0.5, parameters=model2.parameters()),
               nn.CrossEntropyLoss(), paddle.metric.Accuracy())
cb2 = Recorder(skip=("acc_top1", "acc_top2"))
es_dir = os.path.join(tmp, "es")
es = paddle.callbacks.EarlyStopping(monitor="loss", mode="min", patience=1, min_delta=0.03, baseline=None,
                                    save_best_model=True)
model2.fit(DS(X[:48], Y[:48]), DS(X[48:], Y[48:]), batch_size=12, epochs=12, shuffle=False, verbose=0,
           save_dir=es_dir, callbacks=[cb2, es, paddle.callbacks.LRScheduler(by_step=False, by_epoch=True)])
rec["fit2_epochs"] = [e for e in cb2.events if e[0] == "epoch_begin"]
rec["fit2_eval_logs"] = cb2.eval_logs
rec["fit2_lrs"] = cb2.lrs[::4]
rec["fit2_es"] = [es.wait_epoch, es.stopped_epoch, plain(es.best_value), model2.stop_training]
rec["es_files"] = sorted(os.listdir(es_dir))

# ---- EarlyStopping on accuracy, mode auto, with a baseline --------------------------------------------------------
model3 = paddle.Model(make_net(3), inputs, labels)
model3.prepare(paddle.optimizer.SGD(learning_rate=0.05, parameters=model3.parameters()), nn.CrossEntropyLoss(),
               paddle.metric.Accuracy())
cb3 = Recorder(skip=("acc_top1", "acc_top2"))
es3 = paddle.callbacks.EarlyStopping(monitor="acc", mode="auto", patience=2, baseline=0.99, save_best_model=False)
model3.fit(DS(X[:48], Y[:48]), DS(X[48:], Y[48:]), batch_size=24, epochs=10, shuffle=False, verbose=0,
           callbacks=[cb3, es3])
rec["fit3"] = [len([e for e in cb3.events if e[0] == "epoch_begin"]), es3.wait_epoch, es3.stopped_epoch,
               plain(es3.best_value)]

# ---- ReduceLROnPlateau on the eval loss, gradient accumulation, drop_last -------------------------------------------
model6 = paddle.Model(make_net(6), inputs, labels)
model6.prepare(paddle.optimizer.Adam(learning_rate=0.05, parameters=model6.parameters()), nn.CrossEntropyLoss(),
               paddle.metric.Accuracy())
cb6 = Recorder(skip=("acc_top1", "acc_top2"))
plateau = paddle.callbacks.ReduceLROnPlateau(monitor="loss", factor=0.5, patience=1, verbose=0, min_lr=0.01,
                                             cooldown=1, min_delta=0.01)
model6.fit(DS(X[:50], Y[:50]), DS(X[50:], Y[50:]), batch_size=8, epochs=8, shuffle=False, drop_last=True, verbose=0,
           accumulate_grad_batches=2, callbacks=[cb6, plateau])
rec["fit6_lrs"] = cb6.lrs[::3]
rec["fit6_losses"] = [b[2] for b in cb6.batch_logs][:14]       # (up to the first cut: see the docstring)
rec["fit6_steps"] = [b[0] for b in cb6.batch_logs][:8]
rec["fit6_eval"] = [e.get("loss") for e in cb6.eval_logs][:2]

# ---- evaluate / predict --------------------------------------------------------------------------------------------
cb4 = Recorder(skip=("acc_top1", "acc_top2", "acc"))
res = model.evaluate(DS(X[48:], Y[48:]), batch_size=10, num_workers=0, verbose=0, callbacks=[cb4])
rec["evaluate"] = {k: plain(v) for k, v in res.items()}
rec["evaluate_events"] = cb4.events
pred = model.predict(DS(X[48:60]), batch_size=5, num_workers=0, verbose=0, callbacks=[cb4])
rec["predict"] = [len(pred), [list(np.asarray(a).shape) for a in pred[0]], plain(np.concatenate(pred[0])[:3])]
rec["predict_events"] = cb4.events[-6:]
stacked = model.predict(DS(X[48:60]), batch_size=5, stack_outputs=True, verbose=0)
rec["predict_stacked"] = [list(np.asarray(stacked[0]).shape), plain(np.asarray(stacked[0])[-1])]

# ---- train_batch without update, eval_batch ------------------------------------------------------------------------
w_before = model.parameters()[0].numpy().copy()
tb = model.train_batch([X[:8]], [Y[:8]], update=False)
rec["train_batch_no_update"] = [plain(tb), bool(np.allclose(w_before, model.parameters()[0].numpy()))]
tb2 = model.train_batch([X[:8]], [Y[:8]])
rec["train_batch"] = [plain(tb2), bool(np.allclose(w_before, model.parameters()[0].numpy()))]
rec["eval_batch"] = plain(model.eval_batch([X[:8]], [Y[:8]]))

# ---- save / load -----------------------------------------------------------------------------------------------------
model.save(os.path.join(tmp, "train", "m"))                      # training=True: params + optimizer state
rec["save_train_files"] = sorted(os.listdir(os.path.join(tmp, "train")))
model.save(os.path.join(tmp, "infer", "m"), training=False)       # inference model
rec["save_infer_files"] = [f for f in sorted(os.listdir(os.path.join(tmp, "infer"))) if f in ("m.json", "m.pdiparams")]
infer = paddle.jit.load(os.path.join(tmp, "infer", "m"))
rec["infer_out"] = plain(infer(paddle.to_tensor(X[:3])))

# ---- a Model without inputs: the first batch gives the input shapes an inference model is saved with ----------
model5 = paddle.Model(make_net(5))
model5.prepare(paddle.optimizer.SGD(learning_rate=0.1, parameters=model5.parameters()), nn.CrossEntropyLoss())
try:
    model5.save(os.path.join(tmp, "m5", "early"), training=False)
    rec["save_before_run"] = "saved"
except RuntimeError as e:
    rec["save_before_run"] = type(e).__name__
rec["m5_train_batch"] = plain(model5.train_batch([X[:5]], [Y[:5]]))
with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    model5.save(os.path.join(tmp, "m5", "m"), training=False)
rec["m5_warnings"] = [[w.category.__name__, str(w.message)] for w in caught if "inputs" in str(w.message)]
loaded5 = paddle.jit.load(os.path.join(tmp, "m5", "m"))
rec["m5_infer"] = plain(loaded5(paddle.to_tensor(X[:5])))
rec["m5_summary"] = {k: int(n) for k, n in model5.summary().items()}
ref = plain(model.predict_batch([X[:4]]))
model4 = paddle.Model(make_net(9), inputs, labels)
model4.prepare(paddle.optimizer.Momentum(learning_rate=0.1, momentum=0.9, parameters=model4.parameters()),
               nn.CrossEntropyLoss(), paddle.metric.Accuracy())
model4.load(os.path.join(tmp, "train", "m"))
rec["load_same"] = bool(np.allclose(model4.predict_batch([X[:4]]), ref, rtol=1e-6, atol=1e-7))
rec["loaded_pred"] = plain(model4.predict_batch([X[:4]]))
model4.load(os.path.join(ckpt_dir, "final"), reset_optimizer=True)
rec["load_final"] = plain(model4.predict_batch([X[:2]]))
model4.load(os.path.join(es_dir, "best_model"))
rec["load_best"] = plain(model4.predict_batch([X[:2]]))
rec["summary"] = {k: [int(n), type(n).__name__] for k, n in model.summary().items()}
rec["summary_size"] = {k: int(n) for k, n in model4.summary(input_size=(2, 6)).items()}
with open(os.environ["PROGRAM_OUT"], "w") as f:
    json.dump(rec, f)
