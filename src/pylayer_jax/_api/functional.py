"""Paddle's functions, each one line over the op table (layer L5)."""

from __future__ import annotations

import inspect
from typing import Any

import numpy as np

from .._ops import creation as _creation
from .._ops import fft as _fft
from .._ops import math as _math
from .._ops import placing as _placing
from .._ops import slices_scatters as _coverage_shape
from .._ops.table import TABLE
from .._tensor.device import placed
from .._tensor.dispatch import apply_op
from .._tensor.facade import Tensor
from .._tensor.methods import BITWISE_FUNCTIONS as _BITWISE
from .._tensor.methods import increment as _increment
from .._tensor.methods import inplace_assign as _inplace_assign
from .._tensor.methods import pow as _pow
from .._tensor.methods import public
from .._tensor.methods import softmax as _softmax
from .._tensor.methods import write_values as _write_values
from .._tensor.slicing import crop as _crop
from .._tensor.slicing import narrow as _narrow
from .._tensor.slicing import slice as _slice
from .._tensor.slicing import strided_slice as _strided_slice
from .._tensor.spread import checked_fill, checked_shape, with_sizes

# table ops that are Paddle functions without being Tensor methods
_FUNCTIONS = {"cast", *_creation.FUNCTIONS, *_fft.FUNCTIONS, *_math.FUNCTIONS, *_coverage_shape.FUNCTIONS, *_placing.FUNCTIONS}


def _inplace_function(name: str) -> Any:
    """``paddle.<op>_(x, ...)``: the Tensor method ``x.<op>_(...)`` as a function."""
    method = getattr(Tensor, name)

    def fn(x: Any, *args: Any, **kwargs: Any) -> Any:
        if not isinstance(x, Tensor):
            raise TypeError(f"{name}: x must be a Tensor (it is written in place), but received {type(x).__name__}.")
        return method(x, *args, **kwargs)

    fn.__name__ = fn.__qualname__ = name
    fn.__doc__ = f"In-place ``{name[:-1]}``: writes the result into ``x`` (same shape and dtype) and returns it."
    return fn


for _name, _op in TABLE.items():
    if _op.method or _name in _FUNCTIONS:
        globals()[_name] = public(_op)
        if _op.inplace:
            globals()[_name + "_"] = _inplace_function(_name + "_")
increment = _increment  # (in place in dynamic mode, as Paddle's)
softmax = _softmax  # (PyTorch's signature and default axis, as Paddle 3.3.1's top-level softmax)
unfold = public(TABLE["unfold_windows"])  # (``nn.functional.unfold`` is the convolution patches, another op)
unfold.__name__ = unfold.__qualname__ = "unfold"
_PLACING = (inspect.Parameter("device", inspect.Parameter.KEYWORD_ONLY, default=None),
            inspect.Parameter("requires_grad", inspect.Parameter.KEYWORD_ONLY, default=False),
            inspect.Parameter("pin_memory", inspect.Parameter.KEYWORD_ONLY, default=False))


def _created(name: str) -> Any:
    """``paddle.<name>`` for a creation op with Paddle 3.3.1's signature: the op's parameters, ``name`` (positional
    too), and the keywords ``device``, ``requires_grad`` and ``pin_memory`` (``_tensor.device.placed``; a ``*_like``
    function's result is where its x is unless ``device`` says); a ``shape`` is read by Paddle's rules
    (``checked_shape``: ``zeros([2.0])`` is a TypeError)."""
    op = TABLE[name]
    params = [*op.signature.parameters.values(),
              inspect.Parameter("name", inspect.Parameter.POSITIONAL_OR_KEYWORD, default=None), *_PLACING]
    sig = op.signature.replace(parameters=params)
    shaped, like = "shape" in op.signature.parameters, name.endswith("_like")
    required = [p.name for p in op.signature.parameters.values() if p.default is p.empty]

    def fn(*args: Any, **kwargs: Any) -> Any:
        try:
            bound = sig.bind(*args, **kwargs)
        except TypeError as e:
            raise TypeError(f"{name}(): {e}; its parameters are {sig}.") from None
        a = dict(bound.arguments)  # (the op's defaults left out: the kernel's key is that of the plain op call)
        device, requires_grad = a.pop("device", None), a.pop("requires_grad", False)
        pin_memory = a.pop("pin_memory", False)
        a.pop("name", None)  # (it labels a static graph's variable only)
        if shaped:
            a["shape"] = checked_shape(name, a["shape"], float_tensor=name == "empty")
        if "fill_value" in a:
            a["fill_value"] = checked_fill(name, a["fill_value"])
        x = a.get("x") if like else None
        out = apply_op(op, tuple(a.pop(p) for p in required), a)
        return placed(out, name, device, requires_grad, pin_memory, like=x if isinstance(x, Tensor) else None)

    fn.__name__ = fn.__qualname__ = name
    fn.__doc__ = (f"{op.doc} ``device`` places it (default: "
                  f"{'where x is' if like else 'the default device'}), ``requires_grad=True`` makes it trainable, "
                  "``pin_memory=True`` puts it in page-locked host memory.")
    fn.__signature__ = sig  # type: ignore[attr-defined]
    return fn


