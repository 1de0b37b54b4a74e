"""``paddle.summary``: a table of a network's layers, output shapes and parameter counts (layer L5).

One forward pass on random inputs (or on ``input``) with a forward-post hook on every layer except
containers and the network itself; each row is named ``ClassName-k`` where ``k - 1`` is the counter
in the layer's unique name (``linear_3`` -> ``Linear-4``), as Paddle prints it.
"""

from __future__ import annotations

import numbers
from collections import OrderedDict
from typing import Any

import numpy as np

from .._api.random import rand
from .._autograd.grad_mode import no_grad
from .._runtime.state import modes
from .._tensor.facade import Tensor
from ..nn.layer._container import LayerList, Sequential
from ..nn.layer._layers import Layer


def _spec_shape(item: Any) -> tuple | None:
    shape = getattr(item, "shape", None)
    return tuple(shape) if shape is not None and not isinstance(item, tuple | list | int) else None


def _normalize_size(input_size: Any) -> Any:
    spec = _spec_shape(input_size)
    if spec is not None:
        return spec
    if isinstance(input_size, int) and not isinstance(input_size, bool):
        return (input_size,)
    if isinstance(input_size, list):
        out = []
        for item in input_size:
            if isinstance(item, int) and not isinstance(item, bool):
                item = (item,)
            spec = _spec_shape(item)
            if spec is not None:
                item = spec
            if not isinstance(item, tuple):
                raise TypeError(
                    f"paddle.summary: when input_size is a list, each item must be a tuple or an InputSpec, "
                    f"but received {type(item).__name__}; pass e.g. [(1, 4), (1, 3)]."
                )
            out.append(item)
        return out
    if isinstance(input_size, tuple):
        return input_size
    raise TypeError(
        f"paddle.summary: input_size must be a tuple, a list of tuples, an int or an InputSpec, but received "
        f"{type(input_size).__name__}."
    )


def _is_shape(shape: Any) -> bool:
    return all(not isinstance(i, list | tuple) for i in shape)


def _check_shape(shape: tuple) -> tuple:
    unknown = 0
    out = []
    for item in shape:
        if item is None or item == -1:
            unknown += 1
            if unknown > 1:
                raise ValueError(
                    f"paddle.summary: only the batch dimension of input_size may be None or -1, but received "
                    f"{shape}."
                )
            item = 1
        elif isinstance(item, numbers.Number) and item <= 0:
            raise ValueError(f"paddle.summary: every dimension of input_size must be > 0, but received {shape}.")
        out.append(item)
    return tuple(out)


def _check_input(size: Any) -> Any:
    if isinstance(size, list | tuple) and _is_shape(size):
        return _check_shape(size)
    return [_check_input(i) for i in size]


def _all_numbers(items: Any) -> bool:
    return all(isinstance(i, numbers.Number) for i in items)


def _shape_of(x: Any) -> Any:
    if isinstance(x, Tensor):
        return list(x.shape)
    if isinstance(x, list | tuple):
        return [_shape_of(v) for v in x]
    return None


def _out_shape(x: Any) -> Any:
    if isinstance(x, list | tuple):
        return [_out_shape(v) for v in x]
    return list(x.shape) if hasattr(x, "shape") else []


def _build_dtypes(size: Any, dtype: Any) -> list:
    dtype = "float32" if dtype is None else dtype
    if isinstance(size, list | tuple) and _all_numbers(size):
        return [dtype]
    return [_build_dtypes(i, dtype) for i in size]


def _build_input(size: Any, dtypes: Any) -> Any:
    if isinstance(size, list | tuple) and _all_numbers(size):
        dtype = dtypes[0] if isinstance(dtypes, list | tuple) else dtypes
        return rand(list(size)).astype(dtype)
    return [_build_input(s, d) for s, d in zip(size, dtypes)]


def _input_mb(size: Any) -> float:
    if isinstance(size, list | tuple) and _all_numbers(size):
        return abs(float(np.prod(size)) * 4.0 / (1024**2.0))
    return sum(_input_mb(s) for s in size)


def _collect(model: Layer, size: Any, dtypes: Any, input: Any) -> OrderedDict:  # noqa: A002
    rows: OrderedDict = OrderedDict()
    depth = len(model.sublayers())

    def hook(layer: Layer, inputs: Any, output: Any) -> None:
        name = type(layer).__name__
        try:
            idx = int(layer.full_name().split("_")[-1])
        except ValueError:
            idx = len(rows)
        row = rows[f"{name}-{idx + 1}"] = OrderedDict()
        row["input_shape"] = _shape_of(inputs)
        row["output_shape"] = _out_shape(output)
        row["trainable_params"] = 0
        params = 0
        seen_trainable = False
        for p in layer._parameters.values():
            if p is None:
                continue
            params += np.prod(p.shape)   # numpy integers, as Paddle's (its totals are numpy.int64)
            if getattr(p, "trainable", True) and not p.stop_gradient:
                row["trainable_params"] += np.prod(p.shape)
                row["trainable"] = True
                seen_trainable = True
            elif not seen_trainable:
                row["trainable"] = False
        row["nb_params"] = params

    handles = []

    def register(layer: Layer) -> None:
        if not isinstance(layer, Sequential | LayerList) and (layer is not model or depth < 1):
            handles.append(layer.register_forward_post_hook(hook))

    model.apply(register)
    try:
        if input is not None:
            model(input)
        else:
            model(*_build_input(size, dtypes))
    finally:
        for h in handles:
            h.remove()
    return rows


