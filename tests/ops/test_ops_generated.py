"""Tests generated from the op table and ``op_samples.SAMPLES``: adding an op adds its tests.

For every op in the table (``*_grad`` ops excluded), each failing if the op has no samples:
- forward through the public function equals the sample's numpy reference (or the op's own
  jax function), with the output shapes and dtypes of the op's function; every sample in
  float64, the first in float32 too (linear ops: float32 dtypes only, traced);
- no op turns float32 inputs into float64 outputs (traced, every sample);
- ``test_saves_metadata``: the backward kernel, fed only what the op's ``saves`` lists (the
  rest zeroed), equals the full ``jax.vjp`` of the op's function (first sample, float64);
- ``test_eager_grad_matches_jax_vjp``: the tape's gradient of ``sum(out * ct)`` (fused engine
  path) equals ``jax.vjp`` for the other samples, and in float32 for ops with hand-written or
  output-reading VJPs;
- ``jax.test_util.check_grads(order=1, modes=["rev"])`` on the traced path (nonlinear ops);
- with create_graph, second derivatives equal JAX's (hand-written / output-reading VJPs);
- each in-place variant writes the out-of-place result and bumps the version.
The split between dtypes and samples keeps the whole module near 4 minutes on 2 cores: its
cost is one XLA compile per kernel, so every extra case costs about 0.1-0.3 s.
"""

from __future__ import annotations

import zlib
from collections.abc import Callable
from pathlib import Path
from typing import Any

import jax
import jax.numpy as jnp
import numpy as np
import pytest
from jax.test_util import check_grads
from op_samples import NO_GRAD_OUTPUTS, RANDOM_OPS, SAMPLES, Sample

import pylayer_jax as P
from pylayer_jax._ops.table import TABLE, Op
from pylayer_jax._tensor.dispatch import apply_op
from pylayer_jax._tensor.facade import Tensor

OPS = sorted(n for n in TABLE if not n.endswith("_grad"))
FLOATS = ("float32", "float64")


# ---- building calls from a sample ----------------------------------------------------------
def _is_float_array(a: Any) -> bool:
    return isinstance(a, np.ndarray) and a.dtype.kind == "f"


def _slots(op: Op, sample: Sample) -> list[tuple[int, int | None]]:
    """Positions of array inputs in tensor parameters: (arg index, list index or None)."""
    out = []
    for i, a in enumerate(sample.args[: op.n_tensors]):
        if isinstance(a, np.ndarray):
            out.append((i, None))
        elif isinstance(a, list):
            out.extend((i, j) for j, e in enumerate(a) if isinstance(e, np.ndarray))
    return out


def _get(args: list[Any], slot: tuple[int, int | None]) -> Any:
    i, j = slot
    return args[i] if j is None else args[i][j]


def _put(args: list[Any], slot: tuple[int, int | None], v: Any) -> None:
    i, j = slot
    if j is None:
        args[i] = v
    else:
        args[i] = list(args[i])
        args[i][j] = v


def _np_args(op: Op, sample: Sample, dtype: str) -> list[Any]:
    args = list(sample.args)
    for s in _slots(op, sample):
        a = _get(args, s)
        if _is_float_array(a):
            _put(args, s, a.astype(dtype))
    return args


def _diff_slots(op: Op, sample: Sample) -> list[tuple[int, int | None]]:
    if not op.differentiable or not sample.grad or op.name in RANDOM_OPS:
        return []
    return [
        s for s in _slots(op, sample)
        if _is_float_array(_get(list(sample.args), s)) and op.tensor_names[s[0]] not in op.nondiff
    ]


def _with(args: list[Any], slots: list[tuple[int, int | None]], values: list[Any]) -> list[Any]:
    args = list(args)
    for s, v in zip(slots, values):
        _put(args, s, v)
    return args


