"""Sparse COO and CSR tensors (``paddle.sparse``'s data): a ``Tensor`` subclass holding its pattern and its values.

A ``SparseTensor`` keeps its pattern as host int64 arrays (COO: ``indices`` ``[sparse_dim, nnz]``; CSR: ``crows`` and
``cols``, batched for 3-D) and its non-zero values as an ordinary dense ``Tensor`` (``[nnz, *dense_dims]``) that
carries the gradient tape: every sparse op is dense ops on the values with the pattern computed on the host, so
``backward()`` reaches the values (and, through ``to_sparse_coo``/``to_sparse_csr``, the dense Tensor they came from)
as in Paddle. A sparse leaf's ``.grad`` is a sparse Tensor of its pattern. Dense code is untouched: a dense Tensor
is still exactly ``Tensor``; a sparse one handed to a dense op raises a TypeError naming ``to_dense()``.

The conversions a dense Tensor has (``to_sparse_coo``, ``to_sparse_csr``, ``is_sparse``, ...) are installed here.
"""

from __future__ import annotations

from typing import Any

import jax.numpy as jnp
import numpy as np

from .._runtime import dtypes as _dtypes
from .._runtime.size import Size, TensorSize
from .._runtime.tensor_repr import format_values
from .._tensor.facade import Tensor, _Tracer

__all__ = ["SparseTensor", "coo", "csr", "coo_from_dense", "csr_from_dense"]


def _refuse(fmt: str) -> TypeError:
    return TypeError(f"a sparse {fmt.upper()} Tensor was passed to a dense operation, which takes dense Tensors only; "
                     "use the paddle.sparse function of the same name, or call .to_dense() first.")


def _int64(a: Any, api: str, what: str) -> np.ndarray:
    if isinstance(a, Tensor):
        if isinstance(a, SparseTensor):
            raise TypeError(f"{api}: {what} must be a dense Tensor, but received a sparse one.")
        if isinstance(a._v, _Tracer) or a._symbolic:
            raise RuntimeError(f"{api}: the pattern of a sparse Tensor ({what}) must be concrete, but it is traced "
                               "(inside jax.jit, to_static or a static program). Build sparse Tensors eagerly.")
        a = np.asarray(a._value)
    a = np.asarray(a)
    if a.size and not np.issubdtype(a.dtype, np.integer):
        raise TypeError(f"{api}: {what} must hold integers, but received dtype {a.dtype}. Cast it to int64.")
    return a.astype(np.int64)


