"""paddle.Model, paddle.callbacks and paddle.summary against Paddle (fixtures from
tests/record_paddle_hapi.py) and against the same training written as an eager loop."""

import contextlib
import gc
import io
import json
import os
import re
import sys
import types

import numpy as np
import pytest

import pylayer_jax as paddle
import pylayer_jax.nn.functional as F
from pylayer_jax.hapi import _progressbar

with open(os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "data", "paddle_hapi.json")) as _f:
    REC = json.load(_f)


# ---- the same network, data and helpers as the recording script ------------------------------
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


def Acc():
    """Top-1 accuracy: the real paddle.metric.Accuracy."""
    return paddle.metric.Accuracy()


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

    def __init__(self, metric=True):
        super().__init__()
        self.events, self.train_logs, self.eval_logs = [], [], []
        self.metric = metric

    def __getattribute__(self, name):
        if name in Recorder.HOOKS:
            def hook(*args):
                logs = args[-1] if args else None
                self.events.append([name] + list(args[:-1]) + [sorted(logs) if isinstance(logs, dict) else None])
                if name == "on_train_batch_end":
                    rec = {"loss": float(logs["loss"][0])}
                    if self.metric:
                        rec["acc"] = float(logs["acc"])
                    self.train_logs.append(rec)
                if name == "on_eval_end" and self.metric:
                    self.eval_logs.append({"loss": float(logs["loss"][0]), "acc": float(logs["acc"])})
            return hook
        return super().__getattribute__(name)


def plain(o):
    if isinstance(o, np.ndarray):
        return {"shape": list(o.shape), "dtype": str(o.dtype)}
    if isinstance(o, list | tuple):
        return {"type": type(o).__name__, "items": [plain(v) for v in o]}
    return {"type": type(o).__name__}


def mask(text):
    text = re.sub(r"\d+(s|ms|us)/step", "T/step", text)
    text = re.sub(r"\d+\.\d{5} (sec|samples/sec)", r"N \1", text)
    return re.sub(r"ETA: [0-9:]+s?", "ETA: E", text)


def normalize(text):
    """Drop what depends on timing: backspace runs (their count is the previous line's width) and
    trailing padding spaces."""
    text = text.replace("\b", "")
    return re.sub(r" +(?=[\n\r]|$)", "", text)


def sgd_model(weights, metric=True):
    model = paddle.Model(mlp(weights))
    opt = paddle.optimizer.SGD(learning_rate=0.1, parameters=model.parameters())
    model.prepare(opt, CELoss(), Acc() if metric else None)
    return model


# ---- training against Paddle ---------------------------------------------------------------
def test_fit_matches_paddle_step_by_step():
    x, y, weights = data()
    model = sgd_model(weights)
    rec = Recorder()
    model.fit(DS(x, y), DS(x[:10], y[:10]), batch_size=5, epochs=3, shuffle=False, verbose=0, callbacks=[rec])
    want = REC["fit"]
    assert len(rec.train_logs) == len(want["train_logs"]) == 15
    for got, exp in zip(rec.train_logs, want["train_logs"]):
        np.testing.assert_allclose(got["loss"], exp["loss"], rtol=2e-5)
        np.testing.assert_allclose(got["acc"], exp["acc"], rtol=1e-12)
    for got, exp in zip(rec.eval_logs, want["eval_logs"], strict=True):
        np.testing.assert_allclose(got["loss"], exp["loss"], rtol=2e-5)
        np.testing.assert_allclose(got["acc"], exp["acc"], rtol=1e-12)
    for p, w in zip(model.parameters(), want["weights"], strict=True):
        np.testing.assert_allclose(p.numpy(), np.array(w, "float32"), rtol=1e-5, atol=1e-6)
    ev = model.evaluate(DS(x, y), batch_size=4, verbose=0)
    assert list(ev) == list(want["evaluate"])
    np.testing.assert_allclose(ev["loss"], want["evaluate"]["loss"], rtol=2e-5)
    np.testing.assert_allclose(ev["acc"], want["evaluate"]["acc"], rtol=1e-12)
    pred = model.predict(DS(x, y), batch_size=4, verbose=0, stack_outputs=True)
    np.testing.assert_allclose(pred[0], np.array(want["predict_values"], "float32"), rtol=1e-5, atol=1e-6)
    tb = model.train_batch([x[:5]], [y[:5]])
    np.testing.assert_allclose(float(tb[0][0]), want["train_batch_loss"], rtol=2e-5)


