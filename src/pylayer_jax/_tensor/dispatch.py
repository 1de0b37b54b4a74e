"""``apply_op``: THE dispatch path, the one place that unwraps and wraps arrays.

Layer L4. Every op goes through ``apply_op``: unwrap the inputs, call the op's cached jitted
kernel (deferred: ``_exec.deferred``), build a tape node if some input needs a gradient, wrap the
outputs. When an input wraps a tracer (under ``jax.jit``/``grad``/``vmap``) the op is called
inline and nothing is recorded; when an input is a static-program Variable the op is recorded
into the program instead.
"""

from __future__ import annotations

import os
import sys
import weakref
from collections.abc import Callable, Sequence
from typing import Any

import jax
import jax.numpy as jnp
import numpy as np

from .._autograd.graph import Edge, OpNode
from .._autograd.saved import SavedValue, VersionCounter
from .._exec import deferred as lazy
from .._exec.deferred import Pending
from .._ops.aliases import unalias
from .._ops.checks import KIND_TYPE_ERROR, check_kernel, first_bad_now
from .._ops.table import TABLE, NumberInput, Op
from .._runtime import dtypes as _dtypes
from .._runtime.exact_key import exact, plain
from .._runtime.state import current_saved_hooks, grad_mode, modes
from . import step_events as _ev
from .facade import EAGER_TYPES, Tensor, _concrete, _Tracer
from .saved_hooks import call_hook, check_unpacked

_ArrayImpl = lazy._ArrayImpl


def _is_tensor(x: Any) -> bool:
    return isinstance(x, Tensor)


def _norm_attr(v: Any) -> Any:
    """Make an attribute hashable and concrete: lists -> tuples, Tensors -> Python values, and numbers that
    ``==`` confuses (``-0.0`` and ``0.0``, ``1`` and ``True``, NaN) told apart (``exact_key``)."""
    if v is None or type(v) in (int, str):
        return v
    if type(v) in (float, bool, complex):
        return exact(v)
    if isinstance(v, Tensor):
        _concrete(v, "an op attribute given as a Tensor")
        v = v.tolist()
    elif isinstance(v, np.ndarray | np.generic):
        v = v.tolist()
    elif isinstance(v, slice):
        return ("slice", _norm_attr(v.start), _norm_attr(v.stop), _norm_attr(v.step))
    if isinstance(v, list | tuple):
        return tuple(_norm_attr(e) for e in v)
    if isinstance(v, dict):
        return tuple(sorted((k, _norm_attr(e)) for k, e in v.items()))
    return exact(v)


_PLAIN_ATTRS = (int, float, bool, str, type(None))


_NUMBERS = (bool, int, float, complex)


def _scalar_leaf(x: Any) -> Any:
    """A non-Tensor in a tensor position: Python scalars stay weakly typed; arrays become jax arrays."""
    if isinstance(x, np.ndarray):
        return jnp.asarray(x)
    if isinstance(x, list | tuple):
        return jnp.asarray(np.asarray(x))
    return x


def apply_op(op: Op, args: Sequence[Any], kwargs: dict[str, Any] | None = None) -> Any:
    """Run a table op on Tensors (or arrays, scalars): THE dispatch path.

    The common call (every tensor parameter given a plain Tensor, positionally, and no
    attributes) takes the short path; everything else is normalised by ``_general``.
    """
    if kwargs or len(args) != op.n_in:
        return _with_attrs(op, args, kwargs)
    checks = op.checks
    if checks is not None and op.check_always:
        if type(args[0]) is Tensor and getattr(checks, "int_base_only", False) and args[0]._v.dtype in _FLOATING:
            checks = None  # ``x ** 2`` on a floating x: pow's check concerns integer bases only
        else:
            return _general(op, args, kwargs)
    t = _ev.EVENTS.op(op, None, args)  # (a step-event observer may answer the call: a replayed step)
    if t is not None:
        return t
    arrays = _short_arrays(args, op.n_in, checks)
    if arrays is None:
        return _general(op, args, kwargs)
    return _run(op, (None, (), (), _dtypes._default.name), args, None, arrays)