class SparseTensor(Tensor):
    """A sparse COO or CSR Tensor (``is_sparse()`` is True): a pattern on the host and a values Tensor."""

    # ``_coal``: Paddle's is_coalesced flag (set by coalesce and by the conversions, which sort; not computed)
    __slots__ = ("_fmt", "_ix", "_vals", "_sshape", "_coal")

    def __init__(self, fmt: str, ix: tuple, vals: Tensor, shape: tuple, coalesced: bool = False) -> None:
        self._fmt, self._ix, self._vals, self._sshape = fmt, ix, vals, tuple(int(s) for s in shape)
        self._coal = coalesced
        self._e = self._name = self._acc = self._counter = self._retained = self._grad_t = None
        self._sg = True
        self.persistable = False

    # ---- what a Tensor answers -------------------------------------------------------
    @property
    def _v(self) -> Any:
        """A dense op reads a Tensor's array here: a sparse Tensor has none, and says so."""
        raise _refuse(self._fmt)

    @property
    def shape(self) -> Size:
        return Size(self._sshape)

    @property
    def ndim(self) -> int:
        return len(self._sshape)

    def dim(self) -> int:
        return len(self._sshape)

    @property
    def size(self) -> TensorSize:
        return TensorSize(self._sshape)

    @property
    def dtype(self) -> _dtypes.DType:
        return self._vals.dtype

    @property
    def place(self) -> Any:
        return self._vals.place

    stop_gradient = property(lambda self: self._vals.stop_gradient,
                             lambda self, v: setattr(self._vals, "stop_gradient", v),
                             doc="True when no gradient is computed for the values (Paddle's default).")

    @property
    def is_leaf(self) -> bool:
        return self._vals.is_leaf

    @property
    def grad(self) -> SparseTensor | None:
        g = self._vals.grad
        return None if g is None else SparseTensor(self._fmt, self._ix, g, self._sshape, self._coal)

    @grad.setter
    def grad(self, value: Any) -> None:
        self._vals.grad = value._vals if isinstance(value, SparseTensor) else value

    def clear_grad(self, set_to_zero: bool = True) -> None:
        self._vals.clear_grad(set_to_zero)

    clear_gradient = clear_grad

    def backward(self, grad_tensor: Any = None, retain_graph: bool = False) -> None:
        """Backward from the values (seeded with ones, or with a sparse ``grad_tensor``'s values)."""
        if isinstance(grad_tensor, SparseTensor):
            grad_tensor = grad_tensor._vals
        self._vals.backward(grad_tensor, retain_graph)

    def register_hook(self, hook: Any) -> Any:
        raise NotImplementedError("Tensor.register_hook is not supported on a sparse Tensor; register the hook on "
                                  "its values() instead.")

    def detach(self) -> SparseTensor:
        return SparseTensor(self._fmt, self._ix, self._vals.detach(), self._sshape, self._coal)

    def clone(self) -> SparseTensor:
        return SparseTensor(self._fmt, self._ix, self._vals.clone(), self._sshape, self._coal)

    def numpy(self) -> np.ndarray:
        raise TypeError(f"Tensor.numpy() needs a dense Tensor, but this one is sparse ({self._fmt.upper()}); call "
                        ".to_dense().numpy(), or read .values() and the pattern.")

    def item(self, *idx: int) -> Any:
        raise TypeError("Tensor.item() needs a dense Tensor, but this one is sparse; call .to_dense() first.")

    def tolist(self) -> Any:
        raise TypeError("Tensor.tolist() needs a dense Tensor, but this one is sparse; call .to_dense() first.")

    def __array__(self, *a: Any, **k: Any) -> Any:
        raise _refuse(self._fmt)

    def __len__(self) -> int:
        return self._sshape[0]

    def __repr__(self) -> str:
        head = (f"Tensor(shape={list(self._sshape)}, dtype=paddle.{self.dtype.name}, place={self._vals.place}, "
                f"stop_gradient={self.stop_gradient}, \n")
        if self._fmt == "coo":
            ix = self._ix[0].ravel() if len(self._ix) > 1 else self._ix[0]
            body = f"       indices={format_values(ix, 15)}, \n"
        else:
            body = (f"       crows={format_values(self._ix[0], 13)}, \n"
                    f"       cols={format_values(self._ix[1], 12)}, \n")
        return head + body + f"       values={format_values(np.asarray(self._vals._value), 14)})"

    __str__ = __repr__

    # ---- Paddle's sparse methods ------------------------------------------------------
    def is_sparse(self) -> bool:
        return True

    def is_sparse_coo(self) -> bool:
        return self._fmt == "coo"

    def is_sparse_csr(self) -> bool:
        return self._fmt == "csr"

    def is_dense(self) -> bool:
        return False

    def nnz(self) -> int:
        """The number of stored entries (rows of ``values()``)."""
        return int(self._vals.shape[0]) if self._vals.ndim else 1

    def values(self) -> Tensor:
        """The stored values, ``[nnz, *dense_dims]``: the Tensor the gradient reaches."""
        return self._vals

    def indices(self) -> Tensor:
        """A COO Tensor's indices, int64 ``[sparse_dim, nnz]``."""
        if self._fmt != "coo":
            raise ValueError("Tensor.indices(): only a sparse COO Tensor has indices, but this one is CSR; call "
                             "crows() and cols(), or convert it with to_sparse_coo(ndim).")
        ix = self._ix[0]
        return Tensor(jnp.asarray(ix.ravel() if len(self._ix) > 1 else ix))  # (a total's index is 1-D, as Paddle's)

    def crows(self) -> Tensor:
        """A CSR Tensor's compressed row offsets (int64; ``batch * (rows + 1)`` of them for 3-D)."""
        if self._fmt != "csr":
            raise ValueError("Tensor.crows(): only a sparse CSR Tensor has crows, but this one is COO; convert it "
                             "with to_sparse_csr(), or call indices().")
        return Tensor(jnp.asarray(self._ix[0]))

    def cols(self) -> Tensor:
        """A CSR Tensor's column indices (int64, one per stored value)."""
        if self._fmt != "csr":
            raise ValueError("Tensor.cols(): only a sparse CSR Tensor has cols, but this one is COO; convert it "
                             "with to_sparse_csr(), or call indices().")
        return Tensor(jnp.asarray(self._ix[1]))

    def sparse_dim(self) -> int:
        return int(self._ix[0].shape[0]) if self._fmt == "coo" else len(self._sshape)

    def dense_dim(self) -> int:
        return len(self._sshape) - self.sparse_dim()

    def to_dense(self) -> Tensor:
        """The dense Tensor (duplicates summed); differentiable in the values."""
        return to_dense(self)

    def to_sparse_coo(self, sparse_dim: int) -> SparseTensor:
        """This Tensor as COO with ``sparse_dim`` sparse axes (a CSR Tensor's axes are all sparse)."""
        nd = len(self._sshape)
        if isinstance(sparse_dim, bool) or not isinstance(sparse_dim, (int, np.integer)) or not 0 < sparse_dim <= nd:
            raise ValueError(f"Tensor.to_sparse_coo: sparse_dim must be an int in [1, {nd}] (the tensor's rank), but "
                             f"received {sparse_dim!r}.")
        if sparse_dim != self.sparse_dim():
            if self._fmt == "csr":
                raise ValueError(f"Tensor.to_sparse_coo: a CSR Tensor converts with every axis sparse (sparse_dim="
                                 f"{nd}), but received sparse_dim={sparse_dim}.")
            return coo_from_dense(to_dense(self), int(sparse_dim))
        return self if self._fmt == "coo" else csr_to_coo(self)

    def to_sparse_csr(self) -> SparseTensor:
        if self._fmt == "csr":
            return self
        return coo_to_csr(self, "Tensor.to_sparse_csr")

    def coalesce(self) -> SparseTensor:
        return coalesce(self)

    def is_coalesced(self) -> bool:
        """Whether the Tensor is marked coalesced (made by ``coalesce`` or a conversion; a CSR Tensor always is)."""
        return self._fmt == "csr" or self._coal


