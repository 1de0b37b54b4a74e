"""Neural-network functions (``paddle.nn.functional``): activations, softmax, dropout,
linear, normalisation, padding, embedding.

Ops whose derivative reads the output (sigmoid, softmax, log_softmax) save ``out`` and
carry an explicit VJP; the others save the inputs their derivative reads.
"""

from __future__ import annotations

import functools
import math

import jax
import jax.numpy as jnp
import numpy as np
from jax import lax

from ._util import as_float, dtype_arg, exact_input, paddle_log_softmax, paddle_softmax
from .checks import AssertionValueError, index_range, integer_index
from .rows import MAP, POINTWISE, along_rule, draws_rule, off_axes, softmax_axes, when
from .table import defop, visible_op


# ---- activations ----------------------------------------------------------------
# (the derivative is 0 where x is 0, as Paddle's: jnp.maximum's would split the tie, giving 0.5)
@defop(1, saves=("out",), vjp=lambda s, g: jnp.where(s["out"] > 0, g, jnp.zeros((), g.dtype)), rows=MAP, axes=POINTWISE)
def relu(x):
    """``x`` where ``x > 0``, else 0 (so NaN gives 0, as in Paddle's kernel; ``maximum`` would keep it); keeps its
    output, as Paddle's kernel does."""
    return jnp.where(x > 0, x, jnp.zeros((), x.dtype))


@defop(1, rows=MAP, axes=POINTWISE, saves=("out",), method=False,
       vjp=lambda s, g: jnp.where((s["out"] > 0) & (s["out"] < 6), g, jnp.zeros((), g.dtype)))
def relu6(x):
    """``min(max(x, 0), 6)``; keeps its output, as Paddle's kernel does."""
    return jnp.clip(x, 0, 6).astype(x.dtype)


def _leaky_relu_checks(op, a):  # noqa: ANN001, ANN202
    s = a["negative_slope"]
    if not isinstance(s, int | float) or isinstance(s, bool):
        raise TypeError(
            f"{op}: negative_slope must be a number, but received {type(s).__name__} ({s!r}). Pass a float such "
            "as 0.01."
        )
    return []


_leaky_relu_checks.attrs_only = True  # type: ignore[attr-defined]


def _f32(a):  # noqa: ANN001, ANN202
    """An attribute as Paddle's kernels hold it: a float32 (also when they compute in float64), so a kink at
    ``threshold=0.3`` is where Paddle's is. A number input (``defop``'s ``numbers``) is rounded so, staying weakly
    typed."""
    if isinstance(a, jax.core.Tracer):
        return lax.reduce_precision(a, exponent_bits=8, mantissa_bits=23)
    return float(np.float32(a))


def _zero(g):  # noqa: ANN001, ANN202
    return jnp.zeros((), g.dtype)


# (at 0 the derivative is 1, as Paddle's: its kernel takes the slope only where x < 0, and 0 at NaN)
@defop(1, rows=MAP, axes=POINTWISE, saves=("x",), method=False, checks=_leaky_relu_checks, numbers=("negative_slope",),
       vjp=lambda s, g, negative_slope=0.01: g * jnp.where(s["x"] >= 0, 1.0, jnp.where(s["x"] < 0, negative_slope,
                                                                                       0.0)).astype(g.dtype))
def leaky_relu(x, negative_slope=0.01):
    """``x`` for positive inputs, ``negative_slope * x`` otherwise."""
    return jnp.where(x > 0, x, negative_slope * x).astype(x.dtype)


def _elu_vjp(s, g, alpha=1.0):  # noqa: ANN001, ANN202
    x, out = s["x"], s["out"]
    return g * jnp.where(x > 0, 1.0, out + _f32(alpha)).astype(g.dtype)


# elu, selu and celu are Paddle's formulas: ``exp(x) - 1`` (0 for a tiny negative x, as Paddle's) with float32
# constants; at 0 the derivative is the negative side's, as Paddle's
@defop(1, rows=MAP, axes=POINTWISE, saves=("x", "out"), vjp=_elu_vjp, method=False, numbers=("alpha",))  # Paddle's elu_grad reads x and out
def elu(x, alpha=1.0):
    """``x`` for positive inputs, ``alpha * (exp(x) - 1)`` otherwise."""
    return jnp.where(x < 0, _f32(alpha) * (jnp.exp(jnp.minimum(x, 0)) - 1), x).astype(x.dtype)


def _selu_vjp(s, g, scale=1.0507009873554805, alpha=1.6732632423543772):  # noqa: ANN001, ANN202
    out = s["out"]
    # (Paddle's kernel adds scale * alpha rounded to float32: 2e-8 from the derivative of its own forward, which
    # this rule keeps)
    return g * jnp.where(out <= 0, out + _f32(scale) * _f32(alpha), _f32(scale)).astype(g.dtype)


_F32, _F64 = np.dtype("float32"), np.dtype("float64")


def _f32_factor_input(dtype, _, v):  # noqa: ANN001, ANN202
    """selu's and celu's constants may be number inputs on a float32 or float64 tensor where, as the kernels hold
    them (rounded to float32), they are normal factors not of magnitude 1 (``exact_input``; nor 0: celu divides by
    its alpha)."""
    return (dtype == _F32 or dtype == _F64) and exact_input(_F32, factors=(v,))


