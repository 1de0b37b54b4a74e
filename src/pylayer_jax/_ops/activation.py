"""More activations and channel rearrangements (``paddle.nn.functional``; layer L1):
thresholded_relu, prelu, rrelu, maxout, swiglu, gumbel_softmax, alpha dropouts,
channel/pixel shuffles, temporal_shift, label_smooth, sequence_mask, zeropad2d.

Random ones take a PRNG ``key`` tensor (int64 [2]) drawn by the public function.
"""

from __future__ import annotations

import jax
import jax.numpy as jnp

from ._util import dtype_arg, exact_input
from .nn import _f32, keep_mask
from .rows import draws_rule
from .table import defop


@defop(1, saves=("x",), method=False, numbers=("threshold", "value"))
def thresholded_relu(x, threshold=1.0, value=0.0):
    """``x`` where ``x > threshold``, else ``value`` (both float32 numbers, as Paddle's kernel holds them)."""
    return jnp.where(x > _f32(threshold), x, _f32(value)).astype(x.dtype)


@defop(("x", "weight"), saves=("x", "weight"), method=False)
def prelu(x, weight, data_format="NCHW"):
    """``x`` for positive inputs, ``weight * x`` otherwise; weight has 1 element or one per channel."""
    if data_format not in ("NC", "NCL", "NCHW", "NCDHW", "NLC", "NHWC", "NDHWC"):
        raise ValueError(f"prelu: data_format must be NC/NCL/NCHW/NCDHW or NLC/NHWC/NDHWC, but received {data_format!r}.")
    if weight.ndim != 1:
        raise ValueError(f"prelu: weight must be 1-D, but it has shape {list(weight.shape)}.")
    if weight.shape[0] == 1:
        w = weight[0]
    else:
        if x.ndim < 2:
            raise ValueError(f"prelu: a per-channel weight needs an input with a channel dim, but x has shape {list(x.shape)}.")
        caxis = 1 if data_format[1] == "C" else x.ndim - 1
        if weight.shape[0] != x.shape[caxis]:
            raise ValueError(
                f"prelu: weight must have 1 or {x.shape[caxis]} (channels) elements, but it has {weight.shape[0]}."
            )
        shape = [1] * x.ndim
        shape[caxis] = -1
        w = jnp.reshape(weight, shape)
    return jnp.where(x > 0, x, w * x).astype(x.dtype)


@defop(("x", "key"), saves=("x", "key"), nondiff=("key",), method=False)
def rrelu(x, key, lower=0.125, upper=0.3333333333333333, training=True):
    """Leaky relu with a slope drawn from U[lower, upper] per element in training, ``(lower + upper) / 2`` otherwise."""
    if training:
        slope = jax.random.uniform(key.astype(jnp.uint32), x.shape, x.dtype, lower, upper)
    else:
        slope = (lower + upper) / 2
    return jnp.where(x >= 0, x, slope * x).astype(x.dtype)


def _rrelu_vjp(s, ct, lower=0.125, upper=0.3333333333333333, training=True):  # noqa: ANN001, ANN202
    g, g_noise = ct
    noise = s["out1"]
    return (g * noise).astype(noise.dtype), None


@defop(("x", "key"), saves=("x", "out1"), vjp=_rrelu_vjp, hidden=1, nondiff=("key",), method=False)
def rrelu_residuals(x, key, lower=0.125, upper=0.3333333333333333, training=True):
    """rrelu as Paddle's kernel runs it (``nn.functional.rrelu`` under saved-tensor hooks): it also gives
    (hidden) the noise, the slope applied to each element (1 where ``x >= 0``), which the backward reads."""
    out = rrelu.fn(x, key, lower, upper, training)
    if training:
        slope = jax.random.uniform(key.astype(jnp.uint32), x.shape, x.dtype, lower, upper)
    else:
        slope = (lower + upper) / 2
    return out, jnp.where(x >= 0, 1, slope).astype(x.dtype)