# ---- constructors ---------------------------------------------------------------------------
def coo(indices: np.ndarray, vals: Tensor, shape: tuple, coalesced: bool = False) -> SparseTensor:
    return SparseTensor("coo", (np.asarray(indices, np.int64),), vals, shape, coalesced)


def csr(crows: np.ndarray, cols: np.ndarray, vals: Tensor, shape: tuple) -> SparseTensor:
    return SparseTensor("csr", (np.asarray(crows, np.int64), np.asarray(cols, np.int64)), vals, shape)


def _gather_rows(vals: Tensor, pos: np.ndarray) -> Tensor:
    """Rows ``pos`` of ``vals`` (a differentiable gather; an identity permutation returns ``vals`` itself)."""
    if pos.shape[0] == vals.shape[0] and np.array_equal(pos, np.arange(pos.shape[0])):
        return vals
    return vals.index_select(Tensor(jnp.asarray(pos, jnp.int64)), 0)


def _dense_values(x: Tensor) -> Any:
    v = x._v
    if isinstance(v, _Tracer) or x._symbolic:
        raise RuntimeError("converting to a sparse Tensor needs concrete values (its pattern is the non-zeros), but "
                           "this Tensor is traced (inside jax.jit, to_static or a static program). Convert eagerly.")
    return np.asarray(x._value)


