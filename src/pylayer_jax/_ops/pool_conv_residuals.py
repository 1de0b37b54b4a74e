"""The forms of 1-D convolutions and pools, and of max pools with indices, that keep what Paddle's kernels keep
(layer L1).

``nn.functional`` runs these only while saved-tensor hooks are active (the plain ops otherwise), so that the
hooks receive what Paddle's pack hook receives:

* Paddle runs 1-D convolutions and pools as 2-D kernels on views with a unit axis inserted (``[N, C, 1, L]``
  for ``[N, C, L]``), and keeps those views: here they are hidden outputs (``residual_form``), and the backward
  reads them (squeezed back);
* Paddle's max pools with indices (``return_mask=True``, and the adaptive max pools always) keep the input
  and the index mask instead of the pooled values: the backward here scatters the cotangent to the mask's
  indices.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Callable
from typing import Any

import jax
import jax.numpy as jnp

from . import conv, pool
from .table import TABLE, Op, defop

_CHANNEL_LAST = ("NLC", "NHWC", "NDHWC")


def residual_form(base: Op, name: str, n_vis: int, saves: tuple[str, ...], call: Callable[[dict], tuple],
                  residuals: Callable[[dict, tuple], tuple], grads: Callable[..., tuple]) -> Op:
    """``base`` with hidden trailing outputs ``residuals(args, outs)`` (``outs``: what ``call(args)``
    returns, of which the first ``n_vis`` are the visible outputs), saving ``saves``; ``grads(args, saved,
    visible cts, hidden cts)`` gives one gradient per tensor parameter. ``args`` maps every parameter to its
    value (the tensor parameters are None in ``grads``)."""
    sig = base.signature
    n_t = base.n_tensors

    def bound(*args: Any, **kwargs: Any) -> dict:
        b = sig.bind(*args, **kwargs)
        b.apply_defaults()
        return dict(b.arguments)

    @functools.wraps(base.fn)
    def fn(*args: Any, **kwargs: Any) -> Any:
        a = bound(*args, **kwargs)
        outs = call(a)
        return (*outs[:n_vis], *residuals(a, outs))

    def vjp(s: dict, ct: Any, *attr_args: Any, **attr_kwargs: Any) -> tuple:
        a = bound(*([None] * n_t), *attr_args, **attr_kwargs)
        cts = tuple(ct) if isinstance(ct, tuple | list) else (ct,)
        return grads(a, s, cts[:n_vis], cts[n_vis:])

    hidden = sum(1 for n in saves if n.startswith("out") and int(n[3:]) >= n_vis)
    return defop(base.tensor_names, saves=saves, vjp=vjp, hidden=hidden, nondiff=tuple(base.nondiff), name=name,
                 method=False, checks=base.checks)(fn)


def _attrs(base: Op, a: dict) -> dict:
    return {k: v for k, v in a.items() if k not in base.tensor_names}


def _as_tuple(out: Any) -> tuple:
    return tuple(out) if isinstance(out, tuple | list) else (out,)


# ---- 1-D convolutions: Paddle keeps x and the weight with a unit axis --------------------------------------------
def _conv1d_form(base: Op, x_axis: Callable[[dict], int], w_axis: int) -> Op:
    def call(a: dict) -> tuple:
        return _as_tuple(base.fn(**a))

    def residuals(a: dict, outs: tuple) -> tuple:
        return jnp.expand_dims(a["x"], x_axis(a)), jnp.expand_dims(a["weight"], w_axis)

    def grads(a: dict, s: dict, g: tuple, g_res: tuple) -> tuple:
        x, w = jnp.squeeze(s["out1"], x_axis(a)), jnp.squeeze(s["out2"], w_axis)
        attrs = _attrs(base, a)
        _, pullback = jax.vjp(lambda x_, w_: base.fn(x_, w_, None, **attrs), x, w)
        dx, dw = pullback(g[0].astype(x.dtype))
        dx = dx + jnp.squeeze(g_res[0], x_axis(a)).astype(x.dtype)
        dw = dw + jnp.squeeze(g_res[1], w_axis).astype(w.dtype)
        caxis = 2 if a["data_format"] in _CHANNEL_LAST else 1
        db = jnp.sum(g[0], axis=tuple(i for i in range(g[0].ndim) if i != caxis))  # dropped when bias is absent
        return dx, dw, db

    return residual_form(base, f"{base.name}_residuals", 1, ("out1", "out2"), call, residuals, grads)


# as Paddle: conv1d unsqueezes x before the length (-3 channel-last, -2 channel-first) and the weight at -2;
# conv1d_transpose x after it (-2 channel-last, -1 channel-first) and the weight at -1
conv1d_residuals = _conv1d_form(conv.conv1d, lambda a: -3 if a["data_format"] in _CHANNEL_LAST else -2, -2)
conv1d_transpose_residuals = _conv1d_form(conv.conv1d_transpose,
                                          lambda a: -2 if a["data_format"] in _CHANNEL_LAST else -1, -1)


# ---- index masks ------------------------------------------------------------------------------------------------
def _scatter_to_mask(x_shape: tuple, mask: Any, g: Any, dtype: Any) -> Any:
    """The gradient of a channel-first max pool's input: each cotangent added at its flat spatial index."""
    nb, c = x_shape[:2]
    flat = jnp.zeros((nb, c, math.prod(x_shape[2:])), dtype)
    bi = jnp.arange(nb)[:, None, None]
    ci = jnp.arange(c)[None, :, None]
    flat = flat.at[bi, ci, jnp.reshape(mask, (nb, c, -1)).astype(jnp.int64)].add(jnp.reshape(g, (nb, c, -1)).astype(dtype))
    return jnp.reshape(flat, x_shape)