@defop(1, saves=("x", "out"), method=False)  # Paddle's maxout kernel keeps x and out (the derivative reads x)
def maxout(x, groups, axis=1):
    """Max over each run of ``groups`` consecutive channels: ``C`` channels -> ``C / groups``."""
    if x.ndim != 4:
        raise ValueError(f"maxout: the input must be 4-D, but it has shape {list(x.shape)}.")
    if axis not in (1, -1, 3):
        raise ValueError(f"maxout: axis must be 1, -1 or 3, but received {axis!r}.")
    ax = axis % x.ndim
    c = x.shape[ax]
    if not isinstance(groups, int) or groups <= 0 or c % groups:
        raise ValueError(f"maxout: groups must be a positive divisor of the {c} channels, but received {groups!r}.")
    shape = list(x.shape)
    shape[ax : ax + 1] = [c // groups, groups]
    return jnp.max(jnp.reshape(x, shape), axis=ax + 1)


@defop(("x", "y"), saves=("x", "y"), method=False)
def swiglu(x, y=None):
    """``silu(x) * y``; with ``y=None``, ``x`` is split in halves along the last axis."""
    if y is None:
        if x.shape[-1] % 2:
            raise ValueError(f"swiglu: without y, the last dim of x must be even, but x has shape {list(x.shape)}.")
        x, y = jnp.split(x, 2, axis=-1)
    return x * jax.nn.sigmoid(x) * y


@defop(("x", "key"), saves=("x", "key"), nondiff=("key",), method=False)
def gumbel_softmax(x, key, temperature=1.0, hard=False, axis=-1):
    """``softmax((x + gumbel noise) / temperature)``; ``hard`` gives one-hot values with the soft gradient."""
    if temperature <= 0:
        raise ValueError(f"gumbel_softmax: temperature must be positive, but received {temperature!r}.")
    g = jax.random.gumbel(key.astype(jnp.uint32), x.shape, x.dtype)
    y = jax.nn.softmax((x + g) / temperature, axis=axis)
    if not hard:
        return y
    onehot = jnp.moveaxis(jax.nn.one_hot(jnp.argmax(y, axis=axis), x.shape[axis], dtype=y.dtype), -1, axis % x.ndim)
    return onehot - jax.lax.stop_gradient(y) + y


_SELU_ALPHA = 1.6732632423543772848170429916717
_SELU_SCALE = 1.0507009873554804934193349852946


def _alpha_coefficients(p):  # noqa: ANN001, ANN202
    """alpha_dropout's affine correction ``(a, b)`` for the rate ``p`` (Python floats)."""
    alpha_p = -_SELU_ALPHA * _SELU_SCALE
    a = ((1 - p) * (1 + p * alpha_p**2)) ** -0.5
    return a, -a * alpha_p * p


def _alpha_drop(x, key, p, mshape, a, b):  # noqa: ANN001, ANN202
    alpha_p = -_SELU_ALPHA * _SELU_SCALE
    if a is None:
        a, b = _alpha_coefficients(p)
    keep = keep_mask(key, p, mshape).astype(x.dtype)
    return ((x * keep + alpha_p * (1 - keep)) * a + b).astype(x.dtype)


def _alpha_rate_input(dtype, _, p):  # noqa: ANN001, ANN202
    """An alpha_dropout rate may be a number input (with its correction ``a``, ``b`` beside it) strictly between 0
    and 1 (the function branches on those), ``a`` no factor of 1 and ``b`` normal in a float32 or float64 dtype."""
    if not 0.0 < p < 1.0:
        return False
    a, b = _alpha_coefficients(p)
    return exact_input(dtype, b, factors=(a,))


_ALPHA_DERIVED = {"a": lambda args, _: _alpha_coefficients(args["p"])[0],
                  "b": lambda args, _: _alpha_coefficients(args["p"])[1]}


@defop(("x", "key"), saves=("key",), nondiff=("key",), method=False, rows=draws_rule(), numbers=("p",),
       numbers_if=_alpha_rate_input, derived=_ALPHA_DERIVED)
def alpha_dropout(x, key, p=0.5, training=True, a=None, b=None):
    """Dropout that keeps SELU's mean and variance: dropped values become ``-alpha * scale``, then affine-corrected
    (``a``, ``b``: the correction, when ``p`` is a number input; else computed from ``p``)."""
    if not training:
        return x
    if a is None and p == 0:
        return x
    if a is None and p == 1:
        return jnp.zeros_like(x)
    return _alpha_drop(x, key, p, x.shape, a, b)


@defop(("x", "key"), saves=("key",), nondiff=("key",), method=False, rows=draws_rule(), numbers=("p",),
       numbers_if=_alpha_rate_input, derived=_ALPHA_DERIVED)
def feature_alpha_dropout(x, key, p=0.5, training=True, a=None, b=None):
    """alpha_dropout of whole channels: one draw per (sample, channel) of ``[N, C, ...]``."""
    if x.ndim < 2:
        raise ValueError(f"feature_alpha_dropout: the input must be at least 2-D [N, C, ...], but it has shape {list(x.shape)}.")
    if not training:
        return x
    if a is None and p == 0:
        return x
    if a is None and p == 1:
        return jnp.zeros_like(x)
    return _alpha_drop(x, key, p, x.shape[:2] + (1,) * (x.ndim - 2), a, b)


def _check_4d(api, x, data_format):  # noqa: ANN001, ANN202
    if x.ndim != 4:
        raise ValueError(f"{api}: the input must be 4-D, but it has shape {list(x.shape)}.")
    if data_format not in ("NCHW", "NHWC"):
        raise ValueError(f"{api}: data_format must be 'NCHW' or 'NHWC', but received {data_format!r}.")
    return data_format == "NHWC"


@defop(1, method=False)
def channel_shuffle(x, groups, data_format="NCHW"):
    """Interleave the channels of ``groups`` groups: ``[g, C / g]`` -> ``[C / g, g]``."""
    cl = _check_4d("channel_shuffle", x, data_format)
    xc = jnp.moveaxis(x, -1, 1) if cl else x
    n, c, h, w = xc.shape
    if not isinstance(groups, int) or groups <= 0 or c % groups:
        raise ValueError(f"channel_shuffle: groups must be a positive divisor of the {c} channels, but received {groups!r}.")
    out = jnp.reshape(jnp.swapaxes(jnp.reshape(xc, (n, groups, c // groups, h, w)), 1, 2), (n, c, h, w))
    return jnp.moveaxis(out, 1, -1) if cl else out


@defop(1, method=False)
def pixel_shuffle(x, upscale_factor, data_format="NCHW"):
    """``[N, C * r^2, H, W]`` -> ``[N, C, H * r, W * r]``."""
    cl = _check_4d("pixel_shuffle", x, data_format)
    r = upscale_factor
    xc = jnp.moveaxis(x, -1, 1) if cl else x
    n, c, h, w = xc.shape
    if not isinstance(r, int) or r <= 0 or c % (r * r):
        raise ValueError(f"pixel_shuffle: the {c} channels must be divisible by upscale_factor ** 2, with upscale_factor a positive int; received {r!r}.")
    out = jnp.reshape(xc, (n, c // (r * r), r, r, h, w)).transpose(0, 1, 4, 2, 5, 3).reshape(n, c // (r * r), h * r, w * r)
    return jnp.moveaxis(out, 1, -1) if cl else out


@defop(1, method=False)
def pixel_unshuffle(x, downscale_factor, data_format="NCHW"):
    """``[N, C, H * r, W * r]`` -> ``[N, C * r^2, H, W]`` (the inverse of pixel_shuffle)."""
    cl = _check_4d("pixel_unshuffle", x, data_format)
    r = downscale_factor
    xc = jnp.moveaxis(x, -1, 1) if cl else x
    n, c, h, w = xc.shape
    if not isinstance(r, int) or r <= 0 or h % r or w % r:
        raise ValueError(f"pixel_unshuffle: downscale_factor must be a positive int dividing H={h} and W={w}, but received {r!r}.")
    out = jnp.reshape(xc, (n, c, h // r, r, w // r, r)).transpose(0, 1, 3, 5, 2, 4).reshape(n, c * r * r, h // r, w // r)
    return jnp.moveaxis(out, 1, -1) if cl else out


@defop(1, method=False)
def temporal_shift(x, seg_num, shift_ratio=0.25, data_format="NCHW"):
    """Shift a ``shift_ratio`` of the channels one step back in time and as many forward (``[N * T, C, H, W]``)."""
    cl = _check_4d("temporal_shift", x, data_format)
    if not isinstance(seg_num, int) or seg_num <= 0 or x.shape[0] % seg_num:
        raise ValueError(f"temporal_shift: seg_num must be a positive divisor of dim 0 ({x.shape[0]}), but received {seg_num!r}.")
    if not 0 <= shift_ratio < 0.5:
        raise ValueError(f"temporal_shift: shift_ratio must be in [0, 0.5), but received {shift_ratio!r}.")
    xc = jnp.moveaxis(x, -1, 1) if cl else x
    nt, c, h, w = xc.shape
    v = jnp.reshape(xc, (nt // seg_num, seg_num, c, h, w))
    c1, c2 = int(c * shift_ratio), int(c * 2 * shift_ratio)
    zero = jnp.zeros_like(v[:, :1])
    back = jnp.concatenate([zero[:, :, :c1], v[:, :-1, :c1]], axis=1)
    fwd = jnp.concatenate([v[:, 1:, c1:c2], zero[:, :, c1:c2]], axis=1)
    out = jnp.reshape(jnp.concatenate([back, fwd, v[:, :, c2:]], axis=2), (nt, c, h, w))
    return jnp.moveaxis(out, 1, -1) if cl else out


def _label_smooth_checks(op, a):  # noqa: ANN001, ANN202
    _epsilon_in_range(a["epsilon"], op)
    return []


_label_smooth_checks.attrs_only = True  # type: ignore[attr-defined]


def _epsilon_in_range(epsilon, api="label_smooth"):  # noqa: ANN001, ANN202
    if not isinstance(epsilon, jax.core.Tracer) and not 0 <= epsilon <= 1:  # (a number input: checked at the call)
        raise ValueError(f"{api}: epsilon must be in [0, 1], but received {epsilon!r}.")


@defop(("label", "prior_dist"), nondiff=("prior_dist",), method=False, checks=_label_smooth_checks,
       numbers=("epsilon",))
def label_smooth(label, prior_dist=None, epsilon=0.1):
    """``(1 - epsilon) * label + epsilon * prior`` (uniform prior ``1 / num_classes`` by default). As in Paddle, only
    ``label`` gets a gradient: ``prior_dist`` gets none (its ``grad`` stays None), even when it does not stop it."""
    _epsilon_in_range(epsilon)
    prior = 1.0 / label.shape[-1] if prior_dist is None else prior_dist
    return ((1 - epsilon) * label + epsilon * prior).astype(label.dtype)


@defop(1, differentiable=False, method=False)
def sequence_mask(x, maxlen, dtype="int64"):
    """``mask[..., j] = j < x[...]`` for ``j < maxlen``, in ``dtype``."""
    return (jnp.arange(maxlen) < x[..., None]).astype(dtype_arg(dtype))


@defop(1, method=False)
def zeropad2d(x, padding, data_format="NCHW"):
    """Zero padding of a 4-D input: ``padding`` is an int or ``[left, right, top, bottom]``."""
    cl = _check_4d("zeropad2d", x, data_format)
    p = [padding] * 4 if isinstance(padding, int) else list(padding)
    if len(p) != 4 or any(not isinstance(v, int) for v in p):
        raise ValueError(f"zeropad2d: padding must be an int or 4 ints [left, right, top, bottom], but received {padding!r}.")
    hw = [(p[2], p[3]), (p[0], p[1])]
    widths = [(0, 0)] + hw + [(0, 0)] if cl else [(0, 0), (0, 0)] + hw
    return jnp.pad(x, widths)