def coo_from_dense(x: Tensor, sparse_dim: int) -> SparseTensor:
    """``Tensor.to_sparse_coo``: the entries (over the first ``sparse_dim`` axes) with any non-zero value."""
    if isinstance(x, SparseTensor):
        return x.to_sparse_coo(sparse_dim)
    nd = x.ndim
    if isinstance(sparse_dim, bool) or not isinstance(sparse_dim, (int, np.integer)) or not 0 < sparse_dim <= nd:
        raise ValueError(f"Tensor.to_sparse_coo: sparse_dim must be an int in [1, {nd}] (the tensor's rank), but "
                         f"received {sparse_dim!r}.")
    a = _dense_values(x)
    lead = a.reshape(int(np.prod(a.shape[:sparse_dim])), -1)
    keep = np.flatnonzero(np.any(lead != 0, axis=1))
    idx = np.stack(np.unravel_index(keep, a.shape[:sparse_dim])).astype(np.int64).reshape(sparse_dim, -1)
    flat = x.reshape([lead.shape[0], *a.shape[sparse_dim:]])
    return coo(idx, flat.index_select(Tensor(jnp.asarray(keep, jnp.int64)), 0), tuple(a.shape), True)


def csr_from_dense(x: Tensor) -> SparseTensor:
    """``Tensor.to_sparse_csr`` of a dense 2-D or 3-D Tensor."""
    if isinstance(x, SparseTensor):
        return x.to_sparse_csr()
    if x.ndim not in (2, 3):
        raise ValueError(f"Tensor.to_sparse_csr: a CSR Tensor is 2-D or 3-D (batched), but received a "
                         f"{x.ndim}-D Tensor of shape {list(x.shape)}.")
    return coo_to_csr(coo_from_dense(x, x.ndim), "Tensor.to_sparse_csr")


# ---- pattern helpers ---------------------------------------------------------------------------
def linear(ix: np.ndarray, shape: tuple) -> np.ndarray:
    """Row-major linear positions of COO indices within ``shape`` (the sparse dims)."""
    if ix.shape[1] == 0:
        return np.zeros(0, np.int64)
    return np.ravel_multi_index(tuple(ix), tuple(shape)).astype(np.int64)


def coalesce(x: SparseTensor) -> SparseTensor:
    """Indices sorted (row-major) with duplicates summed: ``paddle.sparse.coalesce``."""
    if x._fmt != "coo":
        return x
    sd = x._ix[0].shape[0]
    lin = linear(x._ix[0], x._sshape[:sd])
    uniq, inv = np.unique(lin, return_inverse=True)
    if uniq.shape[0] == lin.shape[0]:
        vals = _gather_rows(x._vals, np.argsort(lin, kind="stable"))
    else:
        from .irregular import index_add  # (a differentiable segment sum)

        zeros = Tensor(jnp.zeros((uniq.shape[0], *x._vals.shape[1:]), x._vals._v.dtype))
        vals = index_add(zeros, Tensor(jnp.asarray(inv.ravel(), jnp.int64)), 0, x._vals)
    idx = np.stack(np.unravel_index(uniq, x._sshape[:sd])).astype(np.int64).reshape(sd, -1)
    return coo(idx, vals, x._sshape, True)


def csr_rows(x: SparseTensor) -> tuple[np.ndarray, np.ndarray]:
    """(batch, row) of each stored entry of a CSR Tensor."""
    crows = x._ix[0]
    rows = x._sshape[-2]
    nb = 1 if len(x._sshape) == 2 else x._sshape[0]
    batch, row = [], []
    for b in range(nb):
        c = crows[b * (rows + 1):(b + 1) * (rows + 1)]
        cnt = np.diff(c)
        row.append(np.repeat(np.arange(rows, dtype=np.int64), cnt))
        batch.append(np.full(int(cnt.sum()), b, np.int64))
    return np.concatenate(batch) if batch else np.zeros(0, np.int64), np.concatenate(row)


def csr_to_coo(x: SparseTensor) -> SparseTensor:
    b, r = csr_rows(x)
    parts = [r, x._ix[1]] if len(x._sshape) == 2 else [b, r, x._ix[1]]
    return coo(np.stack(parts).astype(np.int64), x._vals, x._sshape, True)


