"""Cases found by the whole programs ``tests/programs/p53_audio_features.py`` and ``p54_moe_indexing.py`` (and the
probes written around them), as Paddle code: ``record(paddle)`` runs them with the given library and returns what
they give (values, gradients, the type of each error). ``record_paddle_program_diffs_n.py`` runs it with Paddle
3.3.1 into ``data/paddle_program_diffs_n.json``; ``test_program_diffs_n.py`` runs it with pylayer_jax and
compares."""

from __future__ import annotations

from typing import Any

import numpy as np
from case_values import _attempt, _grad, _v


def put_along_axis_include_self(paddle: Any, out: dict[str, Any]) -> None:
    """``put_along_axis(..., reduce='mul' / 'amin' / 'amax', include_self=False)`` reduces only the values written
    at a target (its old value does not count, and gets no gradient); p54 combined expert weights this way. The
    include_self=True forms and 'add' / 'mean' keep their values and gradients."""
    r = np.random.default_rng(0)
    A = r.standard_normal((3, 4)).astype("float32")
    V = r.standard_normal((3, 3)).astype("float32")
    idx = paddle.to_tensor([[0, 0, 2], [1, 3, 1], [2, 2, 2]])
    w = paddle.arange(12, dtype="float32").reshape([3, 4])
    for red in ("mul", "amin", "amax", "add", "mean"):
        for inc in (True, False):
            a = paddle.to_tensor(A, stop_gradient=False)
            v = paddle.to_tensor(V, stop_gradient=False)
            o = paddle.put_along_axis(a, idx, v, 1, reduce=red, include_self=inc)
            (o * w).sum().backward()
            out[f"put_along_{red}_{inc}"] = [_v(o), _grad(a), _grad(v)]
    ints = paddle.to_tensor([[1, 2, 3]])
    two = paddle.to_tensor([[0, 0]])
    out["put_along_int_noself"] = [
        _v(paddle.put_along_axis(ints, two, paddle.to_tensor([[5, 7]]), 1, reduce=red, include_self=False))
        for red in ("mul", "amin", "amax")]


def scatter_index_n1(paddle: Any, out: dict[str, Any]) -> None:
    """``paddle.scatter`` takes an [N, 1] index as the 1-D one (p54 scattered by ``topi[:, :1]``), overwrite or
    accumulate, with the same gradients; an [N, 2] index is a ValueError."""
    r = np.random.default_rng(1)
    x = paddle.to_tensor(r.standard_normal((4, 3)).astype("float32"), stop_gradient=False)
    u = paddle.to_tensor(r.standard_normal((3, 3)).astype("float32"), stop_gradient=False)
    w = paddle.arange(12, dtype="float32").reshape([4, 3])
    for ow in (True, False):
        ix = paddle.to_tensor([[2], [0], [2]] if not ow else [[3], [0], [1]])
        o = paddle.scatter(x, ix, u, overwrite=ow)
        (o * w).sum().backward()
        out[f"scatter_n1_{ow}"] = [_v(o), _grad(x), _grad(u)]
        x.clear_gradient()
        u.clear_gradient()
    out["scatter_n2"] = _attempt(lambda: paddle.scatter(x, paddle.to_tensor([[0, 1], [2, 3]]), paddle.ones([2, 3])))