def _with_attrs(op: Op, args: Sequence[Any], kwargs: dict[str, Any] | None) -> Any:
    """``apply_op`` of a call with plain scalar attributes after its tensors (``x * 2.0`` is scale(x, 2.0)) on the
    short path; any other call (keywords, missing tensors, an op with checks) through ``_general``."""
    n = op.n_in
    checks = op.checks
    if kwargs or len(args) < n or op.check_always:
        return _general(op, args, kwargs)
    attrs = args[n:]
    for a in attrs:  # plain scalar attributes need no normalising, a list of ints becomes a tuple (a shape, axes)
        if type(a) not in _PLAIN_ATTRS and not _int_list(a):
            return _general(op, args, kwargs)
    arrays = _short_arrays(args, n, checks)  # (with checks, a number in a tensor's place goes through ``_general``)
    if arrays is None or modes.static_program is not None:
        return _general(op, args, kwargs)
    # (what ``_general``'s ``_norm_attr`` makes of plain values and lists of ints)
    attr_key = tuple([exact(a) if type(a) in _PLAIN_ATTRS else tuple(a) for a in attrs])
    leaves = args[:n]
    if op.numbers:
        traced = [_traced_at(op, n + j, v, args) for j, v in enumerate(attrs)]  # (each value noted)
        if True in traced:
            if op.derived:  # (numbers computed from the others: ``_number_inputs``)
                return _general(op, args, kwargs)
            if checks is not None:  # (attributes only: on the values as given)
                _validate(op, leaves, attr_key, ())
            # a number a schedule changes every step: a weakly typed input after the tensors, as ``_number_inputs``
            # makes it (``NumberInput`` marks its place in the key), one kernel for every value
            leaves = list(leaves)
            key_attrs = list(attr_key)
            for j, a in enumerate(attrs):
                if traced[j]:
                    key_attrs[j] = _number_input(len(leaves))
                    leaves.append(a)
                    arrays.append(a)
            key = (None, tuple(key_attrs), (), _dtypes._default.name)
            t = _ev.EVENTS.op(op, key, leaves, True)  # (asked as a plain call is: a replayed step may answer it)
            if t is not None:
                return t
            return _run(op, key, leaves, None, arrays)
    if checks is not None:  # (attributes only: ``_general`` runs the others)
        _validate(op, leaves, attr_key, ())
    key = (None, attr_key, (), _dtypes._default.name)
    t = _ev.EVENTS.op(op, key, leaves, True)  # (asked as a plain call is: a replayed step may answer it)
    if t is not None:
        return t
    return _run(op, key, leaves, None, arrays)


def _int_list(a: Any) -> bool:
    """A list or tuple of Python ints (no bools): an attribute whose normal form is the tuple of them."""
    if type(a) is not list and type(a) is not tuple:
        return False
    for e in a:
        if type(e) is not int:
            return False
    return True


def _short_arrays(args: Sequence[Any], n: int, checks: Any) -> list[Any] | None:
    """The arrays of a short-path call's first ``n`` arguments, or None where ``_general`` must normalise them."""
    arrays = []
    for i in range(n):
        t = args[i]
        if type(t) is not Tensor and type(t) not in EAGER_TYPES:
            # a Python number beside a Tensor (``x * 0.5``, ``paddle.add(x, 1.0)``) is a weakly typed input, as
            # ``_general`` makes it: the short path takes it where the op has no checks to run on it
            if type(t) not in _NUMBERS or checks is not None or modes.static_program is not None:
                return None
            arrays.append(t)
            continue
        arrays.append(t._v)
    return arrays


_FLOATING = frozenset(jnp.dtype(n) for n in ("float16", "bfloat16", "float32", "float64"))


