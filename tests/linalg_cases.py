"""The cases of ``paddle.linalg.lstsq`` / ``lu`` / ``lu_unpack`` / ``triangular_solve`` / ``cond`` /
``householder_product`` / ``ormqr`` / ``svd_lowrank`` / ``pca_lowrank`` / ``cov``, written as Paddle code:
``record(paddle)`` runs them with the given library and returns, per key, what they give (values, shapes, dtypes,
gradients, or the type of the error raised). ``record_paddle_linalg.py`` runs it with Paddle 3.3.1 into
``data/paddle_linalg.json``; ``ops/test_linalg_paddle.py`` runs it with pylayer_jax and compares.

The low-rank SVDs are random: their cases record shapes, dtypes and the singular values of a full-rank sketch
(``q = min(m, n)``: exact whatever the sketch), never the random factors themselves.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

_rng = np.random.default_rng(7)
A33 = _rng.standard_normal((3, 3))
A43 = _rng.standard_normal((2, 4, 3))
A35 = _rng.standard_normal((3, 5))
X53 = _rng.standard_normal((5, 3))
Y52 = _rng.standard_normal((5, 2))
X24 = _rng.standard_normal((2, 4))
Y23 = _rng.standard_normal((2, 3))
XB = _rng.standard_normal((2, 5, 3))
YB = _rng.standard_normal((2, 5, 2))
RANKDEF = np.array([[1.0, 2, 3], [2, 4, 6], [1, 0, 1], [0, 1, 1]])
TRI = np.triu(_rng.standard_normal((3, 3))) + 3 * np.eye(3)
TRI_B = _rng.standard_normal((2, 3, 3)) + 3 * np.eye(3)
RHS = _rng.standard_normal((3, 2))
HH = _rng.standard_normal((4, 3))
TAU = _rng.standard_normal(3)
HH_B = _rng.standard_normal((2, 4, 3))
TAU_B = _rng.standard_normal((2, 3))
SQ = _rng.standard_normal((3, 3))
TAU_SQ = _rng.standard_normal(3)
C32 = _rng.standard_normal((3, 2))
C23 = _rng.standard_normal((2, 3))
SQ_B = _rng.standard_normal((2, 3, 3))
TAU_SQ_B = _rng.standard_normal((2, 3))
C_B = _rng.standard_normal((2, 3, 4))
LR = _rng.standard_normal((6, 4))
LR_B = _rng.standard_normal((2, 5, 3))
COV = _rng.standard_normal((3, 5))


def _val(t: Any) -> Any:
    """A Tensor's (or a tuple of Tensors') shape, dtype and values."""
    if isinstance(t, tuple | list):
        return [_val(e) for e in t]
    return {"shape": list(t.shape), "dtype": str(t.dtype).replace("paddle.", ""), "values": t.numpy().tolist()}


def _shapes(t: Any) -> Any:
    if isinstance(t, tuple | list):
        return [_shapes(e) for e in t]
    return {"shape": list(t.shape), "dtype": str(t.dtype).replace("paddle.", "")}


def _err(f: Callable[[], Any]) -> str:
    try:
        f()
    except Exception as e:  # noqa: BLE001  (the type is what is recorded)
        return type(e).__name__
    return "no error"


def _grads(paddle: Any, f: Callable[..., Any], *arrays: np.ndarray) -> list[Any]:
    """The gradients of ``sum(f(*tensors) * weights)`` with respect to each input (a fixed weight per output
    element, so that the sum is not invariant to the factor's sign choices)."""
    ts = [paddle.to_tensor(a, stop_gradient=False) for a in arrays]
    out = f(*ts)
    w = paddle.to_tensor(np.linspace(0.5, 1.5, int(np.prod(out.shape)) or 1)[: int(np.prod(out.shape))]
                         .reshape(out.shape))
    (out * w).sum().backward()
    return [t.grad.numpy().tolist() for t in ts]


def record(paddle: Any) -> dict[str, Any]:  # noqa: PLR0915  (one flat list of cases)
    L, T = paddle.linalg, paddle.to_tensor
    out: dict[str, Any] = {}

    # ---- lu / lu_unpack ----------------------------------------------------------------------------------
    out["lu_square"] = _val(L.lu(T(A33)))
    out["lu_infos"] = _val(L.lu(T(A33), get_infos=True))
    out["lu_batch_rect_f32"] = _val(L.lu(T(A43.astype(np.float32)), get_infos=True))
    out["lu_wide"] = _val(L.lu(T(A35), get_infos=True))
    out["lu_singular"] = _val(L.lu(T(np.array([[1.0, 2], [2, 4]])), get_infos=True))
    out["lu_zero"] = _val(L.lu(T(np.zeros((2, 2))), get_infos=True))
    out["lu_method"] = _val(T(A33).lu())
    out["lu_grad"] = _grads(paddle, lambda x: L.lu(x)[0], A33)
    out["lu_err_1d"] = _err(lambda: L.lu(T(A33[0])))
    out["lu_err_int"] = _err(lambda: L.lu(T(np.ones((2, 2), np.int64))))
    out["lu_err_nopivot"] = _err(lambda: L.lu(T(A33), pivot=False))
    for key, a in (("square", A33), ("batch_rect_f32", A43.astype(np.float32)), ("wide", A35),
                   ("tall", A43[0])):
        lu, piv = L.lu(T(a))
        out[f"lu_unpack_{key}"] = _val(L.lu_unpack(lu, piv))
    lu, piv = L.lu(T(A43[0]))
    out["lu_unpack_no_ludata"] = _val(L.lu_unpack(lu, piv, unpack_ludata=False))
    out["lu_unpack_no_pivots"] = _val(L.lu_unpack(lu, piv, unpack_pivots=False))
    out["lu_unpack_method"] = _val(lu.lu_unpack(piv))
    out["lu_unpack_err_int64_pivots"] = _err(lambda: L.lu_unpack(lu, piv.astype("int64")))
    out["lu_unpack_err_pivot_range"] = _err(lambda: L.lu_unpack(lu, T(np.array([5, 1], np.int32))))
    out["lu_unpack_err_1d"] = _err(lambda: L.lu_unpack(lu[0], piv))

    # ---- lstsq -------------------------------------------------------------------------------------------
    for d in (None, "gels", "gelsy", "gelsd", "gelss"):
        out[f"lstsq_{d}"] = _val(L.lstsq(T(X53), T(Y52), driver=d))
        out[f"lstsq_wide_{d}"] = _val(L.lstsq(T(X24), T(Y23), driver=d))
        out[f"lstsq_batch_{d}"] = _val(L.lstsq(T(XB), T(YB), driver=d))
    out["lstsq_f32"] = _val(L.lstsq(T(X53.astype(np.float32)), T(Y52.astype(np.float32)), driver="gelsd"))
    out["lstsq_rankdef_gelsy"] = _val(L.lstsq(T(RANKDEF), T(np.ones((4, 1))))[:3])
    out["lstsq_rcond"] = _val(L.lstsq(T(RANKDEF), T(np.ones((4, 1))), rcond=0.5, driver="gelsd")[::2])
    out["lstsq_method"] = _val(T(X53).lstsq(T(Y52))[0])
    out["lstsq_err_driver"] = _err(lambda: L.lstsq(T(X53), T(Y52), driver="foo"))
    out["lstsq_err_rows"] = _err(lambda: L.lstsq(T(X53), T(Y52[:4])))
    out["lstsq_err_1d"] = _err(lambda: L.lstsq(T(X53), T(Y52[:, 0])))
    out["lstsq_err_dtype"] = _err(lambda: L.lstsq(T(X53), T(Y52.astype(np.float32))))
    out["lstsq_err_ndim"] = _err(lambda: L.lstsq(T(XB), T(Y52)))
    out["lstsq_err_int"] = _err(lambda: L.lstsq(T(np.ones((3, 2), np.int64)), T(np.ones((3, 1), np.int64))))

    # ---- triangular_solve --------------------------------------------------------------------------------
    for upper in (True, False):
        for transpose in (False, True):
            for unit in (False, True):
                a = TRI if upper else TRI.T
                out[f"trsolve_{upper}_{transpose}_{unit}"] = _val(
                    L.triangular_solve(T(a), T(RHS), upper=upper, transpose=transpose, unitriangular=unit))
    out["trsolve_batch_x"] = _val(L.triangular_solve(T(TRI_B), T(RHS), upper=False))
    out["trsolve_f32"] = _val(L.triangular_solve(T(TRI.astype(np.float32)), T(RHS.astype(np.float32))))
    out["trsolve_grad"] = _grads(paddle, lambda x, y: L.triangular_solve(x, y, transpose=True), TRI, RHS)
    out["trsolve_err_1d"] = _err(lambda: L.triangular_solve(T(TRI), T(RHS[:, 0])))
    out["trsolve_err_square"] = _err(lambda: L.triangular_solve(T(TRI[:2]), T(RHS)))
    out["trsolve_err_dtype"] = _err(lambda: L.triangular_solve(T(TRI), T(RHS.astype(np.float32))))
    out["trsolve_err_int"] = _err(lambda: L.triangular_solve(T(np.eye(2, dtype=np.int64)),
                                                             T(np.ones((2, 1), np.int64))))

    # ---- cond --------------------------------------------------------------------------------------------
    for p in (None, "fro", "nuc", np.inf, -np.inf, 1, -1, 2, -2):
        out[f"cond_{p}"] = _val(L.cond(T(A33), p))
        out[f"cond_batch_{p}"] = _val(L.cond(T(SQ_B), p))
    out["cond_rect_None"] = _val(L.cond(T(X53)))
    out["cond_rect_-2"] = _val(L.cond(T(X24), -2))
    out["cond_f32"] = _val(L.cond(T(A33.astype(np.float32))))
    out["cond_method"] = _val(T(A33).cond("fro"))
    out["cond_grad_None"] = _grads(paddle, lambda x: L.cond(x), A33)
    out["cond_grad_fro"] = _grads(paddle, lambda x: L.cond(x, "fro"), A33)
    out["cond_err_p3"] = _err(lambda: L.cond(T(A33), 3))
    out["cond_err_pstr"] = _err(lambda: L.cond(T(A33), "abc"))
    out["cond_err_rect_fro"] = _err(lambda: L.cond(T(X53), "fro"))
    out["cond_err_1d"] = _err(lambda: L.cond(T(A33[0])))
    out["cond_err_singular_1"] = _err(lambda: L.cond(T(np.array([[1.0, 2], [2, 4]])), 1))

    # ---- householder_product / ormqr ---------------------------------------------------------------------
    out["hh"] = _val(L.householder_product(T(HH), T(TAU)))
    out["hh_short_tau"] = _val(L.householder_product(T(HH), T(TAU[:2])))
    out["hh_batch"] = _val(L.householder_product(T(HH_B), T(TAU_B)))
    out["hh_f32"] = _val(L.householder_product(T(HH.astype(np.float32)), T(TAU.astype(np.float32))))
    out["hh_method"] = _val(T(HH).householder_product(T(TAU)))
    out["hh_err_long_tau"] = _err(lambda: L.householder_product(T(HH), T(np.ones(4))))
    out["hh_err_wide"] = _err(lambda: L.householder_product(T(HH.T), T(TAU[:2])))
    out["hh_err_ndim"] = _err(lambda: L.householder_product(T(HH_B), T(TAU)))
    out["hh_err_dtype"] = _err(lambda: L.householder_product(T(HH), T(TAU.astype(np.float32))))
    for left in (True, False):
        for transpose in (False, True):
            y = C32 if left else C23
            out[f"ormqr_{left}_{transpose}"] = _val(L.ormqr(T(SQ), T(TAU_SQ), T(y), left=left, transpose=transpose))
    out["ormqr_short_tau"] = _err(lambda: L.ormqr(T(SQ), T(TAU_SQ[:2]), T(C32)))
    out["ormqr_batch"] = _val(L.ormqr(T(SQ_B), T(TAU_SQ_B), T(C_B)))
    out["ormqr_method"] = _val(T(SQ).ormqr(T(TAU_SQ), T(C32), transpose=True))
    out["ormqr_err_tall_rows"] = _err(lambda: L.ormqr(T(HH), T(TAU), T(np.ones((4, 2)))))
    out["ormqr_err_rows"] = _err(lambda: L.ormqr(T(SQ), T(TAU_SQ), T(np.ones((2, 2)))))
    out["ormqr_err_tau"] = _err(lambda: L.ormqr(T(SQ), T(np.ones(4)), T(C32)))
    out["ormqr_err_dtype"] = _err(lambda: L.ormqr(T(SQ), T(TAU_SQ), T(C32.astype(np.float32))))
    out["ormqr_err_1d"] = _err(lambda: L.ormqr(T(SQ), T(TAU_SQ), T(C32[:, 0])))

    # ---- svd_lowrank / pca_lowrank -----------------------------------------------------------------------
    paddle.seed(0)
    out["svd_lowrank_default"] = _shapes(L.svd_lowrank(T(LR)))
    out["svd_lowrank_q2"] = _shapes(L.svd_lowrank(T(LR), q=2))
    out["svd_lowrank_wide"] = _shapes(L.svd_lowrank(T(LR.T), q=3))
    out["svd_lowrank_batch"] = _shapes(L.svd_lowrank(T(LR_B), q=2, niter=0))
    out["svd_lowrank_f32"] = _shapes(L.svd_lowrank(T(LR.astype(np.float32)), q=3))
    out["svd_lowrank_big_default"] = _shapes(L.svd_lowrank(T(_rng.standard_normal((30, 20)))))
    out["svd_lowrank_full_S"] = _val(L.svd_lowrank(T(LR), q=4)[1])
    out["svd_lowrank_M_S"] = _val(L.svd_lowrank(T(LR), q=4, M=T(np.ones((1, 4))))[1])
    out["svd_lowrank_method"] = _shapes(T(LR).svd_lowrank(q=2))
    out["svd_lowrank_err_q_big"] = _err(lambda: L.svd_lowrank(T(LR), q=5))
    out["svd_lowrank_err_q_neg"] = _err(lambda: L.svd_lowrank(T(LR), q=-1))
    out["svd_lowrank_err_niter"] = _err(lambda: L.svd_lowrank(T(LR), niter=-1))
    out["svd_lowrank_err_1d"] = _err(lambda: L.svd_lowrank(T(LR[0])))
    out["svd_lowrank_err_M"] = _err(lambda: L.svd_lowrank(T(LR), q=2, M=T(np.ones((3, 4)))))
    out["svd_lowrank_err_int"] = _err(lambda: L.svd_lowrank(T(np.ones((3, 2), np.int64)), q=1))
    out["pca_lowrank_default"] = _shapes(L.pca_lowrank(T(LR)))
    out["pca_lowrank_q2"] = _shapes(L.pca_lowrank(T(LR), q=2, center=False))
    out["pca_lowrank_batch"] = _shapes(L.pca_lowrank(T(LR_B), q=3))
    out["pca_lowrank_full_S"] = _val(L.pca_lowrank(T(LR), q=4)[1])
    out["pca_lowrank_full_S_uncentered"] = _val(L.pca_lowrank(T(LR), q=4, center=False)[1])
    out["pca_lowrank_method"] = _shapes(T(LR).pca_lowrank(q=2))
    out["pca_lowrank_err_q_big"] = _err(lambda: L.pca_lowrank(T(LR), q=5))
    out["pca_lowrank_err_niter"] = _err(lambda: L.pca_lowrank(T(LR), niter=-1))
    out["pca_lowrank_err_1d"] = _err(lambda: L.pca_lowrank(T(LR[0])))

    # ---- cov ---------------------------------------------------------------------------------------------
    out["cov"] = _val(L.cov(T(COV)))
    out["cov_method"] = _val(T(COV).cov(rowvar=False, ddof=False))
    out["cov_weights"] = _val(L.cov(T(COV), fweights=T(np.array([1, 2, 1, 1, 3])),
                                    aweights=T(np.array([0.5, 1.0, 2.0, 1.0, 0.3]))))
    out["cov_err_fweights_len"] = _err(lambda: L.cov(T(COV), fweights=T(np.array([1, 2, 1, 1]))))
    out["cov_err_3d"] = _err(lambda: L.cov(T(A43)))
    return out
