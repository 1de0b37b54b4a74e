"""``paddle.callbacks``: the hooks ``Model.fit``/``evaluate``/``predict`` call (layer L5).

``config_callbacks`` completes the user's list as Paddle does: a ``ProgBarLogger`` first (when
``verbose``), then the user's callbacks, then a ``ModelCheckpoint`` and an ``LRScheduler`` unless
the list has one. ``CallbackList`` calls each hook on every callback in list order.
"""

from __future__ import annotations

import numbers
import os
import time
import warnings
from collections.abc import Iterator, Sequence
from typing import Any

import numpy as np

from ..optimizer.lr import LRScheduler as _Scheduler
from ._progressbar import make_bar

_MODES = ("train", "eval", "predict")


class Callback:
    """Base class of the callbacks: every hook does nothing; ``self.model`` and ``self.params`` are set by Model.

    ``params`` holds ``batch_size``, ``epochs``, ``steps``, ``verbose`` and ``metrics`` (the names logged:
    ``'loss'`` and each metric's ``name()``). The hooks receive ``logs`` dicts: batch and epoch ends get
    ``loss`` (a list), the metric values, ``step`` and ``batch_size``; ``on_eval_begin`` gets ``steps`` and
    ``metrics``.
    """

    def __init__(self) -> None:
        self.model: Any = None
        self.params: dict[str, Any] = {}

    def set_params(self, params: dict[str, Any]) -> None:
        """Store the run's settings (``batch_size``, ``epochs``, ``steps``, ``verbose``, ``metrics``)."""
        self.params = params

    def set_model(self, model: Any) -> None:
        """Store the ``paddle.Model`` being run."""
        self.model = model

    def on_train_begin(self, logs: dict | None = None) -> None:
        """Called once before training."""

    def on_train_end(self, logs: dict | None = None) -> None:
        """Called once after training, with the logs of the last epoch."""

    def on_eval_begin(self, logs: dict | None = None) -> None:
        """Called before an evaluation, with ``steps`` and ``metrics``."""

    def on_eval_end(self, logs: dict | None = None) -> None:
        """Called after an evaluation, with the logs of its last batch (metrics accumulated)."""

    def on_predict_begin(self, logs: dict | None = None) -> None:
        """Called before prediction, with ``steps``."""

    def on_predict_end(self, logs: dict | None = None) -> None:
        """Called after prediction."""

    def on_epoch_begin(self, epoch: int | None = None, logs: dict | None = None) -> None:
        """Called at the start of each training epoch (``logs`` is None)."""

    def on_epoch_end(self, epoch: int | None = None, logs: dict | None = None) -> None:
        """Called at the end of each training epoch, with the logs of its last batch."""

    def on_train_batch_begin(self, step: int | None = None, logs: dict | None = None) -> None:
        """Called before each training batch."""

    def on_train_batch_end(self, step: int | None = None, logs: dict | None = None) -> None:
        """Called after each training batch, with its loss, the accumulated metrics and batch size."""

    def on_eval_batch_begin(self, step: int | None = None, logs: dict | None = None) -> None:
        """Called before each evaluation batch."""

    def on_eval_batch_end(self, step: int | None = None, logs: dict | None = None) -> None:
        """Called after each evaluation batch."""

    def on_predict_batch_begin(self, step: int | None = None, logs: dict | None = None) -> None:
        """Called before each prediction batch."""

    def on_predict_batch_end(self, step: int | None = None, logs: dict | None = None) -> None:
        """Called after each prediction batch."""


class CallbackList:
    """Calls each hook on every callback, in list order."""

    def __init__(self, callbacks: Sequence[Callback]) -> None:
        self.callbacks = list(callbacks)

    def __iter__(self) -> Iterator[Callback]:
        return iter(self.callbacks)

    def set_params(self, params: dict[str, Any]) -> None:
        for c in self.callbacks:
            c.set_params(params)

    def set_model(self, model: Any) -> None:
        for c in self.callbacks:
            c.set_model(model)

    def _call(self, name: str, *args: Any) -> None:
        for c in self.callbacks:
            getattr(c, name)(*args)

    def on_begin(self, mode: str, logs: dict | None = None) -> None:
        self._call(f"on_{mode}_begin", logs)

    def on_end(self, mode: str, logs: dict | None = None) -> None:
        self._call(f"on_{mode}_end", logs)

    def on_epoch_begin(self, epoch: int, logs: dict | None = None) -> None:
        self._call("on_epoch_begin", epoch, logs)

    def on_epoch_end(self, epoch: int, logs: dict | None = None) -> None:
        self._call("on_epoch_end", epoch, logs)

    def on_batch_begin(self, mode: str, step: int, logs: dict | None = None) -> None:
        self._call(f"on_{mode}_batch_begin", step, logs)

    def on_batch_end(self, mode: str, step: int, logs: dict | None = None) -> None:
        self._call(f"on_{mode}_batch_end", step, logs)


