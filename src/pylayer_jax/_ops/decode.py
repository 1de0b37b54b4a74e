"""Beam-search decoding ops (``paddle.nn.functional.gather_tree``; layer L1)."""

from __future__ import annotations

import jax.numpy as jnp
import numpy as np
from jax import lax

from .checks import ValueCheck, dtype_of
from .table import defop


def _gather_tree_checks(op: str, a: dict) -> list:
    ids, parents = a["ids"], a["parents"]
    for t, what in ((ids, "ids"), (parents, "parents")):
        dt = dtype_of(t)
        if dt is None or not np.issubdtype(dt, np.integer):
            raise TypeError(f"{op}: {what} must be an integer tensor (int32 or int64), but received "
                            f"{getattr(dt, 'name', type(t).__name__)}.")
        if len(t.shape) != 3:
            raise ValueError(f"{op}: {what} must be 3-D [max_time, batch_size, beam_size], but received shape "
                             f"{list(t.shape)}.")
    if list(ids.shape) != list(parents.shape):
        raise ValueError(f"{op}: ids and parents must have the same shape, but received {list(ids.shape)} and "
                         f"{list(parents.shape)}.")
    beam = ids.shape[2]
    return [ValueCheck(parents, f"{op}: parents holds {{value}}, which is not a beam index in [0, {beam}).",
                       lo=0, hi=beam)]


@defop(2, differentiable=False, method=False, checks=_gather_tree_checks)
def gather_tree(ids, parents):
    """The full beam sequences from per-step ``ids`` and ``parents`` (``[max_time, batch_size, beam_size]``):
    from the last step backwards, each beam follows its parent pointers and takes that beam's id."""
    last = parents.shape[0] - 1
    beams = jnp.broadcast_to(jnp.arange(ids.shape[2], dtype=parents.dtype), ids.shape[1:])

    def back(beam, t):  # (the beam each final hypothesis occupies at step t)
        out = jnp.take_along_axis(ids[t], beam, axis=1)
        parent = jnp.take_along_axis(parents[t], beam, axis=1)
        return parent, out

    _, outs = lax.scan(back, beams, jnp.arange(last, -1, -1))
    return outs[::-1].astype(ids.dtype)
