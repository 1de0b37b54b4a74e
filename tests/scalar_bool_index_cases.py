"""The scalar-bool index cases (``v[True]``), run by both sides.

``tests/record_paddle_scalar_bool_index.py`` runs them with real Paddle and stores the results in
``tests/data/paddle_scalar_bool_index.json``; ``tests/tensor/test_scalar_bool_index.py`` runs them with
pylayer_jax and compares. Each takes the library module (``paddle`` or ``pylayer_jax``).
"""

from __future__ import annotations

from typing import Any

INDICES = {"True": True, "False": False, "t0True": "t0True", "t0False": "t0False", "(1,True)": (1, True),
           "(True,1)": (True, 1), "(True,...,False)": (True, Ellipsis, False), "(None,True)": (None, True),
           "(True,[1,0])": (True, [1, 0]), "(slice,True)": (slice(0, 1), True)}


def index(paddle: Any, key: str) -> Any:
    """The index of case ``key`` (the ``t0`` cases: a 0-d bool Tensor)."""
    ix = INDICES[key]
    return paddle.to_tensor(ix == "t0True") if key.startswith("t0") else ix


def tensor(paddle: Any) -> Any:
    """The tensor every case indexes: float32 [2, 4], 0..7."""
    return paddle.arange(8).astype("float32").reshape([2, 4])
