"""``paddle.tensor`` import path (layer L7): Paddle's tensor functions, ``paddle.tensor.<name>`` being
``paddle.<name>`` (``paddle.tensor.create_tensor``, ``paddle.tensor.top_p_sampling``, ``paddle.tensor.resize_``, ...,
whose Paddle 3.3.1 paths are here only, and every other function of the package's top level)."""

from __future__ import annotations

import sys
from typing import Any


def __getattr__(name: str) -> Any:  # noqa: ANN401  (PEP 562: looked up in the package on first use)
    value = None if name.startswith("_") else getattr(sys.modules[__package__], name, None)
    if not callable(value) or isinstance(value, type):  # (a function: no module, class, dtype or constant)
        raise AttributeError(f"module 'pylayer_jax.tensor' has no attribute {name!r} (it holds the tensor functions "
                             "of the package's top level, paddle.tensor.<name> being paddle.<name>)")
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    root = sys.modules[__package__]
    return sorted(n for n in dir(root) if not n.startswith("_") and callable(getattr(root, n, None))
                  and not isinstance(getattr(root, n, None), type))
