"""A known step on a new batch size (or sequence length), run padded to a bucket size (layer L3).

A step whose batch size never repeats would compile a program per size (``_exec.deferred``: a known step on new
shapes). When its calls only meet the batch in ways the op table declares (``_ops.rows``), it runs instead on its
inputs padded to a bucket size (``bucket_of``: a power of two, at least ``MIN_BUCKET``; for a step whose padded rows
are cheap, ``SMALL_BUCKET`` rows growing fourfold), by one program per bucket that takes the true batch size ``n`` as
an input: every batch size of a bucket shares it, and a bucket compiled for the step serves smaller new sizes too
(``_choose``), so a loop over batch sizes compiles a handful of programs in all. A padded step whose size repeats
becomes its own program at its third sighting (``_exec.deferred``). What a step's rows are and the padded program's
key are worked out once per step structure and bucket (``_PLANS``): a later step that differs only in its batch size
pads its inputs and runs that program.

Which values carry the batch: the step's signature is compared with the first signature of its family (the same
step on its first batch size). A value (an input or a call's result) whose shape differs only in its first
dimension, ``n`` here and ``n0`` there, has the batch as its axis 0; one whose shape is the same has none; any
other difference (two axes that change, twice the batch) and the step runs as before. The changing size may be
another axis (a sequence length: token ids ``[16, T]``, their embeddings ``[16, T, 32]``), one per value, wherever
the shapes put it; a call where a value has it elsewhere than first follows the op's ``axes`` declaration instead
of its ``rows`` (``_ops.rows``), and padding, masks and the host's cut work along that axis. Then each call that
meets the batch must be one whose rows are known:

- an op's kernel whose ``rows`` declaration accepts the call (``MAP``/``KEEP``: padded rows flow harmlessly and
  are cut off; ``Reduce``/``Loss``: the op reduces the true rows only, see ``_ops.rows.masked``);
- a fused backward (``fused_backward._replay``) whose every node meeting the batch is such an op: it runs with the
  masked ops in place, so the padded rows' cotangents are zero and add nothing to a weight's gradient;
- a gradient sum, or a value check (a label in range: its answer is the same on padded rows, copies of a true row);
- calls that do not meet the batch (the optimizer's update) run as they are.

Padded rows are copies of the last true row (so they hold valid labels and finite values wherever the true rows
do); results with the batch axis that are still referenced are cut to ``n`` rows on the host (no program per ``n``),
gradients of parameters have no batch axis. A step that declines (an op without ``rows``, BatchNorm's statistics,
a reshape of the batch axis, indexing a batch by data) runs as before: compiled for its shapes. Values equal those of the
unpadded step up to the order of floating-point sums. ``PYLAYER_JAX_BUCKETS=0`` turns it off.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from typing import Any

import jax
import numpy as np

from .._exec import deferred as lazy
from .._ops import rows as _rows
from .._ops.checks import _first_bad
from .._ops.table import Op, tensor_leaves
from .._runtime.exact_key import plain
from .._runtime.kernel_cache import SHAPED, BoundedDict, KernelCache, family, traced_new_shapes
from . import fused_backward

MIN_BUCKET = 8
# a step whose values with the batch axis hold at most PAD_BYTES at a bucket's rows pads cheaply: its buckets start at
# SMALL_BUCKET rows and grow fourfold (64, 256, 1024 ...) while they stay that small; a compile (~50-100 ms) costs
# more than the compute of those padded rows. Beyond, buckets are the next power of two (at least MIN_BUCKET).
SMALL_BUCKET = 64
PAD_BYTES = 256 * 1024
# runs of a bucket program, bucket programs compiled, steps declined (run unpadded), runs whose rows were told
# apart before (``_PLANS``)
STATS = {"runs": 0, "compiled": 0, "declined": 0, "reused": 0}
_PROGRAMS = KernelCache(SHAPED)  # bucket programs by their key (``_DECLINED``: the key's program cannot be made)
_REF_SLOTS = BoundedDict(256)  # a family's first signature -> the avals of its results
_SIZES = BoundedDict(256)  # a family's first signature -> the bucket sizes compiled for it (a hint: see ``_choose``)
# (a step's signature with its batch size erased (``_erased``), its live results, its family's first signature) ->
# (which inputs have the batch, which results have it, bytes per batch row, {bucket size: the padded program's key}):
# a padded step planned before on another batch size reuses its plan and only pads its inputs
_PLANS = BoundedDict(256)


class _Declined:
    """What ``_PROGRAMS`` holds for a key whose padded program could not be made (its results had other shapes)."""

    def _cache_size(self) -> int:
        return 0

    def clear_cache(self) -> None:
        pass


_DECLINED = _Declined()


def bucket_of(n: int, row_bytes: int | None = None) -> int:
    """The bucket size of a batch of ``n`` rows whose values with the batch axis hold ``row_bytes`` per row (None:
    not known): ``SMALL_BUCKET`` times a power of four while that many rows hold at most ``PAD_BYTES``, else the
    next power of two, at least ``MIN_BUCKET``."""
    size = max(MIN_BUCKET, 1 << (n - 1).bit_length())
    if row_bytes is not None:
        small = SMALL_BUCKET
        while small < size:
            small *= 4
        if small * row_bytes <= PAD_BYTES:
            return small
    return size


def _choose(ref: tuple, n: int, row_bytes: int) -> int:
    """The bucket of a batch of ``n`` rows of the step whose family's first signature is ``ref``: ``bucket_of``'s,
    or a bucket compiled for the step before that serves it (at least ``n`` rows, at most twice ``bucket_of``'s or
    ``PAD_BYTES`` in all), the smallest such: a batch size never seen runs without a new compile when one does."""
    size = bucket_of(n, row_bytes)
    most = max(2 * size, PAD_BYTES // max(row_bytes, 1))
    for s in _SIZES.get(ref) or ():
        if n <= s <= most:
            return s
    return size


class _NotRows(Exception):
    """The step's rows cannot be told apart: it runs unpadded."""