def _general(op: Op, args: Sequence[Any], kwargs: dict[str, Any] | None) -> Any:
    """Normalise a call: tensor parameters given by keyword, attributes, lists of tensors, scalars."""
    n = len(op.tensor_names)
    if kwargs:
        kwargs.pop("name", None)
        if op.aliases is not None:
            kwargs = unalias(op.aliases, kwargs)
        if len(args) < n:
            args = list(args)
            for pname in op.tensor_names[len(args):]:
                if pname in kwargs:
                    args.append(kwargs.pop(pname))
                else:
                    p = op.signature.parameters[pname]
                    if p.default is p.empty:
                        raise TypeError(f"{op.name}() is missing its required tensor argument {pname!r}; pass it.")
                    args.append(p.default)
    targs = args[:n]
    public = None
    for i, t in enumerate(targs):
        if type(t) is not Tensor and type(t) not in EAGER_TYPES:
            if public is None:
                public = TABLE.get(op.name) is op  # (a backward recorded as an op passes None for unsaved values)
            if public:
                _check_kind(op, op.tensor_names[i], t)
    attr_args = tuple([_norm_attr(a) for a in args[n:]]) if len(args) > n else ()
    given = ()  # the attributes given by keyword as the checks see them (``plain`` of their normal form)
    if kwargs:
        attr_kwargs, given = _norm_kwargs(kwargs)
    else:
        attr_kwargs = ()
    if op.checks is not None:
        _validate(op, targs, attr_args, attr_kwargs, given)
    if all(type(t) is Tensor or type(t) in EAGER_TYPES or type(t) in _NUMBERS for t in targs):
        # Tensors and Python numbers (weakly typed inputs, recorded and replayed by type) need no tree
        leaves: list[Any] = list(targs)
        treedef = None
        leaf_param: list[int] | None = None
    else:
        leaves, leaf_param = [], []
        for i, t in enumerate(targs):
            sub = jax.tree_util.tree_leaves(t, is_leaf=_is_tensor)
            leaves.extend(sub)
            leaf_param.extend([i] * len(sub))
        treedef = jax.tree_util.tree_structure(list(targs), is_leaf=_is_tensor)
    if op.numbers and modes.static_program is None:
        attr_args, attr_kwargs = _number_inputs(op, n, attr_args, attr_kwargs, leaves)
        if leaf_param is not None:  # (a number input is no tensor parameter's: past the last one)
            leaf_param.extend([n] * (len(leaves) - len(leaf_param)))
    key = (treedef, attr_args, attr_kwargs, _dtypes._default.name)
    if modes.static_program is not None and (
            any(isinstance(x, Tensor) and x._symbolic for x in leaves)
            or (modes.static_mode and not any(isinstance(x, Tensor) for x in leaves))):
        # ops on Variables, and creation ops (no tensor input) in static mode, are recorded into the program
        return modes.static_program.record_op(op, key, leaves)
    arrays = [x._v if isinstance(x, Tensor) else _scalar_leaf(x) for x in leaves]
    return _run(op, key, leaves, leaf_param, arrays)


# A number attribute (``defop(numbers=...)``) is compiled into its kernel's key while it has taken at most
# ``NUMBER_VALUES_KEPT`` values for that op (a constant slope: the kernel XLA optimises for it, no input to pass);
# past that (a schedule's value every step) the op takes it as a traced input from then on: one kernel for every
# value, so no step compiles again for a new one.
NUMBER_VALUES_KEPT = 3
_NUMBER_VALUES: dict[tuple[Op, str], set | None] = {}  # (op, attribute) -> its values so far; None: traced now


def _traced_number(op: Op, name: str, v: Any, leaves: Sequence[Any]) -> bool:
    """Whether the Python float ``v`` given to ``op``'s number attribute ``name`` goes to its kernel as an input (the
    attribute has taken more than ``NUMBER_VALUES_KEPT`` values, and the op's ``numbers_if`` lets this value, given
    the dtype of the call's first input leaf), noting the value."""
    k = (op, name)
    seen = _NUMBER_VALUES.get(k, ())
    if seen is None:
        return op.numbers_if is None or op.numbers_if(_first_dtype(leaves), name, v)
    key = exact(v)
    if key in seen:
        return False
    if len(seen) < NUMBER_VALUES_KEPT:
        if not seen:
            seen = _NUMBER_VALUES[k] = set()
        seen.add(key)
        return False
    _NUMBER_VALUES[k] = None
    return op.numbers_if is None or op.numbers_if(_first_dtype(leaves), name, v)


def _first_dtype(leaves: Sequence[Any]) -> Any:
    """The dtype of a call's first input leaf (None where it is no array: a Python number)."""
    x = leaves[0] if leaves else None
    return getattr(x._v if isinstance(x, Tensor) else x, "dtype", None) if x is not None else None


