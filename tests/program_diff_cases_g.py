"""Cases found by the programs ``tests/programs/p39_timeseries.py`` and ``p40_linalg_fit.py``, written as Paddle
code: ``record(paddle)`` runs them with the given library and returns what they give (values, gradients, the type
of each error). ``record_paddle_program_diffs_g.py`` runs it with Paddle 3.3.1 into
``data/paddle_program_diffs_g.json``; ``test_program_diffs_g.py`` runs it with pylayer_jax and compares."""

from __future__ import annotations

from typing import Any

import numpy as np
from case_values import _v


def _attempt(f: Any) -> Any:
    try:
        r = f()
        return [list(r.shape), _v(r)]
    except Exception as e:  # noqa: BLE001  (the type is the result)
        return type(e).__name__


def pad_crop_and_modes(paddle: Any, out: dict[str, Any]) -> None:
    """``F.pad``: a negative pad crops its side (every mode; circular wraps the uncropped axis), with a zero gradient
    on the cropped entries; reflect / replicate / circular pad only 3-D to 5-D input, by one pair per spatial axis,
    reflect by less than the axis's size."""
    F = paddle.nn.functional
    x3 = paddle.arange(30, dtype="float32").reshape([2, 3, 5])
    x4 = paddle.arange(24, dtype="float32").reshape([1, 2, 3, 4])
    for mode in ("constant", "reflect", "replicate", "circular"):
        out[f"pad_neg_{mode}"] = [_attempt(lambda mode=mode: F.pad(x3, [-1, 2], mode=mode)),
                                  _attempt(lambda mode=mode: F.pad(x3, [-2, -1], mode=mode)),
                                  _attempt(lambda mode=mode: F.pad(x4, [-1, 0, 1, -1], mode=mode)),
                                  _attempt(lambda mode=mode: F.pad(x3, [2, -1], mode=mode, data_format="NLC"))]
        out[f"pad_rules_{mode}"] = [_attempt(lambda mode=mode: F.pad(x3, [1, 2, 1, 0], mode=mode)),
                                    _attempt(lambda mode=mode: F.pad(x3, [0, 0, 1, 0, 1, 2], mode=mode)),
                                    _attempt(lambda mode=mode: F.pad(x4, [1, 2], mode=mode)),
                                    _attempt(lambda mode=mode: F.pad(x4[0, 0], [1, 2], mode=mode)),
                                    _attempt(lambda mode=mode: F.pad(x3[0, 0], [1, 2], mode=mode)),
                                    _attempt(lambda mode=mode: F.pad(x3, [5, 0], mode=mode)),
                                    _attempt(lambda mode=mode: F.pad(x3, [4, 4], mode=mode)),
                                    _attempt(lambda mode=mode: F.pad(x3, [7, 0], mode=mode))]
        xg = paddle.arange(10, dtype="float32").reshape([1, 2, 5])
        xg.stop_gradient = False
        (F.pad(xg, [-1, 3], mode=mode) * paddle.arange(14, dtype="float32").reshape([1, 2, 7])).sum().backward()
        out[f"pad_neg_grad_{mode}"] = _v(xg.grad)
    out["pad_neg_layer"] = _attempt(lambda: paddle.nn.Pad1D([-1, 1])(x3))


def cross_axis(paddle: Any, out: dict[str, Any]) -> None:
    """``paddle.cross`` along an axis whose size is not 3 raises (it gave zeros), out of range an IndexError."""
    a = paddle.ones([3, 2])
    b = paddle.to_tensor([[1.0, 2.0, 3.0], [4.0, 5.0, 7.0]])
    out["cross_axis"] = [_attempt(lambda: paddle.cross(a, a, axis=1)),
                         _attempt(lambda: paddle.cross(b, b, axis=0)),
                         _attempt(lambda: paddle.cross(b, b, axis=2)),
                         _attempt(lambda: paddle.cross(b, b[::-1], axis=-1)),
                         _attempt(lambda: paddle.cross(b.T, b.T[:, ::-1], axis=0)),
                         _attempt(lambda: paddle.linalg.cross(b, paddle.ones([2, 3]), axis=1))]