def _diff(a: Any, r: Any, n: int, n0: int) -> int | None:
    """The axis of a value of signature ``a`` (here) and ``r`` (the family's first step) that is the changing one
    (``n`` here, ``n0`` there; every other dimension the same), None where it has none."""
    if a == r:
        return None
    if type(a) is not tuple or type(r) is not tuple or a[1:] != r[1:]:
        raise _NotRows
    sa, sr = a[0], r[0]
    if len(sa) != len(sr) or not sa:
        raise _NotRows
    if sa[1:] == sr[1:]:  # (the common case: the batch)
        if sa[0] != n or sr[0] != n0:
            raise _NotRows
        return 0
    axis = None
    for i, (x, y) in enumerate(zip(sa, sr)):
        if x != y:
            if axis is not None or x != n or y != n0:
                raise _NotRows  # two axes change, or one by another amount (twice the batch)
            axis = i
    return axis


def _has(flags: Sequence[int | None]) -> bool:
    """Whether any value of ``flags`` (each a value's changing axis, or None) has the changing axis."""
    for b in flags:
        if b is not None:
            return True
    return False


def _all(flags: Sequence[int | None]) -> bool:
    """Whether every value of ``flags`` has the changing axis."""
    for b in flags:
        if b is None:
            return False
    return True


def _padded(a: Any, b: int | None, size: int) -> Any:
    """The signature ``a`` with its changing axis ``b`` (None: none) at ``size``."""
    if b is None or type(a) is not tuple:
        return a
    shape = list(a[0])
    shape[b] = size
    return (tuple(shape), *a[1:])


def _rank(a: Any) -> int:
    return len(a[0]) if type(a) is tuple else 0