def _traced_at(op: Op, i: int, v: Any, leaves: Sequence[Any]) -> bool:
    """Whether ``v``, given for ``op``'s parameter ``i``, is a number to pass as an input (``_traced_number``)."""
    name = op.number_at.get(i)
    return name is not None and type(v) is float and _traced_number(op, name, v, leaves)


_NUMBER_INPUTS = [NumberInput(i) for i in range(16)]


def _number_input(i: int) -> NumberInput:
    """The key's mark of a number passed as input leaf ``i`` (one object per index: keys compare by identity first)."""
    return _NUMBER_INPUTS[i] if i < 16 else NumberInput(i)


def _number_inputs(op: Op, n: int, attr_args: tuple, attr_kwargs: tuple, leaves: list[Any]) -> tuple[tuple, tuple]:
    """The number attributes of ``op`` to pass as inputs (``_traced_number``), moved from the key to the end of
    ``leaves`` (a ``NumberInput`` marks each place): weakly typed inputs, as ``x * 0.5``'s number is. With one, the
    op's ``derived`` numbers join them, computed here from the call's arguments."""
    m = len(leaves)
    args = attr_args
    at = op.number_at
    for j, v in enumerate(attr_args):
        if n + j not in at:
            continue
        f = plain(v)  # (a whole float is wrapped in the key: ``exact_key``)
        if _traced_at(op, n + j, f, leaves):
            if args is attr_args:
                args = list(attr_args)
            args[j] = _number_input(len(leaves))
            leaves.append(f)
    kw = attr_kwargs
    numbers = op.numbers
    for j, (k, v) in enumerate(attr_kwargs):
        if k in numbers:
            f = plain(v)
            if type(f) is float and _traced_number(op, k, f, leaves):
                if kw is attr_kwargs:
                    kw = list(attr_kwargs)
                kw[j] = (k, _number_input(len(leaves)))
                leaves.append(f)
    if len(leaves) == m:  # (the common call: every number compiled in, the key's attributes as they came)
        return attr_args, attr_kwargs
    if kw is attr_kwargs:
        kw = list(attr_kwargs)
    if op.derived:
        arguments = op.bind((None,) * n + tuple(plain(attr_args)), plain(attr_kwargs))
        dtype = _first_dtype(leaves)
        for k, derive in op.derived.items():
            kw.append((k, _number_input(len(leaves))))
            leaves.append(float(derive(arguments, dtype)))
    return tuple(args), tuple(kw)


_LIST_DATA_OPS = frozenset({"assign", "getitem_at", "setitem_at"})  # ops whose tensor argument may be (nested) lists of numbers
_KINDS = (Tensor, int, float, bool, complex, np.ndarray, np.generic, jax.Array, _Tracer)


def _check_kind(op: Op, pname: str, v: Any) -> None:
    """A tensor parameter takes Tensors, numbers, arrays, lists of Tensors, or None where that is its default
    (Paddle's rule; its error is a ValueError, a TypeError for the ops in KIND_TYPE_ERROR)."""
    if isinstance(v, _KINDS):
        return
    if isinstance(v, list | tuple):
        if op.name in _LIST_DATA_OPS:
            return
        for e in v:
            if isinstance(e, list | tuple):
                _check_kind(op, pname, e)
            elif not isinstance(e, Tensor | np.ndarray | jax.Array | _Tracer):
                raise (TypeError if op.name in KIND_TYPE_ERROR else ValueError)(
                    f"{op.name}: the argument {pname!r} must be a Tensor (or a list of Tensors), but received a "
                    f"{type(v).__name__} holding {type(e).__name__} ({e!r}). Convert it with paddle.to_tensor first."
                )
        return
    if v is None:
        p = op.signature.parameters.get(pname)
        if p is not None and p.default is None:
            return
    raise (TypeError if op.name in KIND_TYPE_ERROR else ValueError)(
        f"{op.name}: the argument {pname!r} must be a Tensor (or a number), but received {type(v).__name__} "
        f"({v!r}). Convert it with paddle.to_tensor first."
    )