def _mask_form(base: Op, name: str, return_mask: bool, unit_axis: int | None) -> Op:
    """A max pool keeping x and the index mask (with a unit axis inserted at ``unit_axis`` when given, as
    Paddle's 1-D pools); the visible outputs are the pooled values, and the mask when ``return_mask``."""
    n_vis = 2 if return_mask else 1
    view = unit_axis is not None

    def call(a: dict) -> tuple:
        return _as_tuple(base.fn(**{**a, "return_mask": True}))

    def residuals(a: dict, outs: tuple) -> tuple:
        if view:
            return jnp.expand_dims(a["x"], unit_axis), jnp.expand_dims(outs[1], unit_axis)
        return () if return_mask else (outs[1],)

    saves = (f"out{n_vis}", f"out{n_vis + 1}") if view else ("x", "out1")

    def grads(a: dict, s: dict, g: tuple, g_res: tuple) -> tuple:
        if view:
            x4, m4 = (s["out1"], s["out2"]) if not return_mask else (s["out2"], s["out3"])
            x, mask = jnp.squeeze(x4, unit_axis), jnp.squeeze(m4, unit_axis)
            dx = _scatter_to_mask(x.shape, mask, g[0], x.dtype) + jnp.squeeze(g_res[0], unit_axis).astype(x.dtype)
        else:
            x, mask = s["x"], s["out1"]
            dx = _scatter_to_mask(x.shape, mask, g[0], x.dtype)
        return (dx,)

    return residual_form(base, name, n_vis, saves, call, residuals, grads)


for _name, _axis in (("max_pool1d", 2), ("adaptive_max_pool1d", 2), ("max_pool2d", None), ("max_pool3d", None),
                     ("adaptive_max_pool2d", None), ("adaptive_max_pool3d", None)):
    _mask_form(TABLE[_name], f"{_name}_mask_residuals", True, _axis)
    if _name.startswith("adaptive"):  # Paddle's adaptive max pools keep the mask without return_mask too
        _mask_form(TABLE[_name], f"{_name}_residuals", False, _axis)


# ---- 1-D pools: Paddle keeps x and the output with a unit axis ---------------------------------------------------
def _pool1d_form(base: Op, axis: Callable[[dict], int]) -> Op:
    def call(a: dict) -> tuple:
        return _as_tuple(base.fn(**a))

    def residuals(a: dict, outs: tuple) -> tuple:
        return jnp.expand_dims(a["x"], axis(a)), jnp.expand_dims(outs[0], axis(a))

    def grads(a: dict, s: dict, g: tuple, g_res: tuple) -> tuple:
        ax = axis(a)
        x = jnp.squeeze(s["out1"], ax)
        attrs = _attrs(base, a)
        _, pullback = jax.vjp(lambda v: base.fn(v, **attrs), x)
        (dx,) = pullback((g[0] + jnp.squeeze(g_res[1], ax)).astype(x.dtype))
        return (dx + jnp.squeeze(g_res[0], ax).astype(x.dtype),)

    return residual_form(base, f"{base.name}_residuals", 1, ("out1", "out2"), call, residuals, grads)


max_pool1d_residuals = _pool1d_form(pool.max_pool1d, lambda a: 2)
avg_pool1d_residuals = _pool1d_form(pool.avg_pool1d, lambda a: 2)
adaptive_avg_pool1d_residuals = _pool1d_form(pool.adaptive_avg_pool1d, lambda a: 2)
lp_pool1d_residuals = _pool1d_form(pool.lp_pool1d, lambda a: 1 if a["data_format"] == "NLC" else 2)


# ---- max_unpool1d: Paddle keeps x, the indices and the output with a unit axis -----------------------------------
def _unpool_residuals(a: dict, outs: tuple) -> tuple:
    return tuple(jnp.expand_dims(v, 2) for v in (a["x"], a["indices"], outs[0]))


def _unpool_grads(a: dict, s: dict, g: tuple, g_res: tuple) -> tuple:
    x, idx = jnp.squeeze(s["out1"], 2), jnp.squeeze(s["out2"], 2)
    attrs = _attrs(pool.max_unpool1d, a)
    _, pullback = jax.vjp(lambda v: pool.max_unpool1d.fn(v, idx, **attrs), x)
    (dx,) = pullback((g[0] + jnp.squeeze(g_res[2], 2)).astype(x.dtype))
    return dx + jnp.squeeze(g_res[0], 2).astype(x.dtype), None


max_unpool1d_residuals = residual_form(pool.max_unpool1d, "max_unpool1d_residuals", 1, ("out1", "out2", "out3"),
                                       lambda a: (pool.max_unpool1d.fn(**a),), _unpool_residuals, _unpool_grads)