def _op_plan(op: Op, key: tuple, in_b: Sequence[int | None], in_av: Sequence[Any], out_b: Sequence[int | None],
             out_av: Sequence[Any]) -> Any:
    """The op's ``rows`` plan for a call whose inputs and outputs have the batch where ``in_b``/``out_b`` say (each
    value's changing axis, or None; ``_axis_plan`` where one is not the leading axis); raises ``_NotRows`` when the op
    does not declare one that fits."""
    for b in (*in_b, *out_b):
        if b:  # (an axis other than 0)
            return _axis_plan(op, key, in_b, in_av, out_b, out_av)
    treedef = key[0]
    rows = op.rows
    n_t = tensor_leaves(len(in_av), key[1], key[2]) if op.numbers else len(in_av)  # (then its number inputs)
    if rows is None or (treedef is None and n_t > op.n_in) or _has(in_b[n_t:]):
        raise _NotRows
    if rows == _rows.MAP:
        plan = rows
    else:
        try:
            args = _rank_args(op, key, in_av)
        except (TypeError, ValueError):
            raise _NotRows from None
        plan = rows(args)
    if treedef is not None and type(plan) is not str:
        raise _NotRows  # (a list of tensors: its rows map or are kept, never masked)
    if plan == _rows.INDEX:  # rows picked by the index tensors, from a first input without the batch
        if in_b[0] is not None or not _has(in_b[1:]) or not _all(out_b):
            raise _NotRows
        return _rows.KEEP
    if plan == _rows.MAP or plan == _rows.KEEP:
        if not _all(out_b):
            raise _NotRows
        if plan == _rows.MAP:
            ranks = {_rank(a) for a in out_av}
            if len(ranks) != 1 or any(b is not None and _rank(a) not in ranks for a, b in zip(in_av, in_b)):
                raise _NotRows  # a batch input of another rank: broadcasting would not align its rows
        return plan
    return _reduced(op, plan, out_b)


def _reduced(op: Op, plan: Any, out_b: Sequence[int | None]) -> Any:
    """A ``Reduce`` or ``Loss`` plan whose outputs fit it (no reduced output keeps the changing axis; a loss's saved
    output would be the masked one), else ``_NotRows``."""
    if type(plan) is _rows.Reduce and not _has(out_b):
        return plan
    if type(plan) is _rows.Loss and out_b[0] is None and not (
            "out" in op.saves or (op.out_saves is not None and 0 in op.out_saves)):
        return plan
    raise _NotRows


def _axis_plan(op: Op, key: tuple, in_b: Sequence[int | None], in_av: Sequence[Any], out_b: Sequence[int | None],
               out_av: Sequence[Any]) -> Any:
    """The op's ``axes`` plan for a call where a value has the changing axis elsewhere than first (a sequence
    length), as ``_op_plan``."""
    decl = op.axes
    n_t = tensor_leaves(len(in_av), key[1], key[2]) if op.numbers else len(in_av)
    treedef = key[0]
    if decl is None or (treedef is None and n_t > op.n_in) or _has(in_b[n_t:]):
        raise _NotRows
    if decl == _rows.POINTWISE:
        if not _all(out_b):
            raise _NotRows
        # the axis at the same place from the right in each value that has it: broadcasting aligns it
        places = {_rank(a) - b for a, b in zip((*in_av, *out_av), (*in_b, *out_b)) if b is not None}
        if len(places) != 1:
            raise _NotRows
        return _rows.MAP
    try:
        args = _rank_args(op, key, in_av)
    except (TypeError, ValueError):
        raise _NotRows from None
    flags = list(in_b[:n_t])
    if treedef is not None:  # (absent tensors given as None; a list of tensors is not followed along another axis)
        flags = jax.tree_util.tree_unflatten(treedef, flags)
        if any(isinstance(f, list | tuple) and _has(f) for f in flags):
            raise _NotRows
        flags = [None if isinstance(f, list | tuple) else f for f in flags]
    plan = decl(args, dict(zip(op.tensor_names, flags)))
    if plan == _rows.MAP:
        if not _all(out_b):
            raise _NotRows
        return plan
    if plan is None:
        raise _NotRows
    if type(plan) is _rows.Along:  # (a softmax along the axis: floating, every output keeps the axis where it was)
        if (not _all(out_b) or any(b != plan[2] for b in (*in_b[:1], *out_b))
                or not np.issubdtype(in_av[0][1], np.inexact)):
            raise _NotRows
        return plan
    return _reduced(op, plan, out_b)


def _rank_args(op: Op, key: tuple, in_av: Sequence[Any]) -> dict:
    """The call's arguments by parameter name, each tensor given as its rank (a list of tensors as a list)."""
    ranks = [None if a is None else _rank(a) for a in in_av]
    if op.numbers:  # (the rule sees a number input's marker, not its value)
        ranks = ranks[:tensor_leaves(len(ranks), key[1], key[2])]
    if key[0] is not None:
        ranks = jax.tree_util.tree_unflatten(key[0], ranks)
    return op.bind((*ranks, *plain(key[1])), plain(key[2]))


