"""Top-p (nucleus) sampling of the next token (Paddle's ``paddle.tensor.top_p_sampling``), as Paddle's GPU kernel
decides it (Paddle 3.3.1 has no CPU kernel for it; the public function is ``_api.sampling.top_p_sampling``).

Each row of ``x`` holds one query's token probabilities. They are ranked (most probable first, equal ones by their
position), summed in float32 in that order, and one token is drawn from the smallest prefix whose mass reaches the
row's ``ps``:

- ``"truncated"``: a uniform ``u`` in (0, 1] picks the first token whose running sum reaches ``u * ps``, so each token
  of the prefix is drawn with its probability, the last one's cut where the sum passes ``ps``; where the drawn token's
  probability is below the row's ``threshold``, the least probable token still at or above it is taken instead (the
  most probable one where none is);
- ``"non-truncated"``: every token of the prefix competes with its whole probability (zero below the threshold):
  the largest ``p / E`` with ``E`` exponential draws one with probability proportional to ``p``; where all are zero,
  the most probable token is taken.

A row whose probabilities never sum to its target gives its most probable token (Paddle's kernels do the same).
"""

from __future__ import annotations

import jax
import jax.numpy as jnp

from .table import defop


def _row_keys(key, seeds, n, same):  # noqa: ANN001, ANN202
    """One key per row: from each row's seed (``topp_seed``), one key for all rows (a fixed ``seed``: Paddle's
    rows then share one random stream), or ``n`` keys split from the call's key."""
    if seeds is not None:
        return jax.vmap(jax.random.PRNGKey)(seeds.reshape(-1))
    k = key.astype(jnp.uint32)
    return jnp.broadcast_to(k, (n, 2)) if same else jax.random.split(k, n)


@defop(("key", "x", "ps", "threshold", "seeds"), differentiable=False, method=False)
def random_top_p(key, x, ps, threshold=None, seeds=None, mode="truncated", k=0, same=False):
    """The drawn ``(value [B, 1], index [B, 1] int64)`` of each row of the probabilities ``x`` ``[B, V]`` and its
    ``k`` most probable ``(values [B, k], indices [B, k] int64)``."""
    n, v = x.shape
    keys = _row_keys(key, seeds, n, same)
    xf = x.astype(jnp.float32)  # (Paddle's kernel compares and adds in float)
    order = jnp.argsort(-xf, axis=-1, stable=True)  # most probable first, equal ones by position
    sp = jnp.take_along_axis(xf, order, axis=-1)
    cum = jnp.cumsum(sp, axis=-1)
    p = ps.reshape(-1).astype(jnp.float32)
    thr = jnp.zeros((n,), jnp.float32) if threshold is None else threshold.reshape(-1).astype(jnp.float32)
    rows = jnp.arange(n)
    if mode == "truncated":
        u = 1.0 - jax.vmap(lambda kk: jax.random.uniform(kk, (), jnp.float32))(keys)  # in (0, 1]
        hit = cum >= (u * p)[:, None]
        reached = hit.any(axis=-1)
        first = jnp.argmax(hit, axis=-1)
        below = sp[rows, first] < thr
        last_above = jnp.maximum(jnp.sum(sp >= thr[:, None], axis=-1) - 1, 0)
        pick = jnp.where(reached, jnp.where(below, last_above, first), 0)
    else:
        before = jnp.concatenate([jnp.zeros((n, 1), jnp.float32), cum[:, :-1]], axis=-1)  # the mass ranked above
        inside = before < p[:, None]
        reached = (cum >= p[:, None]).any(axis=-1)
        e = jax.vmap(lambda kk: jax.random.exponential(kk, (v,), jnp.float32))(keys)
        score = jnp.where(inside & (sp >= thr[:, None]), sp / e, 0.0)
        pick = jnp.where(reached & (score.max(axis=-1) > 0), jnp.argmax(score, axis=-1), 0)
    ids = order[rows, pick]
    top_ids = order[:, :k]
    return (x[rows, ids][:, None], ids[:, None].astype(jnp.int64), jnp.take_along_axis(x, top_ids, axis=-1),
            top_ids.astype(jnp.int64))
