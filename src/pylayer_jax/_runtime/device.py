"""Devices and places: ``paddle.set_device``, ``CPUPlace``/``CUDAPlace``, ``is_compiled_with_*`` (layer L0).

Paddle's device strings (``"cpu"``, ``"gpu"``, ``"gpu:1"``) name JAX devices: ``gpu:n`` is
``jax.devices("gpu")[n]``. ``set_device`` makes that device JAX's default device, so new
arrays are placed there. Asking for a GPU where JAX sees none raises ``ValueError``, as
Paddle does on a CPU-only build.
"""

from __future__ import annotations

import re
from typing import Any

import jax

_PATTERN = re.compile(r"^(cpu|gpu)(?::(\d+))?$")


def gpus() -> list[Any]:
    """JAX's GPU devices (CUDA or ROCm), or [] on a CPU-only machine."""
    try:
        return list(jax.devices("gpu"))
    except RuntimeError:
        return []


def _platform_version() -> str:
    devs = gpus()
    return devs[0].client.platform_version.lower() if devs else ""


def is_compiled_with_cuda() -> bool:
    """Whether a CUDA GPU is usable (JAX sees a CUDA device here)."""
    return bool(gpus()) and "rocm" not in _platform_version()


def is_compiled_with_rocm() -> bool:
    """Whether a ROCm GPU is usable (JAX sees a ROCm device here)."""
    return bool(gpus()) and "rocm" in _platform_version()


def is_compiled_with_xpu() -> bool:
    """Always False: there are no Kunlun XPUs under JAX."""
    return False


def device_count() -> int:
    """How many GPUs JAX sees (``paddle.device.cuda.device_count()``)."""
    return len(gpus())


def resolve(device: Any, api: str) -> tuple[str, Any]:
    """``(paddle name, jax device)`` for a device string, a Place or a JAX device; raises if it does not exist."""
    if isinstance(device, CPUPlace | CUDAPlace):
        return repr(device)[6:-1], device.device()
    if isinstance(device, jax.Device):
        if device.platform == "cpu":
            return "cpu", device
        return f"gpu:{gpus().index(device)}", device
    if not isinstance(device, str):
        raise TypeError(
            f"{api}: the device must be a str such as 'cpu', 'gpu' or 'gpu:0' (or a Place), but received "
            f"{type(device).__name__}."
        )
    m = _PATTERN.match(device.strip().lower())
    if m is None:
        raise ValueError(
            f"{api}: the device must be a string like 'cpu', 'gpu' or 'gpu:x', but received {device!r}."
        )
    if m.group(1) == "cpu":
        return "cpu", jax.devices("cpu")[0]
    idx = int(m.group(2) or 0)
    devs = gpus()
    if not devs:
        raise ValueError(
            f"{api}: the device {device!r} is a GPU, but JAX sees no GPU on this machine (it is CPU-only). Use "
            "'cpu', or install a CUDA build of jaxlib on a machine with a GPU."
        )
    if idx >= len(devs):
        raise ValueError(f"{api}: the device {device!r} does not exist; JAX sees {len(devs)} GPU(s) (gpu:0 .. gpu:{len(devs) - 1}).")
    return f"gpu:{idx}", devs[idx]


class _PlaceQueries:
    """Paddle's ``Place`` queries (``x.place.is_gpu_place()``), shared by the two place classes."""

    def is_cpu_place(self) -> bool:
        return isinstance(self, CPUPlace)

    def is_gpu_place(self) -> bool:
        return isinstance(self, CUDAPlace)

    def gpu_device_id(self) -> int:
        """The GPU's number (Paddle's answer on another place: 0)."""
        return self.device_id if isinstance(self, CUDAPlace) else 0

    def is_cuda_pinned_place(self) -> bool:
        return False

    def is_xpu_place(self) -> bool:
        return False

    def is_custom_place(self) -> bool:
        return False

    def __str__(self) -> str:
        return repr(self)


class CPUPlace(_PlaceQueries):
    """The host CPU (``paddle.CPUPlace()``; also what ``x.place`` is for a tensor on it)."""

    def __repr__(self) -> str:
        return "Place(cpu)"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, CPUPlace)

    def __hash__(self) -> int:
        return hash("cpu")

    def device(self) -> Any:
        return jax.devices("cpu")[0]


class CUDAPlace(_PlaceQueries):
    """GPU number ``device_id`` (``paddle.CUDAPlace(0)``; also ``x.place`` for a tensor on it); needs a JAX GPU
    device."""

    def __init__(self, device_id: int = 0) -> None:
        devs = gpus()
        if device_id >= len(devs) or device_id < 0:
            raise RuntimeError(
                f"CUDAPlace({device_id}): JAX sees {len(devs)} GPU device(s) here, so GPU {device_id} cannot be used. "
                "Install a CUDA build of jaxlib on a machine with a GPU, or use paddle.CPUPlace()."
            )
        self.device_id = device_id
        self._device = devs[device_id]

    def __repr__(self) -> str:
        return f"Place(gpu:{self.device_id})"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, CUDAPlace) and other.device_id == self.device_id

    def __hash__(self) -> int:
        return hash(("gpu", self.device_id))

    def device(self) -> Any:
        return self._device


class CustomPlace(_PlaceQueries):
    """A device that is neither the CPU nor a CUDA GPU (a TPU, say): ``x.place`` for a tensor there, ``Place(tpu:0)``
    (Paddle's name for such a place)."""

    def __init__(self, kind: str, device_id: int = 0) -> None:
        self.kind, self.device_id = kind, device_id

    def __repr__(self) -> str:
        return f"Place({self.kind}:{self.device_id})"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, CustomPlace) and (other.kind, other.device_id) == (self.kind, self.device_id)

    def __hash__(self) -> int:
        return hash((self.kind, self.device_id))

    def is_custom_place(self) -> bool:
        return True


def set_device(device: str) -> CPUPlace | CUDAPlace:
    """Make ``device`` (``'cpu'``, ``'gpu'``, ``'gpu:x'``) where new tensors are placed; returns its Place."""
    name, dev = resolve(device, "paddle.device.set_device")
    jax.config.update("jax_default_device", dev)
    return CPUPlace() if name == "cpu" else CUDAPlace(int(name[4:]))


def default_device() -> Any:
    """The JAX device new arrays go to."""
    dev = jax.config.jax_default_device
    if dev is None:
        return jax.devices()[0]
    return jax.devices(dev)[0] if isinstance(dev, str) else dev


def get_device() -> str:
    """Where new tensors are placed: ``'cpu'`` or ``'gpu:x'``."""
    return resolve(default_device(), "paddle.device.get_device")[0]
