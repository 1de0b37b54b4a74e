"""Tensor placement: ``Tensor.cpu()``, ``cuda()``, ``pin_memory()`` and ``to(device, dtype)`` (layer L4).

A move to another JAX device is the table op ``to_device`` (differentiable, recorded like
any op); a Tensor already on the requested device is returned as it is, as in Paddle.
"""

from __future__ import annotations

from typing import Any

import jax

from .._ops.table import TABLE
from .._runtime import device as _device
from .._runtime import dtypes as _dtypes
from .dispatch import apply_op
from .facade import Tensor


def _where(t: Tensor) -> tuple[Any, Any]:
    """(device, memory kind) of the tensor's array, or (None, None) where it has none yet (deferred, traced)."""
    v = t._v
    if isinstance(v, jax.Array) and not isinstance(v, jax.core.Tracer):
        try:
            return next(iter(v.devices())), v.sharding.memory_kind
        except Exception:  # an array without a single committed device
            return None, None
    return None, None


def _move(t: Tensor, device: Any, api: str, memory_kind: str | None = None) -> Tensor:
    name, dev = _device.resolve(device, api)
    here, kind = _where(t)
    if here is None:
        here, kind = _device.default_device(), None  # deferred values land on the default device
    default_kind = dev.default_memory().kind
    if here == dev and (kind or default_kind) == (memory_kind or default_kind):
        return t
    return apply_op(TABLE["to_device"], (t, name, memory_kind))


def cpu(self: Tensor) -> Tensor:
    """This tensor on the CPU (itself when it is there already); differentiable."""
    return _move(self, "cpu", "Tensor.cpu")


def cuda(self: Tensor, device_id: int | None = None, blocking: bool = True) -> Tensor:
    """This tensor on GPU ``device_id`` (the current GPU when None); ``ValueError`` where JAX sees no GPU."""
    if not _device.gpus():
        raise ValueError(
            "Tensor.cuda: no GPU is available to JAX on this machine (it is CPU-only), so the tensor cannot be moved "
            "to one. Keep it on the CPU, or install a CUDA build of jaxlib on a machine with a GPU."
        )
    if device_id is None:
        current = _device.get_device()
        device_id = int(current[4:]) if current.startswith("gpu:") else 0
    if not isinstance(device_id, int) or isinstance(device_id, bool):
        raise TypeError(f"Tensor.cuda: device_id must be an int or None, but received {type(device_id).__name__}.")
    return _move(self, f"gpu:{device_id}", "Tensor.cuda")


def pin_memory(self: Tensor, blocking: bool = True) -> Tensor:
    """This tensor in page-locked host memory of the GPU (``RuntimeError`` where JAX sees no GPU, as in Paddle)."""
    if not _device.gpus():
        raise RuntimeError(
            "Tensor.pin_memory: pinned (page-locked) host memory serves copies to a GPU, and JAX sees no GPU on this "
            "machine (it is CPU-only). Leave the tensor where it is, or run on a machine with a GPU."
        )
    return _move(self, "gpu:0", "Tensor.pin_memory", "pinned_host")


def placed(out: Tensor, api: str, device: Any = None, requires_grad: Any = False, pin_memory: Any = False,
           like: Tensor | None = None) -> Tensor:
    """A newly made tensor with Paddle 3.3.1's ``device`` / ``requires_grad`` / ``pin_memory`` keywords of its
    creation functions applied: moved to ``device`` (a str or a Place; None: where ``like`` is, or left on the
    default device), in page-locked host memory with ``pin_memory`` (a RuntimeError without a GPU, as in Paddle),
    trainable (``stop_gradient`` False) when ``requires_grad`` is True itself (Paddle tests ``is True``: 1 leaves the
    tensor frozen)."""
    if device is None:
        here = None if like is None else _where(like)[0]
        if here is not None:
            out = _move(out, here, api)
    else:
        out = _move(out, device, api)
    if pin_memory:
        out = out.pin_memory()
    if requires_grad is True:
        out.stop_gradient = False
    return out


def _is_device(a: Any) -> bool:
    if isinstance(a, _device.CPUPlace | _device.CUDAPlace | jax.Device):
        return True
    return isinstance(a, str) and _device._PATTERN.match(a.strip().lower()) is not None


def to(self: Tensor, *args: Any, **kwargs: Any) -> Tensor:
    """``to(device)``, ``to(dtype)``, ``to(device, dtype)``, ``to(other_tensor)`` (its dtype and device)."""
    unknown = set(kwargs) - {"device", "dtype", "blocking"}
    if unknown:
        raise TypeError(f"Tensor.to() got an unexpected keyword argument {sorted(unknown)[0]}.")
    if len(args) > 3:
        raise TypeError(f"Tensor.to() takes at most 3 positional arguments (device, dtype, blocking), but received {len(args)}.")
    device, dtype = kwargs.get("device"), kwargs.get("dtype")
    rest = list(args)
    if rest and isinstance(rest[0], Tensor):
        other = rest.pop(0)
        dtype = dtype if dtype is not None else other.dtype
        there, _ = _where(other)
        device = device if device is not None or there is None else there
    if rest and device is None and _is_device(rest[0]):
        device = rest.pop(0)
    if rest and dtype is None and not isinstance(rest[0], bool):
        dtype = rest.pop(0)
    if rest and not isinstance(rest[0], bool):
        raise ValueError(
            f"Tensor.to: the device must be a str ('cpu', 'gpu', 'gpu:x') or a Place, and the dtype a Paddle dtype, "
            f"but received {rest[0]!r} of type {type(rest[0]).__name__}."
        )
    out = self
    if dtype is not None:
        try:
            target = _dtypes.to_paddle(dtype)
        except (TypeError, ValueError) as e:
            raise ValueError(
                f"Tensor.to: the device must be a str ('cpu', 'gpu', 'gpu:x') or a Place, and the dtype a Paddle "
                f"dtype, but received {dtype!r}, which is neither ({e})"
            ) from e
        if target != self.dtype:
            out = out.astype(target)
    if device is not None:
        out = _move(out, device, "Tensor.to")
    return out


Tensor.cpu = cpu  # type: ignore[attr-defined]
Tensor.cuda = cuda  # type: ignore[attr-defined]
Tensor.pin_memory = pin_memory  # type: ignore[attr-defined]
Tensor.to = to  # type: ignore[attr-defined]
