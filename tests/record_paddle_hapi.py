"""Record Paddle's high-level API (``paddle.Model``, callbacks, ``summary``) into tests/data/paddle_hapi.json.

Run with real Paddle: ``/tmp/paddle/bin/python tests/record_paddle_hapi.py``. The network's weights,
the data and the batches are fixed (numpy), so ``tests/test_hapi.py`` can rebuild the same run:

- ``fit``: per-step training logs (loss, acc) and eval logs of ``Model.fit`` with SGD, shuffle=False;
  ``evaluate``'s dict, ``predict``'s arrays, the weights after training, ``train_batch``/``eval_batch``
  return structures;
- ``order``: the callback hooks in the order a recording callback sees them (fit with eval, evaluate,
  predict), with the keys of each logs dict;
- ``text``: what ``fit``/``evaluate``/``predict`` print for verbose=1 and verbose=2;
- ``summary``: ``paddle.summary``'s printed table and return value for a Sequential MLP and a nested Layer;
- ``early``: the epoch at which EarlyStopping stops for synthetic eval logs, per configuration;
- ``plateau``: the learning rates ReduceLROnPlateau sets for synthetic eval logs;
- ``lrsched``: the learning rate seen by each step when the LRScheduler callback steps a StepDecay;
- ``more``: shuffled batches, two inputs/outputs/losses, num_iters, and a checkpoint Paddle wrote
  (``tests/data/paddle_hapi_ckpt.pdparams``) with the predictions after loading it.
"""

import contextlib
import io
import json
import os
import re

import numpy as np

os.environ["COLUMNS"] = "80"

import paddle  # noqa: E402
import paddle.nn.functional as F  # noqa: E402

OUT = os.path.join(os.path.dirname(__file__), "data", "paddle_hapi.json")


class ReLU(paddle.nn.Layer):
    def forward(self, x):
        return F.relu(x)


class CELoss(paddle.nn.Layer):
    def forward(self, logits, label):
        return F.cross_entropy(logits, label)


class Encoder(paddle.nn.Layer):
    def __init__(self):
        super().__init__()
        self.fc = paddle.nn.Linear(4, 6)
        self.act = ReLU()

    def forward(self, x):
        return self.act(self.fc(x))


class Net(paddle.nn.Layer):
    def __init__(self):
        super().__init__()
        self.enc = Encoder()
        self.body = paddle.nn.Sequential(paddle.nn.Linear(6, 5), ReLU())
        self.head = paddle.nn.Linear(5, 3)
        self.frozen = paddle.nn.Linear(3, 2)
        self.frozen.weight.stop_gradient = True

    def forward(self, x):
        return self.frozen(self.head(self.body(self.enc(x))))


def data():
    rng = np.random.default_rng(0)
    x = rng.standard_normal((23, 4)).astype("float32")
    y = rng.integers(0, 3, (23, 1)).astype("int64")
    w1 = (rng.standard_normal((4, 8)) * 0.5).astype("float32")
    b1 = (rng.standard_normal((8,)) * 0.1).astype("float32")
    w2 = (rng.standard_normal((8, 3)) * 0.5).astype("float32")
    b2 = (rng.standard_normal((3,)) * 0.1).astype("float32")
    return x, y, [w1, b1, w2, b2]


class DS(paddle.io.Dataset):
    def __init__(self, x, y):
        self.x, self.y = x, y

    def __getitem__(self, i):
        return self.x[i], self.y[i]

    def __len__(self):
        return len(self.x)


def mlp(weights):
    net = paddle.nn.Sequential(paddle.nn.Linear(4, 8), ReLU(), paddle.nn.Linear(8, 3))
    for p, w in zip(net.parameters(), weights):
        p.set_value(w)
    return net


class Recorder(paddle.callbacks.Callback):
    HOOKS = ["on_train_begin", "on_train_end", "on_eval_begin", "on_eval_end", "on_predict_begin",
             "on_predict_end", "on_epoch_begin", "on_epoch_end", "on_train_batch_begin", "on_train_batch_end",
             "on_eval_batch_begin", "on_eval_batch_end", "on_predict_batch_begin", "on_predict_batch_end"]

    def __init__(self):
        super().__init__()
        self.events = []
        self.train_logs = []
        self.eval_logs = []

    def __getattribute__(self, name):
        if name in Recorder.HOOKS:
            def hook(*args):
                logs = args[-1] if args else None
                self.events.append([name] + list(args[:-1]) + [sorted(logs) if isinstance(logs, dict) else None])
                if name == "on_train_batch_end":
                    self.train_logs.append({"loss": float(logs["loss"][0]), "acc": float(logs["acc"])})
                if name == "on_eval_end":
                    self.eval_logs.append({"loss": float(logs["loss"][0]), "acc": float(logs["acc"])})
            return hook
        return super().__getattribute__(name)


