"""Pooling: max / avg / lp pools (1-3 D), adaptive pools, max_unpool (layer L1).

Windows are gathered as strided slices (one per kernel offset) and reduced along a new
last axis; this keeps every pool differentiable by JAX and gives max pools their argmax
(``return_mask``: the flat index into each channel's spatial input, as Paddle returns). As Paddle's kernels, a max
pool (plain, adaptive, and lp with an infinite norm) gives a window's gradient to its first maximum in row-major
order when several tie.

``saves`` lists the input and the output, as Paddle's pool kernels keep them (its max pools with
``return_mask`` keep the mask, of the output's shape, where these keep the values): the
derivative here reads the input for the max and lp pools, and nothing for the average pools,
whose kept values serve only saved-tensor hooks. max_unpool keeps the input, indices and output.
"""

from __future__ import annotations

import itertools
import math

import jax
import jax.numpy as jnp

from ._layout import check_format, check_ndim, from_channel_first, paddings, same_pads, to_channel_first, tup
from .checks import index_range
from .rows import MAP
from .table import defop


def _pool_args(api, n, x, kernel_size, stride, padding, ceil_mode, data_format):  # noqa: ANN001, ANN202
    check_ndim(api, x, n)
    cl = check_format(api, data_format, n)
    x = to_channel_first(x, cl)
    k = tup(api, "kernel_size", kernel_size, n)
    s = k if stride is None else tup(api, "stride", stride, n)
    size = tuple(x.shape[2:])
    pads = paddings(api, padding, n, cl)
    if pads == "SAME":
        pads = same_pads(size, k, s)
    elif pads == "VALID":
        pads = [(0, 0)] * n
    out = []
    for i in range(n):
        span = size[i] + pads[i][0] + pads[i][1] - k[i]
        if span < 0:
            raise ValueError(
                f"{api}: the padded input size {size[i] + sum(pads[i])} of spatial dim {i} is smaller than "
                f"kernel_size {k[i]}; pad more or use a smaller kernel."
            )
        o = (span + s[i] - 1) // s[i] + 1 if ceil_mode else span // s[i] + 1
        out.append(o)
    return x, cl, k, s, pads, tuple(out)


def _windows(x, k, s, pads, out, fill):  # noqa: ANN001, ANN202
    """[N, C, *out, prod(k)] windows of x (padded with ``fill``), plus in-bounds masks of the same shape."""
    n = len(k)
    extra = [max((out[i] - 1) * s[i] + k[i] - x.shape[2 + i] - pads[i][0], pads[i][1]) for i in range(n)]
    widths = [(0, 0), (0, 0)] + [(pads[i][0], extra[i]) for i in range(n)]
    xp = jnp.pad(x, widths, constant_values=fill)
    inb = jnp.pad(jnp.ones(x.shape[2:], bool), widths[2:], constant_values=False)
    wins, masks, offs = [], [], []
    for off in itertools.product(*[range(kk) for kk in k]):
        sl = tuple(slice(off[i], off[i] + (out[i] - 1) * s[i] + 1, s[i]) for i in range(n))
        wins.append(xp[(slice(None), slice(None)) + sl])
        masks.append(inb[sl])
        offs.append(off)
    return jnp.stack(wins, -1), jnp.stack(masks, -1), offs


def _flat_index(k, s, pads, out, size, offs, arg):  # noqa: ANN001, ANN202
    """Flat spatial input index of the chosen window element ``arg`` ([N, C, *out])."""
    n = len(k)
    offs_a = jnp.asarray(offs, jnp.int64)  # [K, n]
    flat = jnp.zeros(arg.shape, jnp.int64)
    for i in range(n):
        shape = [1] * (2 + n)
        shape[2 + i] = out[i]
        start = jnp.reshape(jnp.arange(out[i], dtype=jnp.int64) * s[i] - pads[i][0], shape)
        coord = start + offs_a[:, i][arg]
        flat = flat * size[i] + coord
    return flat


@jax.custom_jvp
def _window_max(w):  # noqa: ANN001, ANN202
    return jnp.max(w, axis=-1)


