"""The refusal of Paddle's keyword names by ``paddle.compat``'s torch-signature functions and layers."""

from __future__ import annotations

import functools
from typing import Any


def forbid(keys: set[str], name: str, paddle_name: str) -> Any:
    """Refuse Paddle's keyword names for the torch-signature function ``name``."""

    def wrap(fn: Any) -> Any:
        @functools.wraps(fn)
        def inner(*args: Any, **kwargs: Any) -> Any:
            found = sorted(k for k in keys if k in kwargs)
            if found:
                got = ", ".join(repr(k) for k in found)
                raise TypeError(f"paddle.compat.{name}() received unexpected keyword argument{'s' * (len(found) > 1)} "
                                f"{got}: it takes PyTorch's argument names (input, dim, ...). Use {paddle_name}() for "
                                "Paddle's names.")
            return fn(*args, **kwargs)

        return inner

    return wrap