def _op_of(fn: Any) -> tuple[Op, tuple] | None:
    """(op, kernel key) of an op's forward kernel (``Op.forward_kernel``), else None."""
    p = getattr(fn, "__wrapped__", None)
    f = getattr(p, "func", None)
    if type(getattr(f, "__self__", None)) is Op and f.__func__ is Op._call_flat:
        return f.__self__, p.args
    return None


def _flat_layout(sig: tuple) -> list[tuple[list[int], list[int | None], list[int]]]:
    """Per node of a fused backward's signature: the positions in its flat arguments of the incoming gradients,
    of the saved inputs (None where not given) and of the saved outputs (as ``fused_backward._replay`` reads them)."""
    pos = 0
    out = []
    for head, cm, mask in sig:
        n_out = len(head[2]) if head[0] == "acc" else len(head[1][4])
        cts = []
        for j in range(n_out):
            if cm >> j & 1:
                cts.append(pos)
                pos += 1
        if head[0] == "acc":
            out.append((cts, [pos] if mask else [], []))
            pos += 1 if mask else 0
            continue
        op_static = head[1]
        leaves: list[int | None] = []
        for i in range(len(op_static[2])):
            if mask >> i & 1:
                leaves.append(pos)
                pos += 1
            else:
                leaves.append(None)
        outs = []
        if op_static[0].saves_out:
            outs = list(range(pos, pos + n_out))
            pos += n_out
        out.append((cts, leaves, outs))
    return out


def _backward_plan(args: tuple, ref_args: tuple, in_b: Sequence[int | None], in_av: Sequence[Any], n: int, n0: int,
                   size: int) -> tuple:
    """A fused backward's call in the padded program: its signature with padded avals, and its nodes whose op runs
    masked."""
    sig, seeds, captures, n_ext = args
    rsig = ref_args[0]
    if len(rsig) != len(sig):
        raise _NotRows
    new_sig = []
    masked = []
    for k, ((head, cm, mask), (rhead, _, _), (_, leaves, _)) in enumerate(zip(sig, rsig, _flat_layout(sig))):
        if head[0] == "acc":
            bs = [_diff(a, r, n, n0) for a, r in zip(head[2], rhead[2])]
            new_sig.append(((head[0], head[1], tuple(_padded(a, b, size) for a, b in zip(head[2], bs))), cm, mask))
            if any(bs[j] is not None for kk, j in seeds if kk == k):
                raise _NotRows  # a root of ones with the batch axis: the padded rows would get gradients
            continue
        op, key, avals, needs, out_avals = head[1]
        _, (_, _, ravals, _, rout) = rhead[0], rhead[1]
        ab = [None if a is None else _diff(a, r, n, n0) for a, r in zip(avals, ravals)]
        ob = [_diff(a, r, n, n0) for a, r in zip(out_avals, rout)]
        lb = [in_b[p] if p is not None else b for p, b in zip(leaves, ab)]
        lav = [in_av[p] if p is not None else a for p, a in zip(leaves, avals)]
        if any(ob[j] is not None for kk, j in seeds if kk == k):
            raise _NotRows
        if _has(lb) or _has(ob):
            plan = _op_plan(op, key, lb, lav, ob, out_avals)
            if type(plan) is not str:
                masked.append((k, plan, tuple(_padded(a, b, size) for a, b in zip(lav, lb))))
        static = (op, key, tuple(None if a is None else _padded(a, b, size) for a, b in zip(avals, ab)), needs,
                  tuple(_padded(a, b, size) for a, b in zip(out_avals, ob)))
        new_sig.append((("op", static, head[2], head[3]), cm, mask))
    return ("bwd", tuple(new_sig), seeds, captures, n_ext, tuple(masked))


def _rows_of(key: tuple, ref: tuple) -> tuple | None:
    """(n, n0, which inputs and which results have the batch, the results' avals) of the step of signature ``key``
    against ``ref`` (the first signature of its family), or None; raises ``_NotRows`` when its rows mix."""
    calls, live, avals = key
    rcalls, rlive, ravals = ref
    if len(calls) != len(rcalls) or len(avals) != len(ravals):
        return None
    n, n0 = _sizes(avals, ravals)
    if not n or not n0:
        return None
    ext_b = [_diff(a, r, n, n0) for a, r in zip(avals, ravals)]
    if any(b is not None and a[2] for a, b in zip(avals, ext_b)):
        return None  # a weakly typed batch input: a padded numpy copy would not be weak
    slots = lazy.slot_avals(calls, avals)
    rslots = _REF_SLOTS.get(ref)
    if rslots is None:
        rslots = lazy.slot_avals(rcalls, ravals)
        _REF_SLOTS.put(ref, rslots)
    if slots is None or rslots is None or len(slots) != len(rslots):
        return None
    slot_b = [_diff(a, r, n, n0) for a, r in zip(slots, rslots)]
    if any(slot_b[i] is not None and slots[i][2] for i in live):
        return None  # a weakly typed result to cut on the host: its copy would not be weak
    return n, n0, ext_b, slots, slot_b