def _public(op: Op) -> Callable[..., Any]:
    """The op's public function; for an op with hidden outputs (backward residuals such as layer_norm's
    mean and variance) the op itself, so that those outputs and their gradients are tested too."""
    # (not when the name is another function's: ``paddle.unfold`` is ``unfold_windows``, ``paddle.layer_norm`` is
    # ``nn.functional.layer_norm``, as in Paddle)
    fn = getattr(P, op.name, None)
    if callable(fn) and getattr(fn, "__name__", None) == op.name and getattr(fn, "_op", None) is op and not op.hidden:
        return fn
    return lambda *a, **k: apply_op(op, a, k)


def _tensor_args(op: Op, sample: Sample, args: list[Any], diff: list[tuple[int, int | None]]) -> tuple[list, list]:
    """Replace every array with a Tensor; the ``diff`` ones get stop_gradient=False."""
    args = list(args)
    grads_of = []
    for s in _slots(op, sample):
        t = Tensor(jnp.asarray(_get(args, s)), s not in diff)
        if s in diff:
            grads_of.append(t)
        _put(args, s, t)
    return args, grads_of


def _jnp_args(op: Op, sample: Sample, args: list[Any]) -> list[Any]:
    return _with(args, _slots(op, sample), [jnp.asarray(_get(args, s)) for s in _slots(op, sample)])


def _leaves(out: Any) -> list[Any]:
    return jax.tree_util.tree_leaves(out, is_leaf=lambda x: isinstance(x, Tensor))


def _is_float(x: Any) -> bool:
    return bool(jnp.issubdtype(x.dtype if hasattr(x, "dtype") else jnp.result_type(x), jnp.inexact))


def _cotangents(name: str, i: int, outs: list[Any]) -> list[Any]:
    rng = np.random.default_rng(zlib.crc32(f"{name}/{i}".encode()))
    return [rng.standard_normal(o.shape).astype(o.dtype) if _is_float(o) else None for o in outs]


def _ref_vjp(op: Op, sample: Sample, args: list[Any], diff: list, cts: list[Any]) -> list[Any]:
    """``jax.vjp`` of the op's own function with respect to the ``diff`` inputs (cached per case)."""
    key = (op.name, id(sample), str(jnp.result_type(_get(args, diff[0]))))
    if key not in _REF_CACHE:
        _REF_CACHE[key] = _ref_vjp_uncached(op, sample, args, diff, cts)
    return _REF_CACHE[key]


_REF_CACHE: dict[tuple, list[Any]] = {}


def _ref_vjp_uncached(op: Op, sample: Sample, args: list[Any], diff: list, cts: list[Any]) -> list[Any]:
    base = _jnp_args(op, sample, args)

    def f(*d: Any) -> Any:
        return op.fn(*_with(base, diff, list(d)), **sample.kwargs)

    @jax.jit  # one compile instead of one per primitive: the reference is the slow part of these tests
    def vjp(d: list[Any], ct: list[Any]) -> list[Any]:
        out, pullback = jax.vjp(f, *d)
        out_leaves, tree = jax.tree_util.tree_flatten(out)
        full = [c.astype(o.dtype) if c is not None else np.zeros(o.shape, jax.dtypes.float0) for o, c in zip(out_leaves, ct)]
        return list(pullback(jax.tree_util.tree_unflatten(tree, full)))

    d0 = [base[s[0]] if s[1] is None else base[s[0]][s[1]] for s in diff]
    return vjp(d0, [None if c is None else jnp.asarray(c) for c in cts])


def _tol(dtype: str, sample: Sample) -> dict[str, float]:
    if dtype == "float32":
        t = sample.tol or 1e-4
        return {"rtol": t, "atol": t}
    return {"rtol": 1e-9, "atol": 1e-9}


def _has_float(op: Op, sample: Sample) -> bool:
    return any(_is_float_array(_get(list(sample.args), s)) for s in _slots(op, sample))