for _name in ("zeros", "ones", "empty", "full", "zeros_like", "ones_like", "empty_like", "full_like", "eye", "arange",
              "linspace"):
    globals()[_name] = _created(_name)
for _name in ("zeros", "ones", "empty"):  # ``paddle.zeros(2, 3)``: the shape one entry at a time, as in Paddle
    globals()[_name] = with_sizes(globals()[_name])
_assign = globals()["assign"]


def assign(x: Any, output: Any = None) -> Any:
    """A copy of ``x`` (a Tensor, numpy array, list or number) as a new tensor. A number, a Python bool and a numpy
    scalar (``np.float32(1.5)``) give shape [1], keeping a numpy scalar's dtype; a 0-D array or Tensor stays 0-D,
    as in Paddle.

    With ``output`` (a Tensor), the copy is written into it in place and ``output`` is returned, as in Paddle: it
    takes the copy's values, shape and dtype (its views, and the gradient it is the ``.grad`` of, see them) and the
    copy's history; a leaf that trains (a parameter) takes the values only and stays a leaf."""
    if isinstance(x, bool | np.generic):
        x = np.asarray(x).reshape(1)
    if output is None:
        return _assign(x)
    if not isinstance(output, Tensor):
        raise ValueError(
            f"assign: output must be a Tensor to write the copy into, but received {type(output).__name__}. Pass a "
            "Tensor, or leave output out and use the returned copy."
        )
    r = _assign(x)
    if output._edge is None and not output.stop_gradient:  # a leaf that trains: its values only
        return _write_values(output, r, "assign")
    return _inplace_assign(output, r, "assign")


pow = _pow  # noqa: A001  (a whole or half Python exponent is compiled in: ``pow_number``)
globals().update(_BITWISE)  # bitwise_and / _or / _xor take Tensors only, as in Paddle
# starts that move from call to call become kernel inputs (``_tensor.slicing``)
slice, strided_slice, narrow, crop = _slice, _strided_slice, _narrow, _crop  # noqa: A001


# activations ``scale(..., act=...)`` applies after scaling: Paddle runs the op of that name with its defaults
_SCALE_ACTS = ("relu", "relu6", "tanh", "sigmoid", "softmax", "softplus", "softsign", "silu", "exp", "log", "sqrt",
               "abs", "square")


def scale(x: Any, scale: Any = 1.0, bias: float = 0.0, bias_after_scale: bool = True, act: str | None = None,
          name: str | None = None) -> Any:
    """``scale * x + bias`` (or ``scale * (x + bias)``), keeping x's dtype, then the activation ``act`` if given.

    >>> scale(to_tensor([-1.0, 2.0]), 2.0, act="relu").tolist()  # doctest: +SKIP
    [0.0, 4.0]
    """
    if act is not None and act not in _SCALE_ACTS:
        raise ValueError(f"scale: act must be None or one of {', '.join(_SCALE_ACTS)}, but received {act!r}.")
    out = apply_op(TABLE["scale"], (x, scale, bias, bias_after_scale))
    return out if act is None else apply_op(TABLE[act], (out,))


def meshgrid(*args: Any, **kwargs: Any) -> list[Any]:
    """Coordinate grids (``ij`` indexing) from 1-D tensors given one by one or as one list.

    >>> xs, ys = meshgrid(to_tensor([1, 2]), to_tensor([3, 4, 5]))  # doctest: +SKIP
    """
    if len(args) == 1 and isinstance(args[0], list | tuple):
        args = tuple(args[0])
    return apply_op(TABLE["meshgrid"], (list(args),), kwargs)


# ``from ._functional import *`` exports Paddle's functions only, not this module's helpers
__all__ = sorted(n for n in globals() if not n.startswith("_") and n not in {"Any", "TABLE", "Tensor", "annotations",
                                                                               "apply_op", "np", "public", "with_sizes",
                                                                               "checked_fill", "checked_shape", "inspect",
                                                                               "placed"})