def _row_bytes(avals: Sequence[Any], flags: Sequence[int | None]) -> int:
    """Bytes per batch row (per position of the changing axis) of the values that have the changing axis."""
    total = 0
    for a, b in zip(avals, flags):
        if b is not None:
            total += int(np.prod(a[0][:b] + a[0][b + 1:], dtype=np.int64)) * np.dtype(a[1]).itemsize
    return total


def _plan(key: tuple, ref: tuple, rows: tuple, size: int) -> tuple:
    """The padded program's key of the step ``key`` (``rows``: what ``_rows_of`` told of it) at bucket ``size``."""
    calls, live, avals = key
    rcalls = ref[0]
    n, n0, ext_b, slots, slot_b = rows
    descs: list[tuple] = []
    base = 0
    for (fn, tree, refs, nout), rcall in zip(calls, rcalls):
        in_b = [slot_b[r] if r >= 0 else ext_b[-1 - r] for r in refs]
        in_av = [slots[r] if r >= 0 else avals[-1 - r] for r in refs]
        out_b = slot_b[base:base + nout]
        out_av = slots[base:base + nout]
        base += nout
        if not _has(in_b):
            if _has(out_b):
                raise _NotRows  # made with the batch from nothing that has it (ones of a batch shape)
            descs.append(("plain", fn, tree))
            continue
        known = _op_of(fn)
        if known is not None:
            op, okey = known
            plan = _op_plan(op, okey, in_b, in_av, out_b, out_av)
            if type(plan) is str:
                descs.append(("plain", fn, tree))
            else:
                descs.append(("masked", op, okey, plan, tuple(_padded(a, b, size) for a, b in zip(in_av, in_b))))
            continue
        w = getattr(fn, "__wrapped__", None)
        f = getattr(w, "func", None)
        if f is fused_backward._replay and tree is None:
            rw = getattr(rcall[0], "__wrapped__", None)
            if getattr(rw, "func", None) is not fused_backward._replay:
                raise _NotRows
            descs.append(_backward_plan(w.args, rw.args, in_b, in_av, n, n0, size))
        elif fn is fused_backward._add_kernel and _all(in_b) and _all(out_b) and len({*in_b, *out_b}) == 1:
            descs.append(("plain", fn, tree))
        elif f is _first_bad and not _has(out_b):  # any bad value / the first one: the same on copied rows
            descs.append(("plain", fn, tree))
        else:
            raise _NotRows
    padded = tuple(_padded(a, b, size) for a, b in zip(avals, ext_b))
    return (tuple(descs), live, padded, tuple(slot_b))


def _trace(descs: tuple, calls_refs: tuple, live: tuple, expect: tuple, n: Any, *ext: Any) -> list[Any]:
    """The padded step: the recorded calls with the masked ops in place, traced once per bucket size."""
    slots: list[Any] = []
    for d, (refs, nout) in zip(descs, calls_refs):
        args = [slots[r] if r >= 0 else ext[-1 - r] for r in refs]
        kind = d[0]
        if kind == "plain":
            out = lazy.invoke(d[1], d[2], args)
        elif kind == "masked":
            _, op, okey, plan, in_av = d
            mop = _rows.masked(op, plan, n, in_av, plain(okey[1]), plain(okey[2]))
            out = mop.call(okey[0], okey[1], okey[2], args)
        else:
            _, sig, seeds, captures, n_ext, masked = d
            sig = list(sig)
            for k, plan, in_av in masked:
                head, cm, mask = sig[k]
                op, key, avals, needs, out_avals = head[1]
                mop = _rows.masked(op, plan, n, in_av, plain(key[1]), plain(key[2]))
                sig[k] = (("op", (mop, key, avals, needs, out_avals), head[2], head[3]), cm, mask)
            out = fused_backward._replay(tuple(sig), seeds, captures, n_ext, *args)
        leaves = lazy.out_leaves(out)
        if len(leaves) != nout:
            raise _NotRows
        slots.extend(leaves)
    for v, e in zip(slots, expect):  # every result as the plan expects it (padded where it has the batch)
        if (tuple(v.shape), v.dtype) != (e[0], e[1]):
            raise _NotRows
    return [slots[i] for i in live]


