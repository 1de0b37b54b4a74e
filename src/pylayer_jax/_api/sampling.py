"""``paddle.tensor.top_p_sampling`` (layer L5): Paddle 3.3.1's arguments over the ``random_top_p`` kernel of
``_ops.sampling`` (which documents the rule), also the Tensor method ``x.top_p_sampling(ps, ...)``.

Paddle 3.3.1 registers this op for GPUs only: on a CPU every call is a RuntimeError (``The kernel top_p_sampling is
not registered``). Here it runs on any device with the GPU kernel's rule; its random draws come from pylayer_jax's
generator (reproducible after ``paddle.seed``, or with ``seed``/``topp_seed``), so they are not the GPU's curand
numbers. Where the drawn token falls below ``threshold``, Paddle's two GPU passes disagree (the pass over the 20 most
probable tokens takes the least probable token still at or above it, the pass over the whole row a random one of
those); here it is always the former.
"""

from __future__ import annotations

import operator
from typing import Any

import jax
import jax.numpy as jnp
import numpy as np

from .._ops.table import TABLE
from .._tensor.dispatch import apply_op
from .._tensor.facade import Tensor
from .random import random_key

_FLOATS = ("float16", "bfloat16", "float32", "float64")
_API = "paddle.tensor.top_p_sampling"


def _rows(what: str, t: Any, n: int, kinds: tuple[str, ...], kind_text: str) -> Tensor | None:
    """An optional per-row input: a Tensor of ``n`` values (shape ``[n]`` or ``[n, 1]``)."""
    if t is None:
        return None
    if not isinstance(t, Tensor):
        raise TypeError(f"{_API}: {what} must be a Tensor of {kind_text} (one per row of x), but received "
                        f"{type(t).__name__}. Make one with paddle.to_tensor(...), e.g. paddle.full([{n}], ...).")
    if t.dtype.name not in kinds:
        raise TypeError(f"{_API}: {what} must be a Tensor of {kind_text}, but its dtype is {t.dtype.name}. Cast it "
                        f"with {what}.astype('{kinds[-1] if kinds[-1] == 'int64' else 'float32'}').")
    if list(t.shape) not in ([n], [n, 1]):
        raise ValueError(f"{_API}: {what} must hold one value per row of x, shape [{n}] or [{n}, 1], but has shape "
                         f"{list(t.shape)}. Pass {n} values.")
    return t


def top_p_sampling(x: Tensor, ps: Tensor, threshold: Tensor | None = None, topp_seed: Tensor | None = None,
                   seed: int = -1, k: int = 0, mode: str = "truncated", return_top: bool = False,
                   name: str | None = None) -> tuple[Tensor, ...]:
    """Draw one token per row of the probabilities ``x`` (``[batch, vocab]``, float16, bfloat16, float32 or float64)
    from the smallest set of most probable tokens whose probabilities sum to the row's ``ps`` (``[batch]`` or
    ``[batch, 1]``): ``(values [batch, 1], ids [batch, 1] int64)``, the drawn probabilities and token indices.

    ``mode`` 'truncated' cuts the last token's probability where the sum passes ``ps``; 'non-truncated' keeps it
    whole. Tokens below the row's ``threshold`` are not drawn. ``seed`` (not -1) fixes the draw (every row then uses
    the same random stream, as in Paddle), ``topp_seed`` (int64, one per row) fixes each row's; otherwise the global
    generator draws (``paddle.seed``). With ``return_top``, the ``k`` most probable tokens of each row follow:
    ``(values, ids, topk_scores [batch, k], topk_ids [batch, k] int64)``. Nothing here has a gradient."""
    if not isinstance(x, Tensor):
        raise TypeError(f"{_API}: x must be a Tensor of probabilities [batch, vocab], but received "
                        f"{type(x).__name__}. Make one with paddle.to_tensor(...) first.")
    if x.dtype.name not in _FLOATS:
        raise TypeError(f"{_API}: x must be a floating Tensor of probabilities (float16, bfloat16, float32 or "
                        f"float64), but its dtype is {x.dtype.name}. Pass probabilities, e.g. "
                        "paddle.nn.functional.softmax(logits.astype('float32')).")
    if x.ndim != 2:
        raise ValueError(f"{_API}: x must be 2-D [batch, vocab] (one row of probabilities per query), but has shape "
                         f"{list(x.shape)}. Reshape it to [-1, vocab].")
    n, vocab = x.shape
    if ps is None:
        raise TypeError(f"{_API}: ps must be a Tensor of the top-p values (one per row of x), but received None. "
                        f"Pass e.g. paddle.full([{n}], 0.9).")
    ps = _rows("ps", ps, n, _FLOATS, "floating top-p values")
    threshold = _rows("threshold", threshold, n, _FLOATS, "floating probabilities")
    topp_seed = _rows("topp_seed", topp_seed, n, ("int32", "int64"), "int64 seeds")
    if isinstance(seed, bool) or not isinstance(seed, int | np.integer):
        raise TypeError(f"{_API}: seed must be an int (-1: the global generator draws), but received {seed!r}.")
    if isinstance(k, bool) or not isinstance(k, int | np.integer):
        raise TypeError(f"{_API}: k must be an int (how many of the most probable tokens to return), but received "
                        f"{k!r}.")
    k = operator.index(k)
    if not 0 <= k <= vocab:
        raise ValueError(f"{_API}: k must be in [0, vocab({vocab})], but received {k}. Pass at most the number of "
                         "tokens in a row.")
    if mode not in ("truncated", "non-truncated"):
        raise ValueError(f"{_API}: mode must be 'truncated' or 'non-truncated', but received {mode!r}.")
    seed = operator.index(seed)
    if topp_seed is not None:  # (the rows' own seeds: the generator is not drawn from)
        key, same = jnp.zeros((2,), jnp.int64), False
    elif seed == -1:
        key, same = random_key(), False
    else:
        key, same = jax.random.PRNGKey(seed).astype(jnp.int64), True
    out = apply_op(TABLE["random_top_p"], (key, x, ps, threshold, topp_seed),
                   {"mode": mode, "k": k, "same": same})
    return tuple(out) if return_top else (out[0], out[1])


Tensor.top_p_sampling = top_p_sampling  # type: ignore[attr-defined]