@defop(1, rows=MAP, axes=POINTWISE, saves=("out",), vjp=_selu_vjp, method=False, numbers=("scale", "alpha"),
       numbers_if=_f32_factor_input)  # Paddle's selu_grad reads the output
def selu(x, scale=1.0507009873554805, alpha=1.6732632423543772):
    """``scale * x`` for positive inputs, ``scale * alpha * (exp(x) - 1)`` otherwise."""
    sc, al = _f32(scale), _f32(alpha)
    return jnp.where(x > 0, sc * x, sc * (al * jnp.exp(jnp.minimum(x, 0)) - al)).astype(x.dtype)


def _over_alpha(x, alpha, inv):  # noqa: ANN001, ANN202
    """``x / alpha`` (alpha rounded to float32) as the compiled kernel computes it: XLA multiplies by the reciprocal
    of a constant divisor, so a number input ``alpha`` comes with that reciprocal, ``inv``, to multiply by."""
    return jnp.minimum(x, 0) / _f32(alpha) if inv is None else jnp.minimum(x, 0) * inv


def _reciprocal(a, dtype):  # noqa: ANN001, ANN202
    """``1 / a`` as XLA inverts a constant divisor ``a`` (rounded to float32, as celu holds it) of ``dtype``."""
    a = np.float32(a)
    return float(np.float32(1) / a) if dtype == _F32 else 1.0 / float(a)


def _celu_vjp(s, g, alpha=1.0, inv=None):  # noqa: ANN001, ANN202
    x = s["x"]
    return g * jnp.where(x > 0, 1.0, jnp.exp(_over_alpha(x, alpha, inv))).astype(g.dtype)


@defop(1, rows=MAP, axes=POINTWISE, saves=("x",), vjp=_celu_vjp, method=False, numbers=("alpha",), numbers_if=_f32_factor_input,
       derived={"inv": lambda a, dtype: _reciprocal(a["alpha"], dtype)})
def celu(x, alpha=1.0, inv=None):
    """``max(0, x) + min(0, alpha * (exp(x / alpha) - 1))`` (``inv``: ``1 / alpha``, when alpha is a number
    input)."""
    if inv is None and alpha == 0:  # (a number input is never 0: ``_f32_factor_input``)
        raise ZeroDivisionError("celu: alpha must not be 0; received 0.")
    a = _f32(alpha)
    return jnp.where(x < 0, a * (jnp.exp(_over_alpha(x, alpha, inv)) - 1), x).astype(x.dtype)


@defop(1, rows=MAP, axes=POINTWISE, saves=("x",), method=False)
def gelu(x, approximate=False):
    """Gaussian error linear unit; ``approximate=True`` (or 'tanh') uses the tanh formula."""
    approx = approximate is True or approximate == "tanh"
    return jax.nn.gelu(x, approximate=approx).astype(x.dtype)


def _silu_vjp(s, g):  # noqa: ANN001, ANN202
    x, out = s["x"], s["out"]
    sig = jax.nn.sigmoid(x)
    return g * (sig + out * (1 - sig))


@defop(1, rows=MAP, axes=POINTWISE, saves=("x", "out"), vjp=_silu_vjp, method=False)  # Paddle's silu_grad reads x and out
def silu(x):
    """``x * sigmoid(x)`` (``nn.functional.silu`` does the in-place write of ``inplace=True``)."""
    return (x * jax.nn.sigmoid(x)).astype(x.dtype)


@defop(1, rows=MAP, axes=POINTWISE, saves=("x",), method=False)
def swish(x):
    """``x * sigmoid(x)``."""
    return (x * jax.nn.sigmoid(x)).astype(x.dtype)


@defop(1, rows=MAP, axes=POINTWISE, saves=("x",), method=False)
def mish(x):
    """``x * tanh(softplus(x))``."""
    return (x * jnp.tanh(jax.nn.softplus(x))).astype(x.dtype)


@defop(1, rows=MAP, axes=POINTWISE, saves=("x",), method=False, numbers=("beta", "threshold"))
def softplus(x, beta=1, threshold=20):
    """``log(1 + exp(beta * x)) / beta``, and ``x`` itself where ``beta * x > threshold``."""
    bx = beta * x
    return jnp.where(bx > threshold, x, jax.nn.softplus(bx) / beta).astype(x.dtype)


@defop(1, rows=MAP, axes=POINTWISE, saves=("x",), method=False)
def softsign(x):
    """``x / (1 + |x|)``."""
    return x / (1 + jnp.abs(x))


@defop(1, rows=MAP, axes=POINTWISE, saves=("x",), method=False)
def tanhshrink(x):
    """``x - tanh(x)``."""
    return x - jnp.tanh(x)


# (the derivative is 0 on hardtanh's bounds, hardsigmoid's and hardswish's kinks and inside hardshrink's and
# softshrink's thresholds, as Paddle's; jnp.clip would split a tie)
@defop(1, rows=MAP, axes=POINTWISE, saves=("x",), method=False, numbers=("min", "max"),
       vjp=lambda s, g, min=-1.0, max=1.0: jnp.where((s["x"] > _f32(min)) & (s["x"] < _f32(max)), g, _zero(g)))  # noqa: A006