def _sizes(avals: Sequence[Any], ravals: Sequence[Any]) -> tuple[int | None, int | None]:
    """The changing size of a step whose inputs have the signatures ``avals`` against its family's first step's
    ``ravals``, here and there: the first dimension that differs, of the first input of the same rank whose shape
    differs; (None, None) where none does."""
    if len(avals) != len(ravals):
        return None, None
    for a, r in zip(avals, ravals):
        if a != r and type(a) is tuple and type(r) is tuple and a[0] and len(a[0]) == len(r[0]):
            for x, y in zip(a[0], r[0]):
                if x != y:
                    return x, y
    return None, None


def _first(flags: Sequence[int | None]) -> int:
    """The position of the first value that has the changing axis."""
    for i, b in enumerate(flags):
        if b is not None:
            return i
    raise _NotRows


_SAME: dict[tuple, frozenset] = {}  # parts of signatures -> the dimensions of the shapes in them (bounded)


def _leads(x: Any) -> frozenset:
    """The dimensions of the ``(shape, dtype, ...)`` in ``x``."""
    if type(x) is not tuple:
        return frozenset()
    if len(x) >= 2 and type(x[0]) is tuple and isinstance(x[1], np.dtype):
        return frozenset(x[0])
    return frozenset().union(*[_leads(e) for e in x])


def _erase(x: Any, n: int) -> Any:
    """``x`` (a part of a step's signature) with every dimension ``n`` of each ``(shape, dtype, ...)`` written as -1.
    Two steps whose signatures so erased (each at its own ``n``) are equal differ only in the size of the values
    that have the changing size: the rows of one are told apart as the other's, and they pad to the same program
    (``run`` checks that the padded inputs are the program's: a dimension that equals ``n`` by chance is erased too).
    (A part seen before without ``n`` is not walked again.)"""
    if type(x) is not tuple:
        return x
    if len(x) >= 2 and type(x[0]) is tuple and isinstance(x[1], np.dtype):
        return (tuple([-1 if d == n else d for d in x[0]]), *x[1:]) if n in x[0] else x
    leads = _SAME.get(x)
    if leads is not None and n not in leads:
        return x
    out = tuple([_erase(e, n) for e in x])
    if out != x:
        return out
    if len(_SAME) >= 4096:
        _SAME.clear()
    _SAME[x] = _leads(x)
    return x


def _erased(calls: tuple, avals: tuple, slots: Sequence[Any], n: int) -> tuple:
    """The signature of a step (its calls, inputs and results) with its changing size ``n`` erased (``_erase``); a fused
    backward, whose kernel is made per shapes, by its arguments (its signature) instead of the kernel."""
    out = []
    for c in calls:
        w = getattr(c[0], "__wrapped__", None)
        if type(w) is functools.partial and w.func is fused_backward._replay:
            out.append((_erase(w.args, n), *c[1:]))
        else:
            out.append(c)
    return (tuple(out), _erase(avals, n), _erase(tuple(slots), n))


