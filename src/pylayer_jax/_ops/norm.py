"""Normalisations beyond layer_norm / batch_norm: instance_norm, group_norm,
local_response_norm, and the running-statistics update of batch_norm (layer L1)."""

from __future__ import annotations

import jax.numpy as jnp
from jax import lax

from .table import defop


def _channel_axis(api, x, data_format):  # noqa: ANN001, ANN202
    if x.ndim < 2:
        raise ValueError(f"{api}: the input must be at least 2-D [N, C, ...], but it has shape {list(x.shape)}.")
    if data_format in ("NC", "NCL", "NCHW", "NCDHW"):
        return 1
    if data_format in ("NLC", "NHWC", "NDHWC"):
        return x.ndim - 1
    raise ValueError(f"{api}: data_format must be channel-first (NCL/NCHW/NCDHW) or channel-last, but received {data_format!r}.")


def _affine(api, out, weight, bias, caxis):  # noqa: ANN001, ANN202
    shape = [1] * out.ndim
    shape[caxis] = out.shape[caxis]
    for what, t in (("weight", weight), ("bias", bias)):
        if t is not None and t.size != out.shape[caxis]:
            raise ValueError(f"{api}: {what} must have {out.shape[caxis]} elements (one per channel), but has shape {list(t.shape)}.")
    if weight is not None:
        out = out * jnp.reshape(weight, shape)
    if bias is not None:
        out = out + jnp.reshape(bias, shape)
    return out


@defop(("x", "running_mean", "running_var"), nondiff=("x", "running_mean", "running_var"), differentiable=False,
       method=False)
def batch_norm_stats(x, running_mean, running_var, momentum=0.9, data_format="NCHW"):
    """New running (mean, var) after one training batch: ``momentum * old + (1 - momentum) * batch`` (biased var)."""
    caxis = x.ndim - 1 if data_format in ("NHWC", "NLC", "NDHWC") else (1 if x.ndim > 1 else 0)
    axes = tuple(i for i in range(x.ndim) if i != caxis)
    mean = jnp.mean(x, axis=axes)
    var = jnp.var(x, axis=axes)
    new_mean = momentum * running_mean + (1 - momentum) * mean.astype(running_mean.dtype)
    new_var = momentum * running_var + (1 - momentum) * var.astype(running_var.dtype)
    return new_mean.astype(running_mean.dtype), new_var.astype(running_var.dtype)


@defop(("x", "running_mean", "running_var", "weight", "bias"), saves=("x", "weight"),
       nondiff=("running_mean", "running_var"), method=False)
def instance_norm(x, running_mean=None, running_var=None, weight=None, bias=None, use_input_stats=True,
                  momentum=0.9, eps=1e-05, data_format="NCHW"):
    """Normalise each (sample, channel) over its spatial dims, then scale and shift per channel."""
    api = "instance_norm"
    caxis = _channel_axis(api, x, data_format)
    if x.ndim < 3:
        raise ValueError(f"{api}: the input must be at least 3-D [N, C, ...], but it has shape {list(x.shape)}.")
    if not use_input_stats:
        raise NotImplementedError(f"{api}: use_input_stats=False is not supported; received use_input_stats={use_input_stats!r}.")
    axes = tuple(i for i in range(2, x.ndim)) if caxis == 1 else tuple(range(1, x.ndim - 1))
    mean = jnp.mean(x, axis=axes, keepdims=True)
    var = jnp.mean(jnp.square(x - mean), axis=axes, keepdims=True)
    out = (x - mean) * lax.rsqrt(var + eps)
    return _affine(api, out, weight, bias, caxis).astype(x.dtype)


@defop(("x", "weight", "bias"), saves=("x", "weight"), method=False)
def group_norm(x, weight=None, bias=None, num_groups=None, epsilon=1e-05, data_format="NCHW"):
    """(Op order: tensors first.) Normalise over groups of channels (and the spatial dims), then scale and shift per channel."""
    api = "group_norm"
    caxis = _channel_axis(api, x, data_format)
    c = x.shape[caxis]
    if not isinstance(num_groups, int) or num_groups <= 0 or c % num_groups:
        raise ValueError(f"{api}: num_groups must be a positive divisor of the {c} channels, but received {num_groups!r}.")
    xc = jnp.moveaxis(x, caxis, 1)
    g = jnp.reshape(xc, (x.shape[0], num_groups, -1))
    mean = jnp.mean(g, axis=2, keepdims=True)
    var = jnp.mean(jnp.square(g - mean), axis=2, keepdims=True)
    out = jnp.moveaxis(jnp.reshape((g - mean) * lax.rsqrt(var + epsilon), xc.shape), 1, caxis)
    return _affine(api, out, weight, bias, caxis).astype(x.dtype)


@defop(1, saves=("x",), method=False)
def local_response_norm(x, size, alpha=0.0001, beta=0.75, k=1.0, data_format="NCHW"):
    """``x / (k + alpha / size * sum of x^2 over ``size`` neighbouring channels) ** beta``."""
    api = "local_response_norm"
    if x.ndim < 3:
        raise ValueError(f"{api}: the input must be at least 3-D, but it has shape {list(x.shape)}.")
    caxis = _channel_axis(api, x, data_format)
    if not isinstance(size, int) or size <= 0:
        raise ValueError(f"{api}: size must be a positive int, but received {size!r}.")
    sq = jnp.moveaxis(jnp.square(x), caxis, -1)
    c = sq.shape[-1]
    padded = jnp.pad(sq, [(0, 0)] * (sq.ndim - 1) + [(size // 2, (size - 1) // 2)])
    acc = sum(padded[..., i : i + c] for i in range(size))
    div = jnp.moveaxis((k + alpha / size * acc) ** beta, -1, caxis)
    return x / div
