"""Normalisations beyond layer_norm / batch_norm: instance_norm, group_norm,
local_response_norm, and the running-statistics update of batch_norm (layer L1)."""

from __future__ import annotations

import jax.numpy as jnp
from jax import lax

from .table import defop, visible_op


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
    if x.size == x.shape[caxis] > 0:  # one value per channel: Paddle's kernel skips the batch, stats stay
        return running_mean, running_var
    mean = jnp.mean(x, axis=axes)
    var = jnp.var(x, axis=axes)
    new_mean = momentum * running_mean + (1 - momentum) * mean.astype(running_mean.dtype)
    new_var = momentum * running_var + (1 - momentum) * var.astype(running_var.dtype)
    return new_mean.astype(running_mean.dtype), new_var.astype(running_var.dtype)


def _bn_axes(x, data_format):  # noqa: ANN001, ANN202
    caxis = x.ndim - 1 if data_format in ("NHWC", "NLC", "NDHWC") else (1 if x.ndim > 1 else 0)
    shape = [1] * x.ndim
    shape[caxis] = x.shape[caxis]
    return caxis, tuple(i for i in range(x.ndim) if i != caxis), shape


def _batch_norm_vjp(s, ct, training=False, momentum=0.9, epsilon=1e-05, data_format="NCHW",  # noqa: ANN001, ANN202
                    use_global_stats=None):
    """dx, dweight, dbias from what Paddle's kernel keeps: x, weight, and either the batch mean and inverse
    std (training) or the running statistics (inference); create_graph cotangents of the hidden statistics
    join through their derivatives."""
    x, weight = s["x"], s.get("weight")
    g, g_mean_out, g_var_out, g_mean, g_inv, _ = ct
    caxis, axes, shape = _bn_axes(x, data_format)
    sd = s["out3"].dtype
    xs, gs = x.astype(sd), g.astype(sd)
    w = jnp.ones(shape, sd) if weight is None else jnp.reshape(weight, shape).astype(sd)
    m = x.size // x.shape[caxis]
    if training and not use_global_stats and x.size == x.shape[caxis] > 0:  # the forward was y = x
        dw = None if weight is None else jnp.zeros_like(weight)
        return g.astype(x.dtype), None, None, dw, jnp.zeros((x.shape[caxis],), g.dtype)
    if training and not use_global_stats:
        mean, inv = jnp.reshape(s["out3"], shape), jnp.reshape(s["out4"], shape)
        xhat = (xs - mean) * inv
        gw = gs * w
        dx = inv * (gw - jnp.mean(gw, axis=axes, keepdims=True) - xhat * jnp.mean(gw * xhat, axis=axes, keepdims=True))
        # mean_out = momentum * running + (1 - momentum) * mean; var_out likewise with the biased variance
        g_m = jnp.reshape(g_mean + (1 - momentum) * g_mean_out.astype(sd), shape)
        g_v = jnp.reshape((1 - momentum) * g_var_out.astype(sd), shape) - 0.5 * jnp.reshape(g_inv, shape) * inv**3
        dx = dx + g_m / m + g_v * 2 * (xs - mean) / m
    else:
        inv = lax.rsqrt(jnp.reshape(s["out2"], shape).astype(sd) + epsilon)
        xhat = (xs - jnp.reshape(s["out1"], shape).astype(sd)) * inv
        dx = gs * w * inv
    dw = None if weight is None else jnp.reshape(jnp.sum(gs * xhat, axis=axes), weight.shape)
    db = jnp.sum(gs, axis=axes)  # bias is the last tensor: dropped when absent
    return dx.astype(x.dtype), None, None, dw, db


@defop(("x", "running_mean", "running_var", "weight", "bias"),
       saves=("x", "weight", "bias", "out1", "out2", "out3", "out4", "out5"), vjp=_batch_norm_vjp, hidden=5,
       nondiff=("running_mean", "running_var"), method=False)