def _check_callbacks(callbacks: Any) -> list[Callback]:
    cbks = callbacks or []
    cbks = list(cbks) if isinstance(cbks, list | tuple) else [cbks]
    for c in cbks:
        if not isinstance(c, Callback):
            raise TypeError(
                f"paddle.Model: callbacks must be paddle.callbacks.Callback instances, but received "
                f"{type(c).__name__}; subclass paddle.callbacks.Callback."
            )
    return cbks


def config_callbacks(callbacks: Any = None, model: Any = None, batch_size: int | None = None,
                     epochs: int | None = None, steps: int | None = None, log_freq: int = 2, verbose: int = 2,
                     save_freq: int = 1, save_dir: str | None = None, metrics: list[str] | None = None,
                     ) -> CallbackList:
    """The callbacks of one run, completed with Paddle's defaults, bound to ``model``."""
    cbks = _check_callbacks(callbacks)
    if verbose and not any(isinstance(k, ProgBarLogger) for k in cbks):
        cbks = [ProgBarLogger(log_freq, verbose=verbose), *cbks]
    if not any(isinstance(k, ModelCheckpoint) for k in cbks):
        cbks = [*cbks, ModelCheckpoint(save_freq, save_dir)]
    for k in cbks:
        if isinstance(k, EarlyStopping):
            k.save_dir = save_dir
    if not any(isinstance(k, LRScheduler) for k in cbks):
        cbks = [*cbks, LRScheduler()]
    out = CallbackList(cbks)
    out.set_model(model)
    out.set_params({"batch_size": batch_size, "epochs": epochs, "steps": steps, "verbose": verbose,
                    "metrics": metrics or []})
    return out