def _norm_kwargs(kwargs: dict[str, Any]) -> tuple[tuple, tuple]:
    """The keyword attributes of a call in their normal form (``_norm_attr``: the kernel key's) and as the checks see
    them (``plain`` of that), in one pass: a number, string or None is its own plain form."""
    key, given = [], []
    for k, v in kwargs.items():
        t = type(v)
        if v is None or t is int or t is str:
            key.append((k, v))
            given.append((k, v))
        elif t is float or t is bool:
            key.append((k, exact(v)))
            given.append((k, v))
        else:
            nv = _norm_attr(v)
            key.append((k, nv))
            given.append((k, plain(nv)))
    return tuple(key), tuple(given)


def _validate(op: Op, targs: Sequence[Any], attr_args: tuple, attr_kwargs: tuple, given: tuple | None = None) -> None:
    """Run the op's argument checks at the call, then the checks on input values (at once where the values
    are concrete; recorded beside the op where they are deferred, raised when the buffer runs). ``given``: the
    keyword attributes' plain form, where the caller has it."""
    try:
        arguments = op.bind((*targs, *plain(attr_args)) if attr_args else targs,
                            plain(attr_kwargs) if given is None else given)
    except TypeError as e:
        raise TypeError(f"{op.name}: {e}. Check the arguments against the function's parameters.") from None
    for c in op.checks(op.name, arguments) or ():
        if c is not None:
            _value_check(c)


def _caller() -> str:
    """``file:line`` of the user code that called into the package."""
    f = sys._getframe(1)
    while f is not None and f.f_code.co_filename.startswith(_PKG_DIR):
        f = f.f_back
    return "<unknown>" if f is None else f"{f.f_code.co_filename}:{f.f_lineno}"


_PKG_DIR = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))  # the pylayer_jax package


def check_value(c: Any) -> None:
    """Apply the ``checks.ValueCheck`` ``c`` to a tensor given outside an op's call (a Layer's argument), as an op's
    own value checks are applied: concrete values at once (a constant passed before is not read again), deferred
    ones by a kernel whose answer raises when their buffer runs, traced or static ones not at all."""
    _value_check(c)


def _value_check(c: Any) -> None:
    v = c.value
    a = v._v if isinstance(v, Tensor) else v
    if isinstance(a, _Tracer) or (isinstance(v, Tensor) and v._symbolic):
        return  # traced or static: no values to check
    if type(a) is Pending and a.array is None:
        kernel = check_kernel(c.key)
        where = _caller()

        def fail(r: Any, c: Any = c, where: str = where) -> None:
            if bool(r[0]):
                raise c.exc(f"{c.message.format(value=r[1].item())} (called at {where})")

        lazy.add_check(lazy.call(kernel, [a]), fail)
        return
    if type(a) is Pending:
        a = a.array
    if type(a) is _ArrayImpl:  # (immutable: an array that passed a rule passes it again, a constant label each step)
        k = (c.key, id(a))
        try:
            ref = _PASSED.get(k)
        except TypeError:  # (a rule whose bounds are not hashable: checked every time)
            ref = k = None
        if ref is not None and ref() is a:
            return
        bad, val = first_bad_now(c.key, a)
        if bool(bad):
            raise c.exc(c.message.format(value=val.item()))
        if k is not None:
            if len(_PASSED) >= _MAX_PASSED:
                _PASSED.clear()
            _PASSED[k] = weakref.ref(a)
        return
    bad, val = first_bad_now(c.key, a if not isinstance(a, list | tuple) else np.asarray(a))
    if bool(bad):
        raise c.exc(c.message.format(value=val.item()))


def _out_check(op: Op, key: tuple, arrays: Sequence[Any], out: Any) -> None:
    """Check the results of an eager call against the op's ``out_checks`` rule: at once where they are concrete,
    else by a kernel recorded beside the op whose answer raises when the buffer runs."""
    args = op.bind((*arrays[:op.n_in], *plain(key[1])), plain(key[2])) if key[0] is None else {}
    c = op.out_checks(args)
    if c is None:
        return
    leaves = [*arrays[:op.n_in], *(out if isinstance(out, tuple | list) else (out,))]
    if not all(hasattr(a, "shape") for a in leaves):  # (a Python number in a tensor's place: not a matrix)
        return
    avals = [(tuple(a.shape), a.dtype) for a in leaves]
    for a in leaves:
        if type(a) is Pending and a.array is None:
            where = _caller()
            lazy.add_check(lazy.call(c.kernel, leaves), lambda r, c=c, avals=avals, where=where: c.fail(r, avals, where))
            return
    c.fail(c.now([lazy.concrete(a) for a in leaves]), avals)


