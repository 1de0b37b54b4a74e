"""``paddle.cuda``: Paddle 3.3.1's PyTorch-style names for the device functions (``paddle.cuda.is_available()``,
``device_count()``, ``manual_seed``, memory statistics, streams and events), each the ``paddle.device`` function of
that name here, so they answer for this package's one device as ``paddle.device`` does (on a CPU:
``is_available()`` False, no device counted). Layer: public API over ``device``.

Paddle's CPU build fails in several of these (``memory_allocated`` and ``empty_cache`` raise AttributeError,
``get_device_name`` NameError); here they answer as ``paddle.device``'s do.
"""

from __future__ import annotations

from typing import Any

from .device import (
    BFloat16Tensor,
    BoolTensor,
    ByteTensor,
    CharTensor,
    DoubleTensor,
    Event,
    FloatTensor,
    HalfTensor,
    IntTensor,
    LongTensor,
    ShortTensor,
    Stream,
    StreamContext,
    current_device,
    current_stream,
    device,
    device_count,
    empty_cache,
    get_device_capability,
    get_device_name,
    get_device_properties,
    get_rng_state,
    get_stream_from_external,
    ipc_collect,
    is_available,
    manual_seed,
    manual_seed_all,
    max_memory_allocated,
    max_memory_reserved,
    memory_allocated,
    memory_reserved,
    reset_max_memory_allocated,
    reset_max_memory_reserved,
    reset_peak_memory_stats,
    set_device,
    set_rng_state,
    set_stream,
    stream,
    synchronize,
)

__all__ = ["Event", "Stream", "StreamContext", "current_device", "current_stream", "device", "device_count",
           "empty_cache", "get_device_capability", "get_device_name", "get_device_properties", "get_rng_state",
           "is_available", "is_bf16_supported", "is_initialized", "manual_seed", "manual_seed_all",
           "max_memory_allocated", "max_memory_reserved", "mem_get_info", "memory_allocated", "memory_reserved",
           "reset_max_memory_allocated", "reset_max_memory_reserved", "reset_peak_memory_stats", "set_device",
           "set_rng_state", "set_stream", "stream", "synchronize", "BFloat16Tensor", "BoolTensor", "ByteTensor",
           "CharTensor", "DoubleTensor", "FloatTensor", "HalfTensor", "IntTensor", "LongTensor", "ShortTensor",
           "get_stream_from_external", "ipc_collect"]


def is_initialized() -> bool:
    """Whether a CUDA context was made: never here (no CUDA device is used), as Paddle's CPU build answers."""
    return False


def is_bf16_supported(including_emulation: bool = True) -> bool:
    """True: bfloat16 computes on this package's devices (XLA emulates it where the hardware lacks it); Paddle's
    CPU build answers True with or without ``including_emulation`` too."""
    if not isinstance(including_emulation, bool):
        raise TypeError("paddle.cuda.is_bf16_supported: including_emulation must be a bool, but received "
                        f"{including_emulation!r}.")
    return True


def mem_get_info(device: Any = None) -> tuple[int, int]:
    """Free and total memory of a CUDA device: there is none here, so this raises ValueError, as Paddle's CPU
    build does."""
    raise ValueError(f"paddle.cuda.mem_get_info: Expected a cuda device, but got: Place(cpu) (received "
                     f"device={device!r}); this build has no CUDA device to ask.")
