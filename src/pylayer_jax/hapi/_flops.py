"""``paddle.flops``: the FLOPs of a Layer for one input, by Paddle 3.3.1's counting rules (layer L7).

Each leaf layer (one with no sublayers) gets Paddle's count for its type (``custom_ops`` may add or replace
counts), and the layer runs once, in eval mode and without gradients, on ``paddle.randn(input_size)``. The
counts follow Paddle's hooks exactly: a convolution counts ``out.numel() * (in_channels / groups * kernel_size +
bias)``, a Linear ``in_features * out.numel()``, BatchNorm2D / BatchNorm ``2 * numel``, LeakyReLU ``numel``, an
average pool ``out.numel()``, an adaptive average pool ``out.numel() * (prod(in / out sizes) + 1)``, and ReLU,
ReLU6, Dropout and every other layer 0. The per-layer table (``print_detail=True``) and the totals line are printed
as Paddle prints them.
"""

from __future__ import annotations

import warnings
from collections.abc import Callable
from typing import Any

import numpy as np

from .. import nn
from .._api.random import randn
from .._autograd.grad_mode import no_grad
from .._tensor.facade import Tensor, to_tensor
from ..nn.layer._layers import Layer

_BUFFERS = ("total_ops", "total_params", "input_shape", "output_shape")


def _count_conv(m: Layer, x: Any, y: Tensor) -> None:
    x = x[0]
    kernel_ops = np.prod(m.weight.shape[2:])
    bias_ops = 1 if m.bias is not None else 0
    m.total_ops += abs(int(int(y.numel()) * (x.shape[1] / m._groups * kernel_ops + bias_ops)))


def _count_leaky_relu(m: Layer, x: Any, *_: Any) -> None:
    m.total_ops += int(x[0].numel())


def _count_bn(m: Layer, x: Any, *_: Any) -> None:
    m.total_ops += abs(int(2 * x[0].numel()))  # (the layer runs in eval mode: normalise and scale)


def _count_linear(m: Layer, _: Any, y: Tensor) -> None:
    m.total_ops += abs(int(m.weight.shape[0] * y.numel()))


def _count_avgpool(m: Layer, _: Any, y: Tensor) -> None:
    m.total_ops += int(y.numel())


def _count_adaptive_avgpool(m: Layer, x: Any, y: Tensor) -> None:
    kernel = np.array(x[0].shape[2:]) // np.array(y.shape[2:])
    m.total_ops += abs(int((np.prod(kernel) + 1) * y.numel()))


def _count_zero(m: Layer, *_: Any) -> None:
    m.total_ops += 0


def _count_parameters(m: Layer, *_: Any) -> None:
    m.total_params[0] = abs(int(sum(int(p.numel()) for p in m.parameters())))


def _count_io(m: Layer, x: Any, y: Any) -> None:
    m.register_buffer("input_shape", to_tensor(list(x[0].shape), dtype="int64"))
    out = y[0] if isinstance(y, list | tuple) else y
    m.register_buffer("output_shape", to_tensor(list(out.shape), dtype="int64"))


_COUNTS: dict[type, Callable[..., None]] = {
    nn.Conv1D: _count_conv, nn.Conv2D: _count_conv, nn.Conv3D: _count_conv,
    nn.Conv1DTranspose: _count_conv, nn.Conv2DTranspose: _count_conv, nn.Conv3DTranspose: _count_conv,
    nn.BatchNorm2D: _count_bn, nn.BatchNorm: _count_bn,
    nn.ReLU: _count_zero, nn.ReLU6: _count_zero, nn.LeakyReLU: _count_leaky_relu, nn.Linear: _count_linear,
    nn.Dropout: _count_zero, nn.AvgPool1D: _count_avgpool, nn.AvgPool2D: _count_avgpool, nn.AvgPool3D: _count_avgpool,
    nn.AdaptiveAvgPool1D: _count_adaptive_avgpool, nn.AdaptiveAvgPool2D: _count_adaptive_avgpool,
    nn.AdaptiveAvgPool3D: _count_adaptive_avgpool,
}


class _Table:
    """Paddle's plain-text table: columns as wide as their widest cell plus two, cells centred."""

    def __init__(self, heads: list[str]) -> None:
        self.heads, self.rows, self.widths = heads, [], [len(h) for h in heads]

    def add_row(self, row: list[Any]) -> None:
        self.widths = [max(w, len(str(c))) for w, c in zip(self.widths, row, strict=True)]
        self.rows.append(row)

    def _line(self, row: list[Any]) -> str:
        return "".join("|" + str(c).center(w + 2) for c, w in zip(row, self.widths, strict=True)) + "|"

    def print_table(self) -> None:
        shelf = "".join("+" + "-" * (w + 2) for w in self.widths) + "+"
        print("\n".join([shelf, self._line(self.heads), shelf, *(self._line(r) for r in self.rows), shelf]))