# (rule, id(array)) -> the array, weakly: concrete arrays that passed a value check (a label Tensor reused every step
# is checked once, not copied to the host and scanned at each call)
_PASSED: dict[tuple, Any] = {}
_MAX_PASSED = 1024


def _jax_error(e: BaseException) -> bool:
    """An exception raised inside JAX (shape rules), not by the package's own checks."""
    tb = e.__traceback__
    last = None
    while tb is not None:
        last = tb
        tb = tb.tb_next
    return last is not None and f"{os.sep}jax{os.sep}" in last.tb_frame.f_code.co_filename


def _shape_error(op: Op, leaves: Sequence[Any], e: BaseException) -> ValueError:
    shapes = ", ".join(str(list(x.shape)) if hasattr(x, "shape") else repr(x) for x in leaves)
    return ValueError(f"{op.name}: the inputs (shapes {shapes}) do not fit the op's rules: {e}")


def _run(op: Op, key: tuple, leaves: Sequence[Any], leaf_param: list[int] | None, arrays: list[Any]) -> Any:
    try:
        return _run_op(op, key, leaves, leaf_param, arrays)
    except (TypeError, ValueError) as e:
        if _jax_error(e):  # JAX's shape rules raise TypeError or ValueError: Paddle's is ValueError
            raise _shape_error(op, leaves, e) from None
        raise


def _run_op(op: Op, key: tuple, leaves: Sequence[Any], leaf_param: list[int] | None, arrays: list[Any]) -> Any:
    """Call the kernel (or the op inline on tracers), record a node if a gradient is needed, wrap."""
    traced = pending = trains = False
    for a in arrays:
        ta = type(a)
        if ta is _ArrayImpl:
            continue
        if ta is Pending:
            pending = True
        elif isinstance(a, _Tracer):
            traced = True
            break
    cap = modes.capture
    if cap is not None:  # inside a to_static trace: Tensors from outside become inputs of the compiled function
        arrays = cap.read(leaves, arrays)
        traced = True
    for x in leaves:  # some input is a tensor that trains: recorded, and a node if grad mode is on
        if isinstance(x, Tensor) and not x.stop_gradient:
            trains = True
            break
    noted = None
    if trains and not traced and modes.grad_enabled and op.differentiable:  # an op event
        ev = _ev.EVENTS
        t = ev.op(op, key, leaves)
        if t is not None:
            return t
        noted = ev.op_begin()
    elif not traced and (pending or trains or not lazy.idle()):  # a plain op event: a recorded call, no node
        t = _ev.EVENTS.plain_op(op, key, leaves)
        if t is not None:
            if type(t) is not _ev.Noted:
                return t
            noted = t.token
    if traced:
        arrays = [lazy.concrete(a) for a in arrays]
        out = op.call(key[0], key[1], key[2], arrays)
    else:
        kernel = op.forward_kernel(key)
        if pending or trains or not lazy.idle():
            out = lazy.call(kernel, arrays)
        else:  # constants with nothing pending: run at once, as cheap as a plain jitted call
            out = kernel(*arrays)
        if op.out_checks is not None:  # (a few linalg ops: a singular matrix shows in the results)
            _out_check(op, key, arrays, out)

    needs: tuple[bool, ...] | None = None
    if trains and (not traced or modes.trace_tape) and modes.grad_enabled and op.differentiable:
        needs = _needs(op, leaves, leaf_param)

    if type(out) is not tuple and type(out) is not list:
        if needs is None:
            if noted is not None:
                _ev.EVENTS.op_end(noted, op, key, leaves, leaf_param, arrays, needs, out, None)
            return Tensor(out)
        node = make_node(op, key, leaves, leaf_param, arrays, needs, [out])
        if noted is not None:
            _ev.EVENTS.op_end(noted, op, key, leaves, leaf_param, arrays, needs, out, node)
        return Tensor(out, False, (node, 0))
    out_leaves, out_tree = jax.tree_util.tree_flatten(out)
    if needs is None:
        if noted is not None:
            _ev.EVENTS.op_end(noted, op, key, leaves, leaf_param, arrays, needs, out, None)
        return jax.tree_util.tree_unflatten(out_tree, [Tensor(o) for o in out_leaves])
    node = make_node(op, key, leaves, leaf_param, arrays, needs, out_leaves)
    if noted is not None:
        _ev.EVENTS.op_end(noted, op, key, leaves, leaf_param, arrays, needs, out, node)
    wrapped = [Tensor(o, False, (node, j)) for j, o in enumerate(out_leaves)]
    return jax.tree_util.tree_unflatten(out_tree, wrapped)


