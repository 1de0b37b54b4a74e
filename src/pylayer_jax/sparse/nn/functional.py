"""``paddle.sparse.nn.functional``: activations, softmax, attention, convolutions and max pooling of sparse Tensors.

The activations act on the stored values (the pattern stays). ``softmax`` normalises the stored values of each row
(the entries that share every index but the last). The convolutions and ``max_pool3d`` take a COO Tensor
``[N, *spatial, C]`` (the channels dense) and are computed by the dense convolution / pooling of its dense form,
kept at the output's pattern: for ``subm_*`` the input's pattern, otherwise every position whose receptive field
holds a stored input. The result equals Paddle's sparse kernels' (which skip the zeros); it costs dense memory and
time, so it suits moderate grids.
"""

from __future__ import annotations

import math
from typing import Any

import jax.numpy as jnp
import numpy as np

from ..._api import functional as _F
from ..._api.irregular import index_add as _index_add
from ..._api.sparse_tensor import SparseTensor, coo, csr_to_coo, linear, to_dense
from ..._autograd.grad_mode import no_grad
from ..._tensor.facade import Tensor
from ...nn import functional as _NF

__all__ = ["attention", "conv2d", "conv3d", "leaky_relu", "max_pool3d", "relu", "relu6", "softmax", "subm_conv2d",
           "subm_conv2d_igemm", "subm_conv3d", "subm_conv3d_igemm"]


def _sparse(api: str, x: Any, what: str = "x") -> SparseTensor:
    if not isinstance(x, SparseTensor):
        raise TypeError(f"{api}: {what} must be a sparse COO or CSR Tensor, but received "
                        f"{'a dense Tensor' if isinstance(x, Tensor) else type(x).__name__}; convert it with "
                        "to_sparse_coo(sparse_dim) or to_sparse_csr().")
    return x


def _on_values(x: SparseTensor, vals: Tensor) -> SparseTensor:
    return SparseTensor(x._fmt, x._ix, vals, x._sshape, x._coal)


# ---- activations ---------------------------------------------------------------------------------
def relu(x: Tensor, name: str | None = None) -> SparseTensor:
    """``max(x, 0)`` of each stored value."""
    x = _sparse("paddle.sparse.nn.functional.relu", x)
    return _on_values(x, _NF.relu(x._vals))


def relu6(x: Tensor, name: str | None = None) -> SparseTensor:
    """``min(max(x, 0), 6)`` of each stored value."""
    x = _sparse("paddle.sparse.nn.functional.relu6", x)
    return _on_values(x, _NF.relu6(x._vals))


def leaky_relu(x: Tensor, negative_slope: float = 0.01, name: str | None = None) -> SparseTensor:
    """``x`` where positive, ``negative_slope * x`` elsewhere, of each stored value."""
    x = _sparse("paddle.sparse.nn.functional.leaky_relu", x)
    return _on_values(x, _NF.leaky_relu(x._vals, negative_slope))


def _row_softmax(vals: Tensor, groups: np.ndarray, n: int) -> Tensor:
    """Softmax of ``vals`` [nnz] within each group (entries sharing a row), by segment max and sum."""
    g = Tensor(jnp.asarray(groups))
    dt = vals._v.dtype
    arr = np.asarray(vals._value)  # (the row maxima only steady exp; they cancel in the result: no gradient)
    m = np.full(n, -np.inf, arr.dtype)
    np.maximum.at(m, groups, arr)
    m[~np.isfinite(m)] = 0
    e = (vals - Tensor(jnp.asarray(m[groups]))).exp()
    s = _index_add(Tensor(jnp.zeros((n,), dt)), g, 0, e)
    return e / s.index_select(g, 0)


def softmax(x: Tensor, axis: int = -1, name: str | None = None) -> SparseTensor:
    """Softmax over the last axis: the stored values of each row (entries sharing every other index) normalised
    among themselves (the missing entries count as absent, not as zeros)."""
    api = "paddle.sparse.nn.functional.softmax"
    x = _sparse(api, x)
    if axis != -1 and axis != len(x._sshape) - 1:
        raise ValueError(f"{api}: only axis=-1 (the last axis) is supported, as in Paddle, but received axis={axis}.")
    if x._vals.ndim > 1:  # the last axis is dense: a dense softmax of each stored row
        return _on_values(x, _NF.softmax(x._vals, -1))
    a = csr_to_coo(x) if x._fmt == "csr" else x
    ix = a._ix[0]
    rows = linear(ix[:-1], a._sshape[: ix.shape[0] - 1]) if ix.shape[0] > 1 else np.zeros(ix.shape[1], np.int64)
    uniq, inv = np.unique(rows, return_inverse=True)
    return _on_values(x, _row_softmax(x._vals, inv.ravel().astype(np.int64), uniq.shape[0]))


