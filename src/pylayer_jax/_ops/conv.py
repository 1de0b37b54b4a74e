"""Convolutions (``conv1d/2d/3d``, their transposes) and ``unfold`` / ``fold`` (layer L1).

Kernels are Paddle's: ``[out_channels, in_channels / groups, *k]`` for convolutions and
``[in_channels, out_channels / groups, *k]`` for transposes. Every argument is checked
at the call; the backward reads the input and the kernel (the bias gradient needs neither).
"""

from __future__ import annotations

import jax
import jax.numpy as jnp
from jax import lax

from ._layout import check_format, check_ndim, from_channel_first, paddings, same_pads, to_channel_first, tup
from .rows import MAP
from .table import defop

_SPATIAL = {1: "W", 2: "HW", 3: "DHW"}


def _dn(n):  # noqa: ANN001, ANN202
    s = _SPATIAL[n]
    return ("NC" + s, "OI" + s, "NC" + s)


def _check_kernel(api, x, weight, groups, n, transpose):  # noqa: ANN001, ANN202
    if weight.ndim != n + 2:
        raise ValueError(f"{api}: the weight must be {n + 2}-D, but it has shape {list(weight.shape)}.")
    if not isinstance(groups, int) or groups < 1:
        raise ValueError(f"{api}: groups must be a positive int, but received {groups!r}.")
    cin = x.shape[1]
    if cin % groups:
        raise ValueError(f"{api}: the input channels ({cin}) must be divisible by groups ({groups}).")
    want = weight.shape[0] if transpose else weight.shape[1] * groups
    if want != cin:
        what = "weight.shape[0]" if transpose else "weight.shape[1] * groups"
        raise ValueError(
            f"{api}: the input has {cin} channels but the weight of shape {list(weight.shape)} expects "
            f"{want} ({what}); pass a matching weight."
        )
    if not transpose and weight.shape[0] % groups:
        raise ValueError(f"{api}: the output channels ({weight.shape[0]}) must be divisible by groups ({groups}).")


def _bias(api, out, bias, n):  # noqa: ANN001, ANN202
    if bias is None:
        return out
    if bias.ndim != 1 or bias.shape[0] != out.shape[1]:
        raise ValueError(f"{api}: the bias must have shape [{out.shape[1]}], but it has {list(bias.shape)}.")
    return out + jnp.reshape(bias, (1, -1) + (1,) * n).astype(out.dtype)


def conv_nd(api, n, x, weight, bias, stride, padding, dilation, groups, data_format):  # noqa: ANN001, ANN202
    """N-d convolution with Paddle's arguments (shared by conv1d/2d/3d)."""
    check_ndim(api, x, n)
    cl = check_format(api, data_format, n)
    x = to_channel_first(x, cl)
    _check_kernel(api, x, weight, groups, n, False)
    stride = tup(api, "stride", stride, n)
    dilation = tup(api, "dilation", dilation, n)
    pads = paddings(api, padding, n, cl)
    k = tuple(weight.shape[2:])
    if pads == "SAME":  # Paddle computes SAME padding for the undilated kernel and drops the dilation
        dilation = (1,) * n
        pads = same_pads(tuple(x.shape[2:]), k, stride)
    elif pads == "VALID":
        pads = [(0, 0)] * n
    for i in range(n):
        eff = (k[i] - 1) * dilation[i] + 1
        if x.shape[2 + i] + pads[i][0] + pads[i][1] < eff:
            raise ValueError(
                f"{api}: the padded input size {x.shape[2 + i] + sum(pads[i])} of spatial dim {i} is smaller "
                f"than the dilated kernel size {eff}; pad more or use a smaller kernel."
            )
    out = lax.conv_general_dilated(
        x, weight.astype(x.dtype), stride, pads, rhs_dilation=dilation, dimension_numbers=_dn(n),
        feature_group_count=groups,
    )
    return from_channel_first(_bias(api, out, bias, n), cl)