class ProgBarLogger(Callback):
    """Prints loss and metrics: ``verbose`` 0 silent, 1 a bar per epoch, 2 one line every ``log_freq`` steps,
    3 as 2 plus reader/batch cost and samples per second."""

    def __init__(self, log_freq: int = 1, verbose: int = 2) -> None:
        super().__init__()
        if not isinstance(log_freq, int) or isinstance(log_freq, bool) or log_freq < 1:
            raise ValueError(f"ProgBarLogger: log_freq must be an integer >= 1, but received {log_freq!r}.")
        if verbose not in (0, 1, 2, 3):
            raise ValueError(f"ProgBarLogger: verbose must be 0, 1, 2 or 3, but received {verbose!r}.")
        self.log_freq = log_freq
        self.verbose = verbose
        self.epochs: int | None = None
        self.steps: int | None = None

    def _new_timer(self) -> dict[str, float]:
        return {"data_time": 0.0, "batch_time": 0.0, "count": 0, "samples": 0, "batch_start_time": time.time()}

    def _updates(self, logs: dict, mode: str) -> None:
        values = [(k, logs[k]) for k in getattr(self, f"{mode}_metrics") if k in logs]
        timer = getattr(self, f"_{mode}_timer")
        if self.verbose == 3:
            cnt = timer["count"] or 1.0
            samples = timer["samples"] or 1.0
            busy = timer["data_time"] + timer["batch_time"]
            values.append(("avg_reader_cost", "%.5f sec" % (timer["data_time"] / cnt)))
            values.append(("avg_batch_cost", "%.5f sec" % (timer["batch_time"] / cnt)))
            values.append(("ips", "%.5f samples/sec" % (samples / busy if busy else 0.0)))
            timer.update(count=0, samples=0, data_time=0.0, batch_time=0.0)
        getattr(self, f"{mode}_progbar").update(getattr(self, f"{mode}_step"), values)

    def _batch_begin(self, mode: str) -> None:
        timer = getattr(self, f"_{mode}_timer")
        timer["batch_data_end_time"] = time.time()
        timer["data_time"] += timer["batch_data_end_time"] - timer["batch_start_time"]

    def _batch_end(self, mode: str, logs: dict | None, steps: int | None) -> None:
        logs = logs or {}
        timer = getattr(self, f"_{mode}_timer")
        step = getattr(self, f"{mode}_step") + 1
        setattr(self, f"{mode}_step", step)
        timer["batch_time"] += time.time() - timer["batch_data_end_time"]
        timer["count"] += 1
        timer["samples"] += logs.get("batch_size", 1)
        if self.verbose and step % self.log_freq == 0 and (steps is None or step < steps):
            self._updates(logs, mode)
        timer["batch_start_time"] = time.time()

    def on_train_begin(self, logs: dict | None = None) -> None:
        self.epochs = self.params["epochs"]
        self.train_metrics = self.params["metrics"]
        self._train_timer = self._new_timer()
        if self.verbose:
            print("The loss value printed in the log is the current step, and the metric is the average "
                  "value of previous steps.")

    def on_epoch_begin(self, epoch: int | None = None, logs: dict | None = None) -> None:
        self.steps = self.params["steps"]
        self.epoch = epoch
        self.train_step = 0
        if self.epochs and self.verbose:
            print(f"Epoch {epoch + 1}/{self.epochs}")
        self.train_progbar = make_bar(self.steps, self.verbose)
        self._train_timer["batch_start_time"] = time.time()

    def on_train_batch_begin(self, step: int | None = None, logs: dict | None = None) -> None:
        self._batch_begin("train")

    def on_train_batch_end(self, step: int | None = None, logs: dict | None = None) -> None:
        self._batch_end("train", logs, self.steps)

    def on_epoch_end(self, epoch: int | None = None, logs: dict | None = None) -> None:
        if self.verbose and self.steps is not None:
            self._updates(logs or {}, "train")

    def on_eval_begin(self, logs: dict | None = None) -> None:
        logs = logs or {}
        self.eval_steps = logs.get("steps")
        self.eval_metrics = logs.get("metrics", [])
        self.eval_step = 0
        self.evaled_samples = 0
        self._eval_timer = self._new_timer()
        self.eval_progbar = make_bar(self.eval_steps, self.verbose)
        if self.verbose:
            print("Eval begin...")

    def on_eval_batch_begin(self, step: int | None = None, logs: dict | None = None) -> None:
        self._batch_begin("eval")

    def on_eval_batch_end(self, step: int | None = None, logs: dict | None = None) -> None:
        self.evaled_samples += (logs or {}).get("batch_size", 1)
        self._batch_end("eval", logs, self.eval_steps)

    def on_eval_end(self, logs: dict | None = None) -> None:
        if self.verbose and self.eval_steps is not None:
            self._updates(logs or {}, "eval")
            print(f"Eval samples: {self.evaled_samples}")

    def on_predict_begin(self, logs: dict | None = None) -> None:
        logs = logs or {}
        self.test_steps = logs.get("steps")
        self.test_metrics = logs.get("metrics", [])
        self.test_step = 0
        self.tested_samples = 0
        self._test_timer = self._new_timer()
        self.test_progbar = make_bar(self.test_steps, self.verbose)
        if self.verbose:
            print("Predict begin...")

    def on_predict_batch_begin(self, step: int | None = None, logs: dict | None = None) -> None:
        self._batch_begin("test")

    def on_predict_batch_end(self, step: int | None = None, logs: dict | None = None) -> None:
        self.tested_samples += (logs or {}).get("batch_size", 1)
        self._batch_end("test", logs, self.test_steps)

    def on_predict_end(self, logs: dict | None = None) -> None:
        if self.verbose:
            if self.test_step % self.log_freq != 0 or self.verbose == 1:
                self._updates(logs or {}, "test")
            print(f"Predict samples: {self.tested_samples}")