def test_return_structures_match_paddle():
    x, y, weights = data()
    want = REC["fit"]
    model = sgd_model(weights)
    assert plain(model.predict(DS(x, y), batch_size=4, verbose=0, stack_outputs=True)) == want["predict"]
    assert plain(model.predict(DS(x, y), batch_size=4, verbose=0)) == want["predict_unstacked"]
    tb = model.train_batch([x[:5]], [y[:5]])
    assert plain(tb) == want["train_batch"]
    assert plain(model.eval_batch([x[:5]], [y[:5]])) == want["eval_batch"]
    assert plain(model.predict_batch([x[:5]])) == want["predict_batch"]
    m2 = sgd_model(weights, metric=False)
    assert plain(m2.train_batch([x[:5]], [y[:5]])) == want["train_batch_nometric"]
    assert plain(m2.eval_batch([x[:5]], [y[:5]])) == want["eval_batch_nometric"]
    assert sorted(m2.evaluate(DS(x, y), batch_size=8, verbose=0)) == want["evaluate_nometric"]


def test_predict_and_evaluate_against_numpy():
    x, y, weights = data()
    model = sgd_model(weights)
    w1, b1, w2, b2 = weights
    logits = np.maximum(x @ w1 + b1, 0) @ w2 + b2
    pred = model.predict(DS(x, y), batch_size=4, verbose=0)
    assert len(pred) == 1 and [a.shape[0] for a in pred[0]] == [4, 4, 4, 4, 4, 3]
    np.testing.assert_allclose(np.vstack(pred[0]), logits, rtol=1e-5, atol=1e-6)
    ev = model.evaluate(DS(x, y), batch_size=8, verbose=0)
    last = logits[16:] - logits[16:].max(-1, keepdims=True)
    logp = last - np.log(np.exp(last).sum(-1, keepdims=True))
    np.testing.assert_allclose(ev["loss"][0], -logp[np.arange(7), y[16:, 0]].mean(), rtol=1e-5)
    np.testing.assert_allclose(ev["acc"], np.mean(logits.argmax(-1) == y[:, 0]), rtol=1e-12)


class TwoIn(paddle.nn.Layer):
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
    net.a.weight.set_value(weights[0][:, :3])
    net.a.bias.set_value(weights[1][:3])
    net.b.weight.set_value(weights[2][:2])
    net.b.bias.set_value(weights[3])
    return net


class LossLog(paddle.callbacks.Callback):
    def __init__(self):
        super().__init__()
        self.losses, self.evals = [], []

    def on_train_batch_end(self, step, logs=None):
        self.losses.append([float(v) for v in logs["loss"]])

    def on_eval_end(self, logs=None):
        self.evals.append([float(v) for v in logs["loss"]])


def test_fit_shuffled_batches_match_paddle():
    # shuffle=True, drop_last=True: the same per-epoch order as Paddle's DistributedBatchSampler
    x, y, weights = data()
    model = sgd_model(weights, metric=False)
    log = LossLog()
    model.fit(DS(x, y), batch_size=5, epochs=3, shuffle=True, drop_last=True, verbose=0, callbacks=[log])
    np.testing.assert_allclose(log.losses, REC["more"]["shuffle_losses"], rtol=2e-5)