def run(key: tuple, refs: Sequence[tuple], ext: Sequence[Any]) -> list[Any] | None:
    """The results ``live`` of the buffer of signature ``key`` (a step of the family run before as ``refs``) on
    ``ext``, computed padded to a bucket size; None when the step's rows cannot be told apart (run it unpadded)."""
    planned = None
    calls, live, avals = key
    for ref in refs:  # the first signature of the same sizes but the batch's (a model of another width is not it)
        try:
            n, _ = _sizes(avals, ref[2])
            if not n:  # (no rows at all, as a mask selecting nothing leaves: no true row to pad with)
                continue
            slots = lazy.slot_avals(calls, avals)
            if slots is None:
                continue
            pk = (_erased(calls, avals, slots, n), live, ref)
            known = _PLANS.get(pk)
            if known is None:  # a step (or bucket) not planned before: tell its rows apart
                rows = _rows_of(key, ref)
                if rows is None:
                    continue
                known = (rows[2], rows[4], _row_bytes(avals, rows[2]) + _row_bytes(rows[3], rows[4]), {})
                _PLANS.put(pk, known)
            else:
                STATS["reused"] += 1
            ext_b, slot_b, row_bytes, by_size = known
            i = _first(ext_b)
            rows = (n, ref[2][i][0][ext_b[i]], ext_b, slots, slot_b)
            size = _choose(ref, n, row_bytes)
            planned = by_size.get(size)
            if planned is None:
                planned = by_size[size] = _plan(key, ref, rows, size)
            if planned[2] != tuple([_padded(a, b, size) for a, b in zip(avals, ext_b)]):
                planned = None  # (another step erased to the same signature: a dimension equal to ``n`` by chance)
                continue
        except Exception:  # _NotRows; or anything unforeseen in telling the rows apart: the step runs unpadded
            continue
        break
    if planned is None:
        STATS["declined"] += 1
        return None
    pkey = planned
    n, _, ext_b, _, slot_b = rows
    prog = _PROGRAMS.get(pkey)
    if prog is _DECLINED:
        STATS["declined"] += 1
        return None
    calls, live, _ = key
    args = [a if b is None else _pad(a, size, n, b) for a, b in zip(ext, ext_b)]
    if prog is None:
        slots = lazy.slot_avals(calls, key[2])
        expect = tuple(_padded(a, b, size) for a, b in zip(slots, slot_b))
        make = functools.partial(jax.jit, functools.partial(_trace, pkey[0], tuple((c[2], c[3]) for c in calls),
                                                            live, expect))
        # a small step's bucket (every padded value under lazy.SMALL_BYTES): compiled quickly, as its step is
        small = lazy.small_options() is not None and lazy.small_values(expect) and lazy.small_values(
            [_padded(a, b, size) for a, b in zip(key[2], ext_b)])
        prog = make(compiler_options=lazy.small_options()) if small else make()
        try:  # (traced now: a step whose results come out otherwise than planned runs unpadded, as anything
            # unforeseen while tracing it does; errors of the step itself then surface from its unpadded run)
            prog.lower(np.int64(n), *args)
        except Exception:
            _PROGRAMS.put(pkey, _DECLINED)
            STATS["declined"] += 1
            return None
        if small:  # (compiled with XLA's defaults after lazy.UPGRADE_AFTER runs)
            prog = lazy.Small(prog, make)
        _PROGRAMS.put(pkey, prog)
        STATS["compiled"] += 1
        sizes = _SIZES.get(ref) or ()
        _SIZES.put(ref, tuple(sorted({*sizes, size})))
    STATS["runs"] += 1
    # counted as a trace for new shapes (none is made: see ``_ShapeRule``), so that the heap a loop of new sizes
    # frees (its padded copies, the fused backward's kernels per size) is given back as after traces
    traced_new_shapes()
    outs = prog(np.int64(n), *args)
    return [o if slot_b[i] is None else _cut(o, n, slot_b[i]) for i, o in zip(live, outs)]


def _pad(a: Any, size: int, n: int, axis: int = 0) -> np.ndarray:
    """``a`` (``n`` positions along ``axis``) with copies of its last position up to ``size``, on the host (nothing
    compiled per ``n``)."""
    a = np.asarray(a)
    shape = list(a.shape)
    shape[axis] = size
    out = np.empty(shape, a.dtype)
    lead = (slice(None),) * axis
    out[lead + (slice(0, n),)] = a
    out[lead + (slice(n, None),)] = a[lead + (slice(n - 1, n),)]
    return out


def _cut(o: Any, n: int, axis: int = 0) -> Any:
    """The first ``n`` positions along ``axis`` of a padded result, cut on the host."""
    return jax.device_put(np.asarray(o)[(slice(None),) * axis + (slice(0, n),)])


# ---- output shapes on a new batch size, without tracing -----------------------------------------------------------
def _erase_dim(a: Any, p: int) -> Any:
    """An input's signature with its dimension ``p`` (if it has one) written as None."""
    if type(a) is not tuple or not a or type(a[0]) is not tuple or len(a[0]) <= p:
        return a
    return (a[0][:p] + (None,) + a[0][p + 1:], *a[1:])