def eigh_uplo(paddle: Any, out: dict[str, Any]) -> None:
    """``eigh`` / ``eigvalsh`` read the ``UPLO`` triangle only (as LAPACK), for a matrix that is not symmetric too
    (UPLO was ignored: the matrix was symmetrized); the gradient is the symmetric one, in both triangles."""
    la = paddle.linalg
    rng = np.random.default_rng(5)
    m = rng.standard_normal((3, 3)).astype("float32")
    sym = (m + m.T).astype("float32")
    w8 = paddle.to_tensor([1.0, 2.0, 3.0])
    for name, arr in (("nonsym", m), ("sym", sym)):
        for uplo in ("L", "U"):
            x = paddle.to_tensor(arr)
            x.stop_gradient = False
            w, v = la.eigh(x, UPLO=uplo)
            ((v ** 4) * paddle.arange(9, dtype="float32").reshape([3, 3])).sum().backward()
            vgrad = _v(x.grad)
            x.clear_grad()
            ws = la.eigvalsh(x, UPLO=uplo)
            (ws * w8).sum().backward()
            out[f"eigh_{name}_{uplo}"] = [_v(w), _v(v.abs()), vgrad, _v(ws), _v(x.grad)]
    b = paddle.to_tensor(rng.standard_normal((2, 3, 3)).astype("float32"))
    out["eigh_batch_U"] = [_v(la.eigvalsh(b, UPLO="U")), _v(la.eigh(b, UPLO="U")[1].abs())]
    c = paddle.to_tensor((rng.standard_normal((3, 3)) + 1j * rng.standard_normal((3, 3))).astype("complex64"))
    out["eigh_complex"] = [_v(la.eigvalsh(c, UPLO="L")), _v(la.eigvalsh(c, UPLO="U")),
                           _v(la.eigh(c, UPLO="U")[1].abs())]
    out["eigh_bad_uplo"] = _attempt(lambda: la.eigh(b, UPLO="X")[0])
    # (Paddle's eigvalsh reads any UPLO but 'L' as 'U', 'l' too; pylayer_jax raises: test_program_diffs_g.py)


def matrix_rank_tensor_tols(paddle: Any, out: dict[str, Any]) -> None:
    """``matrix_rank`` with ``tol`` / ``atol`` / ``rtol`` tensors: one value per matrix of the batch (it raised)."""
    la = paddle.linalg
    rng = np.random.default_rng(6)
    b = paddle.to_tensor(rng.standard_normal((2, 3, 3)).astype("float32"))
    bb = paddle.stack([b, b * 0.5])
    out["rank_tols"] = [_attempt(lambda: la.matrix_rank(b, tol=paddle.to_tensor([0.5, 1.0]))),
                        _attempt(lambda: la.matrix_rank(bb, tol=paddle.to_tensor([[0.5, 1.0], [2.0, 0.1]]))),
                        _attempt(lambda: la.matrix_rank(b, tol=paddle.to_tensor([0.5]))),
                        _attempt(lambda: la.matrix_rank(b, atol=paddle.to_tensor([0.5, 1.0]))),
                        _attempt(lambda: la.matrix_rank(b, rtol=paddle.to_tensor([0.1, 0.9]))),
                        _attempt(lambda: la.matrix_rank(b, atol=paddle.to_tensor([0.5, 1.0]),
                                                        rtol=paddle.to_tensor([0.1, 0.9]))),
                        _attempt(lambda: la.matrix_rank(b, atol=paddle.to_tensor(1.0))),
                        _attempt(lambda: la.matrix_rank(b @ b.transpose([0, 2, 1]), tol=paddle.to_tensor([3.0, 0.5]),
                                                        hermitian=True))]