def test_two_inputs_two_outputs_two_losses_match_paddle():
    x, y, weights = data()
    z = (x[:, :2] * 0.5).astype("float32")
    model = paddle.Model(two_in(weights))
    model.prepare(paddle.optimizer.SGD(learning_rate=0.1, parameters=model.parameters()), TwoLoss())
    log = LossLog()
    model.fit(DS3(x, z, y), DS3(x[:6], z[:6], y[:6]), batch_size=6, epochs=4, eval_freq=2, shuffle=False,
              verbose=0, callbacks=[log])
    np.testing.assert_allclose(log.losses, REC["more"]["two_losses"], rtol=2e-5)
    np.testing.assert_allclose(log.evals, REC["more"]["two_eval"], rtol=2e-5)  # epochs 0 and 2 only
    pred = model.predict(DS3(x, z, y), batch_size=6, verbose=0, stack_outputs=True)
    assert len(pred) == 2
    for got, want in zip(pred, REC["more"]["two_predict"], strict=True):
        np.testing.assert_allclose(got, np.array(want, "float32"), rtol=1e-5, atol=1e-6)
    ev = model.evaluate(DS3(x, z, y), batch_size=4, verbose=0, num_iters=2)
    np.testing.assert_allclose(ev["loss"], REC["more"]["two_evaluate_iters"], rtol=2e-5)


def test_fit_num_iters_matches_paddle():
    x, y, weights = data()
    model = sgd_model(weights, metric=False)
    log = LossLog()
    model.fit(DS(x, y), batch_size=5, epochs=1, shuffle=False, verbose=0, callbacks=[log], num_iters=7)
    np.testing.assert_allclose(log.losses, REC["more"]["num_iters_losses"], rtol=2e-5)


# ---- training against the eager loop -------------------------------------------------------
@pytest.mark.parametrize("accumulate", [1, 2])
def test_fit_equals_eager_loop(accumulate):
    x, y, weights = data()
    model = paddle.Model(mlp(weights))
    model.prepare(paddle.optimizer.Adam(learning_rate=0.05, parameters=model.parameters()), CELoss())
    rec = Recorder(metric=False)
    model.fit(DS(x, y), batch_size=4, epochs=2, shuffle=False, verbose=0, callbacks=[rec],
              accumulate_grad_batches=accumulate)

    net = mlp(weights)
    opt = paddle.optimizer.Adam(learning_rate=0.05, parameters=net.parameters())
    losses = []
    n_steps = 6
    for _ in range(2):
        for step in range(n_steps):
            xb = paddle.to_tensor(x[step * 4:(step + 1) * 4])
            yb = paddle.to_tensor(y[step * 4:(step + 1) * 4])
            loss = F.cross_entropy(net(xb), yb)
            loss.backward()
            if (step + 1) % accumulate == 0 or step + 1 == n_steps:
                opt.step()
                opt.clear_grad()
            losses.append(float(loss))
    np.testing.assert_allclose([r["loss"] for r in rec.train_logs], losses, rtol=1e-6)
    for a, b in zip(model.parameters(), net.parameters(), strict=True):
        np.testing.assert_allclose(a.numpy(), b.numpy(), rtol=1e-6, atol=1e-7)


def test_fit_takes_a_dataloader_and_num_iters():
    x, y, weights = data()
    model = sgd_model(weights, metric=False)
    loader = paddle.io.DataLoader(DS(x, y), batch_size=5, shuffle=False)
    rec = Recorder(metric=False)
    model.fit(loader, epochs=5, verbose=0, callbacks=[rec], num_iters=7)
    ref = sgd_model(weights, metric=False)
    ref_rec = Recorder(metric=False)
    ref.fit(DS(x, y), batch_size=5, epochs=2, shuffle=False, verbose=0, callbacks=[ref_rec])
    assert len(rec.train_logs) == 7
    np.testing.assert_allclose([r["loss"] for r in rec.train_logs], [r["loss"] for r in ref_rec.train_logs[:7]],
                               rtol=1e-6)