def batch_norm_residuals(x, running_mean, running_var, weight=None, bias=None, training=False, momentum=0.9,
                         epsilon=1e-05, data_format="NCHW", use_global_stats=None):
    """batch_norm as Paddle's kernel runs it (``nn.functional.batch_norm`` under saved-tensor hooks).

    Besides the output it gives (hidden) what that kernel outputs and keeps for the backward: the new
    running mean and variance (``momentum * running + (1 - momentum) * batch``, biased variance, when the
    batch statistics are used; the running ones otherwise), the batch mean and inverse standard deviation
    (zeros when the running statistics are used: Paddle's inference kernel leaves them unwritten) and an
    empty reserve space (uint8 in training, x's dtype otherwise). The backward reads x, weight and the
    statistics it normalised with.
    """
    caxis, axes, shape = _bn_axes(x, data_format)
    sd = jnp.promote_types(x.dtype, jnp.float32)
    xs = x.astype(sd)
    if training and not use_global_stats and x.size == x.shape[caxis] > 0:
        # one value per channel: Paddle's kernel gives x itself and leaves the running statistics alone
        zeros = jnp.zeros((x.shape[caxis],), sd)
        return x, running_mean, running_var, zeros, zeros, jnp.zeros((0,), jnp.uint8)
    if training and not use_global_stats:
        mean = jnp.mean(xs, axis=axes)
        var = jnp.mean(jnp.square(xs - jnp.reshape(mean, shape)), axis=axes)
        inv = lax.rsqrt(var + epsilon)
        mean_out = (momentum * running_mean + (1 - momentum) * mean.astype(running_mean.dtype)).astype(running_mean.dtype)
        var_out = (momentum * running_var + (1 - momentum) * var.astype(running_var.dtype)).astype(running_var.dtype)
        norm_mean, norm_inv = mean, inv
        saved_mean, saved_inv = mean, inv
        reserve = jnp.zeros((0,), jnp.uint8)
    else:
        mean_out, var_out = running_mean, running_var
        norm_mean = running_mean.astype(sd)
        norm_inv = lax.rsqrt(running_var.astype(sd) + epsilon)
        saved_mean = saved_inv = jnp.zeros((x.shape[caxis],), sd)
        reserve = jnp.zeros((0,), x.dtype)
    out = (xs - jnp.reshape(norm_mean, shape)) * jnp.reshape(norm_inv, shape)
    if weight is not None:
        out = out * jnp.reshape(weight, shape)
    if bias is not None:
        out = out + jnp.reshape(bias, shape)
    return out.astype(x.dtype), mean_out, var_out, saved_mean, saved_inv, reserve


def _rows_vjp(x2, w_rows, mu, rstd, g2, g_mu, g_rstd):  # noqa: ANN001, ANN202
    """Gradient of each row ``x2`` (normalised by its saved mean ``mu`` and inverse std ``rstd``, scaled by
    ``w_rows``), with the cotangents of the saved statistics (create_graph) added."""
    m = x2.shape[1]
    xhat = (x2 - mu) * rstd
    gx = g2 * w_rows
    dx = rstd * (gx - jnp.mean(gx, axis=1, keepdims=True) - xhat * jnp.mean(gx * xhat, axis=1, keepdims=True))
    return dx + g_mu / m - g_rstd * rstd**3 * (x2 - mu) / m, xhat


def _per_channel(rows, n, c):  # noqa: ANN001, ANN202
    """Per-(sample, channel) values ``[N * C]`` summed over the samples: ``[C]``."""
    return jnp.sum(jnp.reshape(rows, (n, c)), axis=0)


def _instance_norm_vjp(s, ct, use_input_stats=True, momentum=0.9, eps=1e-05, data_format="NCHW"):  # noqa: ANN001, ANN202
    """dx, dweight, dbias from the saved x, weight, mean and inverse std of each (sample, channel)."""
    x, weight, mean, rstd = s["x"], s.get("weight"), s["out1"], s["out2"]
    g, g_mean, g_rstd = ct
    caxis = _channel_axis("instance_norm", x, data_format)
    n, c = x.shape[0], x.shape[caxis]
    sd = mean.dtype
    x2 = jnp.reshape(jnp.moveaxis(x, caxis, 1), (n * c, -1)).astype(sd)
    g2 = jnp.reshape(jnp.moveaxis(g, caxis, 1), (n * c, -1)).astype(sd)
    w_rows = jnp.ones((n * c, 1), sd) if weight is None else jnp.tile(jnp.reshape(weight, (c,)), n)[:, None].astype(sd)
    dx, xhat = _rows_vjp(x2, w_rows, mean[:, None], rstd[:, None], g2, g_mean[:, None].astype(sd),
                         g_rstd[:, None].astype(sd))
    dx = jnp.moveaxis(jnp.reshape(dx, jnp.moveaxis(x, caxis, 1).shape), 1, caxis)
    dw = None if weight is None else jnp.reshape(_per_channel(jnp.sum(g2 * xhat, axis=1), n, c), weight.shape)
    db = _per_channel(jnp.sum(g2, axis=1), n, c)  # bias is the last tensor: dropped when absent
    return dx, None, None, dw, db