@_window_max.defjvp
def _window_max_jvp(primals, tangents):  # noqa: ANN001, ANN202
    (w,), (t,) = primals, tangents
    arg = jnp.argmax(w, axis=-1)[..., None]
    return jnp.take_along_axis(w, arg, axis=-1)[..., 0], jnp.take_along_axis(t, arg, axis=-1)[..., 0]


def _max_last(w):  # noqa: ANN001, ANN202
    """The maximum over the last (window) axis. A floating one's gradient goes to the window's first maximum (in
    row-major order), as Paddle's max pools give a tie's whole gradient, found by one ``argmax``: JAX's own rule
    for ``jnp.max`` compares the input with the maximum, and inside one program XLA may compute the input twice,
    rounding differently (a batch-normalised input's FMA contracted in one loop, not in the other), so that no
    element compared equal and the gradient was 0 / 0."""
    return _window_max(w) if jnp.issubdtype(w.dtype, jnp.floating) else jnp.max(w, axis=-1)


def max_pool_nd(api, n, x, kernel_size, stride, padding, return_mask, ceil_mode, data_format):  # noqa: ANN001, ANN202
    x, cl, k, s, pads, out = _pool_args(api, n, x, kernel_size, stride, padding, ceil_mode, data_format)
    w, _, offs = _windows(x, k, s, pads, out, -jnp.inf)
    res = _max_last(w)
    if not return_mask:
        return from_channel_first(res, cl)
    arg = jnp.argmax(w, axis=-1)
    mask = _flat_index(k, s, pads, out, tuple(x.shape[2:]), offs, arg).astype(jnp.int32)
    return from_channel_first(res, cl), from_channel_first(mask, cl)


def avg_pool_nd(api, n, x, kernel_size, stride, padding, ceil_mode, exclusive, divisor_override, data_format):  # noqa: ANN001, ANN202
    x, cl, k, s, pads, out = _pool_args(api, n, x, kernel_size, stride, padding, ceil_mode, data_format)
    w, inb, _ = _windows(x, k, s, pads, out, 0)
    total = jnp.sum(w, axis=-1)
    if exclusive:
        res = total / jnp.sum(inb, axis=-1).astype(x.dtype)
    else:
        # Paddle counts the explicit padding but not the ceil_mode overhang
        starts = [jnp.arange(out[i]) * s[i] - pads[i][0] for i in range(n)]
        cnt = jnp.ones((), x.dtype)
        for i in range(n):
            lo = starts[i]
            hi = jnp.minimum(lo + k[i], x.shape[2 + i] + pads[i][1])
            c = (hi - lo).astype(x.dtype)
            shape = [1] * n
            shape[i] = out[i]
            cnt = cnt * jnp.reshape(c, shape)
        res = total / cnt
    if divisor_override:  # Paddle rescales the pooled mean: mean * prod(kernel_size) / divisor_override
        res = res * (math.prod(k) / divisor_override)
    return from_channel_first(res.astype(x.dtype), cl)




@defop(1, saves=("x", "out0"), method=False, rows=MAP)
def max_pool1d(x, kernel_size, stride=None, padding=0, return_mask=False, ceil_mode=False):
    """Max over sliding windows of ``[N, C, L]``; ``return_mask`` also gives the argmax indices."""
    return max_pool_nd("max_pool1d", 1, x, kernel_size, stride, padding, return_mask, ceil_mode, "NCL")


@defop(1, saves=("x", "out0"), method=False, rows=MAP)
def max_pool2d(x, kernel_size, stride=None, padding=0, return_mask=False, ceil_mode=False, data_format="NCHW"):
    """Max over sliding windows of ``[N, C, H, W]`` (or NHWC)."""
    return max_pool_nd("max_pool2d", 2, x, kernel_size, stride, padding, return_mask, ceil_mode, data_format)


@defop(1, saves=("x", "out0"), method=False, rows=MAP)
def max_pool3d(x, kernel_size, stride=None, padding=0, return_mask=False, ceil_mode=False, data_format="NCDHW"):
    """Max over sliding windows of ``[N, C, D, H, W]`` (or NDHWC)."""
    return max_pool_nd("max_pool3d", 3, x, kernel_size, stride, padding, return_mask, ceil_mode, data_format)