def test_batches_from_any_iterable_are_flattened_as_paddle():
    # paddle.utils.flatten orders dict entries by key: {"y": .., "x": ..} gives [x, y]
    x, y, weights = data()
    as_dicts = [{"y": y[i:i + 5], "x": x[i:i + 5]} for i in range(0, 20, 5)]
    as_nested = [([x[i:i + 5]], [y[i:i + 5]]) for i in range(0, 20, 5)]
    logs = []
    for batches in (as_dicts, as_nested):
        model = sgd_model(weights, metric=False)
        log = LossLog()
        model.fit(batches, epochs=1, verbose=0, callbacks=[log])
        logs.append(log.losses)
    want = [[r["loss"]] for r in REC["fit"]["train_logs"][:4]]  # Paddle's first four steps on these batches
    np.testing.assert_allclose(logs[0], want, rtol=2e-5)
    np.testing.assert_allclose(logs[1], want, rtol=2e-5)


# ---- callbacks -----------------------------------------------------------------------------
def _comparable(events, mode):
    """Hook names and arguments; log keys except where Paddle's logs dict still holds an earlier run's keys
    (batch begins, and everything of predict)."""
    out = []
    for e in events:
        name = e[0]
        if name.endswith("batch_begin") or mode == "predict":
            e = e[:-1]
        out.append(e)
    return out


def test_callback_order_equals_paddle():
    x, y, weights = data()
    model = sgd_model(weights)
    rec = Recorder()
    model.fit(DS(x[:6], y[:6]), DS(x[:4], y[:4]), batch_size=3, epochs=2, shuffle=False, verbose=0, callbacks=[rec])
    assert _comparable(rec.events, "fit") == _comparable(REC["order"]["fit"], "fit")
    rec = Recorder()
    model.evaluate(DS(x[:4], y[:4]), batch_size=3, verbose=0, callbacks=[rec])
    assert _comparable(rec.events, "evaluate") == _comparable(REC["order"]["evaluate"], "evaluate")
    rec = Recorder()
    model.predict(DS(x[:4], y[:4]), batch_size=3, verbose=0, callbacks=[rec])
    assert _comparable(rec.events, "predict") == _comparable(REC["order"]["predict"], "predict")


def test_default_callbacks_are_completed_as_paddle():
    config_callbacks = paddle.hapi.callbacks.config_callbacks
    mine = Recorder()
    cbks = list(config_callbacks([mine], verbose=2))
    assert [type(c).__name__ for c in cbks] == ["ProgBarLogger", "Recorder", "ModelCheckpoint", "LRScheduler"]
    assert [type(c).__name__ for c in config_callbacks(None, verbose=0)] == ["ModelCheckpoint", "LRScheduler"]


@pytest.mark.parametrize("i", range(len(REC["early"])))
def test_early_stopping_stops_where_paddle_does(i):
    case = REC["early"][i]
    seqs = {
        "down_up": [1.0, 0.8, 0.7, 0.71, 0.72, 0.69, 0.75, 0.8, 0.9, 1.0],
        "plateau": [1.0, 0.9, 0.899, 0.8985, 0.898, 0.8979, 0.8978, 0.8977, 0.8976, 0.8975],
        "acc_up": [0.2, 0.4, 0.5, 0.5, 0.55, 0.54, 0.53, 0.6, 0.52, 0.51],
    }
    cfg = case["cfg"]
    cb = paddle.callbacks.EarlyStopping(verbose=0, save_best_model=False, **cfg)
    fake = types.SimpleNamespace(stop_training=False)
    cb.set_model(fake)
    cb.on_train_begin()
    stopped = None
    for k, v in enumerate(seqs[case["seq"]]):
        cb.on_eval_end({"loss": [v]} if cfg["monitor"] == "loss" else {"acc": v})
        if fake.stop_training:
            stopped = k
            break
    assert stopped == case["stopped"]
    assert float(cb.best_value) == case["best"]