def _cases(need_grad: bool, dtypes: tuple[str, ...] = FLOATS, per_op: int | None = None,
           only: Callable[[Op], bool] | None = None) -> list[Any]:
    """(op, sample index, dtype) triples.

    To keep the run short, every sample runs in float64 and only each op's first sample
    also in float32; ``per_op`` keeps only the first samples of each op; ``only`` filters ops.
    """
    cases = []
    for name in OPS:
        op = TABLE[name]
        if only is not None and not only(op):
            continue
        taken = 0
        for i, sample in enumerate(SAMPLES.get(name, [])):
            if need_grad and not _diff_slots(op, sample):
                continue
            if per_op is not None and taken >= per_op:
                break
            for dt in dtypes if _has_float(op, sample) else ("float64",):
                if dt == "float64" or taken == 0:
                    cases.append(pytest.param(name, i, dt, id=f"{name}-{i}-{dt}"))
            taken += 1
    return cases


def _hand_written_or_saves_out(op: Op) -> bool:
    return op.vjp is not None or "out" in op.saves


# ---- every op has samples ------------------------------------------------------------------
@pytest.mark.parametrize("name", OPS)
def test_op_has_samples(name: str) -> None:
    assert SAMPLES.get(name), (
        f"op {name!r} is in the op table but has no entry in tests/op_samples.py; add "
        f"SAMPLES.update({{{name!r}: [Sample(...)]}}) so that its forward and gradient are tested."
    )


def test_samples_name_existing_ops() -> None:
    stale = sorted(set(SAMPLES) - set(TABLE))
    assert not stale, f"tests/op_samples.py has samples for ops that are not in the table: {stale}"


def test_samples_fit_signatures() -> None:
    for name, samples in SAMPLES.items():
        if name not in TABLE:
            continue
        for s in samples:
            TABLE[name].signature.bind(*s.args, **s.kwargs)


# ---- forward -------------------------------------------------------------------------------
def _forward_cases() -> list[Any]:
    """Every sample in float64; float32 for the first sample of ops that are not linear (the float32
    dtype of every op's outputs is checked without compiling in ``test_float32_stays_float32``)."""
    return [p for p in _cases(False) if p.values[2] == "float64" or not _linear(TABLE[p.values[0]])]


def _linear(op: Op) -> bool:
    return op.differentiable and not op.saves and op.vjp is None


@pytest.mark.parametrize("name,i,dtype", _forward_cases())
def test_forward(name: str, i: int, dtype: str) -> None:
    op, sample = TABLE[name], SAMPLES[name][i]
    args = _np_args(op, sample, dtype)
    targs, _ = _tensor_args(op, sample, args, [])
    out = _public(op)(*targs, **sample.kwargs)
    got = _leaves(out)
    jargs = _jnp_args(op, sample, args)
    avals = _out_avals(op, sample, jargs)
    assert len(got) == len(avals)
    for g, w in zip(got, avals):
        assert isinstance(g, Tensor)
        assert g.stop_gradient is True
        assert g.shape == list(w.shape)
        assert g.dtype == w.dtype, f"{name}: dtype {g.dtype} != {w.dtype}"
    if name in RANDOM_OPS:
        return
    # values: against the sample's numpy reference, else the op's own function run op by op
    if sample.ref is not None:
        want = jax.tree_util.tree_leaves(sample.ref(*args, **sample.kwargs))
    else:
        want = jax.tree_util.tree_leaves(op.fn(*jargs, **sample.kwargs))
    assert 0 < len(want) <= len(got)  # a reference may give only the leading outputs (values, not indices)
    for g, w in zip(got, want):
        np.testing.assert_allclose(g.numpy(), np.asarray(w), **_tol(dtype, sample))


def _out_avals(op: Op, sample: Sample, jargs: list[Any]) -> list[Any]:
    """Shapes and dtypes of the op's own function's outputs (traced, not run)."""
    slots = _slots(op, sample)

    def f(*vals: Any) -> Any:
        return op.fn(*_with(jargs, slots, list(vals)), **sample.kwargs)

    return jax.tree_util.tree_leaves(jax.eval_shape(f, *[_get(jargs, s) for s in slots]))