def hardtanh(x, min=-1.0, max=1.0):  # noqa: A002
    """``x`` clipped to ``[min, max]``."""
    return jnp.clip(x, _f32(min), _f32(max)).astype(x.dtype)


def _hardsigmoid_vjp(s, g, slope=0.1666667, offset=0.5):  # noqa: ANN001, ANN202, ARG001
    out = s["out"]
    return jnp.where((out > 0) & (out < 1), g * _f32(slope), _zero(g))


@defop(1, rows=MAP, axes=POINTWISE, saves=("out",), vjp=_hardsigmoid_vjp, method=False, numbers=("slope", "offset"))  # Paddle's hardsigmoid_grad reads the output
def hardsigmoid(x, slope=0.1666667, offset=0.5):
    """``clip(slope * x + offset, 0, 1)``."""
    return jnp.clip(_f32(slope) * x + _f32(offset), 0, 1).astype(x.dtype)


def _hardswish_vjp(s, g):  # noqa: ANN001, ANN202
    x = s["x"]
    inner = jnp.where(x + 3 > 0, g * (2 * x + 3) / 6, _zero(g))
    return jnp.where(x + 3 < 6, inner, g)


@defop(1, rows=MAP, axes=POINTWISE, saves=("x",), vjp=_hardswish_vjp, method=False)
def hardswish(x):
    """``x * relu6(x + 3) / 6``."""
    return (x * jnp.clip(x + 3, 0, 6) / 6).astype(x.dtype)


def _hardshrink_keep(x, threshold):  # noqa: ANN001, ANN202
    t = _f32(threshold)
    return ((x >= t) | (x <= -t)).astype(x.dtype)


@defop(1, rows=MAP, axes=POINTWISE, saves=("x",), method=False, numbers=("threshold",),
       vjp=lambda s, g, threshold=0.5: g * _hardshrink_keep(s["x"], threshold))
def hardshrink(x, threshold=0.5):
    """``x`` where ``|x| >= threshold``, else 0 (``x * 0``, as Paddle's)."""
    return x * _hardshrink_keep(x, threshold)


@defop(1, rows=MAP, axes=POINTWISE, saves=("x",), method=False, numbers=("threshold",))
def softshrink(x, threshold=0.5):
    """``x - threshold`` above it, ``x + threshold`` below ``-threshold``, else 0."""
    t = _f32(threshold)
    return jnp.where(x > t, x - t, jnp.where(x < -t, x + t, 0)).astype(x.dtype)


@defop(1, rows=MAP, axes=POINTWISE, saves=("x",), method=False)
def log_sigmoid(x):
    """``log(sigmoid(x))``, computed stably."""
    return jax.nn.log_sigmoid(x)


@defop(1, saves=("out",), vjp=lambda s, g: g * s["out"] * (1 - s["out"]), inplace=True, rows=MAP, axes=POINTWISE)
def sigmoid(x):
    """``1 / (1 + exp(-x))``; backward reads the output."""
    return jax.nn.sigmoid(as_float(x))


def _softmax_vjp(s, g, axis=-1, dtype=None):  # noqa: ANN001, ANN202
    y = s["out"]
    return y * (g - jnp.sum(g * y, axis=axis if y.ndim else None, keepdims=True))


def _log_softmax_vjp(s, g, axis=-1, dtype=None):  # noqa: ANN001, ANN202
    return g - jnp.exp(s["out"]) * jnp.sum(g, axis=axis if g.ndim else None, keepdims=True)


@defop(1, saves=("out",), vjp=_softmax_vjp, inplace=True, rows=along_rule(), axes=softmax_axes())
def softmax(x, axis=-1, dtype=None):
    """``exp(x) / sum(exp(x))`` along ``axis`` (computed in ``dtype`` if given); backward reads the output."""
    x = x.astype(dtype_arg(dtype)) if dtype is not None else as_float(x)
    if x.ndim == 0:  # (one element: 1)
        return paddle_softmax(x[None], 0)[0]
    return paddle_softmax(x, axis % x.ndim)


@defop(1, saves=("out",), vjp=_log_softmax_vjp, method=False, rows=along_rule(),
       axes=softmax_axes())
def log_softmax(x, axis=-1, dtype=None):
    """``log(softmax(x))`` along ``axis``, computed stably; backward reads the output."""
    x = x.astype(dtype_arg(dtype)) if dtype is not None else as_float(x)
    if x.ndim == 0:  # (one element: 0)
        return paddle_log_softmax(x[None], 0)[0]
    return paddle_log_softmax(x, axis % x.ndim)


@defop(1, saves=("x",), method=False)
def glu(x, axis=-1):
    """Gated linear unit: first half times sigmoid of the second half along ``axis``."""
    a, b = jnp.split(x, 2, axis=axis)
    return a * jax.nn.sigmoid(b)


