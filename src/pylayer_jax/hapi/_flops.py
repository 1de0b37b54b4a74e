"""``paddle.flops``: the operations of one forward pass of a network, counted per layer by Paddle's rules (layer L5).

A forward-post hook on every leaf layer (a layer without sublayers) adds the count of its type's rule at each call:
convolutions ``out.numel() * (in_channels / groups * kernel_size + bias)``, ``Linear`` ``in_features *
out.numel()``, ``BatchNorm2D``/``BatchNorm`` ``2 * x.numel()`` (the network runs in eval mode), ``LeakyReLU``
``x.numel()``, average pools ``out.numel()``, adaptive average pools ``(prod(in_size // out_size) + 1) *
out.numel()``, ``ReLU``/``ReLU6``/``Dropout`` and every other type 0 (or ``custom_ops[type](layer, inputs,
output)``, which adds to ``layer.total_ops``). The totals sum the leaf sublayers that ran (the network itself
is not one of its sublayers).
"""

from __future__ import annotations

import warnings
from collections.abc import Callable
from typing import Any

import numpy as np

from .._api.random import randn
from .._autograd.grad_mode import no_grad
from .._runtime.state import modes
from .._tensor.facade import Tensor
from ..nn.layer import _activation, _common, _conv, _dropout, _norm, _norm_extra, _pooling
from ..nn.layer._layers import Layer


def _numel(t: Any) -> int:
    return int(np.prod(t.shape)) if hasattr(t, "shape") else 0


def _count_conv(m: Layer, x: tuple, y: Any) -> int:
    kernel_ops = int(np.prod(list(m.weight.shape)[2:]))
    bias_ops = 1 if getattr(m, "bias", None) is not None else 0
    return abs(int(_numel(y) * (x[0].shape[1] / m._groups * kernel_ops + bias_ops)))


def _count_bn(m: Layer, x: tuple, y: Any) -> int:
    return 2 * _numel(x[0])


def _count_elementwise(m: Layer, x: tuple, y: Any) -> int:
    return _numel(x[0])


def _count_linear(m: Layer, x: tuple, y: Any) -> int:
    return abs(int(m.weight.shape[0] * _numel(y)))


def _count_avgpool(m: Layer, x: tuple, y: Any) -> int:
    return _numel(y)


def _count_adaptive_avgpool(m: Layer, x: tuple, y: Any) -> int:
    kernel = np.array(list(x[0].shape)[2:]) // np.array(list(y.shape)[2:])
    return abs(int((int(np.prod(kernel)) + 1) * _numel(y)))


def _count_zero(m: Layer, x: tuple, y: Any) -> int:
    return 0


_RULES: dict[type, Callable[[Layer, tuple, Any], int]] = {
    **dict.fromkeys((_conv.Conv1D, _conv.Conv2D, _conv.Conv3D, _conv.Conv1DTranspose, _conv.Conv2DTranspose,
                     _conv.Conv3DTranspose), _count_conv),
    _norm.BatchNorm2D: _count_bn,
    _norm_extra.BatchNorm: _count_bn,
    _activation.ReLU: _count_zero,
    _activation.ReLU6: _count_zero,
    _activation.LeakyReLU: _count_elementwise,
    _common.Linear: _count_linear,
    _dropout.Dropout: _count_zero,
    **dict.fromkeys((_pooling.AvgPool1D, _pooling.AvgPool2D, _pooling.AvgPool3D), _count_avgpool),
    **dict.fromkeys((_pooling.AdaptiveAvgPool1D, _pooling.AdaptiveAvgPool2D, _pooling.AdaptiveAvgPool3D),
                    _count_adaptive_avgpool),
}


class _Table:
    """Paddle's flops table: centred cells, each column as wide as its longest entry plus two."""

    def __init__(self, heads: list[str]) -> None:
        self.heads, self.rows = heads, []
        self.widths = [len(h) for h in heads]

    def add_row(self, row: list) -> None:
        self.widths = [max(w, len(str(c))) for w, c in zip(self.widths, row)]
        self.rows.append(row)

    def text(self) -> str:
        shelf = "".join("+" + "-" * (w + 2) for w in self.widths) + "+"

        def line(row: list) -> str:
            return "".join("|" + str(c).center(w + 2) for c, w in zip(row, self.widths)) + "|"

        return "\n".join([shelf, line(self.heads), shelf, *[line(r) for r in self.rows], shelf])