class ModelCheckpoint(Callback):
    """Saves ``save_dir/{epoch}`` every ``save_freq`` epochs and ``save_dir/final`` after training
    (nothing when ``save_dir`` is None)."""

    def __init__(self, save_freq: int = 1, save_dir: str | None = None) -> None:
        super().__init__()
        if not isinstance(save_freq, int) or isinstance(save_freq, bool) or save_freq < 1:
            raise ValueError(f"ModelCheckpoint: save_freq must be an integer >= 1, but received {save_freq!r}.")
        self.save_freq = save_freq
        self.save_dir = save_dir

    def _is_save(self) -> bool:
        return bool(self.model is not None and self.save_dir)

    def on_epoch_begin(self, epoch: int | None = None, logs: dict | None = None) -> None:
        self.epoch = epoch

    def on_epoch_end(self, epoch: int | None = None, logs: dict | None = None) -> None:
        if self._is_save() and self.epoch % self.save_freq == 0:
            path = f"{self.save_dir}/{epoch}"
            print(f"save checkpoint at {os.path.abspath(path)}")
            self.model.save(path)

    def on_train_end(self, logs: dict | None = None) -> None:
        if self._is_save():
            path = f"{self.save_dir}/final"
            print(f"save checkpoint at {os.path.abspath(path)}")
            self.model.save(path)


class LRScheduler(Callback):
    """Steps the optimizer's ``paddle.optimizer.lr.LRScheduler`` after every batch (``by_step``) or
    every epoch (``by_epoch``)."""

    def __init__(self, by_step: bool = True, by_epoch: bool = False) -> None:
        super().__init__()
        if by_step and by_epoch:
            raise ValueError(
                "paddle.callbacks.LRScheduler: by_step and by_epoch are mutually exclusive, but both are True; "
                "pick one."
            )
        self.by_step = by_step
        self.by_epoch = by_epoch

    def _step(self) -> None:
        opt = getattr(self.model, "_optimizer", None)
        sched = getattr(opt, "_learning_rate", None)
        if isinstance(sched, _Scheduler):
            sched.step()

    def on_epoch_end(self, epoch: int | None = None, logs: dict | None = None) -> None:
        if self.by_epoch:
            self._step()

    def on_train_batch_end(self, step: int | None = None, logs: dict | None = None) -> None:
        if self.by_step:
            self._step()


def _monitor_mode(api: str, mode: str, monitor: str) -> bool:
    """True when larger is better: ``mode`` 'max', or 'auto' with 'acc' in the monitored name."""
    if mode not in ("auto", "min", "max"):
        raise ValueError(f"{api}: mode must be 'auto', 'min' or 'max', but received {mode!r}.")
    return mode == "max" or (mode == "auto" and "acc" in monitor)


def _current(logs: dict | None, monitor: str, api: str) -> float | None:
    if logs is None or monitor not in logs:
        warnings.warn(f"Monitor of {api} should be loss or metric name.", stacklevel=3)
        return None
    v = logs[monitor]
    if isinstance(v, list | tuple):
        return v[0]
    return v if isinstance(v, numbers.Number) else None


class EarlyStopping(Callback):
    """Stops training (``model.stop_training = True``) when the evaluated ``monitor`` has not improved by
    more than ``min_delta`` for ``patience`` evaluations, or never beat ``baseline``. ``save_best_model``
    saves ``save_dir/best_model`` (``save_dir`` as given to ``fit``) at each improvement."""

    def __init__(self, monitor: str = "loss", mode: str = "auto", patience: int = 0, verbose: int = 1,
                 min_delta: float = 0, baseline: float | None = None, save_best_model: bool = True) -> None:
        super().__init__()
        self.monitor = monitor
        self.patience = patience
        self.verbose = verbose
        self.baseline = baseline
        self.save_best_model = save_best_model
        self.save_dir: str | None = None
        self.wait_epoch = 0
        self.stopped_epoch = 0
        self.best_weights = None
        self._greater = _monitor_mode("EarlyStopping", mode, monitor)
        self.monitor_op = np.greater if self._greater else np.less
        self.min_delta = abs(min_delta) if self._greater else -abs(min_delta)

    def on_train_begin(self, logs: dict | None = None) -> None:
        self.wait_epoch = 0
        if self.baseline is not None:
            self.best_value = self.baseline
        else:
            self.best_value = -np.inf if self._greater else np.inf

    def on_eval_end(self, logs: dict | None = None) -> None:
        current = _current(logs, self.monitor, "EarlyStopping")
        if current is None:
            return
        if self.monitor_op(current - self.min_delta, self.best_value):
            self.best_value = current
            self.wait_epoch = 0
            if self.save_best_model and self.save_dir is not None:
                self.model.save(os.path.join(self.save_dir, "best_model"))
        else:
            self.wait_epoch += 1
        if self.wait_epoch >= self.patience:
            self.model.stop_training = True
            if self.verbose > 0:
                print(f"Epoch {self.stopped_epoch + 1}: Early stopping.")
                if self.save_best_model and self.save_dir is not None:
                    best = os.path.abspath(os.path.join(self.save_dir, "best_model"))
                    print(f"Best checkpoint has been saved at {best}")
        self.stopped_epoch += 1