# ---- dropout ------------------------------------------------------------------------
def keep_mask(key, p, shape):  # noqa: ANN001, ANN201
    """The elements dropout keeps (True with probability ``1 - p``), drawn from ``key``: every dropout form draws
    through this, so a form run under saved-tensor hooks keeps the elements the plain op keeps."""
    return jax.random.bernoulli(key.astype(jnp.uint32), 1.0 - p, shape)


def _dropout_mode(mode):  # noqa: ANN001, ANN202
    if mode not in ("upscale_in_train", "downscale_in_infer"):
        raise ValueError(f"dropout: mode must be 'upscale_in_train' or 'downscale_in_infer', but received {mode!r}.")


def _upscale(p, mode):  # noqa: ANN001, ANN202
    """The factor kept values get in training: ``1 / (1 - p)`` (0 when everything is dropped), 1 when downscaling."""
    if mode == "downscale_in_infer":
        return 1.0
    return 0.0 if p >= 1.0 else 1.0 / (1.0 - p)


def _dropout_factor(a, _=None):  # noqa: ANN001, ANN202
    """What dropout multiplies the values it keeps by (``_upscale`` in training, ``1 - p`` downscaling at
    inference), from the call's arguments: a number input beside ``p`` (``defop``'s ``derived``)."""
    p, mode = a["p"], a["mode"]
    return _upscale(p, mode) if a["training"] else (1.0 if mode == "upscale_in_train" else 1.0 - p)


def _rate_input(dtype, _, p):  # noqa: ANN001, ANN202
    """A dropout rate may be a number input where the traced form is the compiled one bit for bit: strictly between
    0 and 1 (the functions branch on those), with ``1 / (1 - p)`` and ``1 - p`` no factor of 1 in the dtype (a rate
    below ~2**-24 on float32), on a float32 or float64 tensor (``exact_input``)."""
    return 0.0 < p < 1.0 and exact_input(dtype, factors=(1.0 / (1.0 - p), 1.0 - p))


# The plain op keeps its key (the backward draws the same mask again); ``dropout_residuals`` keeps the mask. A rate
# that changes every step is a number input (with the factor beside it), so a schedule compiles nothing new
@defop(("x", "key"), saves=("key",), nondiff=("key",), method=False, rows=draws_rule(), numbers=("p",),
       numbers_if=_rate_input, derived={"factor": _dropout_factor})
def dropout(x, key, p=0.5, axis=None, training=True, mode="upscale_in_train", factor=None):
    """Zero elements with probability ``p`` using the PRNG ``key`` (int64 [2]); see nn.functional.dropout.
    ``factor``: what the kept values are multiplied by, when ``p`` is a number input (else computed from ``p``)."""
    _dropout_mode(mode)
    if factor is None:
        factor = _dropout_factor({"p": p, "training": training, "mode": mode})
    if not training:
        return x if mode == "upscale_in_train" else (x * factor).astype(x.dtype)
    if axis is None:
        mshape = x.shape
    else:
        axes = {a % x.ndim for a in ((axis,) if isinstance(axis, int) else axis)}
        mshape = tuple(d if i in axes else 1 for i, d in enumerate(x.shape))
    keep = keep_mask(key, p, mshape)
    if mode == "downscale_in_infer":
        return jnp.where(keep, x, 0).astype(x.dtype)
    return jnp.where(keep, x * factor, 0).astype(x.dtype)


def _dropout_residuals_vjp(s, ct, p=0.5, training=True, mode="upscale_in_train", factor=None):  # noqa: ANN001, ANN202, ARG001
    g, _ = ct
    f = _upscale(p, mode) if factor is None else factor
    return g * (s["out1"].astype(g.dtype) * f).astype(g.dtype), None


@defop(("x", "key"), saves=("out1",), vjp=_dropout_residuals_vjp, hidden=1, nondiff=("key",), method=False,
       numbers=("p",), numbers_if=_rate_input, derived={"factor": _dropout_factor})
def dropout_residuals(x, key, p=0.5, training=True, mode="upscale_in_train", factor=None):
    """dropout of single elements in training as Paddle's kernel runs it (``nn.functional.dropout`` under saved-tensor
    hooks): it also gives (hidden) the uint8 mask it drew, which the backward multiplies by."""
    _dropout_mode(mode)
    if not training:
        raise ValueError("dropout_residuals: this form draws a training mask; received training=False. Use dropout.")
    return dropout.fn(x, key, p, None, True, mode, factor), keep_mask(key, p, x.shape).astype(jnp.uint8)


# ---- layers as functions --------------------------------------------------------------
@defop(("x", "weight", "bias"), saves=("x", "weight"), method=False, rows=MAP, axes=off_axes(lambda a: (-1,)))
def linear(x, weight, bias=None):
    """``x @ weight + bias`` with ``weight`` of shape ``[in_features, out_features]``."""
    out = jnp.matmul(x, weight)
    return out if bias is None else out + bias


def _norm_shape(normalized_shape):  # noqa: ANN001, ANN202
    return (normalized_shape,) if isinstance(normalized_shape, int) else tuple(normalized_shape)