@defop(1, saves=("x", "out"), method=False, rows=MAP)
def avg_pool1d(x, kernel_size, stride=None, padding=0, exclusive=True, ceil_mode=False):
    """Mean over sliding windows of ``[N, C, L]``; ``exclusive`` leaves padding out of the count."""
    return avg_pool_nd("avg_pool1d", 1, x, kernel_size, stride, padding, ceil_mode, exclusive, None, "NCL")


@defop(1, saves=("x", "out"), method=False, rows=MAP)
def avg_pool2d(x, kernel_size, stride=None, padding=0, ceil_mode=False, exclusive=True, divisor_override=None,
               data_format="NCHW"):
    """Mean over sliding windows of ``[N, C, H, W]`` (or NHWC)."""
    return avg_pool_nd("avg_pool2d", 2, x, kernel_size, stride, padding, ceil_mode, exclusive, divisor_override,
                       data_format)


@defop(1, saves=("x", "out"), method=False, rows=MAP)
def avg_pool3d(x, kernel_size, stride=None, padding=0, ceil_mode=False, exclusive=True, divisor_override=None,
               data_format="NCDHW"):
    """Mean over sliding windows of ``[N, C, D, H, W]`` (or NDHWC)."""
    return avg_pool_nd("avg_pool3d", 3, x, kernel_size, stride, padding, ceil_mode, exclusive, divisor_override,
                       data_format)


def lp_pool_nd(api, n, x, norm_type, kernel_size, stride, padding, ceil_mode, data_format):  # noqa: ANN001, ANN202
    if not isinstance(norm_type, int | float) or norm_type <= 0:
        raise ValueError(f"{api}: norm_type must be a positive number, but received {norm_type!r}.")
    x, cl, k, s, pads, out = _pool_args(api, n, x, kernel_size, stride, padding, ceil_mode, data_format)
    if math.isinf(norm_type):
        w, _, _ = _windows(x, k, s, pads, out, -jnp.inf)
        return from_channel_first(_max_last(w), cl)
    w, _, _ = _windows(x, k, s, pads, out, 0)
    return from_channel_first(jnp.sum(w**norm_type, axis=-1) ** (1.0 / norm_type), cl)


@defop(1, saves=("x", "out"), method=False)
def lp_pool1d(x, norm_type, kernel_size, stride=None, padding=0, ceil_mode=False, data_format="NCL"):
    """``(sum x^p)^(1/p)`` over sliding windows of ``[N, C, L]``."""
    return lp_pool_nd("lp_pool1d", 1, x, norm_type, kernel_size, stride, padding, ceil_mode, data_format)


@defop(1, saves=("x", "out"), method=False)
def lp_pool2d(x, norm_type, kernel_size, stride=None, padding=0, ceil_mode=False, data_format="NCHW"):
    """``(sum x^p)^(1/p)`` over sliding windows of ``[N, C, H, W]``."""
    return lp_pool_nd("lp_pool2d", 2, x, norm_type, kernel_size, stride, padding, ceil_mode, data_format)


# ---- adaptive pools ---------------------------------------------------------------------
def _adaptive_sizes(api, x, output_size, n):  # noqa: ANN001, ANN202
    vals = (output_size,) * n if isinstance(output_size, int) or output_size is None else tuple(output_size)
    if len(vals) != n:
        raise ValueError(f"{api}: output_size must be an int or {n} ints, but received {output_size!r}.")
    out = tuple(x.shape[-n + i] if v is None else v for i, v in enumerate(vals))
    if any(not isinstance(v, int) or v <= 0 for v in out):
        raise ValueError(f"{api}: output_size must be positive ints, but received {output_size!r}.")
    return out


