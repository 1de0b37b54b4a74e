"""``paddle.device``'s smaller names (layer L5): the typed Tensor factories, ``XPUPlace`` / ``IPUPlace`` (no such
device here: making one is a ValueError, as in Paddle's CPU build), ``is_bf16_supported``,
``is_current_stream_capturing``, ``ipc_collect``, ``get_stream_from_external`` and ``cuda.memory_summary``."""

from __future__ import annotations

from typing import Any

from .._runtime import device as _device


class XPUPlace:
    """A Kunlun XPU: this package runs on none, so making one is a ValueError, as in a Paddle built without XPU."""

    def __init__(self, dev_id: int = 0) -> None:
        raise ValueError(f"paddle.device.XPUPlace({dev_id!r}): cannot use an XPU, pylayer_jax runs on none; use "
                         "paddle.CPUPlace() or paddle.CUDAPlace(n).")


class IPUPlace:
    """A Graphcore IPU: this package runs on none, so making one is a ValueError, as in a Paddle built without
    IPU."""

    def __init__(self) -> None:
        raise ValueError("paddle.device.IPUPlace(): cannot use an IPU, pylayer_jax runs on none; use "
                         "paddle.CPUPlace() or paddle.CUDAPlace(n).")


def is_bf16_supported(including_emulation: bool = True) -> bool:
    """True: bfloat16 computes on this package's devices (XLA emulates it where the hardware lacks it), as Paddle's
    CPU build answers."""
    if not isinstance(including_emulation, bool):
        raise TypeError("paddle.device.is_bf16_supported: including_emulation must be a bool, but received "
                        f"{including_emulation!r}.")
    return True


def is_current_stream_capturing() -> bool:
    """Whether a CUDA graph is being captured on the current stream: never here (JAX compiles whole functions
    instead of capturing streams)."""
    return False


def _need_gpu(api: str) -> None:
    if not _device.gpus():
        raise RuntimeError(f"{api}: JAX sees no GPU here, so it cannot be used (Paddle's CPU build refuses it too); "
                           "run where a GPU is visible.")


def ipc_collect() -> None:
    """Free the GPU memory other processes released through CUDA IPC; a RuntimeError without a GPU, as in Paddle's
    CPU build, and nothing to do with one (JAX shares no memory by CUDA IPC)."""
    _need_gpu("paddle.device.ipc_collect")


def get_stream_from_external(data_ptr: int, device: Any = None) -> Any:
    """Wrap a CUDA stream made outside Paddle (its raw pointer): JAX takes no user streams, so this is a
    RuntimeError without a GPU and NotImplementedError with one."""
    if not isinstance(data_ptr, int) or isinstance(data_ptr, bool):
        raise TypeError(f"paddle.device.get_stream_from_external: data_ptr must be an int (a cudaStream_t pointer), "
                        f"but received {type(data_ptr).__name__}.")
    _need_gpu("paddle.device.get_stream_from_external")
    if device is not None:
        _device.resolve(device, "paddle.device.get_stream_from_external")
    raise NotImplementedError("paddle.device.get_stream_from_external: JAX runs its own streams and cannot adopt an "
                              "external CUDA stream; use paddle.device.Stream() instead.")