def plain(o):
    if isinstance(o, np.ndarray):
        return {"shape": list(o.shape), "dtype": str(o.dtype)}
    if isinstance(o, (list, tuple)):
        return {"type": type(o).__name__, "items": [plain(v) for v in o]}
    return {"type": type(o).__name__}


def mask(text):
    text = re.sub(r"\d+(s|ms|us)/step", "T/step", text)
    text = re.sub(r"\d+\.\d{5} (sec|samples/sec)", r"N \1", text)
    return re.sub(r"ETA: [0-9:]+s?", "ETA: E", text)


def record_fit():
    x, y, weights = data()
    net = mlp(weights)
    model = paddle.Model(net)
    opt = paddle.optimizer.SGD(learning_rate=0.1, parameters=model.parameters())
    model.prepare(opt, CELoss(), paddle.metric.Accuracy())
    rec = Recorder()
    model.fit(DS(x, y), DS(x[:10], y[:10]), batch_size=5, epochs=3, shuffle=False, verbose=0, callbacks=[rec])
    out = {"train_logs": rec.train_logs, "eval_logs": rec.eval_logs}
    out["weights"] = [p.numpy().tolist() for p in net.parameters()]
    ev = model.evaluate(DS(x, y), batch_size=4, verbose=0)
    out["evaluate"] = {k: (list(map(float, v)) if isinstance(v, list) else float(v)) for k, v in ev.items()}
    pred = model.predict(DS(x, y), batch_size=4, verbose=0, stack_outputs=True)
    out["predict"] = plain(pred)
    out["predict_unstacked"] = plain(model.predict(DS(x, y), batch_size=4, verbose=0))
    out["predict_values"] = pred[0].tolist()
    tb = model.train_batch([x[:5]], [y[:5]])
    out["train_batch"] = plain(tb)
    out["train_batch_loss"] = float(tb[0][0])
    out["eval_batch"] = plain(model.eval_batch([x[:5]], [y[:5]]))
    out["predict_batch"] = plain(model.predict_batch([x[:5]]))
    m2 = paddle.Model(mlp(weights))
    m2.prepare(paddle.optimizer.SGD(learning_rate=0.1, parameters=m2.parameters()), CELoss())
    out["train_batch_nometric"] = plain(m2.train_batch([x[:5]], [y[:5]]))
    out["eval_batch_nometric"] = plain(m2.eval_batch([x[:5]], [y[:5]]))
    out["evaluate_nometric"] = sorted(m2.evaluate(DS(x, y), batch_size=8, verbose=0))
    return out


class TwoIn(paddle.nn.Layer):
    """Two inputs, two outputs."""

    def __init__(self):
        super().__init__()
        self.a = paddle.nn.Linear(4, 3)
        self.b = paddle.nn.Linear(2, 3)

    def forward(self, u, v):
        return self.a(u) + self.b(v), self.a(u)


class TwoLoss(paddle.nn.Layer):
    def forward(self, out1, out2, label):
        return [F.cross_entropy(out1, label), paddle.mean(out2 * out2)]


class DS3(paddle.io.Dataset):
    def __init__(self, x, z, y):
        self.x, self.z, self.y = x, z, y

    def __getitem__(self, i):
        return self.x[i], self.z[i], self.y[i]

    def __len__(self):
        return len(self.x)


def two_in(weights):
    net = TwoIn()
    w1 = weights[0][:, :3]
    net.a.weight.set_value(w1)
    net.a.bias.set_value(weights[1][:3])
    net.b.weight.set_value(weights[2][:2])
    net.b.bias.set_value(weights[3])
    return net