def index_add_checks(paddle: Any, out: dict[str, Any]) -> None:
    """``paddle.index_add`` refuses an index out of ``[-n, n)`` (where it wrote nothing, or wrapped), a 2-D index, a
    float index and a value of the wrong shape, each with a ValueError; negative indices count from the end."""
    z = paddle.arange(16, dtype="float32").reshape([4, 4])
    out["index_add_neg"] = _v(paddle.index_add(z, paddle.to_tensor([0, -1]), 0, paddle.ones([2, 4])))
    out["index_add_ax1"] = _v(paddle.index_add(z, paddle.to_tensor([3, 1]), 1, paddle.ones([4, 2]), alpha=2.0))
    out["index_add_bad"] = [
        _attempt(lambda: _v(paddle.index_add(z, paddle.to_tensor([0, 9]), 0, paddle.ones([2, 4])))),
        _attempt(lambda: _v(paddle.index_add(z, paddle.to_tensor([0, -5]), 0, paddle.ones([2, 4])))),
        _attempt(lambda: _v(paddle.index_add(z, paddle.to_tensor([0, 4]), 1, paddle.ones([4, 2])))),
        _attempt(lambda: _v(paddle.index_add(z, paddle.to_tensor([[0], [1]]), 0, paddle.ones([2, 4])))),
        _attempt(lambda: _v(paddle.index_add(z, paddle.to_tensor([0.0]), 0, paddle.ones([1, 4])))),
        _attempt(lambda: _v(paddle.index_add(z, paddle.to_tensor([0, 1]), 0, paddle.ones([2, 3])))),
    ]


def bool_mask_shapes(paddle: Any, out: dict[str, Any]) -> None:
    """A bool mask (Tensor, numpy array or list) must have the shape of the dimensions it covers: a shorter or
    longer one is an IndexError in reads and writes (p54's ``z[mask] = 1.0`` with a 2-entry mask of 4 rows wrote
    row 0 silently). Masks of the right shape, after ``...``, beside ints, slices and index tensors, keep working."""
    z = paddle.arange(24, dtype="float32").reshape([2, 3, 4])
    m4 = paddle.to_tensor([True, False, True, True])
    m3 = paddle.to_tensor([False, True, True])
    m2 = paddle.to_tensor([True, False])
    good = {
        "ell_m4": lambda: z[..., m4], "m2_ell_m4": lambda: z[m2, ..., m4], "int_m3": lambda: z[1, m3],
        "m23": lambda: z[paddle.to_tensor([[True, False, True], [False, False, True]])],
        "sl_m3_sl": lambda: z[:, m3, 1:], "np_mask": lambda: z[np.array([True, False])],
        "list_mask": lambda: z[:, [True, True, False]],
    }
    out["mask_reads"] = {k: _attempt(lambda f=f: _v(f())) for k, f in good.items()}
    bad = {
        "short": lambda: z[paddle.to_tensor([True])], "long": lambda: z[paddle.to_tensor([True, False, True])],
        "ell_m3": lambda: z[..., m3], "col_short": lambda: z[:, m2],
        "m22": lambda: z[paddle.to_tensor([[True, False], [False, True]])],
        "np_bad": lambda: z[np.array([True, False, True])], "list_bad": lambda: z[[True, False, True]],
    }
    out["mask_reads_bad"] = {k: _attempt(lambda f=f: _v(f())) for k, f in bad.items()}

    def write(index: Any, value: Any) -> Any:
        y = z.clone()
        y[index] = value
        return _v(y)

    out["mask_writes"] = [write(m2, 0.0), write((slice(None), m3), paddle.to_tensor([-1.0, -2.0, -3.0, -4.0])),
                          write((1, m3), 5.0)]
    out["mask_writes_bad"] = [_attempt(lambda: write(paddle.to_tensor([True, False, True]), 1.0)),
                              _attempt(lambda: write((slice(None), m4), 1.0)),
                              _attempt(lambda: write([True], 1.0))]
    a = paddle.to_tensor(np.linspace(-1, 1, 12).reshape(3, 4).astype("float32"), stop_gradient=False)
    b = a * 2.0
    b[paddle.to_tensor([True, False, True])] = b[paddle.to_tensor([True, False, True])] ** 2
    (b * paddle.arange(12, dtype="float32").reshape([3, 4])).sum().backward()
    out["mask_write_grad"] = [_v(b), _grad(a)]


CASES = (put_along_axis_include_self, scatter_index_n1, index_add_checks, bool_mask_shapes)


def record(paddle: Any) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for case in CASES:
        case(paddle, out)
    return out