def _leaf(m: Layer) -> bool:
    return not list(m.children())


def _count(model: Layer, inputs: Tensor, custom_ops: dict, print_detail: bool) -> int:
    records: dict[int, dict[str, Any]] = {}
    handles = []
    seen: set[type] = set()

    def add_hooks(m: Layer) -> None:
        if not _leaf(m):
            return
        kind = type(m)
        rule = custom_ops.get(kind)
        if rule is not None:
            if kind not in seen:
                print(f"Customize Function has been applied to {kind}")
        elif kind in _RULES:
            rule = _RULES[kind]
            if kind not in seen:
                print(f"{kind}'s flops has been counted")
        elif kind not in seen:
            print(f"Cannot find suitable count function for {kind}. Treat it as zero FLOPs.")
        seen.add(kind)
        rec = records[id(m)] = {"ops": 0}
        custom = kind in custom_ops

        def hook(layer: Layer, x: Any, y: Any, rule: Any = rule, rec: dict = rec, custom: bool = custom) -> None:
            x = x if isinstance(x, tuple) else (x,)
            if rule is not None:
                if custom:   # Paddle's custom rules add to layer.total_ops themselves
                    layer.total_ops = rec["ops"]
                    rec["custom_attr"] = True
                    rule(layer, x, y)
                    rec["ops"] = int(np.asarray(layer.total_ops).reshape(-1)[0])
                else:
                    rec["ops"] += rule(layer, x, y)
            rec["params"] = sum(_numel(p) for p in layer.parameters())
            rec["in"] = list(x[0].shape) if hasattr(x[0], "shape") else []
            out = y[0] if isinstance(y, list | tuple) else y
            rec["out"] = list(out.shape) if hasattr(out, "shape") else []

        handles.append(m.register_forward_post_hook(hook))

    training = model.training
    model.eval()
    model.apply(add_hooks)
    try:
        with no_grad():
            model(inputs)
    finally:
        for h in handles:
            h.remove()
        for m in model.sublayers(include_self=True):
            if records.get(id(m), {}).get("custom_attr") and "total_ops" in vars(m):
                del m.total_ops
        if training:
            model.train()
    total_ops = total_params = 0
    table = _Table(["Layer Name", "Input Shape", "Output Shape", "Params", "Flops"])
    for m in model.sublayers():
        rec = records.get(id(m))
        if rec is None or "in" not in rec:
            continue   # not a leaf, or it did not run
        total_ops += rec["ops"]
        total_params += rec["params"]
        table.add_row([m.full_name(), rec["in"], rec["out"], rec["params"], rec["ops"]])
    if print_detail:
        print(table.text())
    print(f"Total Flops: {total_ops}     Total Params: {total_params}")
    return int(total_ops)


def flops(net: Any, input_size: list[int], custom_ops: dict | None = None, print_detail: bool = False) -> int:
    """The FLOPs of one forward pass of ``net`` (a Layer) on a random input of shape ``input_size``, counted per
    leaf layer by Paddle's rules (see the module's docstring); ``custom_ops`` maps a layer type to a rule
    ``f(layer, inputs, output)`` adding to ``layer.total_ops``; ``print_detail`` prints a table per layer.
    Prints the totals; returns the FLOPs.

    >>> import pylayer_jax as paddle
    >>> paddle.flops(paddle.nn.Sequential(paddle.nn.Linear(4, 8)), [2, 4])  # doctest: +SKIP
    64
    """
    if modes.static_mode or type(net).__name__ == "Program":
        raise NotImplementedError("paddle.flops of a static Program is not implemented; pass a paddle.nn.Layer "
                                  "(in dynamic mode).")
    if not isinstance(net, Layer):
        warnings.warn("Your model must be an instance of paddle.nn.Layer or paddle.static.Program.", stacklevel=2)
        return -1
    if custom_ops is not None and not isinstance(custom_ops, dict):
        raise TypeError(f"paddle.flops: custom_ops must be a dict from a Layer type to a counting function, but "
                        f"received {type(custom_ops).__name__}.")
    if not isinstance(input_size, list | tuple) or not all(isinstance(d, int) and d > 0 for d in input_size):
        raise ValueError(f"paddle.flops: input_size must be a list of positive ints (the input's shape, with the "
                         f"batch size), but received {input_size!r}.")
    return _count(net, randn(list(input_size)), custom_ops or {}, print_detail)