def _layer_norm_axes(x, normalized_shape):  # noqa: ANN001, ANN202
    want = _norm_shape(normalized_shape)
    n = len(want)
    if n < 1 or n > x.ndim or tuple(x.shape[x.ndim - n :]) != want:
        raise ValueError(
            f"layer_norm: normalized_shape {list(want)} must equal the trailing dimensions of the "
            f"input, whose shape is {list(x.shape)}."
        )
    return x.shape[: x.ndim - n], x.shape[x.ndim - n :]


def _stat_dtype(x):  # noqa: ANN001, ANN202
    return jnp.promote_types(x.dtype, jnp.float32)  # float16/bfloat16 statistics in float32, as Paddle's


def _layer_norm_vjp(s, ct, normalized_shape=None, epsilon=1e-05):  # noqa: ANN001, ANN202
    """dx, dweight, dbias from the saved x, weight, mean and variance (no recomputed statistics); the
    cotangents of the mean and variance outputs (sent by a create_graph backward) join dx."""
    x, weight, mean, var = s["x"], s.get("weight"), s["out1"], s["out2"]
    g, g_mean, g_var = ct
    lead, tail = _layer_norm_axes(x, normalized_shape)
    m = int(np.prod(tail))
    sd = _stat_dtype(x)
    x2 = jnp.reshape(x, (-1, m)).astype(sd)
    g2 = jnp.reshape(g, (-1, m)).astype(sd)
    mu, rstd = mean[:, None], lax.rsqrt(var + epsilon)[:, None]
    xhat = (x2 - mu) * rstd
    gx = g2 if weight is None else g2 * jnp.reshape(weight, (1, m)).astype(sd)
    dx = rstd * (gx - jnp.mean(gx, axis=1, keepdims=True) - xhat * jnp.mean(gx * xhat, axis=1, keepdims=True))
    dx = dx + g_mean[:, None].astype(sd) / m + g_var[:, None].astype(sd) * 2.0 * (x2 - mu) / m
    dw = None if weight is None else jnp.reshape(jnp.sum(g2 * xhat, axis=0), weight.shape)
    db = jnp.reshape(jnp.sum(g2, axis=0), tail)  # bias is the last tensor: dropped when there is none
    return jnp.reshape(dx, x.shape), dw, db


@defop(("x", "weight", "bias"), saves=("x", "weight", "out1", "out2"), vjp=_layer_norm_vjp, hidden=2, method=False,
       name="layer_norm_residuals", rows=when(lambda a: len(_norm_shape(a["normalized_shape"])) < a["x"]),
       axes=off_axes(lambda a: range(-len(_norm_shape(a["normalized_shape"])), 0)))
def layer_norm(x, weight=None, bias=None, normalized_shape=None, epsilon=1e-05):
    """Normalise over the trailing ``normalized_shape`` axes, then scale and shift (op order: tensors first).

    As Paddle's kernel, it also outputs the mean and (biased) variance of each normalised row (hidden
    outputs, shape ``[prod(leading dims)]``), and its backward reads those instead of recomputing them.
    """
    lead, tail = _layer_norm_axes(x, normalized_shape)
    m = int(np.prod(tail))
    x2 = jnp.reshape(x, (-1, m)).astype(_stat_dtype(x))
    mean = jnp.mean(x2, axis=1)
    var = jnp.mean(jnp.square(x2 - mean[:, None]), axis=1)
    out = jnp.reshape((x2 - mean[:, None]) * lax.rsqrt(var + epsilon)[:, None], x.shape)
    if weight is not None:
        out = out * jnp.reshape(weight, tail)
    if bias is not None:
        out = out + jnp.reshape(bias, tail)
    return out.astype(x.dtype), mean, var


layer_norm_plain = visible_op(layer_norm, "layer_norm", ("x", "weight"))


@defop(
    ("x", "running_mean", "running_var", "weight", "bias"),
    saves=("x", "running_mean", "running_var", "weight"),
    nondiff=("running_mean", "running_var"),
    method=False,
    # with the running statistics it maps rows; the batch's own statistics mix them (the step runs unpadded)
    rows=when(lambda a: a["x"] >= 2 and not (a["training"] and not a["use_global_stats"]), MAP),
)
def batch_norm(
    x,
    running_mean=None,
    running_var=None,
    weight=None,
    bias=None,
    training=False,
    epsilon=1e-05,
    data_format="NCHW",
    use_global_stats=None,
):
    """Batch normalisation: batch statistics when training, running statistics otherwise.

    The kernel only normalises; ``nn.functional.batch_norm`` updates the running statistics in place
    (through ``batch_norm_stats``) and passes none here when the batch's own statistics are used.
    """
    caxis = x.ndim - 1 if data_format in ("NHWC", "NLC", "NDHWC") else (1 if x.ndim > 1 else 0)
    axes = tuple(i for i in range(x.ndim) if i != caxis)
    shape = [1] * x.ndim
    shape[caxis] = x.shape[caxis]
    use_batch = training and not use_global_stats
    if use_batch and x.size == x.shape[caxis] > 0:
        # one value per channel: Paddle's kernel skips the normalisation (and the affine) and gives x itself
        return x
    if use_batch:
        mean = jnp.mean(x, axis=axes, keepdims=True)
        var = jnp.mean(jnp.square(x - mean), axis=axes, keepdims=True)
    else:
        mean, var = jnp.reshape(running_mean, shape), jnp.reshape(running_var, shape)
    out = (x - mean) * lax.rsqrt(var + epsilon)
    if weight is not None:
        out = out * jnp.reshape(weight, shape)
    if bias is not None:
        out = out + jnp.reshape(bias, shape)
    return out.astype(x.dtype)