@defop(("x", "running_mean", "running_var", "weight", "bias"), saves=("x", "weight", "out1", "out2"),
       vjp=_instance_norm_vjp, hidden=2, nondiff=("running_mean", "running_var"), method=False,
       name="instance_norm_residuals")
def instance_norm(x, running_mean=None, running_var=None, weight=None, bias=None, use_input_stats=True,
                  momentum=0.9, eps=1e-05, data_format="NCHW"):
    """Normalise each (sample, channel) over its spatial dims, then scale and shift per channel.

    As Paddle's kernel, it also outputs (hidden) the mean and the inverse standard deviation of each
    (sample, channel), shape ``[N * C]``; the backward reads them with x and weight.
    """
    api = "instance_norm"
    caxis = _channel_axis(api, x, data_format)
    if x.ndim < 3:
        raise ValueError(f"{api}: the input must be at least 3-D [N, C, ...], but it has shape {list(x.shape)}.")
    if not use_input_stats:
        raise NotImplementedError(f"{api}: use_input_stats=False is not supported; received use_input_stats={use_input_stats!r}.")
    n, c = x.shape[0], x.shape[caxis]
    xc = jnp.moveaxis(x, caxis, 1)
    x2 = jnp.reshape(xc, (n * c, -1)).astype(jnp.promote_types(x.dtype, jnp.float32))
    mean = jnp.mean(x2, axis=1)
    rstd = lax.rsqrt(jnp.mean(jnp.square(x2 - mean[:, None]), axis=1) + eps)
    out = jnp.moveaxis(jnp.reshape((x2 - mean[:, None]) * rstd[:, None], xc.shape), 1, caxis)
    return _affine(api, out, weight, bias, caxis).astype(x.dtype), mean, rstd


instance_norm_plain = visible_op(instance_norm, "instance_norm", ("x", "weight"))


def _group_norm_vjp(s, ct, num_groups=None, epsilon=1e-05, data_format="NCHW"):  # noqa: ANN001, ANN202
    """dx, dweight, dbias from the saved x, weight, output, mean and variance of each (sample, group). The
    output is saved because Paddle's kernel keeps it; the normalised x comes from x and the statistics."""
    x, weight, mean, var = s["x"], s.get("weight"), s["out1"], s["out2"]
    g, g_mean, g_var = ct
    caxis = _channel_axis("group_norm", x, data_format)
    n, c = x.shape[0], x.shape[caxis]
    sd = mean.dtype
    xc = jnp.moveaxis(x, caxis, 1).astype(sd)
    gc = jnp.moveaxis(g, caxis, 1).astype(sd)
    rest = xc.shape[2:]
    wc = jnp.ones((c,), sd) if weight is None else jnp.reshape(weight, (c,)).astype(sd)
    bshape = (1, c) + (1,) * len(rest)
    x2 = jnp.reshape(xc, (n * num_groups, -1))
    gw2 = jnp.reshape(gc * jnp.reshape(wc, bshape), (n * num_groups, -1))
    rstd = lax.rsqrt(var + epsilon)
    g_rstd = -2.0 * g_var * (var + epsilon) ** 1.5  # d var = d(rstd) * -2 (var + eps)^(3/2)
    dx, _ = _rows_vjp(x2, jnp.ones((1, 1), sd), jnp.reshape(mean, (-1, 1)), jnp.reshape(rstd, (-1, 1)), gw2,
                      jnp.reshape(g_mean, (-1, 1)).astype(sd), jnp.reshape(g_rstd, (-1, 1)).astype(sd))
    xhat = jnp.reshape((x2 - jnp.reshape(mean, (-1, 1))) * jnp.reshape(rstd, (-1, 1)), xc.shape)
    dx = jnp.moveaxis(jnp.reshape(dx, xc.shape), 1, caxis)
    axes = tuple(i for i in range(xc.ndim) if i != 1)
    dw = None if weight is None else jnp.reshape(jnp.sum(gc * xhat, axis=axes), weight.shape)
    db = jnp.sum(gc, axis=axes)  # bias is the last tensor: dropped when absent
    return dx, dw, db


