"""``paddle.incubate.cc.fuse``: a matmul with its epilogue fused into one kernel (``matmul``), and the region
whose ops are fused (``by_register``). XLA fuses an elementwise epilogue into the matmul when the code is compiled,
so both are the plain computation here."""

from __future__ import annotations

import contextlib
import sys
from collections.abc import Callable, Iterator
from typing import Any

__all__ = ["by_register", "matmul"]


@contextlib.contextmanager
def by_register() -> Iterator[None]:
    """Within the ``with`` block the ops are fused into the preceding kernel (by XLA, when compiled)."""
    yield


def matmul(x: Any, w: Any, epilogue: Callable[[Any], Any], **kwargs: Any) -> Any:
    """``epilogue(paddle.matmul(x, w, **kwargs))``, the epilogue fused into the matmul."""
    root = sys.modules[__name__.split(".")[0]]
    if not callable(epilogue):
        raise TypeError(f"paddle.incubate.cc.fuse.matmul: epilogue must be callable, but received "
                        f"{type(epilogue).__name__}.")
    y = root.matmul(x, w, **kwargs)
    with by_register():
        return epilogue(y)