@defop(1, saves=("x",), method=False, numbers=("epsilon",))
def normalize(x, p=2, axis=1, epsilon=1e-12):
    """``x / max(||x||_p, epsilon)`` along ``axis``; as Paddle's ``p_norm``, ``p=inf``/``-inf`` take the largest
    and smallest magnitude (every element tied with it gets the norm's full gradient) and ``p=0`` counts the
    nonzero elements (no gradient through the norm); the gradient of any other norm is that of Paddle's kernel,
    which reads ``epsilon`` (``_normalize_p_norm``)."""
    a = jnp.abs(x)
    if p == 0:
        norm = lax.stop_gradient(jnp.sum(a != 0, axis=axis, keepdims=True).astype(x.dtype))
    elif math.isinf(p):
        norm = _extreme_magnitude(a, axis, True, p > 0)
    else:
        norm = _normalize_p_norm(x, epsilon, float(p), axis)
    return x / jnp.maximum(norm, epsilon)


def _extreme_magnitude(a, axis, keepdims, largest):  # noqa: ANN001, ANN202
    """The largest (or smallest) of the magnitudes ``a`` along ``axis`` with the derivative of Paddle's ``p_norm``
    for ``p=inf``/``-inf``: each element equal to it gets the full gradient (``jnp.max`` splits it among ties)."""
    m = lax.stop_gradient((jnp.max if largest else jnp.min)(a, axis=axis, keepdims=True))
    out = m + jnp.sum(jnp.where(a == m, a - lax.stop_gradient(a), 0), axis=axis, keepdims=True)
    return out if keepdims else jnp.squeeze(out, axis)


@functools.partial(jax.custom_jvp, nondiff_argnums=(2, 3))
def _normalize_p_norm(x, epsilon, p, axis):  # noqa: ANN001, ANN202
    """The ``p``-norm ``normalize`` divides by, with the derivative of Paddle's ``p_norm`` kernel, to which
    ``normalize`` hands its ``epsilon``: ``sign(x) |x|**(p-1) / (norm**(p-1) + epsilon)`` (the exact one without
    ``epsilon``; NaN at a zero element when ``p < 1``, as Paddle's)."""
    return jnp.sum(jnp.abs(x) ** p, axis=axis, keepdims=True) ** (1.0 / p)


@_normalize_p_norm.defjvp
def _normalize_p_norm_jvp(p, axis, primals, tangents):  # noqa: ANN001, ANN202
    x, epsilon = primals
    dx = tangents[0]
    n = _normalize_p_norm(x, epsilon, p, axis)
    g = jnp.sign(x) * jnp.abs(x) ** (p - 1) / (n ** (p - 1) + epsilon)
    if jnp.iscomplexobj(x):  # d|x| = Re(conj(sign(x)) dx)
        return n, jnp.sum(jnp.real(jnp.conj(g) * dx), axis=axis, keepdims=True).astype(n.dtype)
    return n, jnp.sum(g * dx, axis=axis, keepdims=True).astype(n.dtype)


@defop(2, saves=("x1", "x2"), method=False)
def cosine_similarity(x1, x2, axis=1, eps=1e-08):
    """Cosine of the angle between ``x1`` and ``x2`` along ``axis``."""
    w = jnp.sum(x1 * x1, axis=axis) * jnp.sum(x2 * x2, axis=axis)
    # Paddle's sqrt(max(|x1|^2 |x2|^2, eps^2)): a zero vector's gradient is x2 / eps (the norms' roots made it NaN)
    return jnp.sum(x1 * x2, axis=axis) / jnp.sqrt(jnp.where(w > eps * eps, w, eps * eps))


def _pdist_of(d, p=2.0, epsilon=1e-06, keepdim=False):  # noqa: ANN001, ANN202
    d = jnp.abs(d + epsilon)
    if math.isinf(p):  # (Paddle's p_norm: the largest / smallest magnitude)
        return _extreme_magnitude(d, -1, keepdim, p > 0)
    if p == 0:
        return jnp.sum(d != 0, axis=-1, keepdims=keepdim).astype(d.dtype)
    return jnp.sum(d**p, axis=-1, keepdims=keepdim) ** (1.0 / p)


def _pdist_vjp(s, ct, p=2.0, epsilon=1e-06, keepdim=False):  # noqa: ANN001, ANN202
    d = s["out1"]
    g, g_d = ct
    _, pullback = jax.vjp(lambda v: _pdist_of(v, p, epsilon, keepdim), d)
    (gd,) = pullback(g.astype(d.dtype))
    gd = gd + g_d
    return gd, -gd