def test_early_stopping_in_fit_stops_and_saves_best(tmp_path):
    x, y, weights = data()
    model = sgd_model(weights)
    rec = Recorder()
    es = paddle.callbacks.EarlyStopping(monitor="loss", patience=1, min_delta=0.02, verbose=0)
    with contextlib.redirect_stdout(io.StringIO()):
        model.fit(DS(x, y), DS(x[:5], y[:5]), batch_size=5, epochs=40, shuffle=False, verbose=0,
                  callbacks=[rec, es], save_dir=str(tmp_path))
    losses = [e["loss"] for e in rec.eval_logs]
    # the rule: an evaluation improves when loss + min_delta < best; the first that does not stops
    best, stop = np.inf, None
    for k, v in enumerate(losses):
        if v + 0.02 < best:
            best = v
        else:
            stop = k
            break
    assert stop is not None and stop == len(losses) - 1 < 39
    assert (tmp_path / "best_model.pdparams").exists() and (tmp_path / "final.pdparams").exists()
    assert (tmp_path / "0.pdparams").exists()
    assert not (tmp_path / "0.pdopt").exists()  # as Paddle: SGD with a float rate has no state to save
    restored = paddle.Model(mlp(weights))
    restored.prepare(None, CELoss())
    restored.load(str(tmp_path / "best_model"))
    got = restored.evaluate(DS(x[:5], y[:5]), batch_size=5, verbose=0)["loss"][0]
    np.testing.assert_allclose(got, best, rtol=1e-6)


@pytest.mark.parametrize("i", range(len(REC["plateau"])))
def test_reduce_lr_on_plateau_matches_paddle(i):
    case = REC["plateau"][i]
    seqs = {
        "down_up": [1.0, 0.8, 0.7, 0.71, 0.72, 0.69, 0.75, 0.8, 0.9, 1.0],
        "plateau": [1.0, 0.9, 0.899, 0.8985, 0.898, 0.8979, 0.8978, 0.8977, 0.8976, 0.8975],
        "acc_up": [0.2, 0.4, 0.5, 0.5, 0.55, 0.54, 0.53, 0.6, 0.52, 0.51],
    }
    _, _, weights = data()
    model = sgd_model(weights, metric=False)
    cb = paddle.callbacks.ReduceLROnPlateau(verbose=0, **case["cfg"])
    cb.set_model(model)
    cb.on_train_begin()
    lrs = []
    for v in seqs[case["seq"]]:
        cb.on_eval_end({"loss": [v]} if case["cfg"]["monitor"] == "loss" else {"acc": v})
        lrs.append(float(model._optimizer.get_lr()))
    np.testing.assert_allclose(lrs, case["lrs"], rtol=1e-12)


@pytest.mark.parametrize("by", ["step", "epoch"])
def test_lr_scheduler_callback_steps_as_paddle(by):
    # the callback steps the optimizer's scheduler; driven through Model's hooks as fit calls them
    sched = paddle.optimizer.lr.StepDecay(learning_rate=0.1, step_size=2, gamma=0.5)
    holder = types.SimpleNamespace(_learning_rate=sched)
    cb = paddle.callbacks.LRScheduler(by_step=by == "step", by_epoch=by == "epoch")
    cb.set_model(types.SimpleNamespace(_optimizer=holder))
    seen = []
    for epoch in range(3):
        cb.on_epoch_begin(epoch)
        for step in range(3):
            seen.append(float(sched()))
            cb.on_train_batch_begin(step)
            cb.on_train_batch_end(step, {})
        cb.on_epoch_end(epoch, {})
    np.testing.assert_allclose(seen, REC["lrsched"][by]["seen"], rtol=1e-12)
    assert sched.last_epoch == REC["lrsched"][by]["last_epoch"]