def cov_float_fweights(paddle: Any, out: dict[str, Any]) -> None:
    """``linalg.cov`` takes float ``fweights`` with whole values (it raised) and refuses fractional ones."""
    la = paddle.linalg
    rng = np.random.default_rng(7)
    obs = paddle.to_tensor(rng.standard_normal((3, 6)).astype("float32"))
    out["cov_fweights"] = [_attempt(lambda: la.cov(obs, fweights=paddle.to_tensor([1.0, 2, 1, 1, 3, 1]))),
                           _attempt(lambda: la.cov(obs, fweights=paddle.to_tensor([1.0, 2, 1, 1, 3, 1],
                                                                                  dtype="float64"))),
                           _attempt(lambda: la.cov(obs, fweights=paddle.to_tensor([1, 2, 1, 1, 3, 1], dtype="int32"))),
                           _attempt(lambda: la.cov(obs, fweights=paddle.to_tensor([1.0, 2, 1, 1, 3, 1]),
                                                   aweights=paddle.to_tensor([0.5, 1, 1, 2, 1, 1]))),
                           _attempt(lambda: la.cov(obs, fweights=paddle.to_tensor([1.5, 2, 1, 1, 3, 1])))]


def solve_shapes(paddle: Any, out: dict[str, Any]) -> None:
    """``linalg.solve``: ``y`` is a (batch of) vector(s) when 1-D or shaped as ``x`` without its last axis, else a
    matrix broadcast against x's batch (``[3, 1]`` against ``[2, 3, 3]`` raised)."""
    la = paddle.linalg
    rng = np.random.default_rng(8)
    b = paddle.to_tensor((rng.standard_normal((2, 3, 3)) + 3 * np.eye(3)).astype("float32"))
    y = paddle.to_tensor(rng.standard_normal((3, 2)).astype("float32"))
    out["solve_shapes"] = [_attempt(lambda: la.solve(b, y[:, 0].unsqueeze(0).expand([2, 3]))),
                           _attempt(lambda: la.solve(b, y[:, 0])),
                           _attempt(lambda: la.solve(b[0], y.unsqueeze(0).expand([2, 3, 2]))),
                           _attempt(lambda: la.solve(b, y.unsqueeze(0))),
                           _attempt(lambda: la.solve(b, y[:, :1])),
                           _attempt(lambda: la.solve(b, y)),
                           _attempt(lambda: la.solve(b, y.T, left=False)),
                           _attempt(lambda: la.solve(b, paddle.ones([4, 2, 3, 1]))),
                           _attempt(lambda: la.solve(b[0], y[:, 0], left=False))]
    x = paddle.to_tensor(b.numpy())
    x.stop_gradient = False
    yy = paddle.to_tensor(y.numpy())
    yy.stop_gradient = False
    (la.solve(x, yy) * paddle.arange(12, dtype="float32").reshape([2, 3, 2])).sum().backward()
    out["solve_bcast_grad"] = [_v(x.grad), _v(yy.grad)]


def signal_frame_overlap_add(paddle: Any, out: dict[str, Any]) -> None:
    """``paddle.signal.frame`` / ``overlap_add`` (public there outside its ``__all__``; they were missing): both axes,
    batches, ints, their gradients and Paddle's argument rules."""
    frame, overlap_add = paddle.signal.frame, paddle.signal.overlap_add
    x1 = paddle.arange(10)
    x3 = paddle.arange(60, dtype="float32").reshape([2, 3, 10])
    y = paddle.arange(12, dtype="float32").reshape([4, 3])
    out["frame"] = [_attempt(lambda: frame(x1, 4, 2)), _attempt(lambda: frame(x1, 4, 3, axis=0)),
                    _attempt(lambda: frame(x3, 4, 3)), _attempt(lambda: frame(x3.transpose([2, 0, 1]), 4, 3, axis=0)),
                    _attempt(lambda: frame(x1, 10, 1)), _attempt(lambda: frame(x1, 4, 20)),
                    _attempt(lambda: frame(x1, 11, 1)), _attempt(lambda: frame(x1, 4, 0)),
                    _attempt(lambda: frame(x1, 0, 1)), _attempt(lambda: frame(x3, 4, 2, axis=1)),
                    _attempt(lambda: frame(x1, 4.0, 2))]
    out["overlap_add"] = [_attempt(lambda: overlap_add(y, 2)), _attempt(lambda: overlap_add(y.T, 2, axis=0)),
                          _attempt(lambda: overlap_add(x3, 2)), _attempt(lambda: overlap_add(x3, 2, axis=0)),
                          _attempt(lambda: overlap_add(y.astype("int64"), 2)),
                          _attempt(lambda: overlap_add(frame(paddle.arange(10, dtype="float32"), 4, 4), 4)),
                          _attempt(lambda: overlap_add(paddle.arange(12, dtype="float32"), 2)),
                          _attempt(lambda: overlap_add(x3, 0)), _attempt(lambda: overlap_add(x3, 20)),
                          _attempt(lambda: overlap_add(x3, 2, axis=1))]
    xg = paddle.arange(10, dtype="float32")
    xg.stop_gradient = False
    (frame(xg, 4, 2) * paddle.arange(16, dtype="float32").reshape([4, 4])).sum().backward()
    yg = paddle.arange(24, dtype="float32").reshape([4, 3, 2])
    yg.stop_gradient = False
    o = overlap_add(yg, 2, axis=0)
    (o * paddle.arange(o.shape[0] * 2, dtype="float32").reshape([-1, 2])).sum().backward()
    out["frame_grads"] = [_v(xg.grad), _v(yg.grad)]