def _int(v: Any) -> int:
    """A count kept as a Tensor of shape [1] (a custom count may leave a number) as an int."""
    return int(np.asarray(v.numpy() if isinstance(v, Tensor) else v).reshape(-1)[0])


def _leaf(m: Layer) -> bool:
    return not list(m.children())


def _dynamic_flops(model: Layer, inputs: Tensor, custom_ops: dict[type, Callable[..., None]],
                   print_detail: bool) -> int:
    handles: list[Any] = []
    seen: set[type] = set()

    def add_hooks(m: Layer) -> None:
        if not _leaf(m):
            return
        m.register_buffer("total_ops", to_tensor([0], dtype="int64"))
        m.register_buffer("total_params", to_tensor([0], dtype="int64"))
        kind = type(m)
        fn = None
        if kind in custom_ops:
            fn = custom_ops[kind]
            if kind not in seen:
                print(f"Customize Function has been applied to {kind}")
        elif kind in _COUNTS:
            fn = _COUNTS[kind]
            if kind not in seen:
                print(f"{kind}'s flops has been counted")
        elif kind not in seen:
            print(f"Cannot find suitable count function for {kind}. Treat it as zero FLOPs.")
        if fn is not None:
            handles.append(m.register_forward_post_hook(fn))
        handles.append(m.register_forward_post_hook(_count_parameters))
        handles.append(m.register_forward_post_hook(_count_io))
        seen.add(kind)

    training = model.training
    model.eval()
    model.apply(add_hooks)
    try:
        with no_grad():
            model(inputs)
    finally:
        if training:
            model.train()
        for h in handles:
            h.remove()

    table = _Table(["Layer Name", "Input Shape", "Output Shape", "Params", "Flops"])
    total_ops = total_params = 0
    for m in model.sublayers():  # (net itself is not among them, as in Paddle)
        if not _leaf(m) or not set(_BUFFERS) <= set(m._buffers):
            continue
        ops, params = _int(m.total_ops), _int(m.total_params)
        total_ops, total_params = total_ops + ops, total_params + params
        table.add_row([m.full_name(), m.input_shape.numpy().tolist(), m.output_shape.numpy().tolist(), params, ops])
        for b in _BUFFERS:
            m._buffers.pop(b)
    if print_detail:
        table.print_table()
    print(f"Total Flops: {total_ops}     Total Params: {total_params}")
    return total_ops


def flops(net: Any, input_size: list[int], custom_ops: dict[type, Callable[..., None]] | None = None,
          print_detail: bool = False) -> int:
    """Count the FLOPs of ``net`` (a Layer) for one input of shape ``input_size`` (batch size 1, as Paddle asks),
    print the totals (and, with ``print_detail``, a table of each leaf layer's input and output shapes, parameters
    and FLOPs) and return the total. ``custom_ops`` maps a Layer class to ``fn(layer, inputs, output)`` that adds
    its count to ``layer.total_ops`` (used instead of the built-in count for that class).

    A ``paddle.static.Program`` is not supported here (NotImplementedError); anything else warns and returns -1, as
    in Paddle."""
    if isinstance(net, Layer):
        fwd = getattr(net.forward, "dygraph_function", None)
        if fwd is not None:  # a to_static forward: count the Python function it wraps
            net.forward = fwd
        if custom_ops is not None and not isinstance(custom_ops, dict):
            raise TypeError(f"paddle.flops: custom_ops must be a dict from a Layer class to its count function, "
                            f"but received {type(custom_ops).__name__}.")
        if not isinstance(input_size, list | tuple) or not all(isinstance(v, int) for v in input_size):
            raise TypeError(f"paddle.flops: input_size must be a list of ints (the input's shape), but received "
                            f"{input_size!r}.")
        if not all(v > 0 for v in input_size):
            raise ValueError(f"paddle.flops: input_size must be a list of positive ints (the input's shape, with "
                             f"the batch size), but received {input_size!r}.")
        return _dynamic_flops(net, randn(list(input_size)), custom_ops or {}, print_detail)
    if type(net).__name__ == "Program":
        raise NotImplementedError("paddle.flops: counting a static Program's FLOPs is not supported by pylayer_jax; pass "
                                  "the Layer the program was built from instead.")
    warnings.warn("Your model must be an instance of paddle.nn.Layer or paddle.static.Program.", stacklevel=2)
    return -1