# ---- printed progress ----------------------------------------------------------------------
@pytest.mark.parametrize("verbose,log_freq", [(1, 1), (2, 2), (3, 2)])
def test_progress_text_matches_paddle(verbose, log_freq, monkeypatch):
    monkeypatch.setenv("COLUMNS", "80")
    x, y, weights = data()
    model = sgd_model(weights)
    buf = io.StringIO()
    with contextlib.redirect_stdout(buf):
        model.fit(DS(x, y), DS(x[:10], y[:10]), batch_size=5, epochs=2, shuffle=False, verbose=verbose,
                  log_freq=log_freq)
        model.evaluate(DS(x, y), batch_size=8, verbose=verbose, log_freq=log_freq)
        model.predict(DS(x, y), batch_size=8, verbose=verbose)
    assert normalize(mask(buf.getvalue())) == normalize(REC["text"][f"verbose{verbose}"])


def test_notebook_detection_and_bar(monkeypatch):
    assert not _progressbar.in_notebook()

    class ZMQInteractiveShell:
        pass

    monkeypatch.setitem(sys.modules, "ipykernel", types.ModuleType("ipykernel"))
    fake_ipython = types.ModuleType("IPython")
    fake_ipython.get_ipython = ZMQInteractiveShell
    monkeypatch.setitem(sys.modules, "IPython", fake_ipython)
    assert _progressbar.in_notebook()

    made = []

    class FakeTqdm:
        def __init__(self, total=None, unit=None, leave=None):
            self.total, self.n, self.post, self.closed = total, 0, None, False
            made.append(self)

        def set_postfix(self, post, refresh=True):
            self.post = post

        def update(self, n):
            self.n += n

        def close(self):
            self.closed = True

    monkeypatch.setattr(_progressbar, "_notebook_tqdm", FakeTqdm)
    monkeypatch.setattr(_progressbar, "widgets_available", lambda: True)
    x, y, weights = data()
    model = sgd_model(weights)
    buf = io.StringIO()
    with contextlib.redirect_stdout(buf):
        model.fit(DS(x, y), batch_size=5, epochs=2, shuffle=False, verbose=1, log_freq=1)
    assert len(made) == 2 and all(b.total == 5 and b.n == 5 and b.closed for b in made)
    assert made[-1].post == {"loss": f"{REC['fit']['train_logs'][9]['loss']:.4f}", "acc": "0.3913"}
    assert "[=====" not in buf.getvalue() and "Epoch 2/2" in buf.getvalue()


def test_notebook_without_widgets_uses_the_text_bar(monkeypatch):
    class ZMQInteractiveShell:
        pass

    monkeypatch.setitem(sys.modules, "ipykernel", types.ModuleType("ipykernel"))
    fake_ipython = types.ModuleType("IPython")
    fake_ipython.get_ipython = ZMQInteractiveShell
    monkeypatch.setitem(sys.modules, "IPython", fake_ipython)
    monkeypatch.setattr(_progressbar._tqdm_notebook, "IProgress", None)  # tqdm.notebook without ipywidgets
    assert _progressbar.in_notebook() and not _progressbar.widgets_available()
    x, y, weights = data()
    model = sgd_model(weights)
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        model.fit(DS(x, y), batch_size=5, epochs=1, shuffle=False, verbose=1, log_freq=1)
        gc.collect()
    assert "step 5/5 [=====" in out.getvalue() and err.getvalue() == ""


# ---- summary -------------------------------------------------------------------------------
def _summary_text(fn):
    buf = io.StringIO()
    with contextlib.redirect_stdout(buf):
        info = fn()
    return buf.getvalue(), info