def conv_transpose_nd(api, n, x, weight, bias, stride, padding, output_padding, groups, dilation, output_size,
                      data_format):  # noqa: ANN001, ANN202
    """N-d transposed convolution with Paddle's arguments (shared by conv1d/2d/3d_transpose)."""
    check_ndim(api, x, n)
    cl = check_format(api, data_format, n)
    x = to_channel_first(x, cl)
    _check_kernel(api, x, weight, groups, n, True)
    stride = tup(api, "stride", stride, n)
    dilation = tup(api, "dilation", dilation, n)
    opad = tup(api, "output_padding", output_padding, n, positive=False)
    pads = paddings(api, padding, n, cl)
    k = tuple(weight.shape[2:])
    size = tuple(x.shape[2:])
    if pads == "SAME":  # as for conv: padding of the undilated kernel over the input size, dilation dropped
        dilation = (1,) * n
        pads = same_pads(size, k, stride)
    elif pads == "VALID":
        pads = [(0, 0)] * n
    base = [(size[i] - 1) * stride[i] - pads[i][0] - pads[i][1] + (k[i] - 1) * dilation[i] + 1 for i in range(n)]
    if output_size is not None:
        osz = tup(api, "output_size", output_size, n)
        if any(opad):
            raise ValueError(f"{api}: pass output_size or output_padding, not both (received {output_size!r} and {output_padding!r}).")
        opad = tuple(o - b for o, b in zip(osz, base))
        if any(p < 0 or p >= max(s, d) for p, s, d in zip(opad, stride, dilation)):
            raise ValueError(
                f"{api}: output_size {list(osz)} must lie in [{base}, {base} + stride) for this input, "
                f"but received {output_size!r}."
            )
    elif any(p >= max(s, d) for p, s, d in zip(opad, stride, dilation)):
        raise ValueError(f"{api}: output_padding {list(opad)} must be smaller than stride or dilation.")
    cin, cout_g = weight.shape[0], weight.shape[1]
    w = jnp.reshape(weight, (groups, cin // groups, cout_g) + k)
    w = jnp.swapaxes(w, 1, 2).reshape((groups * cout_g, cin // groups) + k)
    w = jnp.flip(w, axis=tuple(range(2, 2 + n))).astype(x.dtype)
    tpads = [((k[i] - 1) * dilation[i] - pads[i][0], (k[i] - 1) * dilation[i] - pads[i][1] + opad[i]) for i in range(n)]
    out = lax.conv_general_dilated(
        x, w, (1,) * n, tpads, lhs_dilation=stride, rhs_dilation=dilation, dimension_numbers=_dn(n),
        feature_group_count=groups,
    )
    return from_channel_first(_bias(api, out, bias, n), cl)


@defop(("x", "weight", "bias"), saves=("x", "weight"), method=False, rows=MAP)
def conv1d(x, weight, bias=None, stride=1, padding=0, dilation=1, groups=1, data_format="NCL"):
    """1-D convolution of ``x`` ([N, C, L] or NLC) with an ``[out, in / groups, k]`` kernel."""
    return conv_nd("conv1d", 1, x, weight, bias, stride, padding, dilation, groups, data_format)


@defop(("x", "weight", "bias"), saves=("x", "weight"), method=False, rows=MAP)
def conv2d(x, weight, bias=None, stride=1, padding=0, dilation=1, groups=1, data_format="NCHW"):
    """2-D convolution with an ``[out_channels, in_channels / groups, kH, kW]`` kernel."""
    return conv_nd("conv2d", 2, x, weight, bias, stride, padding, dilation, groups, data_format)


@defop(("x", "weight", "bias"), saves=("x", "weight"), method=False, rows=MAP)
def conv3d(x, weight, bias=None, stride=1, padding=0, dilation=1, groups=1, data_format="NCDHW"):
    """3-D convolution with an ``[out, in / groups, kD, kH, kW]`` kernel."""
    return conv_nd("conv3d", 3, x, weight, bias, stride, padding, dilation, groups, data_format)


@defop(("x", "weight", "bias"), saves=("x", "weight"), method=False, rows=MAP)
def conv1d_transpose(x, weight, bias=None, stride=1, padding=0, output_padding=0, groups=1, dilation=1,
                     output_size=None, data_format="NCL"):
    """1-D transposed convolution with an ``[in, out / groups, k]`` kernel."""
    return conv_transpose_nd("conv1d_transpose", 1, x, weight, bias, stride, padding, output_padding, groups,
                             dilation, output_size, data_format)


@defop(("x", "weight", "bias"), saves=("x", "weight"), method=False, rows=MAP)
def conv2d_transpose(x, weight, bias=None, stride=1, padding=0, output_padding=0, dilation=1, groups=1,
                     output_size=None, data_format="NCHW"):
    """2-D transposed convolution with an ``[in, out / groups, kH, kW]`` kernel."""
    return conv_transpose_nd("conv2d_transpose", 2, x, weight, bias, stride, padding, output_padding, groups,
                             dilation, output_size, data_format)


@defop(("x", "weight", "bias"), saves=("x", "weight"), method=False, rows=MAP)
def conv3d_transpose(x, weight, bias=None, stride=1, padding=0, output_padding=0, groups=1, dilation=1,
                     output_size=None, data_format="NCDHW"):
    """3-D transposed convolution with an ``[in, out / groups, kD, kH, kW]`` kernel."""
    return conv_transpose_nd("conv3d_transpose", 3, x, weight, bias, stride, padding, output_padding, groups,
                             dilation, output_size, data_format)


def _unfold_pads(api, paddings_):  # noqa: ANN001, ANN202
    p = [paddings_] * 4 if isinstance(paddings_, int) else list(paddings_)
    if len(p) == 2:
        p = [p[0], p[1], p[0], p[1]]
    if len(p) != 4 or any(not isinstance(v, int) or v < 0 for v in p):
        raise ValueError(f"{api}: paddings must be an int, 2 or 4 non-negative ints, but received {paddings_!r}.")
    return [(p[0], p[2]), (p[1], p[3])]  # [top, left, bottom, right]


@defop(1, method=False)
def unfold(x, kernel_sizes, strides=1, paddings=0, dilations=1):
    """im2col: ``[N, C, H, W]`` -> ``[N, C * kH * kW, L]`` sliding blocks."""
    api = "unfold"
    check_ndim(api, x, 2)
    k = tup(api, "kernel_sizes", kernel_sizes, 2)
    s = tup(api, "strides", strides, 2)
    d = tup(api, "dilations", dilations, 2)
    pads = _unfold_pads(api, paddings)
    for i in range(2):
        if x.shape[2 + i] + sum(pads[i]) < (k[i] - 1) * d[i] + 1:
            raise ValueError(f"{api}: the padded input is smaller than the dilated kernel in spatial dim {i}.")
    patches = lax.conv_general_dilated_patches(x, k, s, pads, rhs_dilation=d, dimension_numbers=_dn(2))
    return jnp.reshape(patches, (x.shape[0], patches.shape[1], -1))


@defop(1, method=False)
def fold(x, output_sizes, kernel_sizes, strides=1, paddings=0, dilations=1):
    """col2im: sum ``[N, C * kH * kW, L]`` blocks back into ``[N, C, H, W]`` (the adjoint of unfold)."""
    api = "fold"
    if x.ndim != 3:
        raise ValueError(f"{api}: the input must be 3-D [N, C * kH * kW, L], but it has shape {list(x.shape)}.")
    osz = tup(api, "output_sizes", output_sizes, 2)
    k = tup(api, "kernel_sizes", kernel_sizes, 2)
    s = tup(api, "strides", strides, 2)
    d = tup(api, "dilations", dilations, 2)
    pads = _unfold_pads(api, paddings)
    if x.shape[1] % (k[0] * k[1]):
        raise ValueError(f"{api}: the input's dim 1 ({x.shape[1]}) must be divisible by kH * kW = {k[0] * k[1]}.")
    c = x.shape[1] // (k[0] * k[1])
    blocks = [(osz[i] + sum(pads[i]) - (k[i] - 1) * d[i] - 1) // s[i] + 1 for i in range(2)]
    if blocks[0] * blocks[1] != x.shape[2]:
        raise ValueError(
            f"{api}: the input has {x.shape[2]} blocks but output_sizes {list(osz)} with these kernel, stride, "
            f"padding and dilation give {blocks[0] * blocks[1]}."
        )
    zeros = jnp.zeros((x.shape[0], c, *osz), x.dtype)

    def patches(v):  # noqa: ANN001, ANN202
        return lax.conv_general_dilated_patches(v, k, s, pads, rhs_dilation=d, dimension_numbers=_dn(2))

    # fold is the adjoint of unfold's (linear) patch extraction
    return jax.linear_transpose(patches, zeros)(jnp.reshape(x, (x.shape[0], x.shape[1], *blocks)))[0]