def coo_to_csr(x: SparseTensor, api: str) -> SparseTensor:
    nd = len(x._sshape)
    if nd not in (2, 3) or x._ix[0].shape[0] != nd:
        raise ValueError(f"{api}: a CSR Tensor is 2-D or 3-D with every axis sparse, but received a COO Tensor of "
                         f"shape {list(x._sshape)} with sparse_dim {x._ix[0].shape[0]}.")
    c = coalesce(x)
    ix = c._ix[0]
    rows = x._sshape[-2]
    nb = 1 if nd == 2 else x._sshape[0]
    crows = []
    for b in range(nb):
        r = ix[-2][ix[0] == b] if nd == 3 else ix[0]
        crows.append(np.concatenate([[0], np.cumsum(np.bincount(r, minlength=rows))]))
    return csr(np.concatenate(crows).astype(np.int64), ix[-1], c._vals, x._sshape)


def to_dense(x: SparseTensor) -> Tensor:
    """The dense Tensor of a sparse one (duplicates summed), differentiable in the values."""
    from .irregular import index_add

    c = csr_to_coo(x) if x._fmt == "csr" else x
    if c._vals.dtype.name == "bool":  # (isnan's result) an add cannot place bools: place 0/1, then compare
        as_int = SparseTensor(c._fmt, c._ix, c._vals.astype("int32"), c._sshape, c._coal)
        return to_dense(as_int).astype("bool")
    sd = c._ix[0].shape[0]
    lead = int(np.prod(c._sshape[:sd]))
    zeros = Tensor(jnp.zeros((lead, *c._sshape[sd:]), c._vals._v.dtype))
    lin = linear(c._ix[0], c._sshape[:sd])
    vals = c._vals
    if vals.ndim == 0:
        vals = vals.reshape([1])
    _, last = np.unique(lin[::-1], return_index=True)
    if last.shape[0] != lin.shape[0]:  # duplicate entries: the last one written stays, as in Paddle's to_dense
        keep = np.sort(lin.shape[0] - 1 - last)
        lin, vals = lin[keep], _gather_rows(vals, keep)
    return index_add(zeros, Tensor(jnp.asarray(lin, jnp.int64)), 0, vals).reshape(list(c._sshape))


# ---- the methods a dense Tensor has ------------------------------------------------------------
def _to_sparse_coo(self: Tensor, sparse_dim: int) -> SparseTensor:
    """A sparse COO Tensor of the entries with a non-zero value (the first ``sparse_dim`` axes sparse)."""
    return coo_from_dense(self, sparse_dim)


def _to_sparse_csr(self: Tensor) -> SparseTensor:
    """A sparse CSR Tensor of the non-zero entries of a 2-D or 3-D Tensor."""
    return csr_from_dense(self)


def _is_sparse(self: Tensor) -> bool:
    return False


def _dense_to_dense(self: Tensor) -> Tensor:
    raise NotImplementedError("Tensor.to_dense(): this Tensor is already dense (to_dense converts a sparse COO or "
                              "CSR Tensor); use it as it is.")


def _only_sparse(name: str) -> Any:
    def method(self: Tensor, *a: Any, **k: Any) -> Any:
        raise ValueError(f"Tensor.{name}(): this Tensor is dense, and {name} belongs to a sparse Tensor; convert it "
                         "with to_sparse_coo(sparse_dim) or to_sparse_csr() first.")
    method.__name__ = name
    return method


for _n, _f in (("to_sparse_coo", _to_sparse_coo), ("to_sparse_csr", _to_sparse_csr), ("is_sparse", _is_sparse),
               ("is_sparse_coo", _is_sparse), ("is_sparse_csr", _is_sparse), ("to_dense", _dense_to_dense),
               ("is_dense", lambda self: True), ("nnz", _only_sparse("nnz")),
               ("indices", _only_sparse("indices")), ("values", _only_sparse("values")),
               ("crows", _only_sparse("crows")), ("cols", _only_sparse("cols"))):
    if not hasattr(Tensor, _n):
        setattr(Tensor, _n, _f)
