"""NumPy's ``__array__(dtype, copy)`` protocol over an array that is already on the host (layer L0).

``copy=True`` must give a fresh, writable array (NumPy does not copy again); ``copy=False`` must not
copy, so a dtype change, which needs one, raises ``ValueError`` as NumPy's own arrays do.
"""

from __future__ import annotations

from typing import Any

import numpy as np


def as_numpy(a: np.ndarray, dtype: Any, copy: bool | None, what: str) -> np.ndarray:
    """``a`` (the host value of ``what``) as NumPy asked for it."""
    if dtype is not None and np.dtype(dtype) != a.dtype:
        if copy is False:
            raise ValueError(
                f"{what}.__array__: converting {a.dtype} to {np.dtype(dtype)} needs a copy, but copy=False was "
                "passed; allow a copy (copy=None or True) or ask for the tensor's own dtype."
            )
        return a.astype(dtype)  # a new array already
    return np.array(a, copy=True) if copy else a
