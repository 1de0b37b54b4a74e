"""``paddle.static.nn``'s layer functions: convolutions, normalisations, embeddings and the rest (layer L6).

Each creates its parameters in the current main/startup programs with Paddle's names
(``conv2d_0.w_0``, ``conv2d_0.b_0``, ``batch_norm_0.w_1`` ...), shapes and default initializers,
then applies the same ops as ``paddle.nn.functional`` (so they also train through
``optimizer.minimize``). Parameter attributes (``param_attr``/``bias_attr``) follow Paddle's rules:
None or a ParamAttr makes the parameter, False leaves it out where Paddle allows that.

Where Paddle 3.3.1's legacy layers differ from their own documentation, Paddle's behaviour is kept
and said in the docstring (``group_norm`` / ``instance_norm`` make no scale or bias unless given a
ParamAttr). Where they cannot run here or in Paddle (a 2-D ``row_conv`` input without LoD, the
parameter-server ``sparse_embedding``), the documented meaning is implemented.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

import numpy as np

from .._ops.table import TABLE
from .._runtime import dtypes as _dtypes
from .._tensor.dispatch import apply_op
from .._tensor.facade import Tensor
from ..nn import functional as F
from ..nn.initializer import Constant, Normal
from ..nn.layer._param import ParamAttr, make_parameter
from ._program import unique_name
from ._variable import Variable

# activations a layer's ``act`` may name (Paddle's operator names; each with the operator's default attributes)
_ACTS = {"relu": F.relu, "relu6": F.relu6, "sigmoid": F.sigmoid, "tanh": F.tanh, "softmax": F.softmax,
         "exp": lambda x: x.exp(), "elu": F.elu, "softplus": F.softplus, "softsign": F.softsign,
         "square": lambda x: x.square(), "sqrt": lambda x: x.sqrt(), "abs": lambda x: x.abs(),
         "gelu": F.gelu, "silu": F.silu, "log_softmax": F.log_softmax}


def activate(x: Any, act: str | None, api: str) -> Any:
    """``x`` through the activation named ``act`` (None: unchanged)."""
    if act is None:
        return x
    fn = _ACTS.get(act) if isinstance(act, str) else None
    if fn is None:
        raise ValueError(f"{api}: act must be None or one of {sorted(_ACTS)}, but received {act!r}.")
    return fn(x)


def _var(x: Any, api: str, what: str = "input") -> Variable:
    if not isinstance(x, Variable):
        raise TypeError(f"{api}: {what} must be a Variable of a static program (static.nn layers build programs; "
                        f"in dynamic mode use the paddle.nn layer), but received {type(x).__name__}.")
    return x


def _float(x: Variable, api: str, what: str = "input") -> None:
    if not _dtypes.is_float(np.dtype(x.dtype.np_dtype)):
        raise TypeError(f"{api}: {what} must be float16/bfloat16/float32/float64, but its dtype is {x.dtype.name}.")


def _rank(x: Variable, ranks: Sequence[int], api: str, what: str = "input") -> None:
    if len(x.shape) not in ranks:
        want = " or ".join(f"{r}-D" for r in ranks)
        raise ValueError(f"{api}: {what} must be {want}, but its shape is {x.shape}.")


def _ints(v: Any, n: int, api: str, what: str) -> list[int]:
    if isinstance(v, int | np.integer) and not isinstance(v, bool):
        return [int(v)] * n
    if isinstance(v, list | tuple) and len(v) == n and all(
            isinstance(e, int | np.integer) and not isinstance(e, bool) for e in v):
        return [int(e) for e in v]
    raise ValueError(f"{api}: {what} must be an int or a list of {n} ints, but received {v!r}.")


def _known(d: int, api: str, what: str, x: Variable) -> int:
    if d < 0:
        raise ValueError(f"{api}: the {what} of the input must be known when the layer is built, but the input "
                         f"{x.name} has shape {x.shape}.")
    return d


def _groups(groups: Any, channels: int, api: str) -> int:
    if groups is None:
        return 1
    if isinstance(groups, bool) or not isinstance(groups, int) or groups <= 0:
        raise ValueError(f"{api}: groups must be a positive int (or None), but received {groups!r}.")
    if channels % groups:
        raise ValueError(f"{api}: the input channels ({channels}) must be divisible by groups ({groups}).")
    return groups


def _no_false(attr: Any, api: str, what: str) -> None:
    if attr is False:
        raise ValueError(f"{api}: {what}=False is not allowed here (the layer needs that parameter); pass None or a "
                         "ParamAttr.")


def _param(prefix: str, shape: Sequence[int], dtype: Any, attr: Any, is_bias: bool, default: Any,
           api: str) -> Any:
    return make_parameter(prefix, [int(d) for d in shape], dtype.np_dtype, attr, is_bias, default, api)


def _bias(out: Any, prefix: str, channels: int, axis: int, attr: Any, api: str) -> Any:
    """``out`` plus a ``[channels]`` bias broadcast along ``axis`` (Paddle's ``append_bias_op``); none for False."""
    b = _param(prefix, [channels], out.dtype, attr, True, None, api)
    if b is None:
        return out
    shape = [1] * len(out.shape)
    shape[axis] = channels
    return out + apply_op(TABLE["reshape"], (b, shape))


def _padding_algorithm(padding: Any, api: str) -> Any:
    if isinstance(padding, str):
        p = padding.upper()
        if p not in ("SAME", "VALID"):
            raise ValueError(f"{api}: padding must be 'SAME', 'VALID', an int or a list, but received {padding!r}.")
        return p
    return padding


# ---- convolutions ----------------------------------------------------------------------------------------
def _conv(api: str, kind: str, nd: int, input: Any, num_filters: int, filter_size: Any, stride: Any, padding: Any,
          dilation: Any, groups: Any, param_attr: Any, bias_attr: Any, use_cudnn: Any, act: Any, name: Any,
          data_format: str) -> Any:
    x = _var(input, api)
    _float(x, api)
    formats = ("NCHW", "NHWC") if nd == 2 else ("NCDHW", "NDHWC")
    if data_format not in formats:
        raise ValueError(f"{api}: data_format must be {formats[0]!r} or {formats[1]!r}, but received {data_format!r}.")
    _rank(x, [nd + 2], api)
    if not isinstance(use_cudnn, bool):
        raise ValueError(f"{api}: use_cudnn must be True or False, but received {use_cudnn!r}.")
    _no_false(param_attr, api, "param_attr")
    last = data_format[-1] == "C"
    c = _known(x.shape[-1] if last else x.shape[1], api, "channel dimension", x)
    if isinstance(num_filters, bool) or not isinstance(num_filters, int) or num_filters <= 0:
        raise ValueError(f"{api}: num_filters must be a positive int, but received {num_filters!r}.")
    g = _groups(groups, c, api)
    fs = _ints(filter_size, nd, api, "filter_size")
    layer = kind
    if nd == 2 and groups is not None and c == groups and num_filters % c == 0 and not use_cudnn:
        layer = "depthwise_conv2d"  # (Paddle's name for this case)
    prefix = name or unique_name(layer)
    std = (2.0 / (math.prod(fs) * c)) ** 0.5
    w = _param(prefix, [num_filters, c // g, *fs], x.dtype, param_attr, False, Normal(0.0, std), api)
    conv = F.conv2d if nd == 2 else F.conv3d
    out = conv(x, w, None, stride, _padding_algorithm(padding, api), dilation, g, data_format)
    out = _bias(out, prefix, num_filters, nd + 1 if last else 1, bias_attr, api)
    return activate(out, act, api)


def conv2d(input: Any, num_filters: int, filter_size: Any, stride: Any = 1, padding: Any = 0, dilation: Any = 1,
           groups: int | None = None, param_attr: Any = None, bias_attr: Any = None, use_cudnn: bool = True,
           act: str | None = None, name: str | None = None, data_format: str = "NCHW") -> Any:
    """2-D convolution layer: filter ``conv2d_N.w_0`` ``[num_filters, C / groups, kh, kw]`` (default
    Normal(0, sqrt(2 / (kh * kw * C)))), bias ``conv2d_N.b_0`` (zeros; ``bias_attr=False``: none), then
    ``act``. ``padding``: an int, a list (2, 4 or per-dimension pairs) or 'SAME'/'VALID'."""
    return _conv("paddle.static.nn.conv2d", "conv2d", 2, input, num_filters, filter_size, stride, padding,
                 dilation, groups, param_attr, bias_attr, use_cudnn, act, name, data_format)


def conv3d(input: Any, num_filters: int, filter_size: Any, stride: Any = 1, padding: Any = 0, dilation: Any = 1,
           groups: int | None = None, param_attr: Any = None, bias_attr: Any = None, use_cudnn: bool = True,
           act: str | None = None, name: str | None = None, data_format: str = "NCDHW") -> Any:
    """3-D convolution layer (``conv3d_N.w_0`` ``[num_filters, C / groups, kd, kh, kw]``, ``conv3d_N.b_0``);
    as ``conv2d``."""
    return _conv("paddle.static.nn.conv3d", "conv3d", 3, input, num_filters, filter_size, stride, padding,
                 dilation, groups, param_attr, bias_attr, use_cudnn, act, name, data_format)


def _transpose_padding(padding: Any, nd: int, last: bool, api: str) -> list[int]:
    """Paddle's explicit [before, after] pairs of a transposed convolution's padding (for the filter size)."""
    if isinstance(padding, str):
        return [0] * (2 * nd)
    if isinstance(padding, list | tuple) and len(padding) == nd + 2 and isinstance(padding[0], list | tuple):
        pairs = padding[1:-1] if last else padding[2:]
        return [int(e) for p in pairs for e in p]
    if isinstance(padding, list | tuple) and len(padding) == 2 * nd:
        return [int(e) for e in padding]
    p = _ints(padding, nd, api, "padding")
    return [e for v in p for e in (v, v)]


def _conv_transpose(api: str, kind: str, nd: int, input: Any, num_filters: int, output_size: Any, filter_size: Any,
                    padding: Any, stride: Any, dilation: Any, groups: Any, param_attr: Any, bias_attr: Any,
                    use_cudnn: Any, act: Any, name: Any, data_format: str) -> Any:
    x = _var(input, api)
    _float(x, api)
    formats = ("NCHW", "NHWC") if nd == 2 else ("NCDHW", "NDHWC")
    if data_format not in formats:
        raise ValueError(f"{api}: data_format must be {formats[0]!r} or {formats[1]!r}, but received {data_format!r}.")
    _rank(x, [nd + 2], api)
    if not isinstance(use_cudnn, bool):
        raise ValueError(f"{api}: use_cudnn must be True or False, but received {use_cudnn!r}.")
    _no_false(param_attr, api, "param_attr")
    if isinstance(num_filters, bool) or not isinstance(num_filters, int) or num_filters <= 0:
        raise ValueError(f"{api}: num_filters must be a positive int, but received {num_filters!r}.")
    last = data_format[-1] == "C"
    c = _known(x.shape[-1] if last else x.shape[1], api, "channel dimension", x)
    st = _ints(stride, nd, api, "stride")
    dl = _ints(dilation, nd, api, "dilation")
    if isinstance(output_size, Tensor):
        raise NotImplementedError(f"{api}: output_size must be Python ints here (a Tensor would make the output "
                                  "shape depend on a value).")
    osize = None if output_size is None or output_size == [] else _ints(output_size, nd, api, "output_size")
    if filter_size is None:
        if osize is None:
            raise ValueError(f"{api}: output_size must be given when filter_size is None.")
        pads = _transpose_padding(padding, nd, last, api)
        spatial = x.shape[1:-1] if last else x.shape[2:]
        fs = [(osize[i] - (_known(spatial[i], api, "spatial size", x) - 1) * st[i] + pads[2 * i] + pads[2 * i + 1]
               - 1) // dl[i] + 1 for i in range(nd)]
    else:
        fs = _ints(filter_size, nd, api, "filter_size")
    g = 1 if groups is None else groups
    if isinstance(g, bool) or not isinstance(g, int) or g <= 0:
        raise ValueError(f"{api}: groups must be a positive int (or None), but received {groups!r}.")
    if num_filters % g or c % g:
        raise ValueError(f"{api}: num_filters ({num_filters}) and the input channels ({c}) must be divisible by "
                         f"groups ({g}).")
    layer = kind
    if nd == 2 and c == groups and num_filters == c and not use_cudnn:
        layer = "depthwise_conv2d_transpose"
    prefix = name or unique_name(layer)
    w = _param(prefix, [c, num_filters // g, *fs], x.dtype, param_attr, False, None, api)
    conv = F.conv2d_transpose if nd == 2 else F.conv3d_transpose
    kw = {"stride": st, "padding": _padding_algorithm(padding, api), "dilation": dl, "groups": g,
          "data_format": data_format}
    if osize is not None:
        kw["output_size"] = osize
    out = conv(x, w, None, **kw)
    out = _bias(out, prefix, num_filters, nd + 1 if last else 1, bias_attr, api)
    return activate(out, act, api)


def conv2d_transpose(input: Any, num_filters: int, output_size: Any = None, filter_size: Any = None,
                     padding: Any = 0, stride: Any = 1, dilation: Any = 1, groups: int | None = None,
                     param_attr: Any = None, bias_attr: Any = None, use_cudnn: bool = True, act: str | None = None,
                     name: str | None = None, data_format: str = "NCHW") -> Any:
    """2-D transposed convolution layer: filter ``conv2d_transpose_N.w_0`` ``[C, num_filters / groups, kh, kw]``
    (Xavier by default), bias ``conv2d_transpose_N.b_0``. Without ``filter_size`` it is derived from
    ``output_size`` as Paddle does."""
    return _conv_transpose("paddle.static.nn.conv2d_transpose", "conv2d_transpose", 2, input, num_filters,
                           output_size, filter_size, padding, stride, dilation, groups, param_attr, bias_attr,
                           use_cudnn, act, name, data_format)


def conv3d_transpose(input: Any, num_filters: int, output_size: Any = None, filter_size: Any = None,
                     padding: Any = 0, stride: Any = 1, dilation: Any = 1, groups: int | None = None,
                     param_attr: Any = None, bias_attr: Any = None, use_cudnn: bool = True, act: str | None = None,
                     name: str | None = None, data_format: str = "NCDHW") -> Any:
    """3-D transposed convolution layer (``conv3d_transpose_N.w_0`` ``[C, num_filters / groups, kd, kh, kw]``);
    as ``conv2d_transpose``."""
    return _conv_transpose("paddle.static.nn.conv3d_transpose", "conv3d_transpose", 3, input, num_filters,
                           output_size, filter_size, padding, stride, dilation, groups, param_attr, bias_attr,
                           use_cudnn, act, name, data_format)


def deform_conv2d(x: Any, offset: Any, mask: Any, num_filters: int, filter_size: Any, stride: Any = 1,
                  padding: Any = 0, dilation: Any = 1, groups: int = 1, deformable_groups: int = 1,
                  im2col_step: int = 1, weight_attr: Any = None, bias_attr: Any = None, name: str | None = None) -> Any:
    """Deformable convolution layer (v2 with ``mask``, v1 with ``mask=None``): every kernel tap reads ``x`` at
    its position plus ``offset`` (bilinear, zero outside), times ``mask``; filter ``deformable_conv_N.w_0``
    ``[num_filters, C / groups, kh, kw]`` (Normal(0, sqrt(2 / (kh * kw * C)))), bias ``deformable_conv_N.b_0``.
    ``im2col_step`` only sets how many images Paddle's kernel unfolds at once; it must divide the batch."""
    api = "paddle.static.nn.deform_conv2d"
    x = _var(x, api, "x")
    offset = _var(offset, api, "offset")
    _float(x, api, "x")
    _rank(x, [4], api, "x")
    _no_false(weight_attr, api, "weight_attr")
    c = _known(x.shape[1], api, "channel dimension", x)
    g = _groups(groups, c, api)
    dg = deformable_groups
    if isinstance(dg, bool) or not isinstance(dg, int) or dg <= 0 or c % dg:
        raise ValueError(f"{api}: deformable_groups must be a positive int dividing the channels ({c}), but received "
                         f"{deformable_groups!r}.")
    if isinstance(im2col_step, bool) or not isinstance(im2col_step, int) or im2col_step <= 0 or (
            x.shape[0] > 0 and x.shape[0] % im2col_step):
        raise ValueError(f"{api}: im2col_step must be a positive int dividing the batch size ({x.shape[0]}), but "
                         f"received {im2col_step!r}.")
    fs = _ints(filter_size, 2, api, "filter_size")
    st, pd, dl = (_ints(v, 2, api, what) for v, what in ((stride, "stride"), (padding, "padding"),
                                                          (dilation, "dilation")))
    k = fs[0] * fs[1]
    spatial = [(x.shape[2 + i] + 2 * pd[i] - (dl[i] * (fs[i] - 1) + 1)) // st[i] + 1 if x.shape[2 + i] >= 0 else -1
               for i in range(2)]
    want = {"offset": 2 * dg * k, "mask": dg * k}
    for what, t in (("offset", offset), ("mask", mask)):
        if t is None:
            continue
        t = _var(t, api, what)
        if len(t.shape) != 4 or t.shape[1] != want[what] or any(
                a >= 0 and b >= 0 and a != b for a, b in zip(t.shape[2:], spatial)):
            raise ValueError(f"{api}: {what} must have shape [N, {want[what]}, {spatial[0]}, {spatial[1]}] "
                             f"({'2 * ' if what == 'offset' else ''}deformable_groups * kh * kw channels at the "
                             f"output size), but its shape is {t.shape}.")
    prefix = name or unique_name("deformable_conv")
    std = (2.0 / (k * c)) ** 0.5
    w = _param(prefix, [num_filters, c // g, *fs], x.dtype, weight_attr, False, Normal(0.0, std), api)
    out = apply_op(TABLE["deformable_conv"], (x, offset, w, mask),
                   {"stride": tuple(st), "padding": tuple(pd), "dilation": tuple(dl), "deformable_groups": dg,
                    "groups": g})
    return _bias(out, prefix, num_filters, 1, bias_attr, api)


# ---- normalisations --------------------------------------------------------------------------------------
def batch_norm(input: Any, act: str | None = None, is_test: bool = False, momentum: float = 0.9,
               epsilon: float = 1e-05, param_attr: Any = None, bias_attr: Any = None, data_layout: str = "NCHW",
               in_place: bool = False, name: str | None = None, moving_mean_name: str | None = None,
               moving_variance_name: str | None = None, do_model_average_for_mean_and_var: bool = True,
               use_global_stats: bool = False) -> Any:
    """Batch normalisation layer: scale ``batch_norm_N.w_0`` (ones), shift ``batch_norm_N.b_0`` (zeros),
    running mean ``batch_norm_N.w_1`` and variance ``batch_norm_N.w_2`` (not trainable; updated at every run
    of a training program, ``momentum * running + (1 - momentum) * batch``). ``is_test`` or a test clone
    normalise with the running statistics; ``use_global_stats`` always does."""
    api = "paddle.static.nn.batch_norm"
    x = _var(input, api)
    _float(x, api)
    _rank(x, [2, 3, 4, 5], api)
    _no_false(bias_attr, api, "bias_attr")
    if data_layout not in ("NCHW", "NHWC"):
        raise ValueError(f"{api}: data_layout must be 'NCHW' or 'NHWC', but received {data_layout!r}.")
    if isinstance(momentum, Tensor):
        raise NotImplementedError(f"{api}: momentum must be a Python float here; a Tensor momentum is not "
                                  "supported.")
    for what, v in (("is_test", is_test), ("in_place", in_place), ("use_global_stats", use_global_stats),
                    ("do_model_average_for_mean_and_var", do_model_average_for_mean_and_var)):
        if not isinstance(v, bool):
            raise TypeError(f"{api}: {what} must be a bool, but received {type(v).__name__}.")
    c = _known(x.shape[-1] if data_layout == "NHWC" else x.shape[1], api, "channel dimension", x)
    prefix = name or unique_name("batch_norm")
    dtype = x.dtype if x.dtype.name not in ("float16", "bfloat16") else _dtypes.to_paddle("float32")
    scale = _param(prefix, [c], dtype, param_attr, False, Constant(1.0), api)
    bias = _param(prefix, [c], dtype, bias_attr, True, None, api)
    stat = {"trainable": False, "do_model_average": do_model_average_for_mean_and_var}
    mean = _param(prefix, [c], dtype, ParamAttr(name=moving_mean_name, initializer=Constant(0.0), **stat), False,
                  None, api)
    var = _param(prefix, [c], dtype, ParamAttr(name=moving_variance_name, initializer=Constant(1.0), **stat),
                 False, None, api)
    fmt = "NHWC" if data_layout == "NHWC" else "NCHW"
    if len(x.shape) != 4:
        fmt = {2: "NC", 3: "NCL" if fmt == "NCHW" else "NLC", 5: "NCDHW" if fmt == "NCHW" else "NDHWC"}[len(x.shape)]
    out = F.batch_norm(x, mean, var, scale, bias, training=not is_test, momentum=momentum, epsilon=epsilon,
                       data_format=fmt, use_global_stats=True if use_global_stats else None)
    # (in_place only lets Paddle write the result over the input's Variable; the values are the same)
    return activate(out, act, api)


def layer_norm(input: Any, scale: bool = True, shift: bool = True, begin_norm_axis: int = 1, epsilon: float = 1e-05,
               param_attr: Any = None, bias_attr: Any = None, act: str | None = None, name: str | None = None) -> Any:
    """Layer normalisation over the axes from ``begin_norm_axis`` on: scale ``layer_norm_N.w_0`` (ones) and
    shift ``layer_norm_N.b_0`` (zeros), both flat ``[prod(shape[begin_norm_axis:])]``."""
    api = "paddle.static.nn.layer_norm"
    x = _var(input, api)
    _float(x, api)
    nd = len(x.shape)
    if isinstance(begin_norm_axis, bool) or not isinstance(begin_norm_axis, int) or not 0 < begin_norm_axis < nd:
        raise ValueError(f"{api}: begin_norm_axis must be an int in [1, {nd - 1}] for a {nd}-D input, but received "
                         f"{begin_norm_axis!r}.")
    if not 0.0 <= epsilon <= 0.001:  # (Paddle's layer_norm operator checks this range)
        raise ValueError(f"{api}: epsilon must be in [0, 0.001], but received {epsilon!r}.")
    tail = x.shape[begin_norm_axis:]
    size = math.prod(_known(d, api, "normalised dimensions", x) for d in tail)
    prefix = name or unique_name("layer_norm")
    w = b = None
    if scale:
        _no_false(param_attr, api, "param_attr (with scale=True)")
        w = _param(prefix, [size], x.dtype, param_attr, False, Constant(1.0), api)
    if shift:
        _no_false(bias_attr, api, "bias_attr (with shift=True)")
        b = _param(prefix, [size], x.dtype, bias_attr, True, None, api)
    out = F.layer_norm(x, tail, w, b, epsilon)
    return activate(out, act, api)


def group_norm(input: Any, groups: int, epsilon: float = 1e-05, param_attr: Any = None, bias_attr: Any = None,
               act: str | None = None, data_layout: str = "NCHW", name: str | None = None) -> Any:
    """Group normalisation over ``groups`` groups of channels. As Paddle 3.3.1 builds it, the scale
    ``group_norm_N.w_0`` (ones) and shift ``group_norm_N.b_0`` (zeros) exist only when ``param_attr`` /
    ``bias_attr`` is given (a ParamAttr, a name or True); with the default None there are none."""
    api = "paddle.static.nn.group_norm"
    x = _var(input, api)
    _float(x, api)
    if len(x.shape) < 2:
        raise ValueError(f"{api}: the input must have at least 2 dimensions, but its shape is {x.shape}.")
    if data_layout not in ("NCHW", "NHWC"):
        raise ValueError(f"{api}: data_layout must be 'NCHW' or 'NHWC', but received {data_layout!r}.")
    c = _known(x.shape[-1] if data_layout == "NHWC" else x.shape[1], api, "channel dimension", x)
    if isinstance(groups, bool) or not isinstance(groups, int) or groups <= 0 or c % groups:
        raise ValueError(f"{api}: groups must be a positive int dividing the channels ({c}), but received "
                         f"{groups!r}.")
    prefix = name or unique_name("group_norm")
    w = _param(prefix, [c], x.dtype, param_attr, False, Constant(1.0), api) if param_attr else None
    b = _param(prefix, [c], x.dtype, bias_attr, True, None, api) if bias_attr else None
    out = F.group_norm(x, groups, epsilon, w, b, data_layout if len(x.shape) == 4 else (
        "NCHW" if data_layout == "NCHW" else {3: "NLC", 5: "NDHWC"}.get(len(x.shape), "NHWC")))
    return activate(out, act, api)


def instance_norm(input: Any, epsilon: float = 1e-05, param_attr: Any = None, bias_attr: Any = None,
                  name: str | None = None) -> Any:
    """Instance normalisation (each sample's each channel over its spatial positions). As Paddle 3.3.1 builds
    it, scale ``instance_norm_N.w_0`` (ones) and shift ``instance_norm_N.b_0`` (zeros) exist only when both
    ``param_attr`` and ``bias_attr`` are given (ParamAttrs, names or True); by default there are none."""
    api = "paddle.static.nn.instance_norm"
    x = _var(input, api)
    _float(x, api)
    _rank(x, [2, 3, 4, 5], api)
    if param_attr is False and bias_attr is not False:
        raise ValueError(f"{api}: param_attr and bias_attr must be False together.")
    c = _known(x.shape[1], api, "channel dimension", x)
    prefix = name or unique_name("instance_norm")
    w = b = None
    if param_attr and bias_attr:
        w = _param(prefix, [c], x.dtype, param_attr, False, Constant(1.0), api)
        b = _param(prefix, [c], x.dtype, bias_attr, True, Constant(0.0), api)
    y = x if len(x.shape) > 2 else apply_op(TABLE["unsqueeze"], (x, -1))
    out = F.instance_norm(y, weight=w, bias=b, eps=epsilon)
    return out if len(x.shape) > 2 else apply_op(TABLE["squeeze"], (out, -1))


def spectral_norm(weight: Any, dim: int = 0, power_iters: int = 1, eps: float = 1e-12, name: str | None = None) -> Any:
    """``weight`` divided by its largest singular value, estimated by ``power_iters`` power iterations from
    the vectors ``spectral_norm_N.w_0`` ``[h]`` and ``w_1`` ``[w]`` (Normal(0, 1), not trained, not updated),
    with the weight seen as an ``[h, w]`` matrix, ``h = shape[dim]``. Its gradient is the derivative with the
    iterated vectors held fixed (Paddle 3.3.1's kernel computes another expression; see the op's note)."""
    api = "paddle.static.nn.spectral_norm"
    w = _var(weight, api, "weight")
    _float(w, api, "weight")
    if dim not in (0, 1) or isinstance(dim, bool):
        raise ValueError(f"{api}: dim must be 0 (fc weights) or 1 (conv weights), but received {dim!r}.")
    if isinstance(power_iters, bool) or not isinstance(power_iters, int) or power_iters < 0:
        raise ValueError(f"{api}: power_iters must be a non-negative int, but received {power_iters!r}.")
    shape = [_known(d, api, "dimensions", w) for d in w.shape]
    if 0 in shape:
        raise ValueError(f"{api}: no dimension of weight may be 0, but its shape is {shape}.")
    h = shape[dim]
    prefix = name or unique_name("spectral_norm")
    u = _param(prefix, [h], w.dtype, ParamAttr(trainable=False), False, Normal(0.0, 1.0), api)
    v = _param(prefix, [math.prod(shape) // h], w.dtype, ParamAttr(trainable=False), False, Normal(0.0, 1.0), api)
    return apply_op(TABLE["spectral_norm"], (w, u, v), {"dim": dim, "power_iters": power_iters, "eps": eps})


# ---- embeddings, prelu, bilinear, row_conv, cvm, nce ----------------------------------------------------
def _size(size: Any, api: str) -> list[int]:
    if not isinstance(size, list | tuple) or len(size) != 2 or not all(
            isinstance(d, int | np.integer) and not isinstance(d, bool) and d > 0 for d in size):
        raise ValueError(f"{api}: size must be [vocab_size, embedding_dim] (two positive ints), but received "
                         f"{size!r}.")
    return [int(size[0]), int(size[1])]


def _padding_idx(padding_idx: Any, vocab: int, api: str) -> int | None:
    if padding_idx is None:
        return None
    if isinstance(padding_idx, bool) or not isinstance(padding_idx, int) or not -vocab <= padding_idx < vocab:
        raise ValueError(f"{api}: padding_idx must be an int in [{-vocab}, {vocab}), but received {padding_idx!r}.")
    return padding_idx if padding_idx >= 0 else vocab + padding_idx


def _ids(x: Any, api: str) -> Variable:
    x = _var(x, api)
    if x.dtype.name not in ("int32", "int64"):
        raise TypeError(f"{api}: input must hold int32 or int64 ids, but its dtype is {x.dtype.name}.")
    return x


def embedding(input: Any, size: Sequence[int], is_sparse: bool = False, is_distributed: bool = False,
              padding_idx: int | None = None, param_attr: Any = None, dtype: Any = "float32") -> Any:
    """Look up rows of the table ``embedding_N.w_0`` ``[vocab_size, embedding_dim]`` (Xavier by default):
    ``input.shape + [embedding_dim]``; the ``padding_idx`` row reads as zeros and gets no gradient.
    ``is_sparse`` / ``is_distributed`` only choose how Paddle stores the gradient (rows, or on a parameter
    server); the values and updates are the same."""
    api = "paddle.static.nn.embedding"
    x = _ids(input, api)
    for what, v in (("is_sparse", is_sparse), ("is_distributed", is_distributed)):
        if not isinstance(v, bool):
            raise TypeError(f"{api}: {what} must be a bool, but received {type(v).__name__}.")
    vocab, dim = _size(size, api)
    pidx = _padding_idx(padding_idx, vocab, api)
    dt = _dtypes.to_paddle(dtype)
    w = _param(unique_name("embedding"), [vocab, dim], dt, param_attr, False, None, api)
    return F.embedding(x, w, padding_idx=pidx)


_TABLE_CLASSES = ("CommonSparseTable", "SSDSparseTable", "MemorySparseTable")


def sparse_embedding(input: Any, size: Sequence[int], padding_idx: int | None = None, is_test: bool = False,
                     entry: Any = None, table_class: str = "MemorySparseTable", param_attr: Any = None,
                     dtype: Any = "float32", slot: int | None = None) -> Any:
    """The parameter-server embedding: ids ``[..., 1]`` -> ``[..., embedding_dim]`` from the table
    ``sparse_embedding_N.w_0``. Paddle keeps that table on parameter servers (its Executor cannot run it
    locally); here it is an ordinary program parameter, so the lookup trains like ``embedding``.
    ``is_test``, ``table_class`` and ``slot`` configure the server table and are checked only."""
    api = "paddle.static.nn.sparse_embedding"
    x = _ids(input, api)
    if x.dtype.name != "int64":
        raise TypeError(f"{api}: input must hold int64 ids, but its dtype is {x.dtype.name}.")
    if not x.shape or x.shape[-1] not in (1, -1):
        raise ValueError(f"{api}: the last dimension of input must be 1 (ids of shape [..., 1]), but its shape is "
                         f"{x.shape}.")
    if table_class not in _TABLE_CLASSES:
        raise ValueError(f"{api}: table_class must be one of {_TABLE_CLASSES}, but received {table_class!r}.")
    if entry is not None:
        raise NotImplementedError(f"{api}: entry (the parameter server's admission rule) is not supported, there "
                                  "is no parameter server; pass None.")
    if not isinstance(is_test, bool) or (slot is not None and (isinstance(slot, bool) or not isinstance(slot, int))):
        raise TypeError(f"{api}: is_test must be a bool and slot an int or None, but received {is_test!r} and "
                        f"{slot!r}.")
    dt = _dtypes.to_paddle(dtype)
    if dt.name not in ("float32", "float64"):
        raise TypeError(f"{api}: dtype must be float32 or float64, but received {dt.name}.")
    vocab, dim = _size(size, api)
    pidx = _padding_idx(padding_idx, vocab, api)
    w = _param(unique_name("sparse_embedding"), [vocab, dim], dt, param_attr, False, None, api)
    ids = apply_op(TABLE["squeeze"], (x, -1))
    return F.embedding(ids, w, padding_idx=pidx)


def prelu(x: Any, mode: str, param_attr: Any = None, data_format: str = "NCHW", name: str | None = None) -> Any:
    """``max(0, x) + alpha * min(0, x)`` with ``alpha`` ``prelu_N.w_0`` (0.25): one value (mode 'all'), one per
    channel ('channel': ``[1, C, 1, 1]`` or ``[1, 1, 1, C]``) or one per element ('element': ``[1, *shape[1:]]``)."""
    api = "paddle.static.nn.prelu"
    x = _var(x, api, "x")
    _float(x, api, "x")
    if mode not in ("all", "channel", "element"):
        raise ValueError(f"{api}: mode must be 'all', 'channel' or 'element', but received {mode!r}.")
    nd = len(x.shape)
    if mode == "channel":
        fmts = ("NC", "NCL", "NCHW", "NCDHW", "NLC", "NHWC", "NDHWC")
        if data_format not in fmts:
            raise ValueError(f"{api}: data_format must be one of {fmts}, but received {data_format!r}.")
        if nd < 2:
            raise ValueError(f"{api}: mode 'channel' needs an input of at least 2 dimensions, but its shape is "
                             f"{x.shape}.")
        first = data_format[1] == "C"
        c = _known(x.shape[1] if first else x.shape[-1], api, "channel dimension", x)
        shape = [1, c, 1, 1] if first else [1, 1, 1, c]
        bshape = [1, c] + [1] * (nd - 2) if first else [1] * (nd - 1) + [c]
    elif mode == "element":
        if nd < 1:
            raise ValueError(f"{api}: mode 'element' needs an input of at least 1 dimension.")
        shape = [1] + [_known(d, api, "dimensions after the first", x) for d in x.shape[1:]]
        bshape = shape
    else:
        shape = bshape = [1]
    alpha = _param(name or unique_name("prelu"), shape, x.dtype, param_attr, False, Constant(0.25), api)
    a = apply_op(TABLE["reshape"], (alpha, bshape)) if bshape != shape else alpha
    zero = apply_op(TABLE["full_like"], (x, 0.0))
    return apply_op(TABLE["where"], (x > zero, x, x * a))


def bilinear_tensor_product(x: Any, y: Any, size: int, act: str | None = None, name: str | None = None,
                            param_attr: Any = None, bias_attr: Any = None) -> Any:
    """``out[n, k] = x[n] @ W[k] @ y[n] + b[k]`` with ``W`` ``bilinear_tensor_product_N.w_0``
    ``[size, dx, dy]`` (Xavier) and ``b`` ``bilinear_tensor_product_N.b_0`` ``[1, size]`` (zeros)."""
    api = "paddle.static.nn.bilinear_tensor_product"
    x = _var(x, api, "x")
    y = _var(y, api, "y")
    _float(x, api, "x")
    if len(x.shape) != 2 or len(y.shape) != 2:
        raise ValueError(f"{api}: x and y must be 2-D, but their shapes are {x.shape} and {y.shape}.")
    if isinstance(size, bool) or not isinstance(size, int) or size <= 0:
        raise ValueError(f"{api}: size must be a positive int, but received {size!r}.")
    prefix = name or unique_name("bilinear_tensor_product")
    w = _param(prefix, [size, _known(x.shape[1], api, "feature size", x), _known(y.shape[1], api, "feature size", y)],
               x.dtype, param_attr, False, None, api)
    b = _param(prefix, [1, size], x.dtype, bias_attr, True, None, api)
    return activate(F.bilinear(x, y, w, b), act, api)


def row_conv(input: Any, future_context_size: int, param_attr: Any = None, act: str | None = None) -> Any:
    """Lookahead convolution: ``out[t] = sum_{j=0..k} W[j] * x[t + j]`` (elementwise per feature, zero past the
    end of the sequence) with ``W`` ``row_conv_N.w_0`` ``[k + 1, D]`` (Xavier), ``k = future_context_size``.
    ``input``: ``[B, T, D]`` (B sequences), or ``[T, D]`` read as one sequence (Paddle 3.3.1 returns zeros for
    a 2-D input without LoD; LoD tensors do not exist here)."""
    api = "paddle.static.nn.row_conv"
    x = _var(input, api)
    _float(x, api)
    _rank(x, [2, 3], api)
    if isinstance(future_context_size, bool) or not isinstance(future_context_size, int) or future_context_size < 0:
        raise ValueError(f"{api}: future_context_size must be a non-negative int, but received "
                         f"{future_context_size!r}.")
    k = future_context_size
    d = _known(x.shape[-1], api, "feature dimension", x)
    w = _param(unique_name("row_conv"), [k + 1, d], x.dtype, param_attr, False, None, api)
    seq = x if len(x.shape) == 3 else apply_op(TABLE["unsqueeze"], (x, 0))
    padded = F.pad(seq, [0, 0, 0, k, 0, 0])
    t = seq.shape[1]
    out = None
    for j in range(k + 1):
        end = j - k if j < k else None
        shifted = padded[:, j:end, :] if t < 0 else padded[:, j:j + t, :]
        term = shifted * w[j]
        out = term if out is None else out + term
    out = out if len(x.shape) == 3 else apply_op(TABLE["squeeze"], (out, 0))
    return activate(out, act, api)


def continuous_value_model(input: Any, cvm: Any, use_cvm: bool = True) -> Any:
    """CTR show/click columns: ``input`` [N, D] whose first two columns are show and click. With ``use_cvm``
    they become ``log(show + 1)`` and ``log(click + 1) - log(show + 1)`` ([N, D]); without, they are dropped
    ([N, D - 2]). In the backward those two columns receive ``cvm`` [N, 2] (the show and click values), as
    Paddle's kernel passes them."""
    api = "paddle.static.nn.continuous_value_model"
    x = _var(input, api)
    c = _var(cvm, api, "cvm")
    _float(x, api)
    if len(x.shape) != 2 or len(c.shape) != 2 or (c.shape[1] >= 0 and c.shape[1] < 2) or (
            0 <= x.shape[1] < 2):
        raise ValueError(f"{api}: input must be [N, D] (D >= 2) and cvm [N, 2], but their shapes are {x.shape} and "
                         f"{c.shape}.")
    if not isinstance(use_cvm, bool):
        raise TypeError(f"{api}: use_cvm must be a bool, but received {type(use_cvm).__name__}.")
    return apply_op(TABLE["cvm"], (x, c), {"use_cvm": use_cvm})


def nce(input: Any, label: Any, num_total_classes: int, sample_weight: Any = None, param_attr: Any = None,
        bias_attr: Any = None, num_neg_samples: int | None = None, name: str | None = None, sampler: str = "uniform",
        custom_dist: Any = None, seed: int = 0, is_sparse: bool = False) -> Any:
    """Noise-contrastive estimation loss ``[N, 1]`` (divided by ``num_neg_samples + 1``, as Paddle returns it).

    For each row, the true labels (``label`` ``[N, num_true]``) and ``num_neg_samples`` classes drawn from
    ``sampler`` ('uniform', 'log_uniform' or 'custom_dist' with probabilities ``custom_dist``) are scored
    ``o = sigmoid(x . W[c] + b[c])`` (``nce_N.w_0`` ``[num_total_classes, D]``, ``nce_N.b_0``
    ``[num_total_classes, 1]``); with ``q = num_neg_samples * P_sampler(c)`` the cost is
    ``sum_true -log(o / (o + q)) + sum_neg -log(q / (o + q))``, times ``sample_weight`` per row. The negatives
    are drawn anew at every run (``seed`` non-zero: the same each run)."""
    api = "paddle.static.nn.nce"
    x = _var(input, api)
    lab = _ids(label, api)
    _float(x, api)
    if len(x.shape) != 2 or len(lab.shape) != 2:
        raise ValueError(f"{api}: input must be [N, D] and label [N, num_true], but their shapes are {x.shape} and "
                         f"{lab.shape}.")
    if isinstance(num_total_classes, bool) or not isinstance(num_total_classes, int) or num_total_classes <= 0:
        raise ValueError(f"{api}: num_total_classes must be a positive int, but received {num_total_classes!r}.")
    nneg = 10 if num_neg_samples is None else int(num_neg_samples)
    if nneg <= 0:
        raise ValueError(f"{api}: num_neg_samples must be positive, but received {num_neg_samples!r}.")
    if not isinstance(is_sparse, bool):
        raise TypeError(f"{api}: is_sparse must be a bool, but received {type(is_sparse).__name__}.")
    n_cls = num_total_classes
    if sampler == "uniform":
        probs = np.full(n_cls, 1.0 / n_cls)
    elif sampler == "log_uniform":
        v = np.arange(n_cls, dtype=np.float64)
        probs = np.log((v + 2) / (v + 1)) / np.log(n_cls + 1)
    elif sampler == "custom_dist":
        if custom_dist is None or len(custom_dist) != n_cls:
            raise ValueError(f"{api}: sampler 'custom_dist' needs custom_dist, {n_cls} probabilities (one per "
                             f"class), but received {custom_dist!r}.")
        probs = np.asarray(custom_dist, np.float64)
    else:
        raise ValueError(f"{api}: sampler must be 'uniform', 'log_uniform' or 'custom_dist', but received "
                         f"{sampler!r}.")
    if custom_dist is not None and sampler != "custom_dist":
        raise ValueError(f"{api}: custom_dist is read only with sampler='custom_dist', but sampler is {sampler!r}.")
    d = _known(x.shape[1], api, "feature size", x)
    prefix = name or unique_name("nce")
    w = _param(prefix, [n_cls, d], x.dtype, param_attr, False, None, api)
    b = _param(prefix, [n_cls, 1], x.dtype, bias_attr, True, None, api)
    # negatives by inverse-CDF sampling: u = Phi(z) of a standard normal draw per (example, sample) is uniform
    base = apply_op(TABLE["full_like"], (apply_op(TABLE["slice"], (x, [1], [0], [1])), 0.0, "float32"))
    mean = base + Tensor(np.zeros((1, nneg), np.float32))  # [N, nneg]
    if seed:
        from .._runtime.rng import seed_key

        key = Tensor(np.asarray(seed_key(int(seed))).astype(np.int64))
    else:
        from .._api.random import random_key

        key = random_key()
    z = apply_op(TABLE["random_normal"], (key, mean, 1.0), {"dtype": "float64"})
    u = (apply_op(TABLE["erf"], (z * (0.5 ** 0.5),)) + 1.0) * 0.5
    cdf = Tensor(np.cumsum(probs / probs.sum())[:-1].reshape(1, 1, -1))
    above = apply_op(TABLE["cast"], (apply_op(TABLE["unsqueeze"], (u, -1)) >= cdf, "int64"))
    neg = above.sum(axis=-1)
    classes = apply_op(TABLE["concat"], ([apply_op(TABLE["cast"], (lab, "int64")), neg],), {"axis": 1})
    wc = apply_op(TABLE["gather"], (w, apply_op(TABLE["reshape"], (classes, [-1]))))
    wc = apply_op(TABLE["reshape"], (wc, [-1, classes.shape[1], d]))
    logits = (wc * apply_op(TABLE["unsqueeze"], (x, 1))).sum(axis=-1)
    if b is not None:
        bc = apply_op(TABLE["gather"], (apply_op(TABLE["reshape"], (b, [-1])), apply_op(TABLE["reshape"],
                                                                                          (classes, [-1]))))
        logits = logits + apply_op(TABLE["reshape"], (bc, [-1, classes.shape[1]]))
    o = F.sigmoid(logits)
    q = apply_op(TABLE["gather"], (Tensor(probs.astype(np.dtype(x.dtype.np_dtype)) * nneg),
                                   apply_op(TABLE["reshape"], (classes, [-1]))))
    q = apply_op(TABLE["reshape"], (q, [-1, classes.shape[1]]))
    num_true = lab.shape[1]
    true_cost = -(o[:, :num_true] / (o[:, :num_true] + q[:, :num_true])).log()
    neg_cost = -(q[:, num_true:] / (o[:, num_true:] + q[:, num_true:])).log()
    cost = true_cost.sum(axis=1, keepdim=True) + neg_cost.sum(axis=1, keepdim=True)
    if sample_weight is not None:
        cost = cost * apply_op(TABLE["reshape"], (_var(sample_weight, api, "sample_weight"), [-1, 1]))
    return cost / float(nneg + 1)




