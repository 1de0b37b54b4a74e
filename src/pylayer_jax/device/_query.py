"""What ``paddle.device`` and ``paddle.device.cuda`` tell about the machine: device counts and types, GPU
properties and memory, synchronisation, the generator (layer L5).

JAX's devices stand for Paddle's: GPUs are ``jax.devices("gpu")`` (``gpu:n`` is the n-th), their properties come
from the ``jax.Device`` (``device_kind``, ``compute_capability``, ``core_count``) and their memory from
``jax.Device.memory_stats()``. Where JAX sees no GPU, the answers and errors are those of Paddle 3.3.1's CPU build:
no devices, and ValueError from the memory and property queries.

Memory: *allocated* is the bytes the GPU's arrays take (``bytes_in_use``), *reserved* the bytes XLA's allocator
holds (``pool_bytes``: XLA takes a large share of the GPU at start unless ``XLA_PYTHON_CLIENT_PREALLOCATE=false``).
JAX keeps one peak per device and cannot reset it, so after ``reset_max_memory_*`` the peak is exact once usage
passes the peak from before the reset, and below it is the highest usage seen at the reset and at later queries.
``empty_cache`` does nothing: XLA's allocator gives no way to hand its pool back.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any

import jax
from jax._src.lib import cuda_versions as _cuda_versions  # (None without JAX's CUDA plugin)

from .._api import random as _random
from .._exec import deferred as _deferred
from .._runtime import device as _device

# ---- device lists ----------------------------------------------------------------------------------------------


def device_count() -> int:
    """How many GPUs JAX sees (0 without one).

    >>> import jax, pylayer_jax as paddle
    >>> paddle.device.device_count() == len([d for d in jax.devices() if d.platform == "gpu"])
    True
    """
    return len(_device.gpus())


def is_available() -> bool:
    """Whether there is a GPU (``device_count() >= 1``)."""
    return device_count() >= 1


def current_device() -> int:
    """The index of the device new tensors go to: ``n`` for ``gpu:n``, 0 for the CPU (as Paddle)."""
    name = _device.get_device()
    return int(name.split(":")[1]) if ":" in name else 0


def get_all_device_type() -> list[str]:
    """The device types besides the CPU: ``['gpu']`` where JAX sees a GPU, else ``[]`` (Paddle's CPU build)."""
    return ["gpu"] if _device.gpus() else []


def get_available_device() -> list[str]:
    """The devices besides the CPU: ``['gpu:0', 'gpu:1', ...]``, or ``[]`` without a GPU."""
    return [f"gpu:{i}" for i in range(device_count())]


def get_all_custom_device_type() -> list[str]:
    """``[]``: there are no Paddle custom-device plugins here."""
    return []


def get_available_custom_device() -> list[str]:
    """``[]``: there are no Paddle custom-device plugins here."""
    return []


def is_compiled_with_cinn() -> bool:
    """False: there is no CINN compiler here (XLA compiles)."""
    return False


def is_compiled_with_ipu() -> bool:
    """False: there are no Graphcore IPUs under JAX."""
    return False


def is_compiled_with_distribute() -> bool:
    """True, as Paddle's builds answer: ``paddle.distributed`` imports (training stays in one process)."""
    return True


def is_compiled_with_custom_device(device_type: str) -> bool:
    """False for every ``device_type``: there are no Paddle custom-device plugins here."""
    if not isinstance(device_type, str):
        raise TypeError(
            f"is_compiled_with_custom_device: device_type must be a str such as 'npu', but received "
            f"{type(device_type).__name__}."
        )
    return False


def get_cudnn_version() -> int | None:
    """The cuDNN version JAX's CUDA plugin loaded (like 90100 for 9.1.0), or None without a CUDA GPU."""
    if not _device.is_compiled_with_cuda() or _cuda_versions is None:
        return None
    try:
        v = int(_cuda_versions.cudnn_get_version())
    except Exception:  # noqa: BLE001  (a plugin without the query: the version is unknown)
        return None
    return v if v > 0 else None


# ---- which GPU an argument names -----------------------------------------------------------------------------


def _cpu_only(api: str) -> ValueError:
    return ValueError(
        f"The API {api} is not supported in CPU-only PaddlePaddle, and JAX sees no GPU on this machine; run on a "
        f"machine with a GPU and a CUDA build of jaxlib to call it."
    )


def gpu_index(device: Any, api: str, plain_gpu: bool = True) -> int:
    """The GPU ``device`` names: None (the current GPU: the default device if it is one, else GPU 0), an int, a
    ``CUDAPlace``, a ``jax.Device``, or ``'gpu:n'``/``'cuda:n'`` (``'gpu'`` too when ``plain_gpu``)."""
    devs = _device.gpus()
    if not devs:
        raise _cpu_only(api)
    if device is None:
        name = _device.get_device()
        idx = int(name.split(":")[1]) if name.startswith("gpu:") else 0
    elif isinstance(device, int) and not isinstance(device, bool):
        idx = device
    elif isinstance(device, _device.CUDAPlace):
        idx = device.device_id
    elif isinstance(device, jax.Device) and device in devs:
        idx = devs.index(device)
    elif isinstance(device, str) and device.strip().lower().replace("cuda", "gpu").startswith("gpu:"):
        num = device.strip().split(":", 1)[1]
        if not num.isdigit():
            raise ValueError(f"{api}: the device must be a string like 'gpu:x', but received {device!r}.")
        idx = int(num)
    elif isinstance(device, str) and plain_gpu and device.strip().lower() in ("gpu", "cuda"):
        idx = 0
    else:
        raise ValueError(
            f"{api}: the device must be an int, a string like 'gpu:x', or a paddle.CUDAPlace, but received "
            f"{device!r}."
        )
    if not 0 <= idx < len(devs):
        raise ValueError(f"{api}: GPU {idx} does not exist; JAX sees {len(devs)} GPU(s) (0 .. {len(devs) - 1}).")
    return idx


# ---- memory --------------------------------------------------------------------------------------------------

# (GPU index, "allocated" | "reserved") -> [the device's peak at the reset, the highest usage seen since]
_since_reset: dict[tuple[int, str], list[int]] = {}
_reset_lock = threading.Lock()


def _usage(idx: int, kind: str, api: str) -> tuple[int, int]:
    """(current, peak) bytes of ``kind`` on GPU ``idx``, from ``memory_stats()``."""
    stats = _device.gpus()[idx].memory_stats()
    if not stats:
        raise ValueError(f"{api}: GPU {idx} reports no memory statistics (its JAX plugin gives none).")
    cur, peak = int(stats.get("bytes_in_use", 0)), int(stats.get("peak_bytes_in_use", 0))
    if kind == "reserved" and "pool_bytes" in stats:
        cur, peak = int(stats["pool_bytes"]), int(stats.get("peak_pool_bytes", stats["pool_bytes"]))
    return cur, max(peak, cur)


def _current(kind: str, device: Any, api: str) -> int:
    idx = gpu_index(device, api, plain_gpu=False)
    return _usage(idx, kind, api)[0]


def _peak(kind: str, device: Any, api: str) -> int:
    idx = gpu_index(device, api, plain_gpu=False)
    cur, peak = _usage(idx, kind, api)
    with _reset_lock:
        mark = _since_reset.get((idx, kind))
        if mark is None:
            return peak
        mark[1] = max(mark[1], cur)
        return peak if peak > mark[0] else mark[1]


def _reset(kind: str, device: Any, api: str) -> None:
    idx = gpu_index(device, api, plain_gpu=False)
    cur, peak = _usage(idx, kind, api)
    with _reset_lock:
        _since_reset[(idx, kind)] = [peak, cur]


def _memory_api(kind: str, what: str, prefix: str) -> Callable[..., Any]:
    name = {"current": f"memory_{kind}", "max": f"max_memory_{kind}", "reset": f"reset_max_memory_{kind}"}[what]
    api = f"{prefix}.{name}"
    if what == "current":
        def fn(device: Any = None) -> int:
            return _current(kind, device, api)
        doc = f"The bytes of GPU memory {_WORDS[kind]} now."
    elif what == "max":
        def fn(device: Any = None) -> int:
            return _peak(kind, device, api)
        doc = f"The peak bytes of GPU memory {_WORDS[kind]} (since the last ``reset_max_memory_{kind}``)."
    else:
        def fn(device: Any = None) -> None:
            _reset(kind, device, api)
        doc = f"Start the peak of ``max_memory_{kind}`` again from the current usage."
    fn.__name__ = fn.__qualname__ = name
    fn.__doc__ = doc + (" ``device``: None (the current GPU), an int, ``'gpu:x'`` or a CUDAPlace. Raises "
                        "ValueError where JAX sees no GPU, as Paddle's CPU build does.")
    return fn


_WORDS = {"allocated": "that arrays take", "reserved": "that XLA's allocator holds"}


def memory_functions(prefix: str) -> dict[str, Callable[..., Any]]:
    """The memory queries, with ``prefix`` (``paddle.device`` or ``paddle.device.cuda``) in their messages."""
    out = {}
    for kind in ("allocated", "reserved"):
        for what in ("current", "max", "reset"):
            fn = _memory_api(kind, what, prefix)
            out[fn.__name__] = fn
    return out


def reset_peak_memory_stats(device: Any = None) -> None:
    """Start both peaks (allocated and reserved) again from the current usage (Paddle's resets the allocated one
    only, though its name says every peak)."""
    _reset("allocated", device, "paddle.device.reset_peak_memory_stats")
    _reset("reserved", device, "paddle.device.reset_peak_memory_stats")


def empty_cache() -> None:
    """Nothing to do: XLA's allocator keeps its pool (arrays' memory is freed when they are)."""


# ---- properties ----------------------------------------------------------------------------------------------


class _gpuDeviceProperties:  # noqa: N801  (Paddle's name)
    """What ``get_device_properties`` returns: ``name``, ``major``, ``minor``, ``total_memory`` (bytes: what XLA
    may use of the GPU, its ``bytes_limit``), ``multi_processor_count``."""

    def __init__(self, name: str, major: int, minor: int, total_memory: int, multi_processor_count: int) -> None:
        self.name = name
        self.major = major
        self.minor = minor
        self.total_memory = total_memory
        self.multi_processor_count = multi_processor_count

    def __repr__(self) -> str:
        return (f"_gpuDeviceProperties(name='{self.name}', major={self.major}, minor={self.minor}, "
                f"total_memory={self.total_memory // (1024 * 1024)}MB, "
                f"multi_processor_count={self.multi_processor_count})")


def _properties(device: Any, api: str) -> _gpuDeviceProperties:
    d = _device.gpus()[gpu_index(device, api)] if _device.gpus() else None
    if d is None:
        raise _cpu_only(api)
    cc = str(getattr(d, "compute_capability", ""))
    major, _, minor = cc.partition(".")
    stats = d.memory_stats() or {}
    return _gpuDeviceProperties(str(d.device_kind), int(major) if major.isdigit() else 0,
                                int(minor) if minor.isdigit() else 0, int(stats.get("bytes_limit", 0)),
                                int(getattr(d, "core_count", 0) or 0))


def property_functions(prefix: str) -> dict[str, Callable[..., Any]]:
    """``get_device_properties``, ``get_device_name`` and ``get_device_capability`` named under ``prefix``."""
    api = f"{prefix}.get_device_properties"

    def get_device_properties(device: Any = None) -> _gpuDeviceProperties:
        """The GPU's name, compute capability, memory and multiprocessor count (ValueError without a GPU)."""
        return _properties(device, api)

    def get_device_name(device: Any = None) -> str:
        """The GPU's name, such as ``'NVIDIA H100 80GB HBM3'`` (ValueError without a GPU)."""
        return _properties(device, api).name

    def get_device_capability(device: Any = None) -> tuple[int, int]:
        """The GPU's compute capability as ``(major, minor)`` (ValueError without a GPU)."""
        p = _properties(device, api)
        return p.major, p.minor

    return {f.__name__: f for f in (get_device_properties, get_device_name, get_device_capability)}


# ---- synchronisation -----------------------------------------------------------------------------------------


def wait_for(dev: Any) -> None:
    """Run this thread's recorded ops, then wait until every live array on ``dev`` is computed."""
    _deferred.flush()
    for a in jax.live_arrays(dev.platform):
        try:
            if dev in a.devices():
                a.block_until_ready()
        except RuntimeError:  # an array deleted meanwhile (another thread): nothing to wait for
            continue


def ready(dev: Any) -> bool:
    """Whether nothing recorded or dispatched for ``dev`` is left to compute (no waiting)."""
    if not _deferred.idle():
        return False
    return all(a.is_ready() for a in jax.live_arrays(dev.platform) if not a.is_deleted() and dev in a.devices())


def synchronize(device: Any = None) -> None:
    """Wait until the work queued so far has run: this thread's recorded ops are run, then every array on the
    device (None: the current one; ``'cpu'``, ``'gpu:x'``, a Place) is waited for.

    Paddle's CPU build raises TypeError here; on this package the call has a meaning on any device (its ops are
    recorded and run later, and JAX dispatches asynchronously), so timing code that synchronises runs anywhere.
    """
    dev = _device.default_device() if device is None else _device.resolve(device, "paddle.device.synchronize")[1]
    wait_for(dev)


class device_guard:  # noqa: N801  (Paddle's name)
    """Within the ``with`` block, new tensors go to ``device`` (``'cpu'``, ``'gpu'``, ``'gpu:x'`` or a Place); the
    device before is restored after it.

    >>> import pylayer_jax as paddle
    >>> with paddle.device.device_guard("cpu"):
    ...     x = paddle.ones([2])
    >>> str(x.place)
    'Place(cpu)'
    """

    def __init__(self, device: Any) -> None:
        if not isinstance(device, str | _device.CPUPlace | _device.CUDAPlace):
            raise ValueError(
                f"paddle.device.device_guard: 'device' must be a string such as 'cpu' or 'gpu:0', or a Place, but "
                f"received {type(device).__name__}."
            )
        self._target = _device.resolve(device, "paddle.device.device_guard")[1]

    def __enter__(self) -> None:
        self._before = jax.config.jax_default_device
        jax.config.update("jax_default_device", self._target)

    def __exit__(self, *exc: object) -> None:
        jax.config.update("jax_default_device", self._before)


class device(device_guard):  # noqa: N801  (Paddle's name)
    """``paddle.device.device(d)`` (also ``paddle.cuda.device``): ``device_guard`` that also takes None (no change)
    and a device index (``gpu:<index>`` where a GPU is used; on a CPU-only machine the index names no device and
    nothing changes, as in Paddle's CPU build)."""

    def __init__(self, device: Any = None) -> None:
        if device is None or (isinstance(device, int) and not isinstance(device, bool) and not _has_gpu()):
            self._target = None
            return
        if isinstance(device, int) and not isinstance(device, bool):
            device = f"gpu:{device}"
        if not isinstance(device, str | _device.CPUPlace | _device.CUDAPlace):
            raise ValueError(f"paddle.device.device: The device specification {device} is invalid; pass a string "
                             "such as 'cpu' or 'gpu:0', a device index, a Place or None.")
        super().__init__(device)

    def __enter__(self) -> None:
        if self._target is not None:
            super().__enter__()

    def __exit__(self, *exc: object) -> None:
        if self._target is not None:
            super().__exit__(*exc)


def _has_gpu() -> bool:
    return any(d.platform == "gpu" for d in jax.devices())


# ---- the generator -------------------------------------------------------------------------------------------


def manual_seed(seed: int) -> None:
    """Seed the generator (one generator serves every device here, so this is ``paddle.seed``)."""
    _random.seed(int(seed))


def get_rng_state(device: Any = None) -> Any:
    """The generator's state (a Tensor to give ``set_rng_state``); one generator serves every device."""
    return _random.get_rng_state(device)[0]


def set_rng_state(new_state: Any, device: Any = None) -> None:
    """Restore a state from ``get_rng_state``: the draws that followed it repeat."""
    if isinstance(new_state, list | tuple):
        raise TypeError(
            f"set_rng_state: new_state must be one state from paddle.device.get_rng_state(), but received a "
            f"{type(new_state).__name__}; use paddle.set_rng_state for the list paddle.get_rng_state() returns."
        )
    _random.set_rng_state(new_state, device)