@pytest.mark.parametrize("name", [n for n in OPS if any(_has_float(TABLE[n], s) for s in SAMPLES.get(n, []))])
def test_float32_stays_float32(name: str) -> None:
    """Paddle keeps float32 in float32: with x64 enabled, no op may leak float64 (traced only, no compile)."""
    op, fn = TABLE[name], _public(TABLE[name])
    for sample in SAMPLES[name]:
        if not _has_float(op, sample) or "float64" in repr((sample.args, sample.kwargs)):
            continue
        args = _np_args(op, sample, "float32")
        slots = _slots(op, sample)

        def f(*vals: Any, args: list[Any] = args, slots: list = slots, sample: Sample = sample) -> Any:
            targs = _with(args, slots, [Tensor(v) for v in vals])
            return [o._value for o in _leaves(fn(*targs, **sample.kwargs))]

        outs = jax.eval_shape(f, *[jnp.asarray(_get(args, s)) for s in slots])
        assert all(o.dtype != jnp.float64 for o in outs), f"{name}: float32 inputs gave {[o.dtype for o in outs]}"


# ---- gradients -----------------------------------------------------------------------------
def _eager_grads(op: Op, sample: Sample, args: list[Any], diff: list, cts: list[Any]) -> list[Any]:
    targs, inputs = _tensor_args(op, sample, args, diff)
    outs = _leaves(_public(op)(*targs, **sample.kwargs))
    loss = None
    for o, c in zip(outs, cts):
        if c is not None:
            term = (o * P.to_tensor(c)).sum()
            loss = term if loss is None else loss + term
    assert loss is not None, f"{op.name}: no floating output to differentiate"
    loss.backward()
    return [t.grad for t in inputs]


def _eager_cases() -> list[Any]:
    """The second and third gradient samples of each op in float64 (the first one runs in
    ``test_saves_metadata``), and float32 for the first sample of ops with a hand-written or
    output-reading VJP (derived VJPs are cast to the input dtype by one shared rule)."""
    first = {p.values[0]: p.values[1] for p in _cases(True, ("float64",), per_op=1)}
    f32 = {p.values[0] for p in _cases(True, ("float32",), per_op=1, only=_hand_written_or_saves_out)}
    return [
        p for p in _cases(True, per_op=3)
        if (p.values[2] == "float64" and first[p.values[0]] != p.values[1]) or (p.values[2] == "float32" and p.values[0] in f32)
    ]


@pytest.mark.parametrize("name,i,dtype", _eager_cases())
def test_eager_grad_matches_jax_vjp(name: str, i: int, dtype: str) -> None:
    op, sample = TABLE[name], SAMPLES[name][i]
    args = _np_args(op, sample, dtype)
    diff = _diff_slots(op, sample)
    cts = _cotangents(name, i, _out_avals(op, sample, _jnp_args(op, sample, args)))
    got = _eager_grads(op, sample, args, diff, cts)
    want = _ref_vjp(op, sample, args, diff, cts)
    for g, w in zip(got, want):
        assert g is not None, f"{name}: an input that needs a gradient got none"
        assert g.dtype == w.dtype and g.shape == list(w.shape)
        np.testing.assert_allclose(g.numpy(), np.asarray(w), **_tol(dtype, sample))


def _nonlinear(op: Op) -> bool:
    return bool(op.saves)  # an op whose backward reads nothing is linear: its derivative is the op itself


# inputs whose gradient is a partial one by design, which finite differences cannot see: Paddle's sigmoid_focal_loss
# gives its label no gradient through the cross-entropy term (its binary_cross_entropy_with_logits kernel), only
# through the focal weights (its value against Paddle's: tests/test_program_diffs.py; against jax.vjp: the other tests)
PARTIAL_GRADS = {"sigmoid_focal_loss": ("label",)}
# ops that read one triangle of a symmetric matrix and give Paddle's symmetric gradient (both triangles): checked
# along symmetric directions (their value against Paddle's: tests/test_program_diffs_g.py; cholesky's:
# tests/ops/test_linalg_singular.py)
SYMMETRIC_GRADS = frozenset({"eigh", "eigvalsh", "cholesky"})


