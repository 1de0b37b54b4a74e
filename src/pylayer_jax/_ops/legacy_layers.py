"""Ops behind ``paddle.static.nn``'s legacy layers (layer L1): deformable convolution and ``cvm``.

``deform_conv2d``: each kernel tap of each output position reads the input at its regular position
plus a learned offset (``offset``: ``[N, 2 * deformable_groups * kh * kw, Ho, Wo]``, a (dy, dx) pair
per tap), bilinearly interpolated with zeros outside the image, optionally scaled by ``mask``
(``[N, deformable_groups * kh * kw, Ho, Wo]``, the modulated form), then a grouped convolution with
``weight``. The sampling follows Paddle's kernel: a point with ``-1 < y < H`` and ``-1 < x < W`` takes
the four neighbours that lie inside, others give 0.

``cvm``: the continuous-value model of CTR embeddings, whose first two columns are show and click
counts; its backward hands the ``cvm`` input (show, click) to those two columns, as Paddle's kernel
does, so a sparse table can accumulate them.
"""

from __future__ import annotations

import functools

import jax
import jax.numpy as jnp

from .table import defop


def _bilinear(img, py, px):  # noqa: ANN001, ANN202
    """``img`` [C, H, W] sampled at (py, px) [K, Ho, Wo] -> [C, K, Ho, Wo] (Paddle's deformable-conv rule)."""
    h, w = img.shape[1], img.shape[2]
    inside = (py > -1) & (px > -1) & (py < h) & (px < w)
    y0 = jnp.floor(py)
    x0 = jnp.floor(px)
    ly, lx = py - y0, px - x0
    y0 = y0.astype(jnp.int32)
    x0 = x0.astype(jnp.int32)
    y1, x1 = y0 + 1, x0 + 1

    def at(yy, xx, ok):  # noqa: ANN001, ANN202
        v = img[:, jnp.clip(yy, 0, h - 1), jnp.clip(xx, 0, w - 1)]
        return jnp.where(ok & inside, v, jnp.zeros((), img.dtype))

    v1 = at(y0, x0, (y0 >= 0) & (x0 >= 0))
    v2 = at(y0, x1, (y0 >= 0) & (x1 <= w - 1))
    v3 = at(y1, x0, (y1 <= h - 1) & (x0 >= 0))
    v4 = at(y1, x1, (y1 <= h - 1) & (x1 <= w - 1))
    hy, hx = 1 - ly, 1 - lx
    return hy * hx * v1 + hy * lx * v2 + ly * hx * v3 + ly * lx * v4


@defop(("x", "offset", "weight", "mask"), saves=("x", "offset", "weight", "mask"), method=False)
def deform_conv2d(x, offset, weight, mask=None, stride=(1, 1), padding=(0, 0), dilation=(1, 1),
                  deformable_groups=1, groups=1):
    """Deformable convolution (v1 without ``mask``, v2 with it) of ``x`` [N, C, H, W] with ``weight``
    [F, C / groups, kh, kw]: ``[N, F, Ho, Wo]``, no bias."""
    n, c, h, w = x.shape
    f, _, kh, kw = weight.shape
    sh, sw = stride
    ph, pw = padding
    dh, dw = dilation
    ho = (h + 2 * ph - (dh * (kh - 1) + 1)) // sh + 1
    wo = (w + 2 * pw - (dw * (kw - 1) + 1)) // sw + 1
    k = kh * kw
    dg = deformable_groups
    ky = jnp.repeat(jnp.arange(kh) * dh, kw)
    kx = jnp.tile(jnp.arange(kw) * dw, kh)
    base_y = (jnp.arange(ho) * sh - ph)[None, :, None] + ky[:, None, None]  # [K, Ho, 1]
    base_x = (jnp.arange(wo) * sw - pw)[None, None, :] + kx[:, None, None]  # [K, 1, Wo]
    off = offset.reshape(n, dg, k, 2, ho, wo)
    py = base_y.astype(x.dtype) + off[:, :, :, 0]
    px = base_x.astype(x.dtype) + off[:, :, :, 1]
    xg = x.reshape(n, dg, c // dg, h, w)
    cols = jax.vmap(jax.vmap(_bilinear))(xg, py, px)  # [N, dg, C/dg, K, Ho, Wo]
    if mask is not None:
        cols = cols * mask.reshape(n, dg, 1, k, ho, wo)
    cols = cols.reshape(n, groups, (c // groups) * k, ho * wo)
    wm = weight.reshape(groups, f // groups, (c // groups) * k)
    out = jnp.einsum("gfc,ngcp->ngfp", wm, cols)
    return out.reshape(n, f, ho, wo)


@functools.partial(jax.custom_vjp, nondiff_argnums=(2,))
def _cvm_core(x, cvm, use_cvm):  # noqa: ANN001, ANN202
    if use_cvm:
        show = jnp.log(x[:, 0:1] + 1)
        click = jnp.log(x[:, 1:2] + 1) - show
        return jnp.concatenate([show, click, x[:, 2:]], axis=1)
    return x[:, 2:]


def _cvm_fwd(x, cvm, use_cvm):  # noqa: ANN001, ANN202
    return _cvm_core(x, cvm, use_cvm), (cvm, x.shape[1])


def _cvm_bwd(use_cvm, res, g):  # noqa: ANN001, ANN202
    cvm, _ = res
    rest = g[:, 2:] if use_cvm else g
    return jnp.concatenate([cvm[:, :2].astype(g.dtype), rest], axis=1), jnp.zeros_like(cvm)


_cvm_core.defvjp(_cvm_fwd, _cvm_bwd)


@defop(("x", "cvm"), saves=("cvm",), nondiff=("cvm",), method=False)
def cvm(x, cvm, use_cvm=True):
    """``x`` [N, D] with show/click in its first two columns: with ``use_cvm``, ``[log(show + 1),
    log(click + 1) - log(show + 1), x[:, 2:]]``; without, ``x[:, 2:]``. The gradient of the first two
    columns of ``x`` is ``cvm[:, :2]`` (the batch's show and click), the rest passes ``dy`` through."""
    return _cvm_core(x, cvm, bool(use_cvm))