def _needs(op: Op, leaves: Sequence[Any], leaf_param: list[int] | None) -> tuple[bool, ...] | None:
    if leaf_param is None and not op.nondiff:
        needs = tuple([isinstance(x, Tensor) and not x.stop_gradient for x in leaves])
    else:
        nondiff = op.nondiff
        names = op.tensor_names
        needs = tuple(
            isinstance(x, Tensor)
            and not x.stop_gradient
            and not (nondiff and names[i if leaf_param is None else leaf_param[i]] in nondiff)
            for i, x in enumerate(leaves)
        )
    return needs if True in needs else None


def make_node(op: Op, key: tuple, leaves: Sequence[Any], leaf_param: list[int] | None, arrays: Sequence[Any],
               needs: tuple[bool, ...], outs: list[Any], grad_edges: Sequence[Any] | None = None) -> OpNode:
    """The tape node of an op call. A replayed call built later passes ``grad_edges``: its inputs'
    ``grad_edge()`` at the call (a stop_gradient may have changed since)."""
    mask = op.save_mask
    hooks = current_saved_hooks()
    saved: list[Any] = []
    avals: list[Any] = []
    edges: list[Any] = []
    for i, x in enumerate(leaves):
        a = arrays[i]
        if not isinstance(x, Tensor):
            saved.append(a)
            avals.append(None)
            edges.append(None)
            continue
        ge = x.grad_edge() if grad_edges is None else grad_edges[i]
        edges.append(ge if needs[i] else None)
        if mask[i if leaf_param is None else leaf_param[i]]:
            saved.append(_save(a, ge, x._version_counter(), hooks))
            avals.append(None)
        else:
            saved.append(None)
            avals.append((a.shape, a.dtype))
    node = OpNode(op, key, saved, None, tuple(avals), needs, edges, [(o.shape, o.dtype) for o in outs])
    if op.saves_out:
        # outputs have no version of their own: without hooks the bare arrays are the saved values
        # (hooks pack only the outputs ``saves`` names; the others are not kept)
        if hooks is None:
            node.saved_outs = outs
        elif op.out_saves is None:
            node.saved_outs = [_save(o, (node, j), None, hooks) for j, o in enumerate(outs)]
        else:  # packed in the order ``saves`` names them
            node.saved_outs = [None] * len(outs)
            for j in op.out_saves:
                node.saved_outs[j] = _save(outs[j], (node, j), None, hooks)
    return node


def _save(arr: Any, edge: Edge | None, counter: VersionCounter | None, hooks: Any) -> SavedValue:
    sv = SavedValue(arr, edge, counter)
    if hooks is not None:
        pack, unpack = hooks
        with grad_mode(False):
            sv.packed = pack(Tensor(arr, edge is None, edge))
        sv.unpack = _unpacker(unpack, arr.shape, arr.dtype, edge)
        sv.array = None
    return sv


def _unpacker(unpack: Callable[[Any], Any], shape: Any, dtype: Any, edge: Edge | None) -> Callable[[Any], Any]:
    def run(packed: Any) -> tuple[Any, Edge | None]:
        r = call_hook(unpack, packed, "unpack_hook", False)
        return check_unpacked(r, shape, dtype, unpack), edge

    return run