@pytest.mark.parametrize("name,i,dtype", _cases(True, ("float64",), per_op=1, only=_nonlinear))
def test_traced_check_grads(name: str, i: int, dtype: str) -> None:
    op, sample = TABLE[name], SAMPLES[name][i]
    args = _np_args(op, sample, dtype)
    diff = [s for s in _diff_slots(op, sample) if op.tensor_names[s[0]] not in PARTIAL_GRADS.get(name, ())]
    fn = _public(op)

    def f(*d: Any) -> tuple[Any, ...]:
        if name in SYMMETRIC_GRADS:
            d = tuple((v + jnp.swapaxes(v, -1, -2)) / 2 for v in d)
        targs = _with(args, diff, [Tensor(v, False) for v in d])
        for s in _slots(op, sample):
            if s not in diff:
                _put(targs, s, Tensor(jnp.asarray(_get(targs, s))))
        outs = _leaves(fn(*targs, **sample.kwargs))
        skip = NO_GRAD_OUTPUTS.get(name, ())
        return tuple(o._value for j, o in enumerate(outs) if _is_float(o._value) and j not in skip)

    check_grads(f, [jnp.asarray(_get(args, s)) for s in diff], order=1, modes=["rev"])


@pytest.mark.parametrize("name,i,dtype", _cases(True, ("float64",), per_op=1))
def test_saves_metadata(name: str, i: int, dtype: str) -> None:
    """The node's kernel sees only what ``saves`` lists (the rest zeroed): it must still equal jax.vjp.

    This is also the float64 gradient test of each op's first sample (the node path of the engine;
    ``test_eager_grad_matches_jax_vjp`` runs the fused path on the other samples).
    """
    op, sample = TABLE[name], SAMPLES[name][i]
    args = _np_args(op, sample, dtype)
    diff = _diff_slots(op, sample)
    targs, inputs = _tensor_args(op, sample, args, diff)
    outs = _leaves(apply_op(op, targs, dict(sample.kwargs)))
    node = outs[0]._edge[0]
    assert node.op is op
    cts = _cotangents(name, i, [o._value for o in outs])
    got = node.backward([None if c is None else jnp.asarray(c) for c in cts], None)
    # map the node's per-leaf gradients back to the differentiable inputs
    leaves = jax.tree_util.tree_leaves(list(targs[: op.n_tensors]), is_leaf=lambda x: isinstance(x, Tensor))
    by_id = {id(t): g for t, g in zip(leaves, got)}
    want = _ref_vjp(op, sample, args, diff, cts)
    for t, w in zip(inputs, want):
        np.testing.assert_allclose(np.asarray(by_id[id(t)]), np.asarray(w), **_tol(dtype, sample))


