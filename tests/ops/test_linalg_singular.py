"""``paddle.linalg`` on singular, non-positive-definite and rank-deficient input against Paddle 3.3.1 (cases:
``tests/linalg_singular_cases.py``, recorded by ``tests/record_paddle_linalg_singular.py``): the error type where
Paddle raises (cholesky of a matrix that is not positive definite; inv / inverse / solve / matrix_power with n < 0 /
cholesky_inverse / cond of a singular matrix), the values where it returns them (inf from triangular solves, lu's
infos, det, slogdet, pinv, lstsq's rank and its residuals left empty for a rank-deficient matrix); then each error's
message, the deferred check of an input that trains, and the traced calls that cannot check (inf / NaN).
"""

from __future__ import annotations

import os
import sys

import jax
import jax.numpy as jnp
import numpy as np
import pytest

import pylayer_jax as paddle

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from linalg_singular_cases import EYE, NOTPD, SING, record  # noqa: E402
from recorded import Recorded, paddle_fixture  # noqa: E402

REF = paddle_fixture("paddle_linalg_singular.json")
# Paddle's answer where ours deliberately differs (see the tests below for ours):
DIFFERENT = {
    # to_static, a static program: Paddle's kernel runs on the values and raises; a traced call has none to check
    # (ours: inf / NaN)
    "to_static_cholesky_notpd", "to_static_inv_singular", "static_inv_singular",
    # 'gels' assumes full rank: Paddle's float32 LAPACK meets an exact zero on R's diagonal and raises RuntimeError,
    # its float64 one returns a huge solution; ours is the minimum-norm solution for every driver
    "lstsq_rankdef_gels_float32",
    # an inf on the diagonal: Paddle's Eigen factor keeps it ([[inf, 0], [0, 1.41]]), LAPACK's gives NaN
    "cholesky_inf",
}
OURS = Recorded(record, paddle)


def _close(ours, ref, key):  # noqa: ANN001, ANN202
    if isinstance(ref, list):
        assert isinstance(ours, list) and len(ours) == len(ref), (key, ours, ref)
        for o, r in zip(ours, ref):
            _close(o, r, key)
    elif "error" in ref:
        assert ours == ref, (key, ours)
    else:
        assert ours.get("shape") == ref["shape"] and ours["dtype"] == ref["dtype"], (key, ours, ref)
        o = np.asarray(ours["values"], dtype=object)
        r = np.asarray(ref["values"], dtype=object)
        strings = np.vectorize(lambda v: isinstance(v, str))(r) if r.size else r.astype(bool)
        assert np.array_equal(np.vectorize(lambda v: isinstance(v, str))(o) if o.size else o.astype(bool), strings)
        assert (o[strings] == r[strings]).all(), (key, ours, ref)  # 'nan', 'inf', '-inf' where Paddle has them
        tol = dict(rtol=3e-5, atol=1e-6) if ref["dtype"] in ("float32", "complex64") else dict(rtol=1e-9, atol=1e-12)
        np.testing.assert_allclose(o[~strings].astype(float), r[~strings].astype(float), **tol, err_msg=key)


@pytest.mark.parametrize("key", sorted(set(REF) - DIFFERENT))
def test_as_paddle(key: str) -> None:
    _close(OURS[key], REF[key], key)


def test_every_case_recorded() -> None:
    assert sorted(OURS) == sorted(REF)


def test_the_differences_are_what_they_say() -> None:
    assert REF["to_static_inv_singular"] == {"error": "ValueError"}
    assert OURS["to_static_inv_singular"]["values"] == [["-inf", "inf"], ["inf", "-inf"]]
    assert OURS["to_static_cholesky_notpd"]["values"][1] == ["nan", "nan"]
    assert REF["static_inv_singular"] == {"error": "ValueError"}
    assert OURS["static_inv_singular"]["values"] == [["-inf", "inf"], ["inf", "-inf"]]
    assert REF["lstsq_rankdef_gels_float32"] == {"error": "RuntimeError"}
    # ours: the minimum-norm solution, as the other drivers' (numpy's lstsq is the oracle)
    a = np.array([[1.0, 2.0], [2.0, 4.0], [3.0, 6.0]], np.float32)
    b = np.array([[1.0], [2.0], [4.0]], np.float32)
    np.testing.assert_allclose(OURS["lstsq_rankdef_gels_float32"][0]["values"], np.linalg.lstsq(a, b, rcond=None)[0],
                               rtol=1e-5)
    assert REF["cholesky_inf"]["values"] == [["inf", 0.0], [0.0, 1.4142135623730951]]
    assert OURS["cholesky_inf"]["values"][1] == ["nan", "nan"]


T = paddle.to_tensor


