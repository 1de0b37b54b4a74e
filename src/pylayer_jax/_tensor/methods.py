"""Tensor methods and operators, all routed through ``apply_op`` and the op table.

Layer L4. Every table op with ``method=True`` becomes ``Tensor.<name>``; ops marked
``inplace`` also get ``Tensor.<name>_``, which rebinds the tensor's array and bumps its
version.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from typing import Any

import jax
import jax.numpy as jnp
import numpy as np

from .._autograd.saved import SavedValue
from .._ops.indexing import AT, BOOL, SPAN, TENSOR
from .._ops.table import TABLE, Op
from .._runtime import dtypes as _dtypes
from .._runtime.state import modes
from .._runtime.transfer import put
from .dispatch import apply_op
from .facade import Tensor, _concrete, before_write, grad_written
from .spread import SPREAD, spread
from .views import COMPLEX_VIEWS, REFUSED, VIEW_OPS, check_write, is_contiguous, link, written


def public(op: Op) -> Callable[..., Any]:
    """The Paddle-style function for an op: Paddle's signature plus ``name=None``."""

    kind = SPREAD.get(op.name)
    if op.name in VIEW_OPS:
        def fn(*args: Any, **kwargs: Any) -> Any:
            return _view_of(op, kind, args, kwargs)
    elif kind is not None:
        n = len(op.signature.parameters)

        def fn(*args: Any, **kwargs: Any) -> Any:
            return apply_op(op, spread(kind, n, args), kwargs)
    elif op.hidden:
        def fn(*args: Any, **kwargs: Any) -> Any:
            return op.visible(apply_op(op, args, kwargs))
    else:
        def fn(*args: Any, **kwargs: Any) -> Any:
            return apply_op(op, args, kwargs)

    fn.__name__ = fn.__qualname__ = op.name
    fn.__doc__ = op.doc
    fn.__signature__ = op.signature  # type: ignore[attr-defined]
    fn._op = op  # type: ignore[attr-defined]  (``_ops.aliases.install`` gives the op its keyword aliases)
    return fn


def _method(op: Op) -> Callable[..., Any]:
    kind = SPREAD.get(op.name)
    if op.name in VIEW_OPS:
        def m(self: Tensor, *args: Any, **kwargs: Any) -> Any:
            return _view_of(op, kind, (self, *args), kwargs)
    elif kind is not None:
        n = len(op.signature.parameters)

        def m(self: Tensor, *args: Any, **kwargs: Any) -> Any:
            return apply_op(op, spread(kind, n, (self, *args)), kwargs)
    elif op.hidden:
        def m(self: Tensor, *args: Any, **kwargs: Any) -> Any:
            return op.visible(apply_op(op, (self, *args), kwargs))
    else:
        def m(self: Tensor, *args: Any, **kwargs: Any) -> Any:
            return apply_op(op, (self, *args), kwargs)

    m.__name__ = m.__qualname__ = op.name
    m.__doc__ = op.doc
    m._op = op  # type: ignore[attr-defined]
    return m


def _view_of(op: Op, kind: Any, args: tuple, kwargs: dict) -> Any:
    """A view op's call: its result (each of its results, for ``unbind``) is a view of the tensor it reads."""
    if kind is not None:
        args = spread(kind, len(op.signature.parameters), args)
    x = args[0] if args else kwargs.get(next(iter(op.signature.parameters)))
    if op.name == "as_strided" and isinstance(x, Tensor) and not is_contiguous(x):
        raise ValueError(
            "as_strided: x is a view whose elements do not lie one after another in memory (x.T, x[:, 1:], a "
            "strided slice); Paddle's strides would count in the memory of the tensor it views, here they count x's "
            "own elements. Call x.contiguous() first."
        )
    r = apply_op(op, args, kwargs)
    if not isinstance(x, Tensor):
        return r
    if op.name in COMPLEX_VIEWS or (op.name == "view" and not _is_shape(args[1:] or tuple(kwargs.values()))):
        link(r, x, REFUSED)  # a bitcast: Paddle's is the same memory, ours a new array; writes are refused
    else:
        if isinstance(r, list):
            for i, o in enumerate(r):
                link(o, x, op, args, kwargs, i)
        else:
            link(r, x, op, args, kwargs)
    return r


def _is_shape(rest: tuple) -> bool:
    """Whether ``view``'s argument is a shape (a view of the same data) rather than a dtype (a bitcast)."""
    return bool(rest) and isinstance(rest[0], list | tuple | Tensor)


def inplace_assign(t: Tensor, r: Tensor, api: str) -> Tensor:
    """Make ``t`` hold the result ``r`` of an op on it: the in-place write."""
    if t._symbolic:  # a static program's Variable: the program records the write (ops after it read r)
        return t.block.program.record_inplace(t, r, api, False)  # type: ignore[attr-defined]
    vw = getattr(t, "_view", None)
    if vw is not None:  # a view or the base of views: the write reaches the others (``_tensor.views``)
        check_write(t, api)
        before = (tuple(t._v.shape), t._v.dtype)
    before_write(t)
    t._v = r._v
    counter = t._version_counter()
    counter.value += 1
    counter.name = t.name
    if r._edge is not None:
        node = r._edge[0]
        # t's old value that this very op saved is an immutable array no later write can reach: never stale
        # (Paddle accepts y.multiply_(w); y.exp_()); its saved output is t now, so it carries t's new version
        for sv in getattr(node, "saved_leaves", ()):
            if isinstance(sv, SavedValue) and sv.counter is counter:
                sv.counter = None
        outs = getattr(node, "saved_outs", None)
        for j, sv in enumerate(outs or ()):
            if sv is None:  # an output the op does not save
                continue
            if not isinstance(sv, SavedValue):  # a bare saved output becomes versioned: it is t's value now
                sv = outs[j] = SavedValue(sv, (node, j), None)
            if sv.counter is None:
                sv.counter, sv.version = counter, counter.value
        t._edge = r._edge
        t.stop_gradient = False
    if vw is not None:
        written(t, *before)
    grad_written(t)
    return t


def write_values(t: Tensor, r: Tensor, api: str) -> Tensor:
    """Make ``t`` hold ``r``'s values (its shape and dtype too) outside autograd: ``t``'s own history, or a leaf's
    place on the tape, stays; no gradient reaches ``r`` (``copy_``, ``assign`` into a leaf that trains)."""
    if t._symbolic:  # a static program's Variable: the program records the write
        return t.block.program.record_inplace(t, r, api, True)  # type: ignore[attr-defined]
    vw = getattr(t, "_view", None)
    if vw is not None:  # a view or the base of views: the write reaches the others (``_tensor.views``)
        check_write(t, api)
        before = (tuple(t._v.shape), t._v.dtype)
    before_write(t)
    v = r._value
    t._value = jax.lax.stop_gradient(v) if isinstance(v, jax.core.Tracer) else v
    t._version_counter().value += 1
    if vw is not None:
        written(t, *before)
    grad_written(t)
    return t


def write_result(t: Tensor, r: Tensor, api: str) -> Tensor:
    """The in-place write of a same-shape op: ``t`` takes ``r``'s values, keeping its shape and dtype."""
    if r.shape != t.shape:
        raise ValueError(f"{api}: an in-place op must keep the shape {t.shape}, but the result has {r.shape}.")
    return inplace_assign(t, r.astype(t.dtype) if r.dtype != t.dtype else r, api)


def check_inplace_leaf(t: Tensor, api: str) -> None:
    if t._symbolic and getattr(t, "producer", None) is not None:
        return  # (a static program's intermediate Variable: its program records the write)
    if t._edge is None and not t.stop_gradient and modes.grad_enabled:
        raise ValueError(
            f"{api}: Leaf Var ({t.name}) that doesn't stop gradient can't use inplace strategy. Run it under "
            "paddle.no_grad(), or use the out-of-place op."
        )