class ReduceLROnPlateau(Callback):
    """Multiplies a float learning rate by ``factor`` when the evaluated ``monitor`` has not improved by
    ``min_delta`` for ``patience`` evaluations; waits ``cooldown`` evaluations after a cut; never below
    ``min_lr``."""

    def __init__(self, monitor: str = "loss", factor: float = 0.1, patience: int = 10, verbose: int = 1,
                 mode: str = "auto", min_delta: float = 1e-4, cooldown: int = 0, min_lr: float = 0) -> None:
        super().__init__()
        if factor >= 1.0:
            raise ValueError(f"ReduceLROnPlateau: factor must be < 1.0 (new_lr = lr * factor), but received {factor}.")
        self.monitor = monitor
        self.factor = factor
        self.patience = patience
        self.verbose = verbose
        self.mode = mode
        self.min_delta = min_delta
        self.cooldown = cooldown
        self.min_lr = min_lr
        self.epoch = 0
        self._greater = _monitor_mode("ReduceLROnPlateau", mode, monitor)
        self._reset()

    def _reset(self) -> None:
        self.best = -np.inf if self._greater else np.inf
        self.cooldown_counter = 0
        self.wait = 0

    def _improved(self, current: float) -> bool:
        if self._greater:
            return bool(np.greater(current, self.best + self.min_delta))
        return bool(np.less(current, self.best - self.min_delta))

    def in_cooldown(self) -> bool:
        """True while the evaluations after a cut are being skipped."""
        return self.cooldown_counter > 0

    def on_train_begin(self, logs: dict | None = None) -> None:
        self._reset()

    def on_eval_end(self, logs: dict | None = None) -> None:
        current = _current(logs, self.monitor, "ReduceLROnPlateau")
        if current is None:
            return
        opt = self.model._optimizer
        lr = getattr(opt, "_learning_rate", None)
        if not isinstance(lr, float):
            warnings.warn(f"ReduceLROnPlateau: expected the optimizer's learning rate to be a float, but got "
                          f"{type(lr).__name__}; the learning rate is left unchanged.", stacklevel=2)
            return
        if self.in_cooldown():
            self.cooldown_counter -= 1
            self.wait = 0
        if self._improved(current):
            self.best = current
            self.wait = 0
        elif not self.in_cooldown():
            self.wait += 1
            if self.wait >= self.patience:
                old = opt.get_lr()
                if old > np.float32(self.min_lr):
                    new = max(old * self.factor, self.min_lr)
                    opt._learning_rate = new
                    if self.verbose > 0:
                        print(f"\nEpoch {self.epoch + 1}: ReduceLROnPlateau reducing learning rate to {new}.")
                    self.cooldown_counter = self.cooldown
                    self.wait = 0
        self.epoch += 1


class VisualDL(Callback):
    """Logging to VisualDL is not available in pylayer_jax."""

    def __init__(self, log_dir: str) -> None:
        raise NotImplementedError(
            "paddle.callbacks.VisualDL is not implemented in pylayer_jax (it needs the visualdl package); "
            "record the logs with a custom paddle.callbacks.Callback instead."
        )


class WandbCallback(Callback):
    """Logging to Weights & Biases is not available in pylayer_jax."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        raise NotImplementedError(
            "paddle.callbacks.WandbCallback is not implemented in pylayer_jax; record the logs with a custom "
            "paddle.callbacks.Callback instead."
        )
