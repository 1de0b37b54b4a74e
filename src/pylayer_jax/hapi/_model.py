"""``paddle.Model``: training, evaluation and prediction loops around a network (layer L5).

``prepare`` takes the optimizer, the loss and the metrics; ``fit``/``evaluate``/``predict`` batch a
Dataset (or take a DataLoader / any iterable of batches), run ``train_batch``/``eval_batch``/
``predict_batch`` per batch and call the callbacks in Paddle's order. Each batch is a list whose first
``len(inputs)`` items are the network's inputs and the rest the labels. Dynamic (eager) mode only.
"""

from __future__ import annotations

import inspect
import os
import warnings
from typing import Any

import numpy as np

from .._api.checkpoint import load as _load
from .._api.checkpoint import save as _save
from .._runtime.state import modes
from .._tensor.facade import Tensor, to_tensor
from ..io import DataLoader, Dataset, DistributedBatchSampler
from ..nn.layer._layers import Layer
from ._callbacks import EarlyStopping, config_callbacks
from ._summary import summary as _summary

# Paddle asserts that a Model is prepared before train_batch (an AssertionError); the package long raised a
# RuntimeError for it, so the error is both, named as Paddle's, and code catching either sees it
_NotPreparedError = type("AssertionError", (AssertionError, RuntimeError), {"__module__": __name__})


# ---- helpers ---------------------------------------------------------------------------------
def _to_list(x: Any) -> list:
    if x is None:
        return []
    return list(x) if isinstance(x, list | tuple) else [x]


def _flatten(x: Any) -> list:
    if isinstance(x, list | tuple):
        return [leaf for v in x for leaf in _flatten(v)]
    if isinstance(x, dict):
        return [leaf for k in sorted(x) for leaf in _flatten(x[k])]  # by key, as paddle.utils.flatten
    return [x]


def _to_numpy(x: Any) -> Any:
    return x.numpy() if isinstance(x, Tensor) else np.asarray(x)


def _as_tensor(x: Any) -> Tensor:
    return x if isinstance(x, Tensor) else to_tensor(x)


def _forward_arg_names(network: Layer) -> list[str]:
    params = inspect.signature(network.forward).parameters.values()
    return [p.name for p in params if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)]


def _check_int(api: str, name: str, value: Any, low: int) -> None:
    if not isinstance(value, int) or isinstance(value, bool) or value < low:
        raise ValueError(f"paddle.Model.{api}: {name} must be an integer >= {low}, but received {value!r}.")


def _optimizer_state(opt: Any) -> dict:
    """The optimizer's state dict; an optimizer without ``state_dict`` qualifies only when its rule keeps
    no per-parameter state (plain SGD with a float learning rate)."""
    if hasattr(opt, "state_dict"):
        return opt.state_dict()
    spec = getattr(opt, "state_spec", None)
    if callable(spec) and spec((1,), "float32") == [] and isinstance(getattr(opt, "_learning_rate", None), float):
        return {}
    raise NotImplementedError(
        f"paddle.Model.save: the optimizer {type(opt).__name__} has no state_dict(), so its state cannot be "
        "saved; call save(path, training=True) with an optimizer that provides state_dict()."
    )


def _set_optimizer_state(opt: Any, state: dict) -> None:
    if hasattr(opt, "set_state_dict"):
        opt.set_state_dict(state)
    elif state:
        raise NotImplementedError(
            f"paddle.Model.load: the optimizer {type(opt).__name__} has no set_state_dict(), so the saved "
            "optimizer state cannot be restored; pass reset_optimizer=True to load only the parameters."
        )


