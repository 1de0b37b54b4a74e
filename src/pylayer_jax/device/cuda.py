"""``paddle.device.cuda``: the GPUs JAX sees: count, properties, memory, streams and events, the generator.

Where JAX sees no GPU the answers and errors are Paddle 3.3.1's CPU build's (``device_count() == 0``, ValueError
from the memory and property queries), except that ``synchronize``, ``Stream``, ``Event`` and ``current_stream``
work there too (see ``paddle.device``). ``synchronize``, ``current_stream`` and ``stream_guard`` warn that they are
deprecated, as in Paddle.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from .._runtime import device as _device
from .._runtime.deprecation import deprecated
from . import _query, _streams
from ._query import device_count as device_count
from ._query import empty_cache as empty_cache
from ._query import get_rng_state as get_rng_state
from ._query import manual_seed as manual_seed
from ._query import set_rng_state as set_rng_state
from ._streams import Event as Event
from ._streams import Stream as Stream

_memory = _query.memory_functions("paddle.device.cuda")
memory_allocated = _memory["memory_allocated"]
memory_reserved = _memory["memory_reserved"]
max_memory_allocated = _memory["max_memory_allocated"]
max_memory_reserved = _memory["max_memory_reserved"]
reset_max_memory_allocated = _memory["reset_max_memory_allocated"]
reset_max_memory_reserved = _memory["reset_max_memory_reserved"]


def memory_summary(device: Any = None) -> None:
    """Print the memory use of a CUDA device (``device``: a CUDAPlace, an id or ``'gpu:n'``; None: the current
    one): what XLA's allocator holds now and at its peak, allocated and reserved. Without a GPU it raises the
    ValueError the other memory queries raise."""
    if not _device.gpus():
        raise ValueError("The API paddle.device.cuda.memory_summary is not supported in CPU-only PaddlePaddle, and JAX "
                         "sees no GPU on this machine; run on a machine with a GPU to call it.")
    rows = [(label, fn(device)) for label, fn in (
        ("Allocated", memory_allocated), ("Peak allocated", max_memory_allocated),
        ("Reserved", memory_reserved), ("Peak reserved", max_memory_reserved))]
    width = max(len(label) for label, _ in rows)
    print("\n".join([f"Memory summary of {device if device is not None else 'the current device'}",
                      *(f"  {label.ljust(width)}  {value / 2**20:12.2f} MiB ({value} bytes)" for label, value in rows)]))


def vmm_compact(device: Any = None) -> int:
    """Defragment the free blocks of a device's virtual-memory allocator and return the bytes moved. XLA's
    allocator has no compaction to run, so on a GPU this validates ``device`` and returns 0; without a GPU it
    raises the ValueError of Paddle 3.3.1's CPU build."""
    if not _device.gpus():
        raise ValueError("The API paddle.device.cuda.vmm_compact is not supported in CPU-only PaddlePaddle, and JAX "
                         "sees no GPU on this machine; run on a machine with a GPU to call it.")
    if device is not None:
        _query.gpu_index(device, "paddle.device.cuda.vmm_compact")
    return 0


_properties = _query.property_functions("paddle.device.cuda")
get_device_properties = _properties["get_device_properties"]
get_device_name = _properties["get_device_name"]
get_device_capability = _properties["get_device_capability"]


@deprecated(since="2.5.0", update_to="paddle.device.synchronize", level=1,
            reason="synchronize in paddle.device.cuda will be removed in future")
def synchronize(device: Any = None) -> None:
    """Wait for the work queued on a GPU (an int, ``'gpu:x'``, a CUDAPlace; None: the current device, which is
    the CPU where there is no GPU)."""
    if device is None:
        _query.wait_for(_device.default_device())
    elif not _device.gpus():
        raise RuntimeError(
            f"paddle.device.cuda.synchronize: JAX sees no GPU on this machine, so GPU {device!r} cannot be "
            "synchronized; call it without a device (or paddle.device.synchronize()) to wait for the CPU's work."
        )
    else:
        _query.wait_for(_device.gpus()[_query.gpu_index(device, "paddle.device.cuda.synchronize")])


@deprecated(since="2.5.0", update_to="paddle.device.current_stream", level=1,
            reason="current_stream in paddle.device.cuda will be removed in future")
def current_stream(device: Any = None) -> Stream:
    """The current stream of a GPU (an int, ``'gpu:x'``, a CUDAPlace; None: the current device)."""
    if device is not None and not isinstance(device, int | str | _device.CUDAPlace):
        raise ValueError(
            f"paddle.device.cuda.current_stream: device must be an int, a str or a paddle.CUDAPlace, but received "
            f"{type(device).__name__}."
        )
    return _streams.current_stream(device)


@deprecated(since="2.5.0", update_to="paddle.device.stream_guard", level=1,
            reason="stream_guard in paddle.device.cuda will be removed in future")
@contextmanager
def stream_guard(stream: Stream | None) -> Iterator[None]:
    """Within the ``with`` block, ``stream`` (None: no change) is its device's current stream."""
    if stream is not None and not isinstance(stream, Stream):
        raise TypeError(
            f"paddle.device.cuda.stream_guard: stream type should be paddle.device.cuda.Stream, but received "
            f"{type(stream).__name__}."
        )
    with _streams.stream_guard(stream):
        yield


__all__ = [
    "Stream", "Event", "current_stream", "synchronize", "device_count", "empty_cache", "max_memory_allocated",
    "max_memory_reserved", "memory_allocated", "memory_reserved", "stream_guard", "get_device_properties",
    "get_device_name", "get_device_capability", "reset_max_memory_allocated", "reset_max_memory_reserved",
    "memory_summary", "vmm_compact",
]