def test_summary_matches_paddle():
    with paddle.utils.unique_name.guard():
        net = paddle.nn.Sequential(paddle.nn.Linear(4, 8), ReLU(), paddle.nn.Linear(8, 3))
        text, info = _summary_text(lambda: paddle.summary(net, (2, 4)))
    assert text == REC["summary"]["mlp"]["text"] and info == REC["summary"]["mlp"]["info"]
    with paddle.utils.unique_name.guard():
        net = Net()
        text, info = _summary_text(lambda: paddle.summary(net, input_size=(None, 4)))
    assert text == REC["summary"]["nested"]["text"] and info == REC["summary"]["nested"]["info"]
    assert net.training  # restored after the forward pass in eval mode
    with paddle.utils.unique_name.guard():
        net = paddle.nn.Sequential(paddle.nn.Linear(4, 8), ReLU(), paddle.nn.Linear(8, 3))
        text, info = _summary_text(lambda: paddle.summary(net, input=paddle.ones([3, 4])))
    assert text == REC["summary"]["mlp_input"]["text"] and info == REC["summary"]["mlp_input"]["info"]
    with paddle.utils.unique_name.guard():
        model = paddle.Model(paddle.nn.Sequential(paddle.nn.Linear(4, 8), ReLU(), paddle.nn.Linear(8, 3)))
        text, info = _summary_text(lambda: model.summary((2, 4)))
    assert text == REC["summary"]["mlp"]["text"] and info == REC["summary"]["mlp"]["info"]


# ---- save / load ---------------------------------------------------------------------------
def test_save_load_round_trip(tmp_path):
    x, y, weights = data()
    model = sgd_model(weights)
    model.fit(DS(x, y), batch_size=5, epochs=1, shuffle=False, verbose=0)
    path = str(tmp_path / "ckpt" / "m")
    model.save(path)
    assert os.path.exists(path + ".pdparams") and not os.path.exists(path + ".pdopt")
    _, _, other = data()
    fresh = sgd_model([w * 0 + 1 for w in other])
    fresh.load(path)
    for a, b in zip(model.network.state_dict().values(), fresh.network.state_dict().values(), strict=True):
        np.testing.assert_array_equal(a.numpy(), b.numpy())
    np.testing.assert_array_equal(fresh.predict_batch([x])[0], model.predict_batch([x])[0])
    fresh.load(path + ".pdparams", reset_optimizer=True)  # the suffix is accepted too

    wide = paddle.Model(paddle.nn.Sequential(paddle.nn.Linear(4, 9), ReLU(), paddle.nn.Linear(9, 3)))
    with pytest.raises(ValueError, match=r"0.weight receives a shape \[4, 8\], but the expected shape is \[4, 9\]"):
        wide.load(path)
    with pytest.raises(ValueError, match="unknown file suffix '.ckpt'"):
        wide.load(path + ".ckpt")
    before = [p.numpy().copy() for p in wide.parameters()]
    with pytest.warns(UserWarning, match="Skip loading for 0.weight"):
        wide.load(path, skip_mismatch=True)
    for a, b in zip(wide.parameters()[:3], before[:3], strict=True):  # mismatched shapes: kept
        np.testing.assert_array_equal(a.numpy(), b)
    np.testing.assert_array_equal(wide.parameters()[3].numpy(), model.parameters()[3].numpy())  # 2.bias fits


def test_load_reads_a_checkpoint_written_by_paddle():
    x, _, weights = data()
    model = paddle.Model(mlp([w * 0 for w in weights]))
    model.load(os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "data", "paddle_hapi_ckpt"))
    np.testing.assert_allclose(model.predict_batch([x])[0], np.array(REC["more"]["ckpt_predict"], "float32"),
                               rtol=1e-6, atol=1e-7)


def test_save_writes_optimizer_state_once_it_exists(tmp_path):
    # Paddle 3.3.1: Adam has no state before its first step, so Model.save writes no .pdopt; after one
    # train_batch it writes the moments and beta powers under the parameters' names
    x, y, weights = data()
    model = paddle.Model(mlp(weights))
    opt = paddle.optimizer.Adam(learning_rate=0.1, parameters=model.parameters())
    model.prepare(opt, CELoss())
    model.save(str(tmp_path / "a"))
    assert (tmp_path / "a.pdparams").exists() and not (tmp_path / "a.pdopt").exists()
    model.train_batch([x[:3]], [y[:3]])
    model.save(str(tmp_path / "b"))
    saved = paddle.load(str(tmp_path / "b.pdopt"))
    assert set(saved) == set(opt.state_dict())
    assert any(k.endswith("_moment1_0") for k in saved) and any(k.endswith("_beta2_pow_acc_0") for k in saved)
    fresh = paddle.Model(mlp(weights))
    fresh.prepare(paddle.optimizer.Adam(learning_rate=0.1, parameters=fresh.parameters()), CELoss())
    fresh.load(str(tmp_path / "b"))
    for k, v in fresh._optimizer.state_dict().items():
        np.testing.assert_array_equal(np.asarray(v), np.asarray(saved[k]))