def default_dtype_followers(paddle: Any, out: dict[str, Any]) -> None:
    """After ``set_default_dtype``: ``Layer.create_parameter`` without a dtype takes the default dtype at the call
    (not the layer's own ``dtype``; it took float32), and a Python float given to ``where`` is a tensor of the
    default dtype that takes part in the promotion (it was a weak scalar)."""
    nn = paddle.nn
    c = paddle.to_tensor([True, False])

    class Custom(nn.Layer):
        def __init__(self):
            super().__init__()
            self.w = self.create_parameter([2])
            self.b = self.create_parameter([2], is_bias=True)

    rows = []
    try:
        for dd in ("float32", "float64"):
            paddle.set_default_dtype(dd)
            m = Custom()
            rows.append([dd, str(m.w.dtype), str(m.b.dtype), str(nn.Layer(dtype="float64").create_parameter([2]).dtype),
                         str(nn.Layer(dtype="float16").create_parameter([2], dtype="float64").dtype)])
            for a, b in ((1.0, 0.0), (1, 0), (1.0, paddle.to_tensor([2.0, 3.0], dtype="float32")),
                         (paddle.to_tensor([2.0, 3.0], dtype="float16"), 0.5), (paddle.to_tensor([2, 3]), 1),
                         (True, False), (paddle.to_tensor([2.0, 3.0], dtype="float64"), 1.0)):
                r = paddle.where(c, a, b)
                rows.append([dd, str(r.dtype), _v(r)])
            rows.append([dd, _attempt(lambda: paddle.where(c, 1.5, paddle.to_tensor([2, 3])))])
    finally:
        paddle.set_default_dtype("float32")
    out["default_dtype_followers"] = rows


def roll_shift_counts(paddle: Any, out: dict[str, Any]) -> None:
    """``paddle.roll``: one shift per axis (a count mismatch was broadcast: ``roll(x, [1, 2], [0])`` rolled axis 0
    by 3), a single shift without an axis, a repeated axis adding its shifts."""
    a = paddle.arange(9).reshape([3, 3])
    out["roll_counts"] = [_attempt(lambda: paddle.roll(a, [1, 2], [0])), _attempt(lambda: paddle.roll(a, 1, [0, 1])),
                          _attempt(lambda: paddle.roll(a, [1, 2])), _attempt(lambda: paddle.roll(a, [1])),
                          _attempt(lambda: paddle.roll(a, (1,), (0,))), _attempt(lambda: paddle.roll(a, [2], 1)),
                          _attempt(lambda: paddle.roll(a, [1, 1], [0, 0])),
                          _attempt(lambda: paddle.roll(a, paddle.to_tensor([1, 2]), [0, 1])),
                          _attempt(lambda: paddle.roll(a, paddle.to_tensor([1, 2]), [0])),
                          _attempt(lambda: a.roll(-1, axis=[1]))]


CASES = (roll_shift_counts, default_dtype_followers, signal_frame_overlap_add, pad_crop_and_modes, cross_axis, eigh_uplo, matrix_rank_tensor_tols, cov_float_fweights, solve_shapes)


def record(paddle: Any) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for case in CASES:
        case(paddle, out)
    return out