def record_more():
    x, y, weights = data()
    z = (x[:, :2] * 0.5).astype("float32")
    out = {}
    # shuffle=True, drop_last=True: the batches come from DistributedBatchSampler's per-epoch shuffle
    model = paddle.Model(mlp(weights))
    model.prepare(paddle.optimizer.SGD(learning_rate=0.1, parameters=model.parameters()), CELoss())
    losses = LossLog()
    model.fit(DS(x, y), batch_size=5, epochs=3, shuffle=True, drop_last=True, verbose=0, callbacks=[losses])
    out["shuffle_losses"] = losses.losses
    # two inputs, two outputs, two losses; evaluation every second epoch
    model = paddle.Model(two_in(weights))
    model.prepare(paddle.optimizer.SGD(learning_rate=0.1, parameters=model.parameters()), TwoLoss())
    losses = LossLog()
    model.fit(DS3(x, z, y), DS3(x[:6], z[:6], y[:6]), batch_size=6, epochs=4, eval_freq=2, shuffle=False,
              verbose=0, callbacks=[losses])
    out["two_losses"] = losses.losses
    out["two_eval"] = losses.evals
    pred = model.predict(DS3(x, z, y), batch_size=6, verbose=0, stack_outputs=True)
    out["two_predict"] = [p.tolist() for p in pred]
    out["two_evaluate_iters"] = model.evaluate(DS3(x, z, y), batch_size=4, verbose=0, num_iters=2)["loss"]
    # num_iters in fit: epochs become num_iters // steps + 1, stopping after num_iters steps
    model = paddle.Model(mlp(weights))
    model.prepare(paddle.optimizer.SGD(learning_rate=0.1, parameters=model.parameters()), CELoss())
    losses = LossLog()
    model.fit(DS(x, y), batch_size=5, epochs=1, shuffle=False, verbose=0, callbacks=[losses], num_iters=7)
    out["num_iters_losses"] = losses.losses
    # a checkpoint written by Paddle (tests/data/paddle_hapi_ckpt.pdparams) and the predictions after loading it
    model = paddle.Model(mlp(weights))
    model.prepare(paddle.optimizer.SGD(learning_rate=0.1, parameters=model.parameters()), CELoss())
    model.fit(DS(x, y), batch_size=5, epochs=1, shuffle=False, verbose=0)
    model.save(os.path.join(os.path.dirname(OUT), "paddle_hapi_ckpt"))
    fresh = paddle.Model(mlp([w * 0 for w in weights]))
    fresh.load(os.path.join(os.path.dirname(OUT), "paddle_hapi_ckpt"))
    out["ckpt_predict"] = fresh.predict_batch([x])[0].tolist()
    return out


class LossLog(paddle.callbacks.Callback):
    def __init__(self):
        super().__init__()
        self.losses, self.evals = [], []

    def on_train_batch_end(self, step, logs=None):
        self.losses.append([float(v) for v in logs["loss"]])

    def on_eval_end(self, logs=None):
        self.evals.append([float(v) for v in logs["loss"]])


def record_order():
    x, y, weights = data()
    model = paddle.Model(mlp(weights))
    model.prepare(paddle.optimizer.SGD(learning_rate=0.1, parameters=model.parameters()), CELoss(),
                  paddle.metric.Accuracy())
    rec = Recorder()
    model.fit(DS(x[:6], y[:6]), DS(x[:4], y[:4]), batch_size=3, epochs=2, shuffle=False, verbose=0, callbacks=[rec])
    fit_events = rec.events
    rec = Recorder()
    model.evaluate(DS(x[:4], y[:4]), batch_size=3, verbose=0, callbacks=[rec])
    eval_events = rec.events
    rec = Recorder()
    model.predict(DS(x[:4], y[:4]), batch_size=3, verbose=0, callbacks=[rec])
    return {"fit": fit_events, "evaluate": eval_events, "predict": rec.events}


def record_text():
    x, y, weights = data()
    out = {}
    for verbose, log_freq in [(1, 1), (2, 2), (3, 2)]:
        model = paddle.Model(mlp(weights))
        model.prepare(paddle.optimizer.SGD(learning_rate=0.1, parameters=model.parameters()), CELoss(),
                      paddle.metric.Accuracy())
        buf = io.StringIO()
        with contextlib.redirect_stdout(buf):
            model.fit(DS(x, y), DS(x[:10], y[:10]), batch_size=5, epochs=2, shuffle=False, verbose=verbose,
                      log_freq=log_freq)
            model.evaluate(DS(x, y), batch_size=8, verbose=verbose, log_freq=log_freq)
            model.predict(DS(x, y), batch_size=8, verbose=verbose)
        out[f"verbose{verbose}"] = mask(buf.getvalue())
    return out


def record_summary():
    out = {}
    with paddle.utils.unique_name.guard():
        net = paddle.nn.Sequential(paddle.nn.Linear(4, 8), ReLU(), paddle.nn.Linear(8, 3))
        buf = io.StringIO()
        with contextlib.redirect_stdout(buf):
            info = paddle.summary(net, (2, 4))
        out["mlp"] = {"text": buf.getvalue(), "info": {k: int(v) for k, v in info.items()}}
    with paddle.utils.unique_name.guard():
        net = Net()
        buf = io.StringIO()
        with contextlib.redirect_stdout(buf):
            info = paddle.summary(net, input_size=(None, 4))
        out["nested"] = {"text": buf.getvalue(), "info": {k: int(v) for k, v in info.items()}}
    with paddle.utils.unique_name.guard():
        net = paddle.nn.Sequential(paddle.nn.Linear(4, 8), ReLU(), paddle.nn.Linear(8, 3))
        buf = io.StringIO()
        with contextlib.redirect_stdout(buf):
            info = paddle.summary(net, input=paddle.ones([3, 4]))
        out["mlp_input"] = {"text": buf.getvalue(), "info": {k: int(v) for k, v in info.items()}}
    return out