# the arithmetic ops that read a 0-D tensor of another dtype as a number (``int64 [N] + float32 []`` is float32):
# their in-place forms do not, in Paddle (``x.add_(paddle.to_tensor(1.5))`` on integers is a TypeError)
_ZERO_D_AS_NUMBER = frozenset(("add", "subtract", "multiply", "divide", "floor_divide", "remainder", "pow"))


def _check_inplace_operand(api: str, x: Tensor, args: tuple, kwargs: dict) -> None:
    y = args[0] if args else kwargs.get("y")
    if not isinstance(y, Tensor) or y.dtype == x.dtype or (x.dtype.is_floating_point and y.dtype.is_floating_point):
        return
    if x.dtype.np_dtype.kind == "c" and y.dtype.np_dtype.kind in "biuf" and (
            y.dtype.np_dtype.itemsize <= x.dtype.np_dtype.itemsize // 2):
        return  # a complex x times a real y of at most its parts' width keeps x's dtype (clip_grad_norm_ of one)
    raise TypeError(
        f"{api}: an in-place op combines a Tensor of another dtype only when both are floating point (a 0-D one "
        f"too, as in Paddle) or x is complex and y real of at most its parts' width, but x is {x.dtype.name} and y is {y.dtype.name}. Cast y with y.astype('{x.dtype.name}'), "
        "or use the out-of-place op."
    )


# the in-place ops whose float result replaces an integer tensor's dtype in Paddle (``x.divide_(y)`` on int64 makes
# x a float32 tensor of the true quotients, not the quotients truncated back to int64)
_INT_TO_FLOAT_INPLACE = frozenset(("divide", "div", "exp", "log", "log1p"))
# the floating in-place ops Paddle has no integer kernel for (a RuntimeError there): their float result truncated
# back into the integer tensor (``x.sqrt_()`` on int64) was a silent wrong value
_FLOAT_ONLY_INPLACE = frozenset(("sin", "cos", "tan", "sqrt", "rsqrt", "tanh", "sigmoid", "reciprocal", "atan", "sinh",
                                 "cosh", "asin", "acos", "asinh", "acosh", "atanh", "lerp", "logit", "expm1", "erf"))


def _inplace_method(op: Op) -> Callable[..., Any]:
    api = f"Tensor.{op.name}_"
    strict = op.name in _ZERO_D_AS_NUMBER

    promotes, float_only = op.name in _INT_TO_FLOAT_INPLACE, op.name in _FLOAT_ONLY_INPLACE

    def m(self: Tensor, *args: Any, **kwargs: Any) -> Tensor:
        check_inplace_leaf(self, api)
        if strict:
            _check_inplace_operand(api, self, args, kwargs)
        if float_only and self.dtype.name.startswith(("int", "uint", "bool")):
            raise RuntimeError(f"{api}: an in-place {op.name} needs a floating-point tensor (its result cannot be "
                               f"written into a {self.dtype.name} tensor), but x is {self.dtype.name}; use "
                               f"paddle.{op.name}(x) (float32) or x.astype('float32').{op.name}_().")
        r = apply_op(op, (self, *args), kwargs)
        if promotes and r.shape == self.shape and r.dtype.is_floating_point and not self.dtype.is_floating_point:
            return inplace_assign(self, r, api)  # the integer tensor becomes float32, as in Paddle
        return write_result(self, r, api)

    m.__name__ = m.__qualname__ = op.name + "_"
    return m


for _op in TABLE.values():
    if _op.method and not hasattr(Tensor, _op.name):
        setattr(Tensor, _op.name, _method(_op))
    if _op.inplace:
        setattr(Tensor, _op.name + "_", _inplace_method(_op))
if "unfold_windows" in TABLE:  # ``Tensor.unfold``: the windows (``nn.functional.unfold`` is another op)
    Tensor.unfold = _method(TABLE["unfold_windows"])  # type: ignore[attr-defined]
    Tensor.unfold.__name__ = Tensor.unfold.__qualname__ = "unfold"
if "fill_diagonal_tensor" in TABLE:  # a Tensor method only (Paddle has no ``paddle.fill_diagonal_tensor``)
    Tensor.fill_diagonal_tensor = _method(TABLE["fill_diagonal_tensor"])  # type: ignore[attr-defined]


def increment(x: Tensor, value: float = 1.0) -> Tensor:
    """``x += value`` in place for a one-element ``x`` (its dtype kept), returning ``x``, as Paddle's
    ``paddle.increment`` / ``Tensor.increment`` in dynamic mode (a loop counter); a static program's Variable gets
    the incremented value as a new Variable."""
    if not isinstance(x, Tensor):
        raise TypeError(f"increment: x must be a Tensor (it is written in place), but received {type(x).__name__}.")
    if x._symbolic:
        return apply_op(TABLE["increment"], (x, value), {})
    if x.size != 1:
        raise ValueError(f"increment: x must hold exactly one element (a counter), but it has shape {list(x.shape)} "
                         f"({x.size} elements); use paddle.add or x + value for a larger tensor.")
    return Tensor.increment_(x, value)  # type: ignore[attr-defined]


increment._op = None  # type: ignore[attr-defined]  (not the table op's out-of-place function)
if "increment" in TABLE:
    Tensor.increment = increment  # type: ignore[attr-defined]


def softmax(input: Tensor, dim: int | None = None, dtype: Any = None, *, out: Tensor | None = None,  # noqa: A002
            **kwargs: Any) -> Tensor:
    """``paddle.softmax`` / ``Tensor.softmax`` as Paddle 3.3.1 has them, with PyTorch's signature: softmax along
    ``dim``; None takes PyTorch's legacy choice, axis 0 for 0-D, 1-D and 3-D inputs and axis 1 otherwise (not the last
    axis: ``paddle.nn.functional.softmax(x, axis=-1)`` is the Paddle-style function); computed in ``dtype`` when
    given; written into ``out`` too when given."""
    if kwargs:
        got = ", ".join(repr(k) for k in sorted(kwargs))
        raise TypeError(f"paddle.softmax() received unexpected keyword argument(s) {got}: it takes PyTorch's names "
                        "(input, dim, dtype, out). Use paddle.nn.functional.softmax(x, axis=...) for Paddle's names.")
    if dim is None:
        dim = 0 if input.ndim in (1, 3) else -1 if input.ndim == 0 else 1  # (a 0-D input's one element: its axis -1)
    result = apply_op(TABLE["softmax"], (input, dim, dtype), {})
    return result if out is None else inplace_assign(out, result, "softmax")


softmax._op = None  # type: ignore[attr-defined]  (not the table op's function: the generated tests call the op)
if "softmax" in TABLE:
    Tensor.softmax = softmax  # type: ignore[attr-defined]


def lstsq(x: Tensor, y: Tensor, rcond: float | None = None, driver: str | None = None, name: str | None = None) -> Any:
    """``paddle.linalg.lstsq`` / ``Tensor.lstsq``: the table's ``lstsq`` op, whose residuals Paddle returns only
    where every matrix of ``x`` has full rank: with 'gelsd' and 'gelss' they are emptied (a ``[0]`` tensor) where a
    rank is below ``n``, as in Paddle. The ranks are read for that in an eager call; traced (jax.jit, to_static, a
    static program) the residuals of a rank-deficient matrix stay (the squared norms of ``y - x @ solution``)."""
    sol, res, rank, sv = apply_op(TABLE["lstsq"], (x, y), {"rcond": rcond, "driver": driver})
    if driver in ("gelsd", "gelss") and res.size and not rank._symbolic and not isinstance(rank._v, jax.core.Tracer):
        if bool((np.asarray(rank.numpy()) < x.shape[-1]).any()):
            res = Tensor(jnp.zeros((0,), res._v.dtype))
    return sol, res, rank, sv


lstsq._op = None  # type: ignore[attr-defined]  (not the table op's function: the generated tests call the op)
if "lstsq" in TABLE:
    Tensor.lstsq = lstsq  # type: ignore[attr-defined]




# ---- indexing --------------------------------------------------------------------
def _mask_shape(ix: Any) -> list[int] | None:
    """The shape of ``ix`` where it is a bool mask of one or more dimensions (a Tensor, array or list of bools)."""
    if isinstance(ix, Tensor):
        return list(ix.shape) if ix.dtype.name == "bool" and ix.ndim > 0 else None
    if isinstance(ix, np.ndarray | list | tuple):
        try:
            a = np.asarray(ix)
        except (TypeError, ValueError):
            return None
        return list(a.shape) if a.dtype == np.bool_ and a.ndim > 0 else None
    return None


def _check_masks(index: tuple, shape: list[int], api: str) -> None:
    """Each bool mask must have the shape of the dimensions it covers (Paddle raises an IndexError; numpy's rule
    would read a shorter mask as picking among the first entries only)."""
    masks = [_mask_shape(ix) for ix in index]
    if not any(masks):
        return
    width = [0 if ix is None or ix is Ellipsis or isinstance(ix, bool | np.bool_)
             or (isinstance(ix, Tensor) and ix.dtype.name == "bool" and ix.ndim == 0)
             else len(m) if m else 1 for ix, m in zip(index, masks)]
    dim = 0
    for k, (ix, m) in enumerate(zip(index, masks)):
        if ix is Ellipsis:
            dim = len(shape) - sum(width[k + 1:])
            continue
        if m:
            for j, n in enumerate(m):
                d = dim + j
                if d < len(shape) and shape[d] >= 0 and n != shape[d]:
                    raise IndexError(
                        f"{api}: the shape of the boolean index {m} does not match the indexed tensor (shape "
                        f"{shape}) along axis {d}: {n} entries for a dimension of size {shape[d]}. Give the mask "
                        f"the shape of the dimensions it covers, {shape[dim:dim + len(m)]}."
                    )
        dim += width[k]


_NO_MASK = frozenset([int, slice, type(None), type(Ellipsis)])  # index entries that cannot be a bool mask


def _split_index(index: Any, api: str = "getitem", shape: Sequence[int] | None = None) -> tuple[tuple, list[Any]]:
    """Static spec + index tensors. Bool masks become integer indices (needs concrete values); with ``shape``
    (the indexed tensor's), each mask's shape is checked against the dimensions it covers."""
    if not isinstance(index, tuple):
        index = (index,)
    if shape is not None:
        for ix in index:
            if type(ix) not in _NO_MASK:  # (ints, slices, None and Ellipsis alone: nothing to check)
                _check_masks(index, list(shape), api)
                break
    spec: list[Any] = []
    arrays: list[Any] = []
    for ix in index:
        if ix is Ellipsis:
            spec.append("...")
        elif ix is None or (isinstance(ix, int) and not isinstance(ix, bool)):
            spec.append(ix)
        elif isinstance(ix, bool | np.bool_) or (isinstance(ix, Tensor) and ix.dtype.name == "bool" and ix.ndim == 0):
            # a scalar bool adds an axis of size 1 (True) or 0 (False), as in numpy and Paddle
            if isinstance(ix, Tensor):
                _concrete(ix, "indexing with a bool")
            spec.append((BOOL, bool(ix)))
        elif isinstance(ix, slice):
            spec.append(("slice", _int_or_none(ix.start), _int_or_none(ix.stop), _int_or_none(ix.step)))
        elif isinstance(ix, Tensor) and ix.dtype.name != "bool":
            spec.append(TENSOR)
            arrays.append(ix)
        else:
            if isinstance(ix, Tensor):
                _concrete(ix, "indexing with a bool mask")
            # (a numpy array is copied: the index is read when the buffer runs, after the caller may have written it)
            a = (np.array(ix) if isinstance(ix, np.ndarray) else
                 np.asarray(ix) if isinstance(ix, list | tuple | np.generic | Tensor | bool) else None)
            if a is None or a.dtype.kind not in "biuf":  # (a float index is refused by the op's checks)
                raise ValueError(
                    f"{api}: an index must be an int, a slice, None, Ellipsis, or a list or Tensor of ints or "
                    f"bools, but received {type(ix).__name__} ({ix!r}). Index with integers."
                )
            parts = np.nonzero(a) if a.dtype == np.bool_ else (a,)
            for part in parts:
                spec.append(TENSOR)
                arrays.append(Tensor(put(part)))  # (jnp.asarray compiles a program per length)
    return tuple(spec), arrays


def _int_or_none(v: Any) -> Any:
    return None if v is None else int(v)


def _getitem(self: Tensor, index: Any) -> Tensor:
    spec, arrays = _split_index(index, "getitem", self._v.shape)
    if not arrays and modes.static_program is None and not isinstance(self._v, jax.core.Tracer):
        form = _form_of(self, spec)
        if form and _moves(form, "get"):
            r = apply_op(TABLE["getitem_at"], (self, list(form[2]), form[1]))
            return link(r, self, _GETITEM, (self, arrays, spec))
    r = apply_op(_GETITEM, (self, arrays, spec))
    # basic indexing (ints, slices, None, Ellipsis, 0-D integer Tensors) gives a view, as in Paddle
    for a in arrays:
        if not isinstance(a, Tensor) or a.ndim != 0:
            return r
    return link(r, self, _GETITEM, (self, arrays, spec))


_GETITEM = TABLE["getitem"]


# A basic index (ints, slices, None, Ellipsis) is compiled into its kernel while its ints and slice starts have
# taken at most MOVING_KEPT positions for that form of index (the same tensor shape, the same items, the same slice
# lengths): a constant ``x[:, 0]`` keeps its static slice. Past that (``X[i * bs:(i + 1) * bs]`` over a loop's
# batches, ``x[:, t]`` as ``t`` moves) the form is ``getitem_at`` from then on, its positions the kernel's inputs:
# one kernel and one step program for every position, where each new one compiled the step again (~90 ms a batch
# in a first epoch of 64-row batches, against Paddle's 0.5 ms). A write ``x[index] = v`` does the same with
# ``setitem_at`` where its items are ints, step-1 slices and whole axes (counted apart from reads).
MOVING_KEPT = 3
_MAX_FORMS = 4096
_FORMS: dict[tuple, Any] = {}  # (spec, shape) -> (form key, getitem_at's spec, positions), or False (not basic)
_POSITIONS: dict[tuple, set | None] = {}  # form key -> the positions taken so far; None: getitem_at from now on


def _moving_form(shape: Any, spec: tuple) -> Any:
    """``(form key, getitem_at's spec, positions)`` for a basic index of a tensor of ``shape`` with some int or
    partial step-1 slice, each int in range; False otherwise (then ``getitem`` takes it, and raises what it
    raises)."""
    consumed = sum(1 for s in spec if s is not None and s != "...")
    if consumed > len(shape) or spec.count("...") > 1:
        return False
    out: list[Any] = []
    starts: list[int] = []
    d = 0
    for s in spec:
        if s is None:
            out.append(None)
            continue
        if s == "...":
            for _ in range(len(shape) - consumed):
                out.append(_WHOLE)
                d += 1
            continue
        n = shape[d]
        if type(s) is int:
            if not -n <= s < n:
                return False
            out.append(AT)
            starts.append(s + n if s < 0 else s)
        elif type(s) is tuple and s[0] == "slice":
            a, b, c = slice(s[1], s[2], s[3]).indices(n)
            length = len(range(a, b, c))
            if c == 1 and 0 < length < n:
                out.append((SPAN, length))
                starts.append(a)
            elif c == 1 and length == n:
                out.append(_WHOLE)
            else:
                out.append(s)
        else:
            return False
        d += 1
    if not starts:
        return False
    spec_at = tuple(out)
    return ((tuple(shape), spec_at), spec_at, tuple(starts))


_WHOLE = ("slice", None, None, None)
_WRITTEN = (Tensor, int, float, np.ndarray, np.generic, jax.Array)  # values a moving write takes


def _form_of(t: Tensor, spec: tuple) -> Any:
    """``_moving_form`` of ``t``'s shape and ``spec``, remembered."""
    key = (spec, tuple(t.shape))
    form = _FORMS.get(key)
    if form is None:
        if len(_FORMS) >= _MAX_FORMS:
            _FORMS.clear()
        form = _FORMS[key] = _moving_form(t.shape, spec)
    return form


def _fits(value: Any, shape: Sequence[int], spec: tuple) -> bool:
    """Whether ``value`` broadcasts to what ``x[index]`` is for a tensor of ``shape`` and ``setitem_at``'s ``spec``
    (else ``setitem`` takes the write, and says what is wrong with it)."""
    picked = []
    for d, n in enumerate(shape):
        s = spec[d] if d < len(spec) else _WHOLE
        if s != AT:
            picked.append(s[1] if s[0] == SPAN else n)
    vshape = tuple(np.shape(value) if not isinstance(value, Tensor) else value.shape)
    extra = len(vshape) - len(picked)
    if extra > 0 and all(d == 1 for d in vshape[:extra]):  # (leading size-1 dimensions are dropped, as in Paddle)
        vshape = vshape[extra:]
    try:
        return np.broadcast_shapes(vshape, tuple(picked)) == tuple(picked)
    except ValueError:
        return False


def _moves(form: tuple, kind: str) -> bool:
    """Whether the index of ``form`` goes to ``getitem_at`` (``kind`` "get") or ``setitem_at`` ("set"): its form
    has taken more than MOVING_KEPT positions for that kind (this one noted)."""
    k, _, starts = form
    k = (kind, k)
    seen = _POSITIONS.get(k, ())
    if seen is None:
        return True
    if starts in seen:
        return False
    if len(seen) < MOVING_KEPT:
        if not seen:
            if len(_POSITIONS) >= _MAX_FORMS:
                _POSITIONS.clear()
            seen = _POSITIONS[k] = set()
        seen.add(starts)
        return False
    _POSITIONS[k] = None
    return True


def _setitem(self: Tensor, index: Any, value: Any) -> None:
    check_inplace_leaf(self, "Tensor.__setitem__")
    spec, arrays = _split_index(index, "setitem", self._v.shape)
    if (not arrays and modes.static_program is None and not isinstance(self._v, jax.core.Tracer)
            and isinstance(value, _WRITTEN)):  # (anything else: ``setitem`` says what is wrong with it)
        form = _form_of(self, spec)
        if (form and all(s is not None and (s == AT or s == _WHOLE or s[0] == SPAN) for s in form[1])
                and _fits(value, self.shape, form[1]) and _moves(form, "set")):
            r = apply_op(TABLE["setitem_at"], (self, list(form[2]), value, form[1]))
            inplace_assign(self, r, "Tensor.__setitem__")
            return
    r = apply_op(TABLE["setitem"], (self, arrays, value, spec))
    inplace_assign(self, r, "Tensor.__setitem__")


Tensor.__getitem__ = _getitem  # type: ignore[method-assign]
Tensor.__setitem__ = _setitem  # type: ignore[method-assign]


def _fill_(self: Tensor, value: Any) -> Tensor:
    """Overwrite every element with ``value`` in place; gradients through the old value stop (as Paddle)."""
    check_inplace_leaf(self, "Tensor.fill_")
    r = apply_op(TABLE["setitem"], (self, [], value, ("...",)))
    return inplace_assign(self, r, "Tensor.fill_")


def _zero_(self: Tensor) -> Tensor:
    """Overwrite every element with 0 in place."""
    check_inplace_leaf(self, "Tensor.zero_")
    r = apply_op(TABLE["setitem"], (self, [], 0, ("...",)))
    return inplace_assign(self, r, "Tensor.zero_")


def _transposed(self: Tensor) -> Tensor:
    """``x.T``: the axes in reverse order (Paddle reverses all of them, not just the last two)."""
    perm = tuple(range(self.ndim - 1, -1, -1))
    return link(apply_op(TABLE["transpose"], (self, perm)), self, TABLE["transpose"], (self, perm))


def _matrix_transposed(self: Tensor) -> Tensor:
    """``x.mT``: the last two axes swapped (a view), as Paddle's; a tensor of fewer than 2 dimensions raises."""
    n = self.ndim
    if n < 2:
        raise ValueError(f"Tensor.mT: the tensor needs at least 2 dimensions, but has {n} (shape {self.shape}). Use "
                         "x.T, or unsqueeze it first.")
    perm = (*range(n - 2), n - 1, n - 2)
    return link(apply_op(TABLE["transpose"], (self, perm)), self, TABLE["transpose"], (self, perm))


Tensor.fill_ = _fill_  # type: ignore[attr-defined]
Tensor.zero_ = _zero_  # type: ignore[attr-defined]
if "transpose" in TABLE:
    Tensor.T = property(_transposed)  # type: ignore[attr-defined]
    Tensor.mT = property(_matrix_transposed)  # type: ignore[attr-defined]


# ---- operators -------------------------------------------------------------------
def _is_scalar(v: Any) -> bool:
    t = type(v)
    if t is float or t is int:
        return True
    return isinstance(v, (int, float)) and not isinstance(v, bool)


def _float_for_scalar(t: Tensor, v: Any) -> Tensor:
    """int tensor op float scalar -> float32, whatever the default dtype (Paddle 3.3 does this); bool tensor op int
    scalar -> int64 (``mask * 2`` counts, as in Paddle)."""
    if isinstance(v, float) and t._v.dtype.kind not in "fc" and not t.dtype.is_floating_point:
        return apply_op(TABLE["cast"], (t, "float32"))  # (a complex Tensor stays complex)
    if type(v) is int and t._v.dtype == jnp.bool_:
        return apply_op(TABLE["cast"], (t, "int64"))
    return t


def _number(t: Tensor, v: Any) -> Any:
    """The other operand as Paddle reads it: a numpy number is the Python number of its kind (``np.float64(2.5)``
    is ``2.5``, ``np.int32(3)`` is ``3``: a scalar, never a typed tensor), and a bool with a non-bool Tensor is the
    integer 0 or 1 (``x * True`` is ``x * 1``)."""
    if isinstance(v, np.generic):
        if isinstance(v, np.bool_):
            v = bool(v)
        elif isinstance(v, np.integer):
            v = int(v)
        elif isinstance(v, np.floating):
            v = float(v)
        else:
            return v
    if type(v) is bool and t._v.dtype != jnp.bool_:
        return int(v)
    return v


_NUMPY_OR_BOOL = (np.generic, bool)


def _op(name: str) -> Op:
    return TABLE[name]


_ADD = TABLE["add"]


# A float with a floating Tensor in ``+``, ``-``, ``*`` (a *traced number*) is passed as a weakly typed input, so
# every value shares one kernel and a step whose float changes (a schedule's coefficient) still replays; other
# scalars stay ``scale`` attributes. (A float always passes ``_operand``: the operators test it first.)
_FLOATING = frozenset(jnp.dtype(n) for n in ("float16", "bfloat16", "float32", "float64"))  # (a set lookup)


_OPERANDS = (Tensor, int, float, bool, complex, np.ndarray, np.generic, jax.Array)


def _operand(op: str, sym: str, o: Any) -> None:
    """The other operand of an arithmetic operator must be a Tensor, an array or a number (Paddle: a TypeError;
    a str would otherwise be read as garbage)."""
    if not isinstance(o, _OPERANDS):
        raise TypeError(
            f"{op}: the operand of `{sym}` must be a Tensor, an array or a number, but received "
            f"{type(o).__name__} ({o!r}). Convert it with paddle.to_tensor first."
        )


def _add(self: Tensor, o: Any) -> Any:
    if type(o) is Tensor or (type(o) is float and self._v.dtype in _FLOATING):
        return apply_op(_ADD, (self, o))
    if isinstance(o, np.generic) or (type(o) is bool and self._v.dtype != jnp.bool_):
        return _add(self, _number(self, o))
    _operand("add", "+", o)
    if _is_scalar(o):
        return apply_op(_op("scale"), (_float_for_scalar(self, o), 1.0, o))
    return apply_op(_ADD, (self, o))


_SUBTRACT = TABLE["subtract"]
_MULTIPLY = TABLE["multiply"]
_SCALE_BY = TABLE["scale_by"]


def _sub(self: Tensor, o: Any) -> Any:
    # (the common cases first: a Tensor, a traced number; no operand checks to make)
    if type(o) is Tensor or (type(o) is float and self._v.dtype in _FLOATING):
        return apply_op(_SUBTRACT, (self, o))
    if isinstance(o, np.generic) or (type(o) is bool and self._v.dtype != jnp.bool_):
        return _sub(self, _number(self, o))
    _operand("subtract", "-", o)
    if _is_scalar(o):
        return apply_op(_op("scale"), (_float_for_scalar(self, o), 1.0, -o))
    return apply_op(_op("subtract"), (self, o))


def _rsub(self: Tensor, o: Any) -> Any:
    if type(o) is float and self._v.dtype in _FLOATING:  # ``1 - y``: a traced number, as ``y - 1.0`` (``_sub``)
        return apply_op(_SUBTRACT, (o, self))
    if isinstance(o, np.generic) or (type(o) is bool and self._v.dtype != jnp.bool_):
        return _rsub(self, _number(self, o))
    _operand("subtract", "-", o)
    if _is_scalar(o):
        return apply_op(_op("scale"), (_float_for_scalar(self, o), -1.0, o))
    return apply_op(_op("subtract"), (o, self))


def _mul(self: Tensor, o: Any) -> Any:
    if type(o) is Tensor:  # (the common case first: no operand checks to make)
        return apply_op(_MULTIPLY, (self, o))
    if type(o) is float and self._v.dtype in _FLOATING:  # a traced number
        return apply_op(_SCALE_BY, (self, o))
    if isinstance(o, np.generic) or (type(o) is bool and self._v.dtype != jnp.bool_):
        return _mul(self, _number(self, o))
    if isinstance(o, str | list | tuple) and self.ndim == 0 and jnp.issubdtype(self._v.dtype, jnp.integer):
        return NotImplemented  # Python's repetition by ``__index__``, as in Paddle: ``"ab" * n``, ``[0] * n``
    _operand("multiply", "*", o)
    if _is_scalar(o):
        return apply_op(_op("scale"), (_float_for_scalar(self, o), o))
    return apply_op(_op("multiply"), (self, o))


_DIVIDE_BY = TABLE["divide_by"]


def _div(self: Tensor, o: Any) -> Any:
    if isinstance(o, _NUMPY_OR_BOOL):
        o = _number(self, o)
    t = type(o)
    if (t is float or (t is int and -(2**53) <= o <= 2**53)) and self._v.dtype in _FLOATING:
        return apply_op(_DIVIDE_BY, (self, o))  # a traced number: one kernel for every divisor
    _operand("divide", "/", o)
    return apply_op(_op("divide"), (self, o))


_SYMBOLS = {"divide": "/", "pow": "**", "floor_divide": "//", "remainder": "%", "matmul": "@"}


def _binary(name: str, reflected: bool = False) -> Any:
    op = TABLE[name]
    sym = _SYMBOLS.get(name)
    eq = name in ("equal", "not_equal")
    bool_counts = name == "pow" and not reflected

    def f(self: Tensor, o: Any) -> Any:
        if type(o) is not Tensor:  # (a Tensor operand: nothing to check)
            if isinstance(o, _NUMPY_OR_BOOL):
                o = _number(self, o)
            if bool_counts and type(o) is int and self._v.dtype == jnp.bool_:
                self = apply_op(TABLE["cast"], (self, "int64"))  # ``mask ** 2`` is int64, as in Paddle
            if o is None and eq and not self._symbolic:
                return name == "not_equal"  # ``x == None`` is False and ``x != None`` True, as in Paddle
            if sym is not None and not isinstance(o, _OPERANDS):
                _operand(name, sym, o)
            if isinstance(o, float) and not self.dtype.is_floating_point and self._v.dtype.kind != "c":
                self = apply_op(TABLE["cast"], (self, "float32"))
        return apply_op(op, (o, self) if reflected else (self, o))

    f.__name__ = name
    return f


def _neg(self: Tensor) -> Any:
    return apply_op(_op("scale"), (self, -1.0))


def _cast(self: Tensor, dtype: Any) -> Any:
    return apply_op(_op("cast"), (self, _dtypes.to_paddle(dtype).name))


def _astype(self: Tensor, dtype: Any) -> Any:
    """``x.astype(dtype)``: as Paddle's, x itself when it already has that dtype (a write to the result is a
    write to x), else a cast copy. ``x.cast`` and ``paddle.cast`` always copy."""
    dt = _dtypes.to_paddle(dtype)
    return self if self.dtype == dt else apply_op(_op("cast"), (self, dt.name))


Tensor.__add__ = Tensor.__radd__ = _add  # type: ignore[attr-defined]
Tensor.__sub__ = _sub  # type: ignore[attr-defined]
Tensor.__rsub__ = _rsub  # type: ignore[attr-defined]
Tensor.__mul__ = Tensor.__rmul__ = _mul  # type: ignore[attr-defined]
Tensor.__truediv__ = _div  # type: ignore[attr-defined]
Tensor.__rtruediv__ = _binary("divide", reflected=True)  # type: ignore[attr-defined]
Tensor.__neg__ = _neg  # type: ignore[attr-defined]
Tensor.astype = _astype  # type: ignore[attr-defined]
Tensor.cast = _cast  # type: ignore[attr-defined]

# ``x.float()``, ``x.long()``, ``x.int32()``, ...: ``x.astype`` of the dtype each names (Paddle 3's PyTorch-style methods)
_DTYPE_METHODS = {
    "bfloat16": "bfloat16", "bool": "bool", "byte": "uint8", "char": "int8", "double": "float64", "float": "float32",
    "float16": "float16", "float32": "float32", "float64": "float64", "half": "float16", "int": "int32",
    "int16": "int16", "int32": "int32", "int64": "int64", "int8": "int8", "long": "int64", "short": "int16",
    "uint8": "uint8", "cfloat": "complex64", "cdouble": "complex128", "complex64": "complex64",
    "complex128": "complex128",
}


def _dtype_method(method: str, dtype: str) -> Callable[[Tensor], Any]:
    def m(self: Tensor) -> Any:
        return _astype(self, dtype)

    m.__name__ = m.__qualname__ = method
    m.__doc__ = f"``x.astype('{dtype}')``: x itself when it is {dtype} already, else a cast copy."
    return m


for _method_name, _method_dtype in _DTYPE_METHODS.items():
    if not hasattr(Tensor, _method_name):
        setattr(Tensor, _method_name, _dtype_method(_method_name, _method_dtype))


# ---- Paddle 3's PyTorch-style members: requires_grad, data, type_as, ... -----------------------------------------
def _get_requires_grad(self: Tensor) -> bool:
    return not self.stop_gradient


def _set_requires_grad(self: Tensor, value: Any) -> None:
    if value is not True and value is not False:
        raise TypeError(f"Tensor.requires_grad must be a bool, but received {type(value).__name__} ({value!r}).")
    self.stop_gradient = not value


def _requires_grad_(self: Tensor, requires_grad: bool = True) -> Tensor:
    """Set ``stop_gradient = not requires_grad`` in place and return the Tensor."""
    _set_requires_grad(self, requires_grad)
    return self


def _get_data(self: Tensor) -> Tensor:
    """``x.data``: ``x.detach()``, a Tensor without history sharing x's data (a write to it changes x)."""
    return self.detach()


def _set_data(self: Tensor, value: Any) -> None:
    if not isinstance(value, Tensor):
        raise ValueError(f"Tensor.data: the new data must be a Tensor, but received {type(value).__name__}. Wrap it "
                         "with paddle.to_tensor.")
    if value.shape != self.shape or value.dtype != self.dtype:
        raise ValueError(f"Tensor.data: here the new data must have the tensor's shape {list(self.shape)} and dtype "
                         f"{self.dtype.name}, but received {list(value.shape)} and {value.dtype.name} (Paddle would "
                         "swap the storage). Make a new Tensor, or cast and reshape the value first.")
    self.detach().set_value(value)


def _type_as(self: Tensor, other: Tensor) -> Any:
    """``x.astype(other.dtype)``."""
    return _astype(self, other.dtype)


def _is_same_shape(self: Tensor, y: Tensor) -> bool:
    """Whether ``y`` (a Tensor) has x's shape."""
    if not isinstance(y, Tensor):
        raise ValueError(f"Tensor.is_same_shape: y must be a Tensor, but received {type(y).__name__}.")
    return list(self.shape) == list(y.shape)


def _ndimension(self: Tensor) -> int:
    """The number of dimensions (``x.ndim``)."""
    return self.ndim


def _get_device(self: Tensor) -> int:
    """The GPU index holding x, -1 for the CPU."""
    dev = getattr(self._value, "devices", None)
    d = next(iter(dev())) if dev is not None else None
    return -1 if d is None or d.platform == "cpu" else int(d.id)


def _apply_result(self: Tensor, func: Any, api: str) -> Tensor:
    if not self.stop_gradient:  # (Paddle's type and rule)
        raise RuntimeError(f"{api}: cannot apply a function to a tensor that requires gradient "
                           "(stop_gradient=False); call it on x.detach(), or set stop_gradient=True first.")
    if not callable(func):
        raise TypeError(f"{api}: func must be a callable taking the Tensor, but received {type(func).__name__}.")
    r = func(self)
    if not isinstance(r, Tensor):
        raise TypeError(f"{api}: func must return a Tensor, but it returned {type(r).__name__}; wrap the result "
                        "with paddle.to_tensor.")
    return r


def _apply(self: Tensor, func: Callable[[Tensor], Tensor]) -> Tensor:
    """``func(x)`` for a tensor that stops gradient (a RuntimeError otherwise, as Paddle's)."""
    return _apply_result(self, func, "Tensor.apply")


def _apply_in_place(self: Tensor, func: Callable[[Tensor], Tensor]) -> Tensor:
    """Write ``func(x)`` into x and return x (x must stop gradient)."""
    r = _apply_result(self, func, "Tensor.apply_")
    if r.shape != self.shape or r.dtype != self.dtype:
        raise ValueError(f"Tensor.apply_: here func must keep the tensor's shape {list(self.shape)} and dtype "
                         f"{self.dtype.name}, but it returned {list(r.shape)} and {r.dtype.name} (Paddle would swap "
                         "the storage). Use x.apply(func) for a new Tensor.")
    self.set_value(r)
    return self


Tensor.apply = _apply  # type: ignore[attr-defined]
Tensor.apply_ = _apply_in_place  # type: ignore[attr-defined]
Tensor.requires_grad = property(_get_requires_grad, _set_requires_grad,  # type: ignore[attr-defined]
                                doc="``not stop_gradient`` (settable, a bool).")
Tensor.requires_grad_ = _requires_grad_  # type: ignore[attr-defined]
Tensor.data = property(_get_data, _set_data)  # type: ignore[attr-defined]
Tensor.type_as = _type_as  # type: ignore[attr-defined]
Tensor.is_same_shape = _is_same_shape  # type: ignore[attr-defined]
Tensor.ndimension = _ndimension  # type: ignore[attr-defined]
Tensor.get_device = _get_device  # type: ignore[attr-defined]
Tensor.itemsize = property(lambda self: int(np.dtype(self._v.dtype).itemsize),  # type: ignore[attr-defined]
                           doc="Bytes per element.")
Tensor.is_cuda = property(lambda self: _get_device(self) >= 0,  # type: ignore[attr-defined]
                          doc="Whether x is on a GPU.")
_OPERATORS = {
    "__pow__": ("pow", False), "__rpow__": ("pow", True),
    "__floordiv__": ("floor_divide", False), "__rfloordiv__": ("floor_divide", True),
    "__mod__": ("remainder", False), "__rmod__": ("remainder", True),
    "__matmul__": ("matmul", False), "__rmatmul__": ("matmul", True),
    "__eq__": ("equal", False), "__ne__": ("not_equal", False),
    "__lt__": ("less_than", False), "__le__": ("less_equal", False),
    "__gt__": ("greater_than", False), "__ge__": ("greater_equal", False),
    # (&, |, ^: ``_bitwise`` below, with Paddle's operand rules)
}
for _dunder, (_name, _refl) in _OPERATORS.items():
    if _name in TABLE:
        setattr(Tensor, _dunder, _binary(_name, _refl))


def _matmul_operator(reflected: bool) -> Any:
    """``x @ y`` (and ``array @ x``) as Paddle's operator: the other operand is cast to the Tensor's dtype, so the
    product has the Tensor's dtype (``float32 @ float64`` is float32, ``int32 @ int64`` int32; the other operand's
    gradient comes back in its own dtype). ``paddle.matmul`` itself promotes instead (Paddle raises there). A float
    operand cast to an integer Tensor's dtype is truncated, as in Paddle, with a warning."""
    binary = _binary("matmul", reflected)
    dunder = "__rmatmul__" if reflected else "__matmul__"

    def f(self: Tensor, o: Any) -> Any:
        if self._v.dtype == jnp.bool_:
            raise RuntimeError(f"Tensor.{dunder}: Paddle has no matrix product of bool tensors (the Tensor is bool). "
                               "Cast it first: x.astype('int64') or x.astype('float32').")
        if isinstance(o, Tensor):
            if o.dtype != self.dtype:
                if o.dtype.is_floating_point and not self.dtype.is_floating_point and self._v.dtype.kind != "c":
                    import warnings

                    warnings.warn(
                        f"Tensor.{dunder}: the Tensor is {self.dtype.name} and the other operand "
                        f"{o.dtype.name}; as Paddle's operator casts the other operand to the Tensor's dtype, its "
                        f"values are truncated to integers. Cast the Tensor to a float dtype first "
                        f"(x.astype('{o.dtype.name}')) for a float product.", UserWarning, stacklevel=2)
                o = _cast(o, self.dtype)
        elif isinstance(o, np.ndarray) and o.dtype != _dtypes.to_np(self.dtype):
            o = o.astype(_dtypes.to_np(self.dtype))
        return binary(self, o)

    f.__name__ = dunder
    return f


Tensor.__matmul__ = _matmul_operator(False)  # type: ignore[attr-defined]
Tensor.__rmatmul__ = _matmul_operator(True)  # type: ignore[attr-defined]


def _shift(name: str, sym: str, reflected: bool) -> Any:
    """``x << y``, ``x >> y`` with Paddle 3.3.1's operand rules: a Tensor, or a Python int or bool, on either side;
    a float or complex is Python's TypeError (``unsupported operand type(s)``); any other operand (a numpy number or
    array, a list, None) is a ValueError there."""
    binary = _binary(name, reflected)
    dunder = f"__{'r' if reflected else ''}{'l' if sym == '<<' else 'r'}shift__"
    pname = "x" if reflected else "y"
    fix = f"{{t}} {sym} y" if reflected else f"x {sym} {{t}}"

    def f(self: Tensor, o: Any) -> Any:
        if type(o) is not Tensor and type(o) not in (int, bool):
            if isinstance(o, float | complex) and not isinstance(o, np.generic):
                return NotImplemented
            if not isinstance(o, Tensor):
                raise _not_a_tensor(f"Tensor.{dunder}", f"x {sym} y", pname, o, None, fix)
        return binary(self, o)

    f.__name__ = dunder
    return f


for _sym, _name in (("<<", "bitwise_left_shift"), (">>", "bitwise_right_shift")):
    for _refl in (False, True):
        _f = _shift(_name, _sym, _refl)
        setattr(Tensor, _f.__name__, _f)


def _not_a_tensor(api: str, form: str, pname: str, v: Any, sym: str | None, fix: str, swap: bool = True,
                  unary: bool = False) -> ValueError:
    """Paddle 3.3.1's error where ``x & y``, ``x | y``, ``x ^ y``, ``x << y``, ``x >> y`` or ``bitwise_and`` /
    ``bitwise_or`` / ``bitwise_xor`` / ``bitwise_left_shift`` / ``bitwise_right_shift`` / ``bitwise_not`` (function,
    method or in place) gets a ``pname`` operand that is not a Tensor (a number, a numpy number or array, a list): a
    ValueError saying what to write instead (``fix`` with ``{t}`` where the converted operand goes; for a Python int
    or bool also the operator ``sym`` where one is given: ``v sym x`` with ``swap``, as ``&`` takes a number on its
    left only, else the number where it stands, as the shifts take one on either side)."""
    other = "y" if pname == "x" else "x"
    t = f"paddle.to_tensor({v!r})" if unary else f"paddle.to_tensor({v!r}, dtype={other}.dtype)"
    if sym and type(v) in (int, bool):
        if swap:
            first = f" or put the number first ({v!r} {sym} {other})."
        else:
            expr = f"{v!r} {sym} {other}" if pname == "x" else f"{other} {sym} {v!r}"
            first = f" or use the operator ({expr}), which takes a Python int."
    else:
        first = "."
    return ValueError(f"{api}: {form} takes a Tensor {pname} in Paddle, but received {type(v).__name__} {v!r}; write "
                      f"{fix.format(t=t)}{first}")


def _bitwise(name: str, sym: str, reflected: bool) -> Any:
    """``x & y``, ``x | y``, ``x ^ y`` with Paddle 3.3.1's operand rules: a Tensor on the left takes only a Tensor
    (Paddle raises a ValueError for ``x & 2``, ``mask | True``, ``x ^ np.int64(1)``; so does ``x &= 2``); a Python
    int or bool on the left is cast to the Tensor's dtype (``2 & mask`` is ``True & mask``, a bool; ``300 & int8``
    is ``44 & int8``, wrapping); any other left operand (a float, a numpy number or array) is a TypeError."""
    op = TABLE[name]

    def f(self: Tensor, o: Any) -> Any:
        if not isinstance(o, Tensor):
            if not reflected:
                raise _not_a_tensor(f"Tensor.__{name.removeprefix('bitwise_')}__", f"x {sym} y", "y", o, sym,
                                    f"x {sym} {{t}}")
            if type(o) not in (int, bool):
                return NotImplemented
            dt = self._v.dtype
            if dt == jnp.bool_:
                o = bool(o)
            elif jnp.issubdtype(dt, jnp.integer):
                bits = jnp.iinfo(dt).bits
                o = int(np.asarray(o % (1 << bits), dtype=f"uint{bits}").view(dt))
        return apply_op(op, (o, self) if reflected else (self, o))

    f.__name__ = f"__{'r' if reflected else ''}{name.removeprefix('bitwise_')}__"
    return f


for _name, _sym in (("bitwise_and", "&"), ("bitwise_or", "|"), ("bitwise_xor", "^")):
    for _refl in (False, True):
        _f = _bitwise(_name, _sym, _refl)
        setattr(Tensor, _f.__name__, _f)


_MISSING = object()


def _bitwise_operands(api: str, form: str, fixes: dict[str, str], sym: str | None, args: tuple,
                      kwargs: dict[str, Any], swap: bool = True) -> None:
    """The bitwise functions and methods take Tensors only, as ``&`` / ``|`` / ``^`` do on their right (Paddle 3.3.1:
    ``paddle.bitwise_and(x, 2)``, ``bitwise_and(2, x)``, ``x.bitwise_and(np.int64(2))``, ``bitwise_left_shift(x, 1)``,
    ``bitwise_not(5)`` are ValueErrors); ``args`` / ``kwargs`` are the call's, the tensor first for a method;
    ``fixes`` the call to write instead, per operand (``x`` alone for a unary op); ``swap``: see ``_not_a_tensor``."""
    unary = "y" not in fixes
    for i, pname in enumerate(("x",) if unary else ("x", "y")):
        v = args[i] if i < len(args) else kwargs.get(pname, _MISSING)
        if v is not _MISSING and not isinstance(v, Tensor):
            raise _not_a_tensor(api, form, pname, v, sym, fixes[pname], swap, unary)


def _bitwise_calls(name: str, sym: str, swap: bool = True) -> tuple[Callable[..., Any], Callable[..., Any],
                                                                     Callable[..., Any]]:
    """The function, the method and the in-place method of a binary bitwise op with Paddle's operand rule (``swap``:
    see ``_not_a_tensor``)."""
    op = TABLE[name]
    api_m, api_i = f"Tensor.{name}", f"Tensor.{name}_"
    form_f, form_m, form_i = f"{name}(x, y)", f"x.{name}(y)", f"x.{name}_(y)"
    fix_f = {"x": f"{name}({{t}}, y)", "y": f"{name}(x, {{t}})"}
    fix_m, fix_i = {"x": "", "y": f"x.{name}({{t}})"}, {"x": "", "y": f"x.{name}_({{t}})"}

    def fn(*args: Any, **kwargs: Any) -> Any:
        _bitwise_operands(name, form_f, fix_f, sym, args, kwargs, swap)
        return apply_op(op, args, kwargs)

    def m(self: Tensor, *args: Any, **kwargs: Any) -> Any:
        _bitwise_operands(api_m, form_m, fix_m, sym, (self, *args), kwargs, swap)
        return apply_op(op, (self, *args), kwargs)

    def m_(self: Tensor, *args: Any, **kwargs: Any) -> Tensor:
        _bitwise_operands(api_i, form_i, fix_i, None, (self, *args), kwargs)  # (``2 & x`` is no in-place form)
        check_inplace_leaf(self, api_i)
        return write_result(self, apply_op(op, (self, *args), kwargs), api_i)

    fn.__name__ = fn.__qualname__ = m.__name__ = m.__qualname__ = name
    m_.__name__ = m_.__qualname__ = name + "_"
    fn.__doc__ = m.__doc__ = op.doc
    fn.__signature__ = op.signature  # type: ignore[attr-defined]
    return fn, m, m_


BITWISE_FUNCTIONS: dict[str, Callable[..., Any]] = {}  # ``paddle.bitwise_and`` ... (``_api.functional`` takes them)
for _name, _sym in (("bitwise_and", "&"), ("bitwise_or", "|"), ("bitwise_xor", "^"), ("bitwise_left_shift", "<<"),
                    ("bitwise_right_shift", ">>")):
    BITWISE_FUNCTIONS[_name], _m, _m_ = _bitwise_calls(_name, _sym, swap=_sym in "&|^")
    setattr(Tensor, _name, _m)
    setattr(Tensor, _name + "_", _m_)


def _unary_bitwise(name: str) -> tuple[Callable[..., Any], Callable[..., Any]]:
    """``paddle.bitwise_not`` / ``bitwise_invert`` and their in-place functions: x must be a Tensor (Paddle 3.3.1:
    ``bitwise_not(5)`` and ``bitwise_not_(5)`` are ValueErrors; ``~5`` is Python's own)."""
    op, method_ = TABLE[name], getattr(Tensor, name + "_")

    def fn(*args: Any, **kwargs: Any) -> Any:
        _bitwise_operands(name, f"{name}(x)", {"x": f"{name}({{t}})"}, None, args, kwargs)
        return apply_op(op, args, kwargs)

    def fn_(*args: Any, **kwargs: Any) -> Any:
        _bitwise_operands(name + "_", f"{name}_(x)", {"x": f"{name}_({{t}})"}, None, args, kwargs)
        x = args[0] if args else kwargs.pop("x")
        return method_(x, *args[1:], **kwargs)

    fn.__name__ = fn.__qualname__ = name
    fn_.__name__ = fn_.__qualname__ = name + "_"
    fn.__doc__ = op.doc
    fn_.__doc__ = f"In-place ``{name}``: writes the result into ``x`` and returns it."
    fn.__signature__ = fn_.__signature__ = op.signature  # type: ignore[attr-defined]
    return fn, fn_


for _name in ("bitwise_not", "bitwise_invert"):
    BITWISE_FUNCTIONS[_name], BITWISE_FUNCTIONS[_name + "_"] = _unary_bitwise(_name)

_POW, _POW_NUMBER = TABLE["pow"], TABLE["pow_number"]
_pow_operator = Tensor.__pow__


def _number_exponent(x: Tensor, y: Any) -> bool:
    """A Python number raising a floating Tensor is compiled into the kernel (``pow_number``; Paddle takes it as an
    attribute) when it is a whole number or a half from -16 to 16 (``x ** 2``, ``x ** 0.5``, ``x ** -1``): such
    exponents are written in the program, each compiles once, and XLA makes ``x ** 2`` one multiply. Any other
    exponent (``x ** 2.2``, a schedule's value) stays a traced input of the general power, so one that changes
    every step compiles nothing new."""
    t = type(y)
    if t is int:
        ok = -16 <= y <= 16
    elif t is float:
        ok = -16.0 <= y <= 16.0 and (y * 2.0).is_integer()  # (False for NaN)
    else:
        return False
    return ok and x._v.dtype in _FLOATING


def _numpy_float(o: Any) -> bool:
    """A numpy float scalar that is not a Python float (np.float32, np.float16; np.float64 is one)."""
    return isinstance(o, np.floating) and not isinstance(o, float)


def _truncated(api: str, t: Tensor, o: Any, role: str) -> int:
    """A numpy float32 or float16 exponent (``role`` "exponent") or base ("base") of ``**`` with an integer tensor,
    as Paddle 3.3.1 reads it: a number of the tensor's integer dtype (``int64 [2, 3] ** np.float32(2.5)`` is
    ``[4, 9]``, the exponent truncated; ``np.float32(2.5) ** int64 [2, 3]`` is ``[4, 8]``). A whole one is that int
    (the same result); a non-whole one is a ValueError, as ``paddle.pow``'s truncated Python float exponent is."""
    f = float(o)
    if f.is_integer():
        return int(f)
    name = np.dtype(type(o)).name
    cut = int(f) if math.isfinite(f) else f
    fix = ("x ** float(y), which gives float32, or cast the base first (x.astype('float32') ** y)" if role == "exponent"
           else "float(b) ** x, which gives float32, or cast the exponent first (b ** x.astype('float32'))")
    raise ValueError(
        f"{api}: the non-whole numpy {name} {role} {o!r} with an integer tensor becomes a number of the tensor's "
        f"integer dtype {t.dtype} in Paddle (a numpy {name} is not a Python float there), which truncates the {role} "
        f"to {cut}; write {fix}.")


def _pow(self: Tensor, o: Any) -> Any:
    if isinstance(o, _NUMPY_OR_BOOL):
        o = _truncated("Tensor.__pow__", self, o, "exponent") if _numpy_float(o) and self._v.dtype.kind in "iu" \
            else _number(self, o)
    if _number_exponent(self, o):
        return apply_op(_POW_NUMBER, (self, o))
    return _pow_operator(self, o)


_rpow_operator = Tensor.__rpow__


def _rpow(self: Tensor, o: Any) -> Any:
    if _numpy_float(o) and self._v.dtype.kind in "iu":
        o = _truncated("Tensor.__rpow__", self, o, "base")
    return _rpow_operator(self, o)


_EXPONENTS = (Tensor, int, float, jax.Array, jax.core.Tracer)  # (a JAX array: the traced forms, not Paddle's)


def _exponent(api: str, y: Any) -> Any:
    """``paddle.pow``'s ``y`` as Paddle 3.3.1 takes it: a Python int, float or bool (np.float64 is a Python float, so
    it is read as one: ``pow(int64 [2, 3], np.float64(2.0))`` keeps int64) or a Tensor; anything else (np.float32,
    np.int64, a numpy array, a list, a complex) is a TypeError there."""
    if isinstance(y, _EXPONENTS) and not isinstance(y, np.generic):
        return y
    if isinstance(y, np.float64):
        return float(y)
    number = isinstance(y, np.generic) and not isinstance(y, np.complexfloating)
    fix = "float(y) or int(y)" if number else "paddle.to_tensor(y)"
    raise TypeError(f"{api}: y must be a Python int or float or a Tensor in Paddle, but received {type(y).__name__} "
                    f"({y!r}); pass {fix}.")


_BASES = (Tensor, jax.Array, jax.core.Tracer)  # (a JAX array: the traced forms, not Paddle's)


def pow(x: Any, y: Any, *args: Any, **kwargs: Any) -> Any:  # noqa: A001
    y = _exponent("pow", y)  # (y first: Paddle tests it before x)
    if not isinstance(x, _BASES):
        # Paddle 3.3.1: ``paddle.pow(2.0, x)``, ``pow(np.float32(2.0), x)`` are ValueErrors (``2.0 ** x`` is fine)
        op = f" or use the operator ({x!r} ** y)" if type(x) in (int, float) else ""
        raise ValueError(f"pow: pow(x, y) takes a Tensor x in Paddle, but received {type(x).__name__} {x!r}; write "
                         f"pow(paddle.to_tensor({x!r}), y){op}.")
    if not args and (not kwargs or list(kwargs) == ["name"]) and isinstance(x, Tensor) and _number_exponent(x, y):
        return apply_op(_POW_NUMBER, (x, y))
    return apply_op(_POW, (x, y, *args), kwargs)


_pow_in_place = Tensor.pow_


def pow_(self: Tensor, y: Any, *args: Any, **kwargs: Any) -> Tensor:
    """In-place ``pow``: writes ``self ** y`` into this tensor (same shape and dtype) and returns it."""
    return _pow_in_place(self, _exponent("Tensor.pow_", y), *args, **kwargs)


pow.__doc__, pow.__signature__ = _POW.doc, _POW.signature  # type: ignore[attr-defined]
Tensor.__pow__ = _pow  # type: ignore[attr-defined]
Tensor.__rpow__ = _rpow  # type: ignore[attr-defined]
Tensor.pow = pow  # type: ignore[attr-defined]
Tensor.pow_ = pow_  # type: ignore[attr-defined]
for _dunder, _name in {"__invert__": "bitwise_not", "__abs__": "abs"}.items():
    if _name in TABLE:
        setattr(Tensor, _dunder, _method(TABLE[_name]))
Tensor.__hash__ = lambda self: id(self)  # type: ignore[method-assign]