# ---- misuse --------------------------------------------------------------------------------
def test_import_paths():
    assert paddle.hapi.model.Model is paddle.Model is paddle.hapi.Model
    assert paddle.hapi.model_summary.summary is paddle.summary
    assert paddle.callbacks.EarlyStopping is paddle.hapi.callbacks.EarlyStopping
    assert issubclass(paddle.callbacks.ReduceLROnPlateau, paddle.callbacks.Callback)


def test_misuse_raises():
    x, y, weights = data()
    with pytest.raises(TypeError, match="network must be a paddle.nn.Layer"):
        paddle.Model(lambda v: v)
    model = paddle.Model(mlp(weights))
    with pytest.raises(RuntimeError, match="call model.prepare"):
        model.train_batch([x[:2]], [y[:2]])
    with pytest.raises(TypeError, match="loss must be a paddle.nn.Layer or a callable"):
        model.prepare(None, loss=3)
    with pytest.raises(TypeError, match="lacks reset, update, accumulate, name, compute"):
        model.prepare(None, CELoss(), metrics=[object()])
    with pytest.raises(NotImplementedError, match="amp_configs='O1'"):
        model.prepare(None, CELoss(), amp_configs="O1")
    model = sgd_model(weights)
    with pytest.raises(ValueError, match="train_data must be given"):
        model.fit()
    with pytest.raises(ValueError, match="batch_size must be an integer >= 1, but received 0"):
        model.fit(DS(x, y), batch_size=0)
    with pytest.raises(ValueError, match="epochs must be an integer >= 1"):
        model.fit(DS(x, y), epochs=0)
    with pytest.raises(TypeError, match="callbacks must be paddle.callbacks.Callback instances"):
        model.fit(DS(x, y), callbacks=[object()], verbose=0)
    with pytest.raises(RuntimeError, match=r"training=False\) needs the input shapes: pass inputs="):
        model.save("/tmp/x", training=False)
    with pytest.raises(ValueError, match="file prefix"):
        model.save("/tmp/dir/")
    with pytest.raises(ValueError, match="does not exist"):
        model.load("/nonexistent/prefix")
    with pytest.raises(ValueError, match="by_step and by_epoch are mutually exclusive"):
        paddle.callbacks.LRScheduler(by_step=True, by_epoch=True)
    with pytest.raises(ValueError, match="factor must be < 1.0"):
        paddle.callbacks.ReduceLROnPlateau(factor=1.0)
    with pytest.raises(ValueError, match="mode must be 'auto', 'min' or 'max'"):
        paddle.callbacks.EarlyStopping(mode="best")
    with pytest.raises(NotImplementedError, match="VisualDL is not implemented"):
        paddle.callbacks.VisualDL("logs")
    with pytest.raises(ValueError, match="input_size and input cannot both be None"):
        paddle.summary(mlp(weights))
    with pytest.raises(ValueError, match="only the batch dimension"):
        paddle.summary(mlp(weights), (None, -1))
    with pytest.raises(ValueError, match="must be > 0"):
        paddle.summary(mlp(weights), (2, 0))
    with pytest.raises(ValueError, match="input_size must be given"):
        paddle.Model(mlp(weights)).summary()
    net = mlp(weights)
    paddle.enable_static()
    try:
        with pytest.raises(NotImplementedError, match="paddle.Model in static mode is not implemented"):
            paddle.Model(net)
    finally:
        paddle.disable_static()