EARLY_SEQ = {
    "down_up": [1.0, 0.8, 0.7, 0.71, 0.72, 0.69, 0.75, 0.8, 0.9, 1.0],
    "plateau": [1.0, 0.9, 0.899, 0.8985, 0.898, 0.8979, 0.8978, 0.8977, 0.8976, 0.8975],
    "acc_up": [0.2, 0.4, 0.5, 0.5, 0.55, 0.54, 0.53, 0.6, 0.52, 0.51],
}
EARLY_CFG = [
    ("down_up", {"monitor": "loss", "patience": 0}),
    ("down_up", {"monitor": "loss", "patience": 2}),
    ("down_up", {"monitor": "loss", "patience": 3}),
    ("plateau", {"monitor": "loss", "patience": 1, "min_delta": 0.01}),
    ("plateau", {"monitor": "loss", "patience": 2, "min_delta": 0.0005}),
    ("plateau", {"monitor": "loss", "patience": 5, "baseline": 0.5}),
    ("acc_up", {"monitor": "acc", "patience": 1}),
    ("acc_up", {"monitor": "acc", "patience": 2, "mode": "max"}),
    ("acc_up", {"monitor": "acc", "patience": 1, "mode": "min"}),
    ("acc_up", {"monitor": "acc", "patience": 2, "min_delta": 0.06}),
    ("acc_up", {"monitor": "acc", "patience": 3, "baseline": 0.55}),
]


class FakeModel:
    stop_training = False


def record_early():
    out = []
    for seq, cfg in EARLY_CFG:
        cb = paddle.callbacks.EarlyStopping(verbose=0, save_best_model=False, **cfg)
        fake = FakeModel()
        cb.set_model(fake)
        cb.on_train_begin()
        stopped = None
        for i, v in enumerate(EARLY_SEQ[seq]):
            logs = {"loss": [v]} if cfg["monitor"] == "loss" else {"acc": v}
            cb.on_eval_end(logs)
            if fake.stop_training:
                stopped = i
                break
        out.append({"seq": seq, "cfg": cfg, "stopped": stopped, "best": float(cb.best_value)})
    return out


PLATEAU_CFG = [
    ("down_up", {"monitor": "loss", "patience": 1, "factor": 0.5}),
    ("plateau", {"monitor": "loss", "patience": 2, "factor": 0.1, "cooldown": 1, "min_delta": 0.001}),
    ("acc_up", {"monitor": "acc", "patience": 1, "factor": 0.5, "min_lr": 0.03}),
]


def record_plateau():
    x, y, weights = data()
    out = []
    for seq, cfg in PLATEAU_CFG:
        model = paddle.Model(mlp(weights))
        model.prepare(paddle.optimizer.SGD(learning_rate=0.1, parameters=model.parameters()), CELoss())
        cb = paddle.callbacks.ReduceLROnPlateau(verbose=0, **cfg)
        cb.set_model(model)
        cb.on_train_begin()
        lrs = []
        for v in EARLY_SEQ[seq]:
            cb.on_eval_end({"loss": [v]} if cfg["monitor"] == "loss" else {"acc": v})
            lrs.append(float(model._optimizer.get_lr()))
        out.append({"seq": seq, "cfg": cfg, "lrs": lrs})
    return out


class Watch(paddle.callbacks.Callback):
    def __init__(self, seen):
        super().__init__()
        self.seen = seen

    def on_train_batch_begin(self, step, logs=None):
        self.seen.append(float(self.model._optimizer.get_lr()))


def record_lrsched():
    x, y, weights = data()
    out = {}
    for by in ["step", "epoch"]:
        model = paddle.Model(mlp(weights))
        sched = paddle.optimizer.lr.StepDecay(learning_rate=0.1, step_size=2, gamma=0.5)
        model.prepare(paddle.optimizer.SGD(learning_rate=sched, parameters=model.parameters()), CELoss())
        seen = []

        cbs = [Watch(seen), paddle.callbacks.LRScheduler(by_step=by == "step", by_epoch=by == "epoch")]
        model.fit(DS(x[:9], y[:9]), batch_size=3, epochs=3, shuffle=False, verbose=0, callbacks=cbs)
        out[by] = {"seen": seen, "last_epoch": sched.last_epoch}
    return out


def main():
    rec = {
        "fit": record_fit(),
        "order": record_order(),
        "text": record_text(),
        "summary": record_summary(),
        "early": record_early(),
        "plateau": record_plateau(),
        "lrsched": record_lrsched(),
        "more": record_more(),
    }
    with open(OUT, "w") as f:
        json.dump(rec, f, indent=1)
    print("wrote", OUT)


if __name__ == "__main__":
    main()