class _ShapeRule:
    """The output shapes of a kernel call whose inputs differ from two earlier calls (of the same kernel, or of its
    family: a fused backward on other sizes) only in one changing size, ``n`` for all dimensions that differ: an
    output dimension that was the same both times stays so, one that was ``n`` both times gets the new ``n``.
    Only for kernels whose rows are known (an op that declares ``rows`` or ``axes``, a fused backward, a gradient
    sum, a value check), where shapes follow the changing size so; others are traced for their shapes as before.
    Calls are told apart by their inputs' shapes but one dimension ``p`` (the batch's, 0, first; then the others)."""

    def __init__(self) -> None:
        # (family, tree, p, inputs with their dimension p erased) -> the last two inferences
        self.seen = BoundedDict(1024)

    @staticmethod
    def _key(fn: Any, tree: Any, akey: tuple, p: int) -> tuple:
        return (family(fn), tree, p, tuple([_erase_dim(a, p) for a in akey]))

    @staticmethod
    def _rank(akey: tuple) -> int:
        r = 0
        for a in akey:
            if type(a) is tuple and a and type(a[0]) is tuple and len(a[0]) > r:
                r = len(a[0])
        return r

    def note(self, fn: Any, tree: Any, akey: tuple, r: tuple) -> None:
        fam = family(fn)
        for p in range(self._rank(akey)):
            k = (fam, tree, p, tuple([_erase_dim(a, p) for a in akey]))
            prev = self.seen.get(k)
            if prev is None:
                self.seen.put(k, [(akey, r)])
            elif prev[-1][0] != akey:
                prev.append((akey, r))
                del prev[:-2]

    def predict(self, fn: Any, tree: Any, akey: tuple) -> tuple | None:
        fam = None
        for p in range(self._rank(akey)):
            if fam is None:
                fam = family(fn)
            prev = self.seen.get((fam, tree, p, tuple([_erase_dim(a, p) for a in akey])))
            if prev is None or len(prev) < 2:
                continue
            if not _rows_known(fn, tree, akey):
                return None
            out = _predicted(prev[-2:], akey)  # (a copy: another thread may note meanwhile)
            if out is not None:
                return out
        return None


def _predicted(prev: list, akey: tuple) -> tuple | None:
    """The outputs of a call on ``akey`` from two earlier inferences ``prev`` that differ from it in one changing
    size, or None."""
    (a1, r1), (a2, r2) = prev
    ns = None
    for x1, x2, x3 in zip(a1, a2, akey):
        if x1 == x2:
            if x3 != x1:
                return None
            continue
        if (type(x3) is not tuple or x1[1:] != x2[1:] or x3[1:] != x1[1:] or len(x1[0]) != len(x2[0])
                or len(x3[0]) != len(x1[0])):
            return None
        for d1, d2, d3 in zip(x1[0], x2[0], x3[0]):
            if d1 == d2:
                if d3 != d1:
                    return None
            elif ns is None:
                ns = (d1, d2, d3)
            elif (d1, d2, d3) != ns:
                return None
    if ns is None or ns[2] < 1 or r1[0] != r2[0] or len(r1[1]) != len(r2[1]):
        return None
    n1, n2, n3 = ns
    outs = []
    for o1, o2 in zip(r1[1], r2[1]):
        if o1 == o2:
            outs.append(o1)
            continue
        if o1[1:] != o2[1:] or len(o1[0]) != len(o2[0]):
            return None
        dims = []
        for d1, d2 in zip(o1[0], o2[0]):
            if d1 == d2:
                dims.append(d1)
            elif d1 == n1 and d2 == n2:
                dims.append(n3)
            else:
                return None
        outs.append((tuple(dims), *o1[1:]))
    return (r1[0], outs)


def _rows_known(fn: Any, tree: Any, akey: tuple) -> bool:
    known = _op_of(fn)
    if known is not None:
        op, okey = known
        rows = op.rows
        if tree is not None or (rows is None and op.axes is None):
            return False
        if rows == _rows.MAP or op.axes is not None:
            return True
        try:
            return rows(_rank_args(op, okey, akey)) is not None
        except Exception:
            return False
    f = getattr(getattr(fn, "__wrapped__", None), "func", None)
    return f is fused_backward._replay or f is _first_bad or fn is fused_backward._add_kernel


lazy.set_bucket_runner(run)
lazy.set_shape_rule(_ShapeRule())