@pytest.mark.parametrize("name,i,dtype", _cases(True, ("float64",), per_op=1, only=_hand_written_or_saves_out))
def test_create_graph_second_order(name: str, i: int, dtype: str) -> None:
    """grad(sum(grad(sum(out*ct)) * ct2)) through create_graph equals JAX's second derivative.

    Run for ops with a hand-written VJP or a saved output (the rules JAX does not derive
    itself); the randomized engine tests cover create_graph through derived VJPs.
    """
    op, sample = TABLE[name], SAMPLES[name][i]
    args = _np_args(op, sample, dtype)
    diff = _diff_slots(op, sample)
    base = _jnp_args(op, sample, args)
    want_outs = jax.tree_util.tree_leaves(op.fn(*base, **sample.kwargs))
    cts = _cotangents(name, i, want_outs)
    rng = np.random.default_rng(1)
    ct2 = [rng.standard_normal(np.shape(_get(args, s))) for s in diff]

    def first(*d: Any) -> Any:
        outs = jax.tree_util.tree_leaves(op.fn(*_with(base, diff, list(d)), **sample.kwargs))
        return sum(jnp.sum(o * c) for o, c in zip(outs, cts) if c is not None)

    def second(*d: Any) -> Any:
        gs = jax.grad(first, argnums=tuple(range(len(d))))(*d)
        return sum(jnp.sum(g * c) for g, c in zip(gs, ct2))

    d0 = [base[s[0]] if s[1] is None else base[s[0]][s[1]] for s in diff]
    want = jax.jit(jax.grad(second, argnums=tuple(range(len(d0)))))(*d0)  # (one compile, as _ref_vjp)

    targs, inputs = _tensor_args(op, sample, args, diff)
    outs = _leaves(_public(op)(*targs, **sample.kwargs))
    loss = sum((o * P.to_tensor(c)).sum() for o, c in zip(outs, cts) if c is not None)
    gs = P.grad(loss, inputs, create_graph=True)
    total = sum((g * P.to_tensor(c)).sum() for g, c in zip(gs, ct2))
    if total.stop_gradient:  # the first derivative does not depend on the inputs (a linear op)
        assert all(np.allclose(np.asarray(w), 0) for w in want)
        return
    got = P.grad(total, inputs, allow_unused=True)
    for g, w in zip(got, want):
        g_arr = np.zeros_like(np.asarray(w)) if g is None else g.numpy()
        np.testing.assert_allclose(g_arr, np.asarray(w), rtol=1e-8, atol=1e-8)


# ---- in-place variants ---------------------------------------------------------------------
def _inplace_cases() -> list[Any]:
    cases = []
    for name in OPS:
        op = TABLE[name]
        if not op.inplace:
            continue
        for i, s in enumerate(SAMPLES.get(name, [])):
            if s.args and isinstance(s.args[0], np.ndarray):
                cases.append(pytest.param(name, i, id=f"{name}_-{i}"))
                break
    return cases


@pytest.mark.parametrize("name,i", _inplace_cases())
def test_inplace_variant(name: str, i: int) -> None:
    op, sample = TABLE[name], SAMPLES[name][i]
    args = _np_args(op, sample, "float64")
    targs, _ = _tensor_args(op, sample, args, [])
    want = _public(op)(*targs, **sample.kwargs)
    x = targs[0]
    before = x.inplace_version
    if want.shape != x.shape:
        with pytest.raises(ValueError, match="in-place op must keep the shape"):
            getattr(x, name + "_")(*targs[1:], **sample.kwargs)
        return
    r = getattr(x, name + "_")(*targs[1:], **sample.kwargs)
    assert r is x
    assert x.inplace_version == before + 1
    assert x.dtype == P.to_tensor(args[0]).dtype
    np.testing.assert_allclose(x.numpy(), want.numpy().astype(x.numpy().dtype), rtol=1e-12)


# ---- coverage of Paddle's tensor function names ----------------------------------------------
PADDLE_NAMES = Path(__file__).resolve().parents[1].joinpath("paddle_tensor_functions.txt")


def paddle_coverage() -> tuple[list[str], list[str]]:
    """(names of Paddle's tensor functions that pylayer_jax.<name> provides, the missing ones)."""
    names = [n.strip() for n in PADDLE_NAMES.read_text().split() if n.strip()]
    have = [n for n in names if callable(getattr(P, n, None))]
    return have, [n for n in names if n not in have]


def test_paddle_name_coverage() -> None:
    have, missing = paddle_coverage()
    print(f"\npylayer_jax provides {len(have)} of {len(have) + len(missing)} Paddle tensor functions")
    # every table op that Paddle also names is reachable as a public function
    for name in have:
        assert callable(getattr(P, name))
    for name in OPS:
        if TABLE[name].method and name in missing:
            pytest.fail(f"op {name!r} is in the table but pylayer_jax.{name} is missing")
    assert len(have) >= 10


if __name__ == "__main__":
    h, m = paddle_coverage()
    print(f"{len(h)} of {len(h) + len(m)} covered")
    print("covered:", " ".join(h))