@pytest.mark.parametrize("dt", ["float32", "float64"])
def test_each_error_names_the_api_the_rule_the_matrix_and_the_fix(dt: str) -> None:
    L = paddle.linalg
    s, b = T(np.array(SING, dt)), T(np.array([EYE, SING], dt))
    with pytest.raises(ValueError, match=r"cholesky: x must be symmetric positive definite, but matrix 1 of the "
                                         r"batch is not .* \(x \+ eps \* I\)\."):
        L.cholesky(T(np.array([EYE, NOTPD], dt)))
    with pytest.raises(ValueError, match=r"cholesky: .* but the matrix is not"):
        T(np.array(NOTPD, dt)).cholesky(upper=True)
    with pytest.raises(ValueError, match=r"inverse: x must be an invertible matrix, but matrix 1 of the batch is "
                                         r"singular \(its LU factorization meets a zero or NaN pivot\).*pinv"):
        paddle.inverse(b)
    with pytest.raises(ValueError, match=r"inverse: .* but the matrix is singular"):
        s.inverse()
    with pytest.raises(ValueError, match=r"solve: x must be an invertible matrix, but matrix 1 of the batch is "
                                         r"singular .*paddle.linalg.lstsq"):
        L.solve(b, T(np.ones((2, 2, 1), dt)))
    with pytest.raises(ValueError, match=r"solve: .* but the matrix is singular"):
        L.solve(s, T(np.ones(2, dt)))
    with pytest.raises(ValueError, match=r"matrix_power: the negative power n=-2 inverts x, but matrix 1 of the "
                                         r"batch is singular"):
        L.matrix_power(b, -2)
    with pytest.raises(ValueError, match=r"cholesky_inverse: x must be the Cholesky factor of a positive definite "
                                         r"matrix \(no zero on its diagonal\), but the matrix is singular"):
        L.cholesky_inverse(T(np.array([[1.0, 0.0], [1.0, 0.0]], dt)))
    with pytest.raises(ValueError, match=r"matrix 1 of the batch"):
        L.cond(b, p="nuc")


def test_a_batch_of_several_axes_names_the_entry_by_its_index() -> None:
    x = np.broadcast_to(np.array(EYE), (2, 3, 2, 2)).copy()
    x[1, 2] = SING
    with pytest.raises(ValueError, match=r"inverse: .* but matrix \(1, 2\) of the batch is singular"):
        paddle.linalg.inv(T(x))


def test_an_input_that_trains_is_checked_when_its_buffer_runs() -> None:
    """An op on an input that trains is recorded (deferred): its check runs with the buffer, at the first read of a
    value or at backward, and names the line of the call."""
    x = T(np.array([EYE, SING]), stop_gradient=False)
    y = paddle.linalg.inv(x)
    with pytest.raises(ValueError, match=r"inverse: .* matrix 1 of the batch is singular.*\(called at .*"
                                         r"test_linalg_singular.py:\d+\)"):
        y.numpy()
    c = T(np.array(NOTPD), stop_gradient=False)
    with pytest.raises(ValueError, match=r"cholesky: .* the matrix is not"):
        paddle.linalg.cholesky(c).sum().backward()


def test_traced_calls_cannot_check_and_give_inf_or_nan() -> None:
    """Inside jax.jit (as inside to_static or a static program) the values are not known when the op is traced:
    no error, the result holds inf / NaN (documented on each op)."""
    f = jax.jit(lambda a: paddle.linalg.solve(paddle.Tensor(a), paddle.Tensor(jnp.ones((2, 1))))._v)
    assert not np.isfinite(np.asarray(f(jnp.asarray(SING)))).any()
    g = jax.jit(lambda a: paddle.linalg.cholesky(paddle.Tensor(a))._v)
    assert np.isnan(np.asarray(g(jnp.asarray(NOTPD)))[1]).all()


def test_good_input_still_gives_its_values_and_gradients() -> None:
    """The checks pass a well-conditioned batch through; cholesky's gradient stays the symmetric one (oracle:
    jax.grad of jnp.linalg.cholesky, which symmetrizes its input), and its value reads only the lower triangle."""
    a = np.array([[4.0, 2.0], [2.0, 3.0]])
    x = T(a, stop_gradient=False)
    paddle.linalg.cholesky(x).sum().backward()
    np.testing.assert_allclose(x.grad.numpy(), jax.grad(lambda m: jnp.linalg.cholesky(m).sum())(a), rtol=1e-12)
    y = T(a, stop_gradient=False)
    (paddle.linalg.inv(y) * 2.0).sum().backward()
    np.testing.assert_allclose(y.grad.numpy(), jax.grad(lambda m: (jnp.linalg.inv(m) * 2.0).sum())(a), rtol=1e-12)
    skew = np.array([[4.0, 99.0], [2.0, 3.0]])
    np.testing.assert_allclose(paddle.linalg.cholesky(T(skew)).numpy(), np.linalg.cholesky(a), rtol=1e-12)
    np.testing.assert_allclose(paddle.linalg.cholesky(T(skew.T), upper=True).numpy(), np.linalg.cholesky(a).T,
                               rtol=1e-12)


def test_lstsq_residuals_are_kept_where_every_matrix_has_full_rank() -> None:
    """'gelsd' / 'gelss' residuals: the squared norms of y - x @ solution (oracle: numpy) for full-rank matrices,
    an empty [0] tensor as soon as one matrix of the batch is rank-deficient (Paddle's rule)."""
    x = np.array([[1.0, 2.0], [0.0, 1.0], [1.0, 1.0]])
    y = np.array([[1.0], [2.0], [4.0]])
    for drv in ("gelsd", "gelss"):
        sol, res, rank, _ = paddle.linalg.lstsq(T(x), T(y), driver=drv)
        np.testing.assert_allclose(res.numpy(), ((y - x @ sol.numpy()) ** 2).sum(0), rtol=1e-10)
        assert int(rank) == 2
        _, res, rank, _ = T(np.stack([x, np.array([[1.0, 2.0], [2.0, 4.0], [3.0, 6.0]])])).lstsq(
            T(np.stack([y, y])), driver=drv)
        assert res.shape == [0] and rank.numpy().tolist() == [2, 1]
