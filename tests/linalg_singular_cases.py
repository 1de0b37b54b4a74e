"""The cases of ``paddle.linalg`` on singular, non-positive-definite and rank-deficient input, written as Paddle code:
``record(paddle)`` runs them with the given library and returns, per key, what they give (the values, or the type of
the error raised). ``record_paddle_linalg_singular.py`` runs it with Paddle 3.3.1 into
``data/paddle_linalg_singular.json``; ``linalg/test_singular_inputs.py`` runs it with pylayer_jax and compares.

What Paddle 3.3.1 (CPU) does: ``cholesky`` of a matrix that is not positive definite raises ValueError (naming the
batch entry); ``inv`` / ``inverse`` / ``solve`` / ``matrix_power`` with a negative power / ``cholesky_inverse`` /
``cond`` with a norm that inverts raise ValueError ("Input is not invertible.") where the LU factorization meets a
zero (or NaN) pivot; ``cholesky_solve`` / ``triangular_solve`` with a zero on the factor's diagonal return inf;
``lu`` reports the zero pivot in its infos; ``det`` / ``slogdet`` give 0 / -inf; ``pinv`` works; ``lstsq`` with
'gelsy' / 'gelsd' / 'gelss' returns the rank and no residuals (empty) when a matrix is rank-deficient.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

SING = [[1.0, 2.0], [2.0, 4.0]]  # rank 1: its LU meets an exact zero pivot
NOTPD = [[1.0, 2.0], [2.0, 1.0]]  # symmetric, eigenvalues 3 and -1
EYE = [[2.0, 0.0], [0.0, 3.0]]
NAN, INF = float("nan"), float("inf")
RANKDEF = [[1.0, 2.0], [2.0, 4.0], [3.0, 6.0]]  # 3 x 2 of rank 1
RHS3 = [[1.0], [2.0], [4.0]]
FULL = [[1.0, 2.0], [0.0, 1.0], [1.0, 1.0]]  # 3 x 2 of rank 2


def _val(t: Any) -> Any:
    """A Tensor's (or a tuple of Tensors') shape, dtype and values (NaN and inf as the strings 'nan', 'inf', '-inf'
    so that the fixture stays plain JSON)."""
    if isinstance(t, tuple | list):
        return [_val(e) for e in t]
    a = t.numpy()
    if np.iscomplexobj(a):
        vals: Any = [np.real(a).tolist(), np.imag(a).tolist()]
    elif a.dtype.kind == "f":
        obj = a.astype(object)
        obj[np.isnan(a)] = "nan"
        obj[np.isposinf(a)] = "inf"
        obj[np.isneginf(a)] = "-inf"
        vals = obj.tolist()
    else:
        vals = a.tolist()
    return {"shape": list(t.shape), "dtype": str(t.dtype).replace("paddle.", ""), "values": vals}


def _try(f: Callable[[], Any]) -> Any:
    try:
        return _val(f())
    except Exception as e:  # noqa: BLE001  (the type of the error is the case's result)
        return {"error": type(e).__name__}


def record(paddle: Any) -> dict[str, Any]:  # noqa: PLR0915
    L = paddle.linalg
    out: dict[str, Any] = {}
    for dt in ("float32", "float64"):
        def T(a: Any, dt: str = dt) -> Any:
            return paddle.to_tensor(np.array(a, dt))

        # ---- cholesky: not positive definite ---------------------------------------------------------------
        out[f"cholesky_notpd_{dt}"] = _try(lambda T=T: L.cholesky(T(NOTPD)))
        out[f"cholesky_batch_{dt}"] = _try(lambda T=T: L.cholesky(T([EYE, NOTPD])))
        out[f"cholesky_psd_singular_{dt}"] = _try(lambda T=T: L.cholesky(T(SING)))
        out[f"cholesky_upper_notpd_{dt}"] = _try(lambda T=T: L.cholesky(T(NOTPD), upper=True))
        out[f"cholesky_method_{dt}"] = _try(lambda T=T: T(NOTPD).cholesky())
        out[f"cholesky_good_batch_{dt}"] = _try(lambda T=T: paddle.cholesky(T([EYE, [[4.0, 2.0], [2.0, 3.0]]])))
        # ---- inverse, solve, matrix_power: singular --------------------------------------------------------
        out[f"inv_singular_{dt}"] = _try(lambda T=T: L.inv(T(SING)))
        out[f"inverse_batch_{dt}"] = _try(lambda T=T: paddle.inverse(T([EYE, SING])))
        out[f"inverse_method_{dt}"] = _try(lambda T=T: T(SING).inverse())
        out[f"inv_zeros_{dt}"] = _try(lambda T=T: L.inv(T([[0.0, 0.0], [0.0, 0.0]])))
        out[f"inv_good_batch_{dt}"] = _try(lambda T=T: L.inv(T([EYE, NOTPD])))
        out[f"solve_singular_{dt}"] = _try(lambda T=T: L.solve(T(SING), T([[1.0], [2.0]])))
        out[f"solve_batch_{dt}"] = _try(lambda T=T: L.solve(T([EYE, SING]), T([[[1.0], [2.0]]] * 2)))
        out[f"solve_vector_{dt}"] = _try(lambda T=T: L.solve(T(SING), T([1.0, 2.0])))
        out[f"solve_left_false_{dt}"] = _try(lambda T=T: L.solve(T(SING), T([[1.0, 2.0]]), left=False))
        out[f"solve_good_{dt}"] = _try(lambda T=T: L.solve(T(NOTPD), T([[1.0], [2.0]])))
        out[f"matrix_power_m1_{dt}"] = _try(lambda T=T: L.matrix_power(T(SING), -1))
        out[f"matrix_power_m2_batch_{dt}"] = _try(lambda T=T: L.matrix_power(T([EYE, SING]), -2))
        out[f"matrix_power_0_{dt}"] = _try(lambda T=T: L.matrix_power(T(SING), 0))
        out[f"matrix_power_2_{dt}"] = _try(lambda T=T: L.matrix_power(T(SING), 2))
        out[f"matrix_power_m1_good_{dt}"] = _try(lambda T=T: L.matrix_power(T(NOTPD), -1))
        out[f"cholesky_inverse_zero_{dt}"] = _try(lambda T=T: L.cholesky_inverse(T([[1.0, 0.0], [1.0, 0.0]])))
        out[f"cond_fro_singular_{dt}"] = _try(lambda T=T: L.cond(T(SING), p="fro"))
        out[f"cond_inf_singular_{dt}"] = _try(lambda T=T: L.cond(T(SING), p=float("inf")))
        # ---- what returns values -----------------------------------------------------------------------------
        out[f"cholesky_solve_zero_{dt}"] = _try(lambda T=T: L.cholesky_solve(T([[1.0], [2.0]]),
                                                                             T([[1.0, 0.0], [1.0, 0.0]])))
        out[f"triangular_solve_zero_{dt}"] = _try(lambda T=T: L.triangular_solve(T([[1.0, 1.0], [0.0, 0.0]]),
                                                                                 T([[1.0], [2.0]])))
        out[f"lu_singular_{dt}"] = _try(lambda T=T: L.lu(T(SING), get_infos=True))
        out[f"lu_batch_{dt}"] = _try(lambda T=T: L.lu(T([EYE, SING]), get_infos=True))
        out[f"lu_unpack_singular_{dt}"] = _try(lambda T=T: L.lu_unpack(*L.lu(T(SING))))
        out[f"multi_dot_singular_{dt}"] = _try(lambda T=T: L.multi_dot([T(SING), T(SING), T(EYE)]))
        out[f"eigvals_singular_{dt}"] = _try(lambda T=T: L.eig(T(SING))[0])
        out[f"det_singular_{dt}"] = _try(lambda T=T: L.det(T([EYE, SING])))
        out[f"slogdet_singular_{dt}"] = _try(lambda T=T: L.slogdet(T([EYE, SING])))
        out[f"matrix_rank_singular_{dt}"] = _try(lambda T=T: L.matrix_rank(T(SING)))
        # ---- lstsq on rank-deficient input -------------------------------------------------------------------
        for drv in ("gelsy", "gelsd", "gelss"):
            out[f"lstsq_rankdef_{drv}_{dt}"] = _try(lambda T=T, drv=drv: L.lstsq(T(RANKDEF), T(RHS3), driver=drv))
            out[f"lstsq_full_{drv}_{dt}"] = _try(lambda T=T, drv=drv: L.lstsq(T(FULL), T(RHS3), driver=drv))
            out[f"lstsq_batch_{drv}_{dt}"] = _try(lambda T=T, drv=drv: L.lstsq(T([FULL, RANKDEF]), T([RHS3, RHS3]),
                                                                               driver=drv))
        out[f"lstsq_full_gels_{dt}"] = _try(lambda T=T: L.lstsq(T(FULL), T(RHS3), driver="gels"))
        out[f"lstsq_default_rankdef_{dt}"] = _try(lambda T=T: L.lstsq(T(RANKDEF), T(RHS3)))
    f64 = "float64"
    out["pinv_singular_float64"] = _try(lambda: L.pinv(paddle.to_tensor(np.array(SING, f64))))
    out["lstsq_rankdef_gels_float32"] = _try(
        lambda: L.lstsq(paddle.to_tensor(np.array(RANKDEF, "float32")), paddle.to_tensor(np.array(RHS3, "float32")),
                        driver="gels"))
    # ---- NaN and inf inputs --------------------------------------------------------------------------------------
    out["inv_nan"] = _try(lambda: L.inv(paddle.to_tensor(np.array([[NAN, 1.0], [1.0, 2.0]]))))
    out["inv_inf"] = _try(lambda: L.inv(paddle.to_tensor(np.array([[INF, 1.0], [1.0, 2.0]]))))
    out["solve_nan_x"] = _try(lambda: L.solve(paddle.to_tensor(np.array([[NAN, 0.0], [0.0, 3.0]])),
                                              paddle.to_tensor(np.array([[1.0], [1.0]]))))
    out["solve_nan_y"] = _try(lambda: L.solve(paddle.to_tensor(np.array([[2.0, 0.0], [0.0, 3.0]])),
                                              paddle.to_tensor(np.array([[NAN], [1.0]]))))
    out["cholesky_nan"] = _try(lambda: L.cholesky(paddle.to_tensor(np.array([[NAN, 1.0], [1.0, 2.0]]))))
    out["cholesky_inf"] = _try(lambda: L.cholesky(paddle.to_tensor(np.array([[INF, 1.0], [1.0, 2.0]]))))
    # (only the lower triangle is read, the upper one with upper=True: a large entry in the other one is ignored)
    out["cholesky_reads_lower"] = _try(lambda: L.cholesky(paddle.to_tensor(np.array([[4.0, 100.0], [1.0, 2.0]]))))
    out["cholesky_reads_lower_bad"] = _try(lambda: L.cholesky(paddle.to_tensor(np.array([[4.0, 1.0],
                                                                                          [100.0, 2.0]]))))
    out["cholesky_upper_reads_upper_bad"] = _try(
        lambda: L.cholesky(paddle.to_tensor(np.array([[4.0, 100.0], [1.0, 2.0]])), upper=True))
    out["cholesky_upper_reads_upper_good"] = _try(
        lambda: L.cholesky(paddle.to_tensor(np.array([[4.0, 1.0], [100.0, 2.0]])), upper=True))
    for upper in (False, True):  # (the gradient: both triangles, symmetric)
        def grad(upper: bool = upper) -> Any:
            x = paddle.to_tensor(np.array([[4.0, 2.0], [2.0, 3.0]]), stop_gradient=False)
            (L.cholesky(x, upper=upper) * paddle.to_tensor(np.array([[1.0, 2.0], [3.0, 4.0]]))).sum().backward()
            return x.grad
        out[f"cholesky_grad_upper_{upper}"] = _try(grad)
    out["inv_empty_batch"] = _try(lambda: L.inv(paddle.zeros([0, 2, 2], "float64")))
    # ---- inside to_static ----------------------------------------------------------------------------------------
    out["to_static_cholesky_notpd"] = _try(
        lambda: paddle.jit.to_static(lambda x: L.cholesky(x) * 1.0)(paddle.to_tensor(np.array(NOTPD))))
    out["to_static_inv_singular"] = _try(
        lambda: paddle.jit.to_static(lambda x: L.inv(x) * 1.0)(paddle.to_tensor(np.array(SING))))

    def static_inv() -> Any:  # (a static program: the executor runs it on the fed values)
        paddle.enable_static()
        try:
            main, startup = paddle.static.Program(), paddle.static.Program()
            with paddle.static.program_guard(main, startup):
                y = L.inv(paddle.static.data("x", [2, 2], "float64"))
            exe = paddle.static.Executor()
            exe.run(startup)
            got = exe.run(main, feed={"x": np.array(SING)}, fetch_list=[y])[0]
        finally:
            paddle.disable_static()
        return paddle.to_tensor(got)

    out["static_inv_singular"] = _try(static_inv)
    return out