# as Paddle (subtract, then p_norm keeping its input and output): saves the difference (hidden), then the norm
@defop(2, saves=("out1", "out0"), vjp=_pdist_vjp, hidden=1, method=False, name="pairwise_distance_residuals")
def pairwise_distance(x, y, p=2.0, epsilon=1e-06, keepdim=False):
    """``||x - y + epsilon||_p`` along the last axis."""
    d = x - y
    return _pdist_of(d, p, epsilon, keepdim), d


pairwise_distance_plain = visible_op(pairwise_distance, "pairwise_distance", ("x", "y"))


_PAD_MODES = {"constant": "constant", "reflect": "reflect", "replicate": "edge", "circular": "wrap"}


def pad_widths(ndim, pad, data_format=None, pad_from_left_axis=True):  # noqa: ANN001, ANN202
    """Paddle's pad list -> per-axis (before, after) pairs.

    ``len(pad) == 2 * ndim``: one pair per axis, from the first axis (or from the last with
    pad_from_left_axis=False). Otherwise the pairs pad the spatial axes starting from the LAST
    one: ``[left, right, top, bottom, front, back]`` for W, H, D.
    """
    pad = list(pad)
    if len(pad) % 2:
        raise ValueError(f"pad: the pad list must have an even length (before/after pairs), but received {pad}.")
    pairs = [(pad[2 * i], pad[2 * i + 1]) for i in range(len(pad) // 2)]
    widths = [(0, 0)] * ndim
    if len(pairs) == ndim:
        axes = list(range(ndim)) if pad_from_left_axis else list(range(ndim - 1, -1, -1))
    else:
        channel_last = data_format is not None and data_format.endswith("C")
        axes = list(range(ndim - 2, 0, -1)) if channel_last else list(range(ndim - 1, -1, -1))
        if len(pairs) > len(axes):
            raise ValueError(
                f"pad: {len(pad)} pad values are too many for a {ndim}-D input in {data_format}; pass "
                f"2 * {ndim} values or 2 per spatial axis."
            )
    for a, pr in zip(axes, pairs):
        widths[a] = pr
    return widths


def _pad_checks(op, a):  # noqa: ANN001, ANN202
    """Paddle's rules of ``pad``: the reflect / replicate / circular modes pad 3-D to 5-D input by one pair per
    spatial axis (an AssertionError and a ValueError in Paddle), reflect by less than the axis's size; a negative
    pad crops, but not past the axis's size."""
    x, mode = a["x"], a["mode"]
    pads = a["pad"]
    pads = [int(v) for v in (np.asarray(pads).ravel().tolist() if hasattr(pads, "shape") else pads)]
    shape = list(x.shape)
    if mode != "constant" and mode in _PAD_MODES:
        if len(shape) not in (3, 4, 5):
            raise AssertionError(
                f"{op}: mode {mode!r} pads 3-D, 4-D or 5-D input (the spatial axes of NCL / NCHW / NCDHW or their "
                f"channel-last forms), but received a {len(shape)}-D input of shape {shape}; pad it with mode "
                "'constant', or add batch and channel axes first."
            )
        if len(pads) != 2 * (len(shape) - 2):
            raise ValueError(
                f"{op}: mode {mode!r} takes one (before, after) pair per spatial axis, {2 * (len(shape) - 2)} values "
                f"for a {len(shape)}-D input, but received {len(pads)} ({pads}); only mode 'constant' pads every axis."
            )
    widths = pad_widths(len(shape), pads, a["data_format"], a["pad_from_left_axis"])
    for axis, (n, (lo, hi)) in enumerate(zip(shape, widths)):
        if n is None or n < 0:  # a size known only when the program runs (a static program's batch axis)
            continue
        if mode == "reflect" and max(lo, hi) >= n:
            raise ValueError(
                f"{op}: mode 'reflect' pads an axis by less than its size, but axis {axis} has size {n} and the "
                f"pads ({lo}, {hi}); use mode 'replicate' or 'circular', or pad less."
            )
        if n + lo + hi < 0:
            raise ValueError(
                f"{op}: negative pads crop an axis, but the pads ({lo}, {hi}) of axis {axis} crop more than its "
                f"size {n}."
            )
    return []


_pad_checks.attrs_only = True  # type: ignore[attr-defined]


@defop(1, method=False, checks=_pad_checks)
def pad(x, pad, mode="constant", value=0.0, data_format=None, pad_from_left_axis=True):
    """Pad ``x`` (modes: constant, reflect, replicate, circular); see pad_widths for Paddle's order. A negative
    pad crops that side (after the other sides are padded, as Paddle: circular padding wraps the uncropped axis)."""
    if mode not in _PAD_MODES:
        raise AssertionValueError(f"pad: mode must be one of {', '.join(_PAD_MODES)}, but received {mode!r}.")
    widths = pad_widths(x.ndim, pad, data_format, pad_from_left_axis)
    grow = [(max(lo, 0), max(hi, 0)) for lo, hi in widths]
    if mode == "constant":
        out = jnp.pad(x, grow, constant_values=jnp.asarray(value, x.dtype))
    else:
        out = jnp.pad(x, grow, mode=_PAD_MODES[mode])
    if any(lo < 0 or hi < 0 for lo, hi in widths):
        out = out[tuple(slice(max(-lo, 0), n - max(-hi, 0)) for n, (lo, hi) in zip(out.shape, widths))]
    return out


def _one_hot_checks(op, a):  # noqa: ANN001, ANN202
    n = a["num_classes"]
    if not isinstance(n, int) or n < 1:
        raise ValueError(f"{op}: num_classes must be a positive int, but received {n!r}.")
    integer_index(op, a["x"], "x (the labels)", RuntimeError)  # Paddle: a RuntimeError (it has no such kernel)
    return [index_range(op, a["x"], n, "label", False)]


@defop(1, differentiable=False, method=False, checks=_one_hot_checks)
def one_hot(x, num_classes=-1):
    """One-hot float32 vectors of length ``num_classes`` for the integer labels ``x``."""
    if num_classes is None or num_classes < 1:
        raise ValueError(f"one_hot: num_classes must be a positive int, but received {num_classes}.")
    return jax.nn.one_hot(x, num_classes, dtype=jnp.float32)


def _embedding_checks(op, a):  # noqa: ANN001, ANN202
    integer_index(op, a["x"], "x (the ids)", NotImplementedError)  # Paddle's type for a float id tensor
    return [index_range(op, a["x"], a["weight"].shape[0], "id", False)]


# (rows kept: a row's ids look up their rows; counting ids over the batch mixes them)
@defop(("x", "weight"), saves=("x",), nondiff=("x",), method=False, checks=_embedding_checks,
       rows=when(lambda a: not a["scale_grad_by_freq"]), axes=off_axes(lambda a: (), ok=lambda a: not a["scale_grad_by_freq"]))
def embedding(x, weight, padding_idx=None, scale_grad_by_freq=False):
    """Rows of ``weight`` picked by the integer ids ``x``; rows for ``padding_idx`` are zeros.
    (``nn.functional.embedding`` applies ``max_norm`` through ``embedding_renorm`` first.)"""
    out = jnp.take(weight, x, axis=0)
    if scale_grad_by_freq:
        # the value stays ``out`` exactly; the gradient of each lookup is divided by how often its id occurs
        freq = jnp.bincount(jnp.ravel(x), length=weight.shape[0])[x].astype(out.dtype)
        held = lax.stop_gradient(out)
        out = held + (out - held) / freq[..., None]
    if padding_idx is not None:
        pid = padding_idx % weight.shape[0]
        out = jnp.where((x == pid)[..., None], 0, out)
    return out


def _embedding_sparse_vjp(s, g, padding_idx=None, height=0):  # noqa: ANN001, ANN202
    ids = jnp.ravel(s["x"])
    rows = jnp.zeros((height, g.shape[-1]), g.dtype).at[ids].add(jnp.reshape(g, (-1, g.shape[-1])))
    return None, rows, jnp.zeros((height,), jnp.float32).at[ids].add(1.0)


# (no ``rows``: a step with a sparse lookup never runs padded, whose extra ids would count as looked up)
@defop(("x", "weight", "looked_up"), saves=("x",), nondiff=("x",), method=False, checks=_embedding_checks,
       vjp=_embedding_sparse_vjp)
def embedding_sparse(x, weight, looked_up, padding_idx=None, height=0):
    """``embedding`` with Paddle's sparse gradient (``sparse=True``), kept dense: the gradient of ``weight`` is the
    sum of each lookup's output gradient on its row, the ``padding_idx`` row included (Paddle's sparse kernel does
    not leave it out, though the lookup's output there is zeros), zeros on the other rows; the gradient of
    ``looked_up`` (``[height]`` float32, its value unused) counts the lookups of each row, whatever their output
    gradient is: the rows Paddle's SelectedRows gradient holds (``nn._sparse_rows``)."""
    out = jnp.take(weight, x, axis=0)
    if padding_idx is not None:
        out = jnp.where((x == padding_idx % (height or weight.shape[0]))[..., None], 0, out)
    return out


@defop(("x", "weight"), differentiable=False, method=False)
def embedding_renorm(x, weight, max_norm, norm_type=2.0):
    """``weight`` with the rows that ``x`` looks up scaled to a ``norm_type``-norm of at most ``max_norm``
    (Paddle's ``max_norm``: ``row * max_norm / (norm + 1e-7)``, the norm as ``paddle.norm``'s ``p=norm_type``:
    inf the largest magnitude, 0 the count of non-zeros); the other rows unchanged."""
    a = jnp.abs(weight)
    if norm_type == float("inf"):  # (the norms of paddle.norm: max, min, the count of non-zeros, the p-norm)
        norms = jnp.max(a, axis=1)
    elif norm_type == float("-inf"):
        norms = jnp.min(a, axis=1)
    elif norm_type == 0:
        norms = jnp.sum(a != 0, axis=1).astype(weight.dtype)
    else:
        norms = jnp.sum(a ** norm_type, axis=1) ** (1.0 / norm_type)
    used = jnp.zeros(weight.shape[0], bool).at[jnp.ravel(x)].set(True)
    scale = jnp.where(used & (norms > max_norm), max_norm / (norms + 1e-7), 1.0)
    return (weight * scale[:, None]).astype(weight.dtype)
