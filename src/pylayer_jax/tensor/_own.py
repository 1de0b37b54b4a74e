"""Functions that Paddle 3.3.1 puts only under ``paddle.tensor`` (layer L7): ``paddle.tensor(data)`` itself (the
module is callable), ``fill_constant`` and the tensor-array helpers (``create_array``, ``array_write``,
``array_read``, ``array_length``)."""

from __future__ import annotations

from typing import Any

from .._api import functional as _F
from .._api.namespace_extras import array_length as array_length
from .._api.namespace_extras import array_read as array_read
from .._api.namespace_extras import array_write as array_write
from .._api.namespace_extras import create_array as create_array
from .._tensor.facade import Tensor, to_tensor


def tensor(data: Any, dtype: Any = None, device: Any = None, requires_grad: bool = False,
           pin_memory: bool = False) -> Tensor:
    """A new Tensor holding ``data`` (a number, a nested list, a numpy array or a Tensor, which is copied), on
    ``device``, trainable when ``requires_grad`` (``paddle.tensor(...)``, as ``paddle.to_tensor``).

    >>> import pylayer_jax as paddle
    >>> t = paddle.tensor([1.0, 2.0], requires_grad=True)
    >>> t.dtype, t.stop_gradient
    (paddle.float32, False)
    """
    if not isinstance(requires_grad, bool) or not isinstance(pin_memory, bool):
        raise TypeError(
            f"paddle.tensor: requires_grad and pin_memory must be bools, but received "
            f"{type(requires_grad).__name__} and {type(pin_memory).__name__}."
        )
    t = to_tensor(data, dtype=dtype, place=device, stop_gradient=not requires_grad)
    return t.pin_memory() if pin_memory else t


def fill_constant(shape: Any, dtype: Any, value: Any, force_cpu: bool = False, out: Tensor | None = None,
                  place: Any = None, name: str | None = None) -> Tensor:
    """A Tensor of ``shape`` and ``dtype`` filled with ``value`` (``paddle.full``); written into ``out`` and
    returned as it when ``out`` is given; on the CPU when ``force_cpu``, else on ``place`` (None: the default).

    >>> import pylayer_jax as paddle
    >>> paddle.tensor.fill_constant([2], "int32", 7).numpy()
    array([7, 7], dtype=int32)
    """
    if out is not None and not isinstance(out, Tensor):
        raise TypeError(f"fill_constant: out must be a Tensor or None, but received {type(out).__name__}.")
    result = _F.full(shape, value, dtype, name, device="cpu" if force_cpu else place)
    if out is None:
        return result
    _F.assign(result, out)
    return out