def _bins(size, out):  # noqa: ANN001, ANN202
    """[out, size] membership of Paddle's adaptive bins: [floor(i*size/out), ceil((i+1)*size/out))."""
    i = jnp.arange(out)
    lo = (i * size) // out
    hi = -((-(i + 1) * size) // out)
    j = jnp.arange(size)
    return (j[None, :] >= lo[:, None]) & (j[None, :] < hi[:, None])


def adaptive_avg_nd(api, n, x, output_size, data_format):  # noqa: ANN001, ANN202
    check_ndim(api, x, n)
    cl = check_format(api, data_format, n)
    x = to_channel_first(x, cl)
    out = _adaptive_sizes(api, x, output_size, n)
    dtype = x.dtype
    if jnp.issubdtype(dtype, jnp.floating) and jnp.finfo(dtype).bits < 32:  # (Paddle accumulates in float32)
        x = x.astype(jnp.float32)
    for i in range(n):
        m = _bins(x.shape[2 + i], out[i]).astype(x.dtype)
        m = m / jnp.sum(m, axis=1, keepdims=True)
        x = jnp.moveaxis(jnp.tensordot(x, m, axes=([2 + i], [1])), -1, 2 + i)
    return from_channel_first(x.astype(dtype), cl)


def adaptive_max_nd(api, n, x, output_size, return_mask):  # noqa: ANN001, ANN202
    check_ndim(api, x, n)
    out = _adaptive_sizes(api, x, output_size, n)
    size = tuple(x.shape[2:])
    flat = jnp.reshape(jnp.arange(math.prod(size), dtype=jnp.int64), size)
    idx = jnp.broadcast_to(flat, x.shape)
    for i in reversed(range(n)):  # the innermost axis first: the first maximum in row-major order wins a tie
        ax = 2 + i
        m = _bins(size[i], out[i])  # [out, size]
        xe = jnp.expand_dims(jnp.moveaxis(x, ax, -1), -2)  # [..., 1, size]
        ie = jnp.expand_dims(jnp.moveaxis(idx, ax, -1), -2)
        masked = jnp.where(m, xe, -jnp.inf)
        arg = jnp.argmax(masked, axis=-1)
        x = jnp.moveaxis(_max_last(masked), -1, ax)
        idx = jnp.moveaxis(jnp.take_along_axis(jnp.broadcast_to(ie, masked.shape), arg[..., None], -1)[..., 0], -1, ax)
    return (x, idx.astype(jnp.int32)) if return_mask else x


@defop(1, saves=("x", "out"), method=False, rows=MAP)
def adaptive_avg_pool1d(x, output_size):
    """Mean over Paddle's adaptive bins of ``[N, C, L]`` giving length ``output_size``."""
    return adaptive_avg_nd("adaptive_avg_pool1d", 1, x, output_size, "NCL")


@defop(1, saves=("x", "out"), method=False, rows=MAP)
def adaptive_avg_pool2d(x, output_size, data_format="NCHW"):
    """Mean over adaptive bins of ``[N, C, H, W]`` (or NHWC); None in output_size keeps that size."""
    return adaptive_avg_nd("adaptive_avg_pool2d", 2, x, output_size, data_format)


@defop(1, saves=("x", "out"), method=False, rows=MAP)
def adaptive_avg_pool3d(x, output_size, data_format="NCDHW"):
    """Mean over adaptive bins of ``[N, C, D, H, W]`` (or NDHWC)."""
    return adaptive_avg_nd("adaptive_avg_pool3d", 3, x, output_size, data_format)


@defop(1, saves=("x", "out0"), method=False, rows=MAP)
def adaptive_max_pool1d(x, output_size, return_mask=False):
    """Max over adaptive bins of ``[N, C, L]``; ``return_mask`` also gives the argmax indices."""
    return adaptive_max_nd("adaptive_max_pool1d", 1, x, output_size, return_mask)


@defop(1, saves=("x", "out0"), method=False, rows=MAP)
def adaptive_max_pool2d(x, output_size, return_mask=False):
    """Max over adaptive bins of ``[N, C, H, W]``."""
    return adaptive_max_nd("adaptive_max_pool2d", 2, x, output_size, return_mask)


@defop(1, saves=("x", "out0"), method=False, rows=MAP)
def adaptive_max_pool3d(x, output_size, return_mask=False):
    """Max over adaptive bins of ``[N, C, D, H, W]``."""
    return adaptive_max_nd("adaptive_max_pool3d", 3, x, output_size, return_mask)


# ---- max_unpool ---------------------------------------------------------------------------
def _unpool_size(api, n, shape, kernel_size, stride, padding, output_size):  # noqa: ANN001, ANN202
    """The spatial output size of max_unpool (``output_size``'s last ``n`` numbers, within a stride of the
    default ``(in - 1) * stride - pads + kernel``)."""
    k = tup(api, "kernel_size", kernel_size, n)
    s = k if stride is None else tup(api, "stride", stride, n)
    pads = paddings(api, padding, n)
    if isinstance(pads, str):
        raise ValueError(f"{api}: padding must be sizes, but received {padding!r}.")
    default = tuple((shape[2 + i] - 1) * s[i] - pads[i][0] - pads[i][1] + k[i] for i in range(n))
    if output_size is None:
        return default
    osz = tuple(output_size)[-n:]
    if any(not default[i] - s[i] < osz[i] < default[i] + s[i] for i in range(n)):
        raise ValueError(f"{api}: output_size {list(output_size)} must be within a stride of {list(default)}.")
    return osz


def _unpool_checks(n):  # noqa: ANN001, ANN202
    """Each index must address the output's flattened spatial size (Paddle's kernel raises a ValueError; a scatter
    would drop it silently)."""
    def checks(op, a):  # noqa: ANN001, ANN202
        x = a["x"]
        if len(x.shape) != n + 2 or a["data_format"][1:2] != "C":
            return []  # (the kernel's own checks say what is wrong)
        osz = _unpool_size(op, n, tuple(x.shape), a["kernel_size"], a["stride"], a["padding"], a["output_size"])
        return [index_range(op, a["indices"], math.prod(osz), "indices (flat positions in the output)", False)]
    return checks


def max_unpool_nd(api, n, x, indices, kernel_size, stride, padding, data_format, output_size):  # noqa: ANN001, ANN202
    check_ndim(api, x, n)
    check_format(api, data_format, n)
    if data_format[1] != "C":
        raise NotImplementedError(f"{api}: only the channel-first data_format is supported, but received {data_format!r}.")
    if tuple(indices.shape) != tuple(x.shape):
        raise ValueError(f"{api}: indices must have the input's shape {list(x.shape)}, but have {list(indices.shape)}.")
    osz = _unpool_size(api, n, tuple(x.shape), kernel_size, stride, padding, output_size)
    nb, c = x.shape[:2]
    flat = jnp.zeros((nb, c, math.prod(osz)), x.dtype)
    bi = jnp.arange(nb)[:, None, None]
    ci = jnp.arange(c)[None, :, None]
    flat = flat.at[bi, ci, jnp.reshape(indices, (nb, c, -1)).astype(jnp.int64)].set(jnp.reshape(x, (nb, c, -1)))
    return jnp.reshape(flat, (nb, c, *osz))


@defop(("x", "indices"), saves=("x", "indices", "out"), nondiff=("indices",), method=False,
       checks=_unpool_checks(1))
def max_unpool1d(x, indices, kernel_size, stride=None, padding=0, data_format="NCL", output_size=None):
    """Inverse of max_pool1d: place ``x`` at ``indices`` in a zero ``[N, C, L_out]``."""
    return max_unpool_nd("max_unpool1d", 1, x, indices, kernel_size, stride, padding, data_format, output_size)


@defop(("x", "indices"), saves=("x", "indices", "out"), nondiff=("indices",), method=False,
       checks=_unpool_checks(2))
def max_unpool2d(x, indices, kernel_size, stride=None, padding=0, data_format="NCHW", output_size=None):
    """Inverse of max_pool2d: place ``x`` at ``indices`` in a zero ``[N, C, H_out, W_out]``."""
    return max_unpool_nd("max_unpool2d", 2, x, indices, kernel_size, stride, padding, data_format, output_size)


@defop(("x", "indices"), saves=("x", "indices", "out"), nondiff=("indices",), method=False,
       checks=_unpool_checks(3))
def max_unpool3d(x, indices, kernel_size, stride=None, padding=0, data_format="NCDHW", output_size=None):
    """Inverse of max_pool3d: place ``x`` at ``indices`` in a zero ``[N, C, D_out, H_out, W_out]``."""
    return max_unpool_nd("max_unpool3d", 3, x, indices, kernel_size, stride, padding, data_format, output_size)
