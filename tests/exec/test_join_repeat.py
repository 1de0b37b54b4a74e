"""``deferred.join_known`` into a buffer of the same size as its last join of the same function records the last
entry again, after checking each input where the last one's was: a result in the same slot, the same buffer input,
new inputs new to the buffer, in order, each object once. An input anywhere else gives the entry of what it is.

Each case records two calls (``x * x`` and ``-q``, ``q`` the parameter's array as a forward read it) into a buffer
left for a join (``end_backward`` after ``expect_join``), joins ``p - lr * (2 * a + b)`` and runs it; the oracle is
numpy on the same values. The first join records its entry; the next ones, of the same sizes, pass their inputs in
other places.
"""

from __future__ import annotations

import jax
import jax.numpy as jnp
import numpy as np
import pytest

from pylayer_jax._exec import deferred

pytestmark = pytest.mark.skipif(not deferred.ENABLED, reason="PYLAYER_JAX_LAZY=0: nothing is recorded")

X = np.linspace(-1.0, 1.0, 8).astype(np.float32)
P = np.linspace(0.5, 2.0, 8).astype(np.float32)
_sq = jax.jit(lambda v: v * v)
_neg = jax.jit(lambda v: -v)


class _Owner:
    pass


def _update(p: jax.Array, a: jax.Array, b: jax.Array, lr: jax.Array) -> tuple[jax.Array]:
    return (p - lr * (2 * a + b),)


_kernel = jax.jit(_update)  # (one function per test file: its last join is this file's)
_AV = ((8,), jnp.dtype("float32"), False)


def _join(x: jax.Array, pick: str, p: jax.Array, lr: jax.Array, q: jax.Array | None = None) -> np.ndarray:
    """Record ``x * x`` and ``-q`` (``q`` None: ``p``), join the update of ``p`` with inputs picked from them, run
    it; its result."""
    deferred.flush()
    owner = _Owner()
    deferred.expect_join(owner)
    sq = deferred.call(_sq, [x])
    neg = deferred.call(_neg, [p if q is None else q])
    deferred.end_backward()
    cut = deferred.cut_buffer()
    assert cut is not None
    a, b = {"sq,neg": (sq, neg), "neg,sq": (neg, sq), "sq,sq": (sq, sq)}[pick]
    lr_av = (lr.shape, lr.dtype, lr.weak_type)
    out = deferred.join_known(cut, _kernel, [p, a, b, lr], [_AV, a.aval, b.aval, lr_av], [_AV], [p])
    assert out is not None
    deferred.run_cut()
    return np.asarray(out[0].get())


def _want(p: np.ndarray, x: np.ndarray, pick: str, lr: float, q: np.ndarray) -> np.ndarray:
    vals = {"sq": x * x, "neg": -q}
    a, b = (vals[k] for k in pick.split(","))
    return p - lr * (2 * a + b)


def test_a_repeated_join_checks_each_input_where_the_last_one_was() -> None:
    x = jax.device_put(X)
    p = jax.device_put(P)
    lr = jax.device_put(0.1)
    entries = []
    # the first join records its entry, the second repeats it; then the results in other slots (swapped, one
    # twice), and the parameter a new array, not the buffer input the forward read (a value set in between)
    cases = [("sq,neg", p, None), ("sq,neg", p, None), ("neg,sq", p, None), ("sq,sq", p, None),
             ("sq,neg", p, None), ("sq,neg", jax.device_put(P * 2), p)]
    for pick, pv, q in cases:
        got = _join(x, pick, pv, lr, q)
        want = _want(np.asarray(pv), X, pick, 0.1, np.asarray(pv if q is None else q))
        np.testing.assert_allclose(got, want, rtol=1e-6, err_msg=pick)
        entries.append(deferred._JOINED[_kernel][0])
    assert entries[1] is entries[0]  # the same inputs in the same places: the last entry, recorded again
    assert entries[2] is not entries[1] and entries[2][2] != entries[1][2]  # the results swapped: another entry
    assert entries[3][2] != entries[2][2]
    assert entries[5][2] != entries[4][2]  # the parameter a new input


def test_a_repeated_join_enters_a_new_input_once() -> None:
    """The last join had two distinct new inputs (the parameter, the rate); this one passes one array in both
    places: one buffer input, as ``call`` enters it."""
    x = jax.device_put(X)
    p = jax.device_put(P)
    _join(x, "sq,neg", p, jax.device_put(0.2), x)  # (the forward read x, not p: p and the rate are new inputs)
    _join(x, "sq,neg", p, jax.device_put(0.2), x)
    shared = jax.device_put(np.full((8,), 0.3, np.float32))
    deferred.flush()
    deferred.expect_join(owner := _Owner())
    sq = deferred.call(_sq, [x])
    neg = deferred.call(_neg, [x])
    deferred.end_backward()
    cut = deferred.cut_buffer()
    n_ext = len(cut.ext)
    out = deferred.join_known(cut, _kernel, [shared, sq, neg, shared], [_AV, sq.aval, neg.aval, _AV], [_AV], [shared])
    assert sum(e is shared for e in cut.ext) == 1 and len(cut.ext) == n_ext + 1
    deferred.run_cut()
    np.testing.assert_allclose(np.asarray(out[0].get()), 0.3 - 0.3 * (2 * X * X - X), rtol=1e-6)
    del owner