class Model:
    """A network with its training settings: ``Model(network, inputs=None, labels=None)``.

    ``inputs``/``labels`` are InputSpec-like objects (``shape``, ``dtype``, ``name``) describing the
    network's inputs and the labels; without ``inputs`` the network takes as many inputs as its
    ``forward`` has positional parameters.

    >>> import numpy as np
    >>> import pylayer_jax as paddle
    >>> net = paddle.nn.Linear(4, 2)
    >>> model = paddle.Model(net)
    >>> model.prepare(paddle.optimizer.SGD(0.1, parameters=model.parameters()),
    ...               lambda out, y: ((out - y) ** 2).mean())
    >>> x, y = np.ones((3, 4), "float32"), np.zeros((3, 2), "float32")
    >>> [float(v) > 0 for v in model.train_batch([x], [y])]
    [True]
    """

    def __init__(self, network: Layer, inputs: Any = None, labels: Any = None) -> None:
        if not isinstance(network, Layer):
            raise TypeError(
                f"paddle.Model: network must be a paddle.nn.Layer, but received {type(network).__name__}."
            )
        if modes.static_mode:
            raise NotImplementedError(
                "paddle.Model in static mode is not implemented; call paddle.disable_static() first."
            )
        self.mode = "train"
        self.network = network
        self._loss: Any = None
        self._optimizer: Any = None
        self._metrics: list = []
        self._test_dataloader: Any = None
        self.stop_training = False
        # one logs dict shared by the runs of this model, as Paddle's; Paddle's (a default argument of its
        # ``_run_one_epoch``) is also shared by every other Model of the process, so an earlier model's metric keys
        # stay in a later model's logs: not mirrored, each Model has its own
        self._logs: dict[str, Any] = {}
        self.num_iters: int | None = None
        self._accumulate = 1
        self._inputs = self._verify_spec(inputs, is_input=True)
        self._labels = self._verify_spec(labels, is_input=False)
        # the shapes of the inputs: from ``inputs``, or (as Paddle) from the first batch run without them
        self._input_info = inputs is not None and bool(_to_list(inputs)) or None
        self._is_shape_inferred = False

    def _verify_spec(self, specs: Any, is_input: bool) -> list:
        if specs is None:
            return list(_forward_arg_names(self.network)) if is_input else []
        if isinstance(specs, dict):
            if is_input:
                return [specs[n] for n in _forward_arg_names(self.network)]
            raise TypeError("paddle.Model: labels must be an InputSpec or a list of them, but received a dict.")
        out = _to_list(specs)
        for i, s in enumerate(out):
            if not hasattr(s, "shape"):
                raise TypeError(
                    f"paddle.Model: {'inputs' if is_input else 'labels'}[{i}] must be an InputSpec (an object with "
                    f"shape, dtype and name), but received {type(s).__name__}."
                )
            if getattr(s, "name", None) is None:
                raise ValueError(f"paddle.Model: requires Input[{i}].name != None, but received None in {s}.")
        return out

    # ---- setup --------------------------------------------------------------------------
    def prepare(self, optimizer: Any = None, loss: Any = None, metrics: Any = None, amp_configs: Any = None) -> None:
        """Set the optimizer (needed to train), the loss (a Layer or any callable taking the outputs then
        the labels) and the metrics (``paddle.metric.Metric`` objects)."""
        if amp_configs is not None and amp_configs != "O0" and not (
            isinstance(amp_configs, dict) and amp_configs.get("level", "O0") == "O0"
        ):
            raise NotImplementedError(
                f"paddle.Model.prepare: amp_configs={amp_configs!r} (mixed precision) is not implemented; "
                "pass amp_configs=None for float32 training."
            )
        if loss is not None and not isinstance(loss, Layer) and not callable(loss):
            raise TypeError(
                f"paddle.Model.prepare: loss must be a paddle.nn.Layer or a callable, but received "
                f"{type(loss).__name__}."
            )
        metrics = _to_list(metrics)
        for m in metrics:
            missing = [k for k in ("reset", "update", "accumulate", "name", "compute") if not callable(getattr(m, k, None))]
            if missing:
                raise TypeError(
                    f"paddle.Model.prepare: each metric must be a paddle.metric.Metric, but {type(m).__name__} "
                    f"lacks {', '.join(missing)}."
                )
        self._optimizer = optimizer
        self._loss = loss
        self._metrics = metrics

    def parameters(self, *args: Any, **kwargs: Any) -> list:
        """The network's parameters (``network.parameters(...)``)."""
        return self.network.parameters(*args, **kwargs)

    def _metrics_name(self) -> list[str]:
        names = ["loss"] if self._loss else []
        for m in self._metrics:
            names.extend(_to_list(m.name()))
        return names

    def _update_metrics(self, outputs: list, labels: list) -> list:
        out = []
        for metric in self._metrics:
            res = metric.compute(*(outputs + labels))
            out.append(metric.update(*[_to_numpy(r) for r in _to_list(res)]))
        return out

    # ---- one batch ----------------------------------------------------------------------
    def _infer_inputs(self, inputs: list) -> None:
        """Without ``inputs`` given to Model, the first batch's shapes and dtypes become the input specs (what
        ``save(training=False)`` exports and ``summary()`` uses), as in Paddle."""
        if self._input_info is not None:
            return
        from ..static import InputSpec

        names = _forward_arg_names(self.network)
        arrays = [_to_numpy(x) for x in inputs]
        self._inputs = [InputSpec(list(a.shape), str(a.dtype), names[i] if i < len(names) else f"input_{i}")
                        for i, a in enumerate(arrays)]
        self._input_info = True
        self._is_shape_inferred = True

    def train_batch(self, inputs: Any, labels: Any = None, update: bool = True) -> Any:
        """Train on one batch: forward, loss, backward and (``update=True``) an optimizer step.

        Returns ``[loss, ...]`` as numpy arrays, or ``([loss, ...], [metric_update, ...])`` with metrics.
        """
        if self._optimizer is None or self._loss is None:
            raise _NotPreparedError(
                "paddle.Model.train_batch: the model is not ready to train; call "
                "model.prepare(optimizer, loss) first."
            )
        self.network.train()
        self.mode = "train"
        self._infer_inputs(_to_list(inputs))
        labels = [_as_tensor(v) for v in _to_list(labels)]
        outputs = _to_list(self.network(*[_as_tensor(x) for x in _to_list(inputs)]))
        losses = _to_list(self._loss(*(outputs + labels)))
        final = losses[0]
        for extra in losses[1:]:
            final = final + extra
        final.backward()
        if update:
            self._optimizer.step()
            self.network.clear_gradients()
        metrics = self._update_metrics(outputs, labels)
        loss_np = [_to_numpy(v) for v in losses]
        return (loss_np, metrics) if metrics else loss_np

    def eval_batch(self, inputs: Any, labels: Any = None) -> Any:
        """Evaluate one batch: ``[loss]``, ``([loss], metrics)`` or, without a loss, ``metrics``."""
        self.network.eval()
        self.mode = "eval"
        self._infer_inputs(_to_list(inputs))
        labels = [_as_tensor(v) for v in _to_list(labels)]
        outputs = _to_list(self.network(*[_as_tensor(x) for x in _to_list(inputs)]))
        losses = _to_list(self._loss(*(outputs + labels))) if self._loss else []
        metrics = self._update_metrics(outputs, labels)
        loss_np = [_to_numpy(v) for v in losses]
        if self._loss and metrics:
            return loss_np, metrics
        return loss_np if self._loss else metrics

    def predict_batch(self, inputs: Any) -> list:
        """The network's outputs on one batch, as a list of numpy arrays."""
        self.network.eval()
        self.mode = "test"
        self._infer_inputs(_to_list(inputs))
        outputs = self.network(*[_as_tensor(x) for x in _to_list(inputs)])
        return [_to_numpy(o) for o in _to_list(outputs)]

    # ---- loops --------------------------------------------------------------------------
    @staticmethod
    def _loader(data: Any, batch_size: int, shuffle: bool, drop_last: bool, num_workers: int) -> Any:
        if isinstance(data, Dataset):
            sampler = DistributedBatchSampler(data, batch_size=batch_size, shuffle=shuffle, drop_last=drop_last)
            return DataLoader(data, batch_sampler=sampler, num_workers=num_workers, return_list=True)
        return data

    @staticmethod
    def _len(loader: Any) -> int | None:
        try:
            return len(loader)
        except TypeError:
            return None

    def _run_one_epoch(self, loader: Any, cbks: Any, mode: str) -> Any:
        logs = self._logs
        outputs = []
        n_in = len(self._inputs)
        steps = self._len(loader)
        for step, data in enumerate(loader):
            data = _flatten(data)
            batch_size = data[0].shape[0]
            cbks.on_batch_begin(mode, step, logs)
            if mode != "predict":
                if mode == "train":
                    update = (step + 1) % self._accumulate == 0 or step + 1 == steps
                    outs = self.train_batch(data[:n_in], data[n_in:], update)
                else:
                    outs = self.eval_batch(data[:n_in], data[n_in:])
                if self._metrics and self._loss:
                    values = [[float(v) for v in outs[0]]]
                elif self._loss:
                    values = [[float(v) for v in outs]]
                else:
                    values = []
                for metric in self._metrics:
                    values.extend(_to_list(metric.accumulate()))
                logs.update(zip(self._metrics_name(), values))
            else:
                outputs.append(self.predict_batch(data[:n_in]))
            logs["step"] = step
            logs["batch_size"] = batch_size
            cbks.on_batch_end(mode, step, logs)
            if self.num_iters is not None:
                self.num_iters -= 1
                if self.num_iters <= 0:
                    self.stop_training = True
                    self.num_iters = None
                    break
        for metric in self._metrics:
            metric.reset()
        return (logs, outputs) if mode == "predict" else logs

    def fit(self, train_data: Any = None, eval_data: Any = None, batch_size: int = 1, epochs: int = 1,
            eval_freq: int = 1, log_freq: int = 10, save_dir: str | None = None, save_freq: int = 1,
            verbose: int = 2, drop_last: bool = False, shuffle: bool = True, num_workers: int = 0,
            callbacks: Any = None, accumulate_grad_batches: int = 1, num_iters: int | None = None) -> None:
        """Train for ``epochs`` epochs on ``train_data`` (a Dataset, batched by ``batch_size`` with
        ``shuffle``/``drop_last``, or a DataLoader), evaluating on ``eval_data`` every ``eval_freq`` epochs;
        ``accumulate_grad_batches`` batches share one optimizer step; ``num_iters`` stops after that many
        steps; ``save_dir`` saves checkpoints every ``save_freq`` epochs; ``callbacks`` receive the hooks.
        As in Paddle, ``batch_size``/``shuffle``/``drop_last``/``num_workers`` apply to Datasets; a DataLoader
        (or any iterable of batches) is used as it is. ``batch_size=[train, eval]`` sets the two apart."""
        if train_data is None:
            raise ValueError("paddle.Model.fit: train_data must be given (a Dataset or a DataLoader).")
        if isinstance(batch_size, list | tuple):
            if len(batch_size) != 2:
                raise ValueError(
                    f"paddle.Model.fit: batch_size as a list must be [train_batch_size, eval_batch_size], but "
                    f"received {batch_size!r}."
                )
            train_bs, eval_bs = batch_size
        else:
            train_bs = eval_bs = batch_size
        for name, v, low in [("batch_size", train_bs, 1), ("batch_size", eval_bs, 1), ("epochs", epochs, 1),
                             ("eval_freq", eval_freq, 1), ("log_freq", log_freq, 1), ("save_freq", save_freq, 1),
                             ("accumulate_grad_batches", accumulate_grad_batches, 1), ("num_workers", num_workers, 0)]:
            _check_int("fit", name, v, low)
        if num_iters is not None:
            _check_int("fit", "num_iters", num_iters, 1)
        train_loader = self._loader(train_data, train_bs, shuffle, drop_last, num_workers)
        eval_loader = self._loader(eval_data, eval_bs, False, False, num_workers) if eval_data is not None else None
        do_eval = eval_loader is not None
        self._test_dataloader = eval_loader
        self._accumulate = accumulate_grad_batches
        self.stop_training = False
        steps = self._len(train_loader)
        self.num_iters = num_iters
        if num_iters is not None and steps is not None:
            epochs = num_iters // steps + 1
            steps = min(num_iters, steps)
        cbks = config_callbacks(callbacks, model=self, epochs=epochs, steps=steps, log_freq=log_freq,
                                save_freq=save_freq, save_dir=save_dir, verbose=verbose,
                                metrics=self._metrics_name())
        if any(isinstance(k, EarlyStopping) for k in cbks) and not do_eval:
            warnings.warn("EarlyStopping needs validation data.", stacklevel=2)
        logs: dict = {}
        cbks.on_begin("train")
        for epoch in range(epochs):
            cbks.on_epoch_begin(epoch)
            logs = self._run_one_epoch(train_loader, cbks, "train")
            cbks.on_epoch_end(epoch, logs)
            if do_eval and epoch % eval_freq == 0:
                cbks.on_begin("eval", {"steps": self._len(eval_loader), "metrics": self._metrics_name()})
                eval_logs = self._run_one_epoch(eval_loader, cbks, "eval")
                cbks.on_end("eval", eval_logs)
            if self.stop_training:
                break
        cbks.on_end("train", logs)
        self._test_dataloader = None

    def evaluate(self, eval_data: Any, batch_size: int = 1, log_freq: int = 10, verbose: int = 2,
                 num_workers: int = 0, callbacks: Any = None, num_iters: int | None = None) -> dict[str, Any]:
        """Evaluate on ``eval_data``; returns ``{'loss': [value], metric_name: value, ...}`` (the loss of
        the last batch, the metrics accumulated over all batches)."""
        for name, v, low in [("batch_size", batch_size, 1), ("log_freq", log_freq, 1),
                             ("num_workers", num_workers, 0)]:
            _check_int("evaluate", name, v, low)
        loader = self._loader(eval_data, batch_size, False, False, num_workers)
        self._test_dataloader = loader
        cbks = config_callbacks(callbacks, model=self, log_freq=log_freq, verbose=verbose,
                                metrics=self._metrics_name())
        steps = self._len(loader)
        self.num_iters = None
        if num_iters is not None:
            _check_int("evaluate", "num_iters", num_iters, 1)
            steps = min(num_iters, steps) if steps is not None else num_iters
            self.num_iters = steps
        cbks.on_begin("eval", {"steps": steps, "metrics": self._metrics_name()})
        logs = self._run_one_epoch(loader, cbks, "eval")
        cbks.on_end("eval", logs)
        self._test_dataloader = None
        return {k: logs[k] for k in self._metrics_name()}

    def predict(self, test_data: Any, batch_size: int = 1, num_workers: int = 0, stack_outputs: bool = False,
                verbose: int = 1, callbacks: Any = None) -> list:
        """The network's outputs on ``test_data``: one entry per output, each a list of per-batch numpy
        arrays, or (``stack_outputs=True``) one array stacked along the batch axis."""
        _check_int("predict", "batch_size", batch_size, 1)
        _check_int("predict", "num_workers", num_workers, 0)
        loader = self._loader(test_data, batch_size, False, False, num_workers)
        self._test_dataloader = loader
        self.num_iters = None
        cbks = config_callbacks(callbacks, model=self, verbose=verbose)
        cbks.on_begin("predict", {"steps": self._len(loader)})
        logs, outputs = self._run_one_epoch(loader, cbks, "predict")
        outputs = list(zip(*outputs))
        if stack_outputs:
            outputs = [np.vstack(o) for o in outputs]
        self._test_dataloader = None
        cbks.on_end("predict", logs)
        return outputs

    # ---- checkpoints --------------------------------------------------------------------
    def save(self, path: str, training: bool = True) -> None:
        """Write ``path.pdparams`` (the network's state dict) and, with an optimizer, ``path.pdopt``
        (its state dict); with ``training=False``, the inference model ``paddle.jit.save`` writes for the
        input specs (those given to Model, or the shapes of the first batch run, with a warning)."""
        if not isinstance(path, str):
            raise TypeError(f"paddle.Model.save: path must be a str, but received {type(path).__name__}.")
        if not training:
            self._save_inference_model(path)
            return
        if not os.path.basename(path):
            raise ValueError(
                f"paddle.Model.save: path must end with a file prefix like 'dir/model', but received {path!r}."
            )
        dirname = os.path.dirname(path)
        if dirname:
            os.makedirs(dirname, exist_ok=True)
        _save(self.network.state_dict(), path + ".pdparams")
        if self._optimizer is not None:
            state = _optimizer_state(self._optimizer)
            if state:  # as Paddle: no .pdopt for an optimizer without state (SGD with a float rate)
                _save(state, path + ".pdopt")

    def _save_inference_model(self, path: str) -> None:
        if self._input_info is None:
            raise RuntimeError(
                "paddle.Model.save: saving an inference model (training=False) needs the input shapes: pass "
                "inputs=[InputSpec(...)] to paddle.Model, or run a batch (fit, train_batch, ...) before saving."
            )
        if self._is_shape_inferred:
            warnings.warn(
                "'inputs' was not specified when Model initialization, so the input shape to be saved will be the "
                f"shape derived from the user's actual inputs. The input shape to be saved is "
                f"{[list(s.shape) for s in self._inputs]}. For saving correct input shapes, please provide "
                "'inputs' for Model initialization.", stacklevel=3)
        from ..jit import save as _jit_save

        _jit_save(self.network, path, input_spec=self._inputs)

    def load(self, path: str, skip_mismatch: bool = False, reset_optimizer: bool = False) -> None:
        """Load ``path.pdparams`` into the network and, unless ``reset_optimizer``, ``path.pdopt`` into the
        optimizer. A missing or differently shaped parameter raises ValueError, or with ``skip_mismatch``
        warns, keeps the current value and leaves the optimizer state as it is."""
        if not isinstance(path, str):
            raise TypeError(f"paddle.Model.load: path must be a str, but received {type(path).__name__}.")
        stem, ext = os.path.splitext(path)
        if ext not in ("", ".pdparams", ".pdopt", ".pdmodel"):
            raise ValueError(
                f"paddle.Model.load: unknown file suffix {ext!r} in {path!r}; pass the prefix given to save() "
                "or a path ending in .pdparams, .pdopt or .pdmodel."
            )
        path = stem
        params_path = path + ".pdparams"
        if not os.path.exists(params_path):
            raise ValueError(f"paddle.Model.load: {params_path} does not exist; pass the prefix given to save().")
        state = _load(params_path)
        matched = {}
        for key, param in self.network.state_dict().items():
            if key not in state:
                problem = f"{key} is not found in the providing file {params_path}."
            else:
                value = np.asarray(_to_numpy(state[key]))
                problem = None
                if list(value.shape) != list(param.shape):
                    problem = (f"{key} receives a shape {list(value.shape)}, but the expected shape is "
                               f"{list(param.shape)}.")
            if problem is not None:
                if not skip_mismatch:
                    raise ValueError(f"paddle.Model.load: {problem} Pass skip_mismatch=True to skip it.")
                warnings.warn(f"Skip loading for {key}. {problem}", stacklevel=2)
                reset_optimizer = True  # as Paddle: the saved optimizer state no longer fits
                continue
            matched[key] = (param, value)
        for param, value in matched.values():
            param._set_value(value.astype(np.dtype(param.numpy().dtype), copy=False))
        opt_path = path + ".pdopt"
        if self._optimizer is not None and not reset_optimizer and os.path.exists(opt_path):
            _set_optimizer_state(self._optimizer, _load(opt_path))

    def summary(self, input_size: Any = None, dtype: Any = None) -> dict[str, int]:
        """``paddle.summary`` of the network, with ``input_size`` or the shapes of ``inputs`` given to Model."""
        if input_size is None:
            specs = [s for s in self._inputs if hasattr(s, "shape")]
            if not specs:
                raise ValueError(
                    "paddle.Model.summary: input_size must be given when the Model was created without "
                    "inputs=[InputSpec(...)]."
                )
            input_size = [tuple(s.shape) for s in specs]
            input_size = input_size[0] if len(input_size) == 1 else input_size
        return _summary(self.network, input_size, dtypes=dtype)
