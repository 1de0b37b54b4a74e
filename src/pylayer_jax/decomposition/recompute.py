"""``paddle.decomposition.recompute``: ``auto_recompute``."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from . import _check

__all__ = ["auto_recompute"]


def auto_recompute(program: Any, inputs: Sequence[Any], outputs: Sequence[Any], grad_outputs: Sequence[Any],
                   fwd_op_end_idx: int, backward_op_start_idx: int,
                   recomputable_ops: Sequence[str] | None = None) -> tuple[Any, int]:
    """Choose the forward values the backward pass keeps and recompute the others in it; returns the program and
    the index of its last forward op. XLA makes this choice when the program is compiled (and
    ``paddle.distributed.fleet.utils.recompute`` / ``jax.checkpoint`` force it), so the program and the index come
    back unchanged (see the package's docstring)."""
    api = "paddle.decomposition.auto_recompute"
    _check.program(api, program)
    for name, vs in (("inputs", inputs), ("outputs", outputs), ("grad_outputs", grad_outputs)):
        _check.values(api, name, vs)
    _check.index(api, "fwd_op_end_idx", fwd_op_end_idx)
    _check.index(api, "backward_op_start_idx", backward_op_start_idx)
    if recomputable_ops is not None and (not isinstance(recomputable_ops, (list, tuple))
                                         or not all(isinstance(o, str) for o in recomputable_ops)):
        raise TypeError(f"{api}: recomputable_ops must be a list of op names (str) or None, but received "
                        f"{recomputable_ops!r}.")
    return program, fwd_op_end_idx
