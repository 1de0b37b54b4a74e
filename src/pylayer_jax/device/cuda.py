"""``paddle.device.cuda``: the GPUs JAX sees."""

from .._runtime.device import device_count as device_count

__all__ = ["device_count"]