def summary_string(model: Layer, input_size: Any = None, dtypes: Any = None, input: Any = None,  # noqa: A002
                   ) -> tuple[str, dict[str, int]]:
    """The table ``summary`` prints, and ``{'total_params': N, 'trainable_params': M}`` (numpy.int64 counts once
    a layer has parameters, as Paddle's)."""
    if not isinstance(dtypes, list | tuple):
        dtypes = _build_dtypes(input_size, dtypes)
    if isinstance(input_size, tuple):
        input_size = [input_size]
    with no_grad():
        rows = _collect(model, input_size, dtypes, input)

    w = {"layer": 15, "input": 20, "output": 20, "params": 15}
    for name, row in rows.items():
        w["output"] = max(w["output"], len(str(row["output_shape"])))
        w["input"] = max(w["input"], len(str(row["input_shape"])))
        w["layer"] = max(w["layer"], len(name))
        w["params"] = max(w["params"], len(str(row["nb_params"])))
    table = max(75, sum(w.values()) + 5)

    def line(a: str, b: str, c: str, d: str) -> str:
        return f"{a:^{w['layer']}} {b:^{w['input']}} {c:^{w['output']}} {d:^{w['params']}}\n"

    text = "-" * table + "\n" + line("Layer (type)", "Input Shape", "Output Shape", "Param #") + "=" * table + "\n"
    total = trainable = 0
    total_output = 0.0
    for name, row in rows.items():
        text += line(name, str(row["input_shape"]), str(row["output_shape"]), f"{row['nb_params']:,}")
        total += row["nb_params"]
        try:
            total_output += float(np.sum(np.prod(row["output_shape"], axis=-1)))
        except ValueError:
            for shape in row["output_shape"]:
                total_output += float(np.sum(np.prod(shape, axis=-1)))
        if row.get("trainable"):
            trainable += row["trainable_params"]
    in_mb = _input_mb(input_size) if input_size is not None else 0.0
    out_mb = abs(2.0 * total_output * 4.0 / (1024**2.0))  # x2 for the gradients
    params_mb = abs(total * 4.0 / (1024**2.0))
    text += "=" * table + "\n"
    text += f"Total params: {total:,}\nTrainable params: {trainable:,}\nNon-trainable params: {total - trainable:,}\n"
    text += "-" * table + "\n"
    text += f"Input size (MB): {in_mb:0.2f}\nForward/backward pass size (MB): {out_mb:0.2f}\n"
    text += f"Params size (MB): {params_mb:0.2f}\nEstimated Total Size (MB): {params_mb + out_mb + in_mb:0.2f}\n"
    text += "-" * table + "\n"
    return text, {"total_params": total, "trainable_params": trainable}


def summary(net: Layer, input_size: Any = None, dtypes: Any = None, input: Any = None,  # noqa: A002
            ) -> dict[str, int]:
    """Print a table of ``net``'s layers (name ``Linear-1``, input and output shapes, parameter count) and
    the totals, from one forward pass on random inputs of ``input_size`` (a batch dimension of None or -1
    becomes 1) with ``dtypes``, or on ``input``; return ``{'total_params': N, 'trainable_params': M}``.

    >>> import pylayer_jax as paddle
    >>> net = paddle.nn.Sequential(paddle.nn.Linear(4, 8), paddle.nn.Linear(8, 3))
    >>> info = paddle.summary(net, (2, 4))  # doctest: +SKIP
    """
    if not isinstance(net, Layer):
        raise TypeError(f"paddle.summary: net must be a paddle.nn.Layer, but received {type(net).__name__}.")
    if input_size is None and input is None:
        raise ValueError("paddle.summary: input_size and input cannot both be None; pass one of them.")
    if modes.static_mode:
        raise NotImplementedError("paddle.summary in static mode is not implemented; call paddle.disable_static().")
    if input_size is None:
        if isinstance(input, Tensor):
            input_size = tuple(input.shape)
        elif isinstance(input, list | tuple):
            input_size = [tuple(x.shape) for x in input]
        elif isinstance(input, dict):
            input_size = [tuple(v.shape) for v in input.values()]
        else:
            raise ValueError(
                f"paddle.summary: input must be a Tensor, a list/tuple or a dict of Tensors, but received "
                f"{type(input).__name__}; or pass input_size."
            )
    size = _check_input(_normalize_size(input_size))
    was_training = net.training
    if was_training:
        net.eval()
    try:
        text, info = summary_string(net, size, dtypes, input)
    finally:
        if was_training:
            net.train()
    print(text)
    return info
