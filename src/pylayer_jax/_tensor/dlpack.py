"""DLPack exchange: ``paddle.utils.dlpack.to_dlpack`` / ``from_dlpack`` (and ``paddle.from_dlpack``).

Layer L5. A Tensor's array goes out as a DLPack capsule; anything with ``__dlpack__`` (numpy,
torch, jax arrays, a Tensor) or a capsule comes in as a Tensor sharing the memory where the
producer allows it (JAX may copy).
"""

from __future__ import annotations

from typing import Any

import jax

from .facade import Tensor

_DEVICE = {"cpu": 1, "gpu": 2, "cuda": 2, "rocm": 10}


class _Capsule:
    """A bare DLPack capsule seen through the ``__dlpack__`` protocol (what JAX reads)."""

    def __init__(self, capsule: Any) -> None:
        self.capsule = capsule

    def __dlpack__(self, *args: Any, **kwargs: Any) -> Any:
        return self.capsule

    def __dlpack_device__(self) -> tuple[int, int]:
        return (_DEVICE.get(jax.default_backend(), 1), 0)


def to_dlpack(x: Tensor) -> Any:
    """A DLPack capsule of ``x``'s data.

    >>> import pylayer_jax as paddle
    >>> cap = paddle.utils.dlpack.to_dlpack(paddle.to_tensor([1.0, 2.0]))
    >>> paddle.utils.dlpack.from_dlpack(cap).tolist()
    [1.0, 2.0]
    """
    if not isinstance(x, Tensor):
        raise TypeError(f"to_dlpack: expected a Tensor, but received {type(x).__name__}.")
    return x.__dlpack__()


def from_dlpack(dlpack: Any) -> Tensor:
    """A Tensor from a DLPack capsule or any object with ``__dlpack__`` (stop_gradient=True)."""
    if isinstance(dlpack, Tensor):
        return Tensor(dlpack._value)
    if type(dlpack).__name__ == "PyCapsule":
        dlpack = _Capsule(dlpack)
    elif not hasattr(dlpack, "__dlpack__"):
        raise TypeError(
            f"from_dlpack: expected a DLPack capsule or an object with __dlpack__ (numpy, torch, jax arrays), but "
            f"received {type(dlpack).__name__}."
        )
    return Tensor(jax.dlpack.from_dlpack(dlpack))
