"""``paddle.text.viterbi_decode`` and ``ViterbiDecoder``: the best tag path of a linear-chain CRF.

Layer L8 (beside ``vision``). The forward recursion is one ``lax.scan`` over time for the whole batch: a
sequence past its length keeps its scores, so its last step's scores are the ones the path is read from. With
``include_bos_eos_tag`` the last tag is the start tag and the one before it the stop tag: row ``num_tags - 1`` of the
transitions is added to the first step's scores and row ``num_tags - 2`` to the last step's (the rows Paddle 3.3.1
reads; a sequence of length 0 gets no stop row, as there; tests/text/test_viterbi.py checks against its recorded
outputs). The path has ``max(lengths)`` columns;
positions past a sequence's length hold 0. As in Paddle, nothing here is differentiable (the outputs stop gradients).
"""

from __future__ import annotations

from functools import partial
from typing import Any

import jax
import jax.numpy as jnp
import numpy as np

from .._tensor.facade import Tensor
from ..nn.layer._layers import Layer

_API = "paddle.text.viterbi_decode"


@partial(jax.jit, static_argnames=("include",))
def _decode(pot: Any, trans: Any, lengths: Any, include: bool) -> tuple[Any, Any]:
    n = pot.shape[2]
    alpha = pot[:, 0] + trans[n - 1] if include else pot[:, 0]

    def step(alpha: Any, xs: Any) -> tuple[Any, Any]:
        t, emit = xs
        cand = alpha[:, :, None] + trans[None]  # [batch, from, to]
        best = jnp.argmax(cand, axis=1)
        live = (t < lengths)[:, None]
        return jnp.where(live, jnp.max(cand, axis=1) + emit, alpha), best

    steps = jnp.arange(1, pot.shape[1])
    alpha, back = jax.lax.scan(step, alpha, (steps, jnp.swapaxes(pot[:, 1:], 0, 1)))  # back: [time-1, batch, to]
    if include:  # the stop row scores the last step of each non-empty sequence
        alpha = alpha + jnp.where((lengths > 0)[:, None], trans[n - 2][None], 0)
    scores = jnp.max(alpha, axis=1)
    last = jnp.argmax(alpha, axis=1)

    def trace(cur: Any, xs: Any) -> tuple[Any, Any]:
        t, ptr = xs  # the pointers that lead from step t to step t - 1
        live = t < lengths
        tag = jnp.where(live, cur, 0)
        prev = jnp.take_along_axis(ptr, cur[:, None], axis=1)[:, 0]
        return jnp.where(live, prev, cur), tag

    first, tags = jax.lax.scan(trace, last, (steps, back), reverse=True)
    path = jnp.concatenate([jnp.where(lengths > 0, first, 0)[:, None], jnp.swapaxes(tags, 0, 1)], axis=1)
    return scores, path.astype(jnp.int64)


def _check(what: str, x: Any) -> Any:
    if not isinstance(x, Tensor):
        raise TypeError(f"{_API}: {what} must be a Tensor, but received {type(x).__name__}; make one with "
                        "paddle.to_tensor(...).")
    return x._value


def viterbi_decode(potentials: Tensor, transition_params: Tensor, lengths: Tensor, include_bos_eos_tag: bool = True,
                   name: str | None = None) -> tuple[Tensor, Tensor]:
    """The highest-scoring tag path of each sequence and its score.

    ``potentials`` [batch, seq_len, num_tags] (float32/float64) are the emission scores, ``transition_params``
    [num_tags, num_tags] (same dtype) the score of moving from tag i (row) to tag j (column), ``lengths`` [batch]
    (int64) each sequence's length (at most seq_len). Returns ``(scores [batch], paths [batch, max(lengths)])``, the
    paths int64 with 0 past each sequence's end. With ``include_bos_eos_tag`` the last tag is the start tag and the
    one before it the stop tag (their transition rows score the first and the last step).
    """
    pot, trans, lens = _check("potentials", potentials), _check("transition_params", transition_params), \
        _check("lengths", lengths)
    if not isinstance(include_bos_eos_tag, bool):
        raise TypeError(f"{_API}: include_bos_eos_tag must be a bool, but received "
                        f"{type(include_bos_eos_tag).__name__} ({include_bos_eos_tag!r}).")
    if pot.ndim != 3:
        raise ValueError(f"{_API}: potentials must be 3-D [batch_size, seq_len, num_tags], but received shape "
                         f"{list(pot.shape)}.")
    if trans.shape != (pot.shape[2], pot.shape[2]):
        raise ValueError(f"{_API}: transition_params must have shape [num_tags, num_tags] = "
                         f"[{pot.shape[2]}, {pot.shape[2]}] (num_tags from potentials), but received "
                         f"{list(trans.shape)}.")
    if lens.shape != (pot.shape[0],):
        raise ValueError(f"{_API}: lengths must have shape [batch_size] = [{pot.shape[0]}], but received "
                         f"{list(lens.shape)}.")
    kind = np.dtype(pot.dtype).name
    if kind not in ("float32", "float64"):
        raise RuntimeError(f"{_API}: potentials must be float32 or float64 (the dtypes Paddle's kernel has), but "
                           f"received {kind}; cast it with potentials.astype('float32').")
    if np.dtype(trans.dtype).name != kind:
        raise ValueError(f"{_API}: transition_params must have the dtype of potentials ({kind}), but received "
                         f"{np.dtype(trans.dtype).name}; cast it first.")
    if np.dtype(lens.dtype).name != "int64":
        raise ValueError(f"{_API}: lengths must be int64, but received {np.dtype(lens.dtype).name}; cast it with "
                         "lengths.astype('int64').")
    host = np.asarray(lens)
    if host.size and (host.max() > pot.shape[1] or host.min() < 0):
        raise IndexError(f"{_API}: every length must be in [0, seq_len] = [0, {pot.shape[1]}], but received "
                         f"{host.tolist()}.")
    if include_bos_eos_tag and pot.shape[2] < 2:
        raise ValueError(f"{_API}: include_bos_eos_tag=True needs at least 2 tags (the start and stop tags are the "
                         f"last two), but num_tags is {pot.shape[2]}.")
    scores, path = _decode(pot, trans, lens, include_bos_eos_tag)
    width = int(host.max()) if host.size else 0
    return Tensor(scores, True, None, name), Tensor(path[:, :width], True)


class ViterbiDecoder(Layer):
    """``viterbi_decode`` with the transitions held by the layer: ``decoder(potentials, lengths)`` returns
    ``(scores, paths)``. ``transitions`` is kept as given (an attribute, not a parameter, as in Paddle)."""

    def __init__(self, transitions: Tensor, include_bos_eos_tag: bool = True, name: str | None = None) -> None:
        super().__init__()
        self.transitions = transitions
        self.include_bos_eos_tag = include_bos_eos_tag
        self.name = name

    def forward(self, potentials: Tensor, lengths: Tensor) -> tuple[Tensor, Tensor]:
        return viterbi_decode(potentials, self.transitions, lengths, self.include_bos_eos_tag, self.name)
