"""Copies between devices (``Tensor.cpu()``, ``cuda()``, ``to(device)``, ``pin_memory()``), layer L1.

Differentiable: the gradient of a copy is the incoming gradient moved back, which
``jax.vjp`` of ``jax.device_put`` gives.
"""

from __future__ import annotations

import jax

from .._runtime import device as _device
from .table import defop


@defop(1, method=False)
def to_device(x, device, memory_kind=None):
    """A copy of ``x`` on ``device`` (``'cpu'`` or ``'gpu:n'``); ``memory_kind='pinned_host'`` pins it."""
    dev = _device.resolve(device, "Tensor.to")[1]
    target = dev if memory_kind is None else jax.sharding.SingleDeviceSharding(dev, memory_kind=memory_kind)
    return jax.device_put(x, target)
