"""Plain-numpy references of fractional max pooling and the RNN-T loss (used by ``op_samples`` and
``tests/nn/test_fractional_pool_rnnt.py``).

The pooling regions follow Paddle 3.3.1's CPU kernel, computed in float32 as it does (checked against the oracle
on 400 random shapes, output sizes, kernel sizes and ``u``); the max is found by walking each region in row-major
order, as the kernel does. The RNN-T loss is the forward (alpha) recursion over the lattice, one point at a time,
and its gradient the alpha-beta formula, label emissions scaled by ``1 + fastemit_lambda``.
"""

from __future__ import annotations

import itertools

import numpy as np

F32 = np.float32
FLT_MAX = float(np.finfo(np.float32).max)


def _trunc(v: float) -> int:
    return -(2**31) if not np.isfinite(v) or abs(v) >= 2**31 else int(v)  # x86's float -> int32 conversion


def fractional_regions(size: int, out: int, k: int, u: float) -> list[tuple[int, int]]:
    """[start, end) of each pooling region of one spatial dim."""
    u = F32(u)
    with np.errstate(divide="ignore", invalid="ignore"):
        alpha = F32(size - k) / F32(out - (1 if k > 0 else 0))
        if k == 0:
            base = size // out
            u = F32(u * min(F32(base + 2) / alpha - F32(1), F32(size + 1 - base) / alpha - F32(out - 1)))
        shift = _trunc(F32(u * alpha))
        res = []
        for i in range(out):
            start = _trunc(F32(F32(i) + u) * alpha) - shift
            end = start + k if k > 0 else _trunc(F32(F32(i + 1) + u) * alpha) - shift
            res.append((max(start, 0), min(end, size)))
    return res


def fractional_max_pool(x: np.ndarray, random_u: float, output_size: int | list[int | None],
                        kernel_size: int | list[int] | None = None) -> tuple[np.ndarray, np.ndarray]:
    """(pooled values, int32 flat indices) of a channel-first ``x`` with ``len(output_size)`` spatial dims."""
    sp = x.shape[2:]
    n = len(sp)
    sizes = [output_size] * n if isinstance(output_size, int) else output_size
    out = [sp[d] if v is None else v for d, v in enumerate(sizes)]
    k = [0] * n if kernel_size is None else ([kernel_size] * n if isinstance(kernel_size, int) else list(kernel_size))
    regions = [fractional_regions(sp[d], out[d], k[d], float(np.asarray(random_u))) for d in range(n)]
    res = np.zeros(x.shape[:2] + tuple(out), x.dtype)
    mask = np.zeros(x.shape[:2] + tuple(out), np.int32)
    for b, c in itertools.product(range(x.shape[0]), range(x.shape[1])):
        for o in itertools.product(*[range(v) for v in out]):
            best, idx = x.dtype.type(-FLT_MAX), -1
            for p in itertools.product(*[range(*regions[d][o[d]]) for d in range(n)]):
                if best < x[(b, c, *p)]:
                    best, idx = x[(b, c, *p)], int(np.ravel_multi_index(p, sp))
            res[(b, c, *o)], mask[(b, c, *o)] = best, idx
    return res, mask


def rnnt(x: np.ndarray, label: np.ndarray, input_lengths: np.ndarray, label_lengths: np.ndarray, blank: int = 0,
         fastemit_lambda: float = 0.001) -> tuple[np.ndarray, np.ndarray]:
    """(per-sequence loss [B], its gradient [B, T, U + 1, D]) of ``x`` taken as log-probabilities."""
    x = np.asarray(x, np.float64)
    loss = np.zeros(x.shape[0])
    grad = np.zeros(x.shape)
    for b in range(x.shape[0]):
        t_len, u_len = int(input_lengths[b]), int(label_lengths[b])
        lp, lab = x[b], label[b]
        alpha = np.full((t_len, u_len + 1), -np.inf)
        for t in range(t_len):
            for u in range(u_len + 1):
                if t == 0 and u == 0:
                    alpha[t, u] = 0.0
                    continue
                terms = []
                if t > 0:
                    terms.append(alpha[t - 1, u] + lp[t - 1, u, blank])
                if u > 0:
                    terms.append(alpha[t, u - 1] + lp[t, u - 1, lab[u - 1]])
                alpha[t, u] = np.logaddexp.reduce(terms)
        beta = np.full((t_len, u_len + 1), -np.inf)
        for t in range(t_len - 1, -1, -1):
            for u in range(u_len, -1, -1):
                if t == t_len - 1 and u == u_len:
                    beta[t, u] = lp[t, u, blank]
                    continue
                terms = []
                if t < t_len - 1:
                    terms.append(beta[t + 1, u] + lp[t, u, blank])
                if u < u_len:
                    terms.append(beta[t, u + 1] + lp[t, u, lab[u]])
                beta[t, u] = np.logaddexp.reduce(terms)
        ll = alpha[t_len - 1, u_len] + lp[t_len - 1, u_len, blank]
        loss[b] = -ll
        for t in range(t_len):
            for u in range(u_len + 1):
                nxt = 0.0 if (t == t_len - 1 and u == u_len) else (beta[t + 1, u] if t < t_len - 1 else -np.inf)
                grad[b, t, u, blank] -= np.exp(alpha[t, u] + lp[t, u, blank] + nxt - ll)
                if u < u_len:
                    grad[b, t, u, lab[u]] -= (1 + fastemit_lambda) * np.exp(alpha[t, u] + lp[t, u, lab[u]]
                                                                            + beta[t, u + 1] - ll)
    return loss, grad