@defop(("x", "weight", "bias"), saves=("x", "weight", "bias", "out0", "out1", "out2"), vjp=_group_norm_vjp,
       hidden=2, method=False, name="group_norm_residuals")
def group_norm(x, weight=None, bias=None, num_groups=None, epsilon=1e-05, data_format="NCHW"):
    """(Op order: tensors first.) Normalise over groups of channels (and the spatial dims), then scale and shift per channel.

    As Paddle's kernel, it also outputs (hidden) the mean and variance of each (sample, group), shape
    ``[N, num_groups]``, and keeps x, weight, bias, the output and those statistics for the backward.
    """
    api = "group_norm"
    caxis = _channel_axis(api, x, data_format)
    c = x.shape[caxis]
    if not isinstance(num_groups, int) or num_groups <= 0 or c % num_groups:
        raise ValueError(f"{api}: num_groups must be a positive divisor of the {c} channels, but received {num_groups!r}.")
    xc = jnp.moveaxis(x, caxis, 1)
    g = jnp.reshape(xc, (x.shape[0], num_groups, -1)).astype(jnp.promote_types(x.dtype, jnp.float32))
    mean = jnp.mean(g, axis=2)
    var = jnp.mean(jnp.square(g - mean[..., None]), axis=2)
    out = jnp.moveaxis(jnp.reshape((g - mean[..., None]) * lax.rsqrt(var + epsilon)[..., None], xc.shape), 1, caxis)
    return _affine(api, out, weight, bias, caxis).astype(x.dtype), mean, var


group_norm_plain = visible_op(group_norm, "group_norm", ("x", "weight"))


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


def _spectral_checks(op, a):  # noqa: ANN001, ANN202
    w, u, v, dim = a["weight"], a["u"], a["v"], a["dim"]
    shape = list(w.shape)
    if not isinstance(dim, int) or not 0 <= dim < len(shape):
        raise ValueError(f"{op}: dim must be an axis in [0, {len(shape)}) of the {len(shape)}-D weight, but received "
                         f"{dim!r}.")
    h = shape[dim]
    rest = 1
    for i, d in enumerate(shape):
        rest *= d if i != dim else 1
    if list(u.shape) != [h] or list(v.shape) != [rest]:
        raise ValueError(f"{op}: u must have shape [{h}] (weight's axis {dim}) and v [{rest}] (the other axes' "
                         f"product) for a weight of shape {shape}, but received {list(u.shape)} and {list(v.shape)}.")
    if a["power_iters"] < 0:
        raise ValueError(f"{op}: power_iters must not be negative, but received {a['power_iters']}.")
    return []


@defop(("weight", "u", "v"), saves=("weight", "u", "v"), nondiff=("u", "v"), method=False, checks=_spectral_checks)
def spectral_norm(weight, u, v, dim=0, power_iters=1, eps=1e-12):
    """``weight / sigma``: sigma is ``u^T W v`` for the weight as an ``[h, w]`` matrix ``W`` (axis ``dim`` first),
    after ``power_iters`` power-iteration steps from the vectors ``u`` ``[h]`` and ``v`` ``[w]`` (which are not
    changed, as in Paddle). The gradient holds the iterated ``u`` and ``v`` fixed: ``(g - <g, W> / sigma * u v^T) /
    sigma``. (Paddle 3.3.1's kernel computes ``g * (1 - u v^T * sum(W / sigma)) / sigma`` instead, which is not
    the derivative.)"""
    perm = (dim, *[i for i in range(weight.ndim) if i != dim])
    mat = jnp.reshape(jnp.transpose(weight, perm), (weight.shape[dim], -1))
    fixed = lax.stop_gradient(mat)
    for _ in range(power_iters):
        v = fixed.T @ u
        v = v / (jnp.linalg.norm(v) + eps)
        u = fixed @ v
        u = u / (jnp.linalg.norm(u) + eps)
    sigma = u @ mat @ v
    return weight / sigma