def attention(query: Tensor, key: Tensor, value: Tensor, sparse_mask: Tensor, key_padding_mask: Tensor | None = None,
              attn_mask: Tensor | None = None, name: str | None = None) -> Tensor:
    """``softmax(Q Kᵀ / sqrt(d)) V`` with the scores kept at the pattern of the CSR ``sparse_mask``
    ``[batch * heads, seq, seq]`` only; an entry whose ``key_padding_mask`` ``[batch, seq]`` (by key) or
    ``attn_mask`` ``[seq, seq]`` value is 0 is left out. Query, key and value are dense ``[batch, heads, seq,
    head_dim]``; the result is too."""
    api = "paddle.sparse.nn.functional.attention"
    for t, w in ((query, "query"), (key, "key"), (value, "value")):
        if isinstance(t, SparseTensor) or not isinstance(t, Tensor) or t.ndim != 4:
            raise ValueError(f"{api}: {w} must be a dense 4-D Tensor [batch, heads, seq, head_dim], but received "
                             f"{'a sparse Tensor' if isinstance(t, SparseTensor) else getattr(t, 'shape', t)}.")
    b, h, s, d = (int(v) for v in query.shape)
    mask = _sparse(api, sparse_mask, "sparse_mask")
    if mask._fmt != "csr" or list(mask._sshape) != [b * h, s, s]:
        raise ValueError(f"{api}: sparse_mask must be a CSR Tensor of shape [batch * heads, seq, seq] = "
                         f"{[b * h, s, s]}, but received a {mask._fmt.upper()} Tensor of shape {list(mask._sshape)}.")
    a = csr_to_coo(mask)
    bh, r, c = a._ix[0]
    lin = Tensor(jnp.asarray((bh * s + r) * s + c))
    scores = _F.matmul(query, key, transpose_y=True) / math.sqrt(d)
    vals = scores.reshape([-1]).index_select(lin, 0)
    drop = np.zeros(bh.shape[0], bool)
    for m, w, want in ((key_padding_mask, "key_padding_mask", [b, s]), (attn_mask, "attn_mask", [s, s])):
        if m is not None and (not isinstance(m, Tensor) or isinstance(m, SparseTensor) or list(m.shape) != want):
            raise ValueError(f"{api}: {w} must be a dense Tensor of shape {want}, but received "
                             f"{list(m.shape) if isinstance(m, Tensor) else type(m).__name__}.")
    if key_padding_mask is not None:
        kp = np.asarray(key_padding_mask._value).reshape(b, s)
        drop |= kp[bh // h, c] == 0
    if attn_mask is not None:
        am = np.asarray(attn_mask._value).reshape(s, s)
        drop |= am[r, c] == 0
    if drop.any():
        vals = _F.where(Tensor(jnp.asarray(drop)), Tensor(jnp.asarray(-jnp.inf, vals._v.dtype)), vals)
    rows = bh * s + r
    uniq, inv = np.unique(rows, return_inverse=True)
    probs = _row_softmax(vals, inv.ravel().astype(np.int64), uniq.shape[0])
    picked = value.reshape([b * h * s, d]).index_select(Tensor(jnp.asarray(bh * s + c)), 0) * probs.unsqueeze(-1)
    out = _index_add(Tensor(jnp.zeros((b * h * s, d), value._v.dtype)), Tensor(jnp.asarray(rows)), 0, picked)
    return out.reshape([b, h, s, d])


# ---- convolutions and pooling ----------------------------------------------------------------------
def _coo_grid(api: str, x: Any, dims: int, data_format: str, fmt_ok: str) -> SparseTensor:
    x = _sparse(api, x)
    if data_format != fmt_ok:
        raise ValueError(f"{api}: data_format must be '{fmt_ok}' (the only layout Paddle's sparse kernels take), but "
                         f"received {data_format!r}.")
    if x._fmt != "coo" or len(x._sshape) != dims + 2 or x._ix[0].shape[0] != dims + 1:
        raise ValueError(f"{api}: x must be a sparse COO Tensor [N, {'D, ' if dims == 3 else ''}H, W, C] with the "
                         f"channels dense (to_sparse_coo({dims + 1})), but received a {x._fmt.upper()} Tensor of "
                         f"shape {list(x._sshape)} with {x.sparse_dim()} sparse axes.")
    return x


def _indicator(x: SparseTensor) -> np.ndarray:
    p = np.zeros(x._sshape[:-1], np.float32)
    p[tuple(x._ix[0])] = 1.0
    return p


def _at_pattern(dense: Tensor, ix: np.ndarray) -> Tensor:
    sshape = tuple(int(v) for v in dense.shape[:-1])
    flat = dense.reshape([int(np.prod(sshape)), int(dense.shape[-1])])
    return flat.index_select(Tensor(jnp.asarray(linear(ix, sshape))), 0)


def _conv(api: str, dims: int, x: Any, weight: Tensor, bias: Tensor | None, stride: Any, padding: Any,
          dilation: Any, groups: int, data_format: str, subm: bool) -> SparseTensor:
    fmt_ok = "NDHWC" if dims == 3 else "NHWC"
    x = _coo_grid(api, x, dims, data_format, fmt_ok)
    if groups != 1:
        raise ValueError(f"{api}: only groups=1 is supported (as in Paddle), but received groups={groups}.")
    cin = x._sshape[-1]
    if not isinstance(weight, Tensor) or weight.ndim != dims + 2 or weight.shape[-2] != cin:
        raise ValueError(f"{api}: weight must be a dense Tensor [{'kD, ' if dims == 3 else ''}kH, kW, C_in, C_out] "
                         f"with C_in = {cin} (x's channels), but received shape "
                         f"{list(weight.shape) if isinstance(weight, Tensor) else type(weight).__name__}.")
    w = weight.transpose([dims + 1, dims, *range(dims)])  # -> [C_out, C_in, *kernel]
    conv = _NF.conv3d if dims == 3 else _NF.conv2d
    if subm:  # centred on each stored input, whatever stride and padding say (as Paddle's kernel): the grid stays
        ks = [int(k) for k in weight.shape[:dims]]
        if any(k % 2 == 0 for k in ks):
            raise NotImplementedError(f"{api}: a submanifold convolution centres its kernel on each stored input, "
                                      f"which needs odd kernel sizes, but received {ks}.")
        dil = [int(d) for d in (dilation if isinstance(dilation, (list, tuple)) else [dilation] * dims)]
        stride, padding = 1, [(k - 1) // 2 * d for k, d in zip(ks, dil)]
    dense = conv(to_dense(x), w, None, stride, padding, dilation, 1, fmt_ok)
    out_grid = tuple(int(v) for v in dense.shape[1:-1])
    if subm:
        ix = x._ix[0]
    else:
        ind = Tensor(jnp.asarray(_indicator(x)[..., None]))
        ones = Tensor(jnp.ones((1, 1, *weight.shape[:dims]), jnp.float32))
        with no_grad():
            reach = np.asarray(conv(ind, ones, None, stride, padding, dilation, 1, fmt_ok)._value)[..., 0] > 0.5
        ix = np.stack(np.nonzero(reach)).astype(np.int64).reshape(dims + 1, -1)
    vals = _at_pattern(dense, ix)
    if bias is not None:
        vals = vals + bias
    return coo(ix, vals, (x._sshape[0], *out_grid, int(weight.shape[-1])))


def conv3d(x: Tensor, weight: Tensor, bias: Tensor | None = None, stride: Any = 1, padding: Any = 0,
           dilation: Any = 1, groups: int = 1, data_format: str = "NDHWC", name: str | None = None) -> SparseTensor:
    """Sparse 3-D convolution of a COO ``[N, D, H, W, C]`` with ``weight`` ``[kD, kH, kW, C_in, C_out]``: stored at
    every output position whose receptive field holds a stored input."""
    return _conv("paddle.sparse.nn.functional.conv3d", 3, x, weight, bias, stride, padding, dilation, groups,
                 data_format, False)


def subm_conv3d(x: Tensor, weight: Tensor, bias: Tensor | None = None, stride: Any = 1, padding: Any = 0,
                dilation: Any = 1, groups: int = 1, data_format: str = "NDHWC", key: str | None = None,
                name: str | None = None) -> SparseTensor:
    """Submanifold sparse 3-D convolution: the (odd) kernel centred on each stored input, computed there only (the
    output keeps the input's grid and pattern; ``stride`` and ``padding`` do not apply, as in Paddle's kernel)."""
    return _conv("paddle.sparse.nn.functional.subm_conv3d", 3, x, weight, bias, stride, padding, dilation, groups,
                 data_format, True)


def subm_conv3d_igemm(x: Tensor, weight: Tensor, bias: Tensor | None = None, stride: Any = 1, padding: Any = 0,
                      dilation: Any = 1, groups: int = 1, data_format: str = "NDHWC", key: str | None = None,
                      name: str | None = None) -> SparseTensor:
    """``subm_conv3d`` (Paddle's implicit-GEMM kernel computes the same result)."""
    return _conv("paddle.sparse.nn.functional.subm_conv3d_igemm", 3, x, weight, bias, stride, padding, dilation,
                 groups, data_format, True)


def conv2d(x: Tensor, weight: Tensor, bias: Tensor | None = None, stride: Any = 1, padding: Any = 0,
           dilation: Any = 1, groups: int = 1, data_format: str = "NHWC", name: str | None = None) -> SparseTensor:
    """Sparse 2-D convolution of a COO ``[N, H, W, C]`` with ``weight`` ``[kH, kW, C_in, C_out]``."""
    return _conv("paddle.sparse.nn.functional.conv2d", 2, x, weight, bias, stride, padding, dilation, groups,
                 data_format, False)


def subm_conv2d(x: Tensor, weight: Tensor, bias: Tensor | None = None, stride: Any = 1, padding: Any = 0,
                dilation: Any = 1, groups: int = 1, data_format: str = "NHWC", key: str | None = None,
                name: str | None = None) -> SparseTensor:
    """Submanifold sparse 2-D convolution: computed at the input's pattern only (the output keeps it)."""
    return _conv("paddle.sparse.nn.functional.subm_conv2d", 2, x, weight, bias, stride, padding, dilation, groups,
                 data_format, True)


def subm_conv2d_igemm(x: Tensor, weight: Tensor, bias: Tensor | None = None, stride: Any = 1, padding: Any = 0,
                      dilation: Any = 1, groups: int = 1, data_format: str = "NHWC", key: str | None = None,
                      name: str | None = None) -> SparseTensor:
    """``subm_conv2d`` (Paddle's implicit-GEMM kernel computes the same result)."""
    return _conv("paddle.sparse.nn.functional.subm_conv2d_igemm", 2, x, weight, bias, stride, padding, dilation,
                 groups, data_format, True)


def max_pool3d(x: Tensor, kernel_size: Any, stride: Any = None, padding: Any = 0, ceil_mode: bool = False,
               data_format: str = "NDHWC", name: str | None = None) -> SparseTensor:
    """The maximum of the stored inputs in each window (missing entries take no part), stored at every window with
    a stored input."""
    api = "paddle.sparse.nn.functional.max_pool3d"
    x = _coo_grid(api, x, 3, data_format, "NDHWC")
    ind = _indicator(x)
    dense = to_dense(x)
    active = Tensor(jnp.asarray(ind[..., None] > 0))
    masked = _F.where(active, dense, Tensor(jnp.asarray(-jnp.inf, dense._v.dtype)))
    pooled = _NF.max_pool3d(masked, kernel_size, stride, padding, False, ceil_mode, "NDHWC")
    with no_grad():
        reach = np.asarray(_NF.max_pool3d(Tensor(jnp.asarray(ind[..., None])), kernel_size, stride, padding, False,
                                          ceil_mode, "NDHWC")._value)[..., 0] > 0.5
    ix = np.stack(np.nonzero(reach)).astype(np.int64).reshape(4, -1)
    return coo(ix, _at_pattern(pooled, ix), (x._sshape[0], *reach.shape[1:], x._sshape[-1]))

