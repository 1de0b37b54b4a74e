"""``paddle.linalg.lstsq`` / ``lu`` / ``lu_unpack`` / ``triangular_solve`` / ``cond`` / ``householder_product`` /
``ormqr`` / ``svd_lowrank`` / ``pca_lowrank`` / ``cov`` against Paddle 3.3.1: values, shapes, dtypes (1-based int32
pivots, LAPACK's infos, which outputs each lstsq driver fills), gradients and error types (cases:
``tests/linalg_cases.py``, recorded by ``tests/record_paddle_linalg.py``); then what Paddle cannot tell us
(gradients it lacks or crashes on, its wrong or garbage answers) against numpy, finite differences and jax.grad,
and each misuse's message.
"""

from __future__ import annotations

import json
import os
import sys

import jax
import jax.numpy as jnp
import numpy as np
import pytest

import pylayer_jax as paddle

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from linalg_cases import HH, SQ, TAU, TAU_SQ, TRI, record  # noqa: E402
from recorded import Recorded  # noqa: E402

with open(os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "data",
                       "paddle_linalg.json")) as _f:
    REF = json.load(_f)
REF.pop("paddle")
# Paddle's answer where ours deliberately differs:
DIFFERENT = {
    # householder_product / ormqr check their arguments with asserts (AssertionError): ours a ValueError naming the rule
    "hh_err_long_tau": "ValueError", "hh_err_wide": "ValueError", "hh_err_ndim": "ValueError",
    "hh_err_dtype": "ValueError", "ormqr_err_rows": "ValueError", "ormqr_err_tau": "ValueError",
    "ormqr_err_dtype": "ValueError", "ormqr_err_1d": "ValueError",
    # Paddle's ormqr multiplies by the reduced m x n Q (householder_product's) and so refuses y with m rows for a
    # tall x, against its own documentation and LAPACK's ormqr: ours takes the full m x m Q (see
    # test_ormqr_tall_uses_the_full_q); it also takes fewer reflectors than x has columns, which Paddle refuses
    "ormqr_err_tall_rows": "no error", "ormqr_short_tau": "no error",
}
OURS = Recorded(record, paddle)


def _close(ours, ref, key):  # noqa: ANN001, ANN202
    if isinstance(ref, list):
        assert isinstance(ours, list) and len(ours) == len(ref), key
        for o, r in zip(ours, ref):
            _close(o, r, key)
    elif isinstance(ref, dict):
        assert ours["shape"] == ref["shape"] and ours["dtype"] == ref["dtype"], (key, ours, ref)
        if "values" not in ref:  # (a random factor: its shape and dtype only)
            return
        tol = dict(rtol=3e-5, atol=3e-5) if ref["dtype"] == "float32" else dict(rtol=1e-7, atol=1e-10)
        np.testing.assert_allclose(np.asarray(ours["values"], float), np.asarray(ref["values"], float), **tol,
                                   err_msg=key)
    elif isinstance(ref, float):
        np.testing.assert_allclose(ours, ref, rtol=1e-7, atol=1e-10, err_msg=key)
    else:
        assert ours == ref, key


@pytest.mark.parametrize("key", sorted(REF))
def test_as_paddle(key: str) -> None:
    if key in DIFFERENT:
        assert REF[key] != DIFFERENT[key] and OURS[key] == DIFFERENT[key], key
    else:
        _close(OURS[key], REF[key], key)


def _full_q(x: np.ndarray, tau: np.ndarray) -> np.ndarray:
    """numpy oracle: the m x m product H_1 ... H_k of the reflectors stored below x's diagonal."""
    m = x.shape[0]
    q = np.eye(m)
    for i in range(len(tau)):
        v = np.zeros(m)
        v[i] = 1.0
        v[i + 1:] = x[i + 1:, i]
        q = q @ (np.eye(m) - tau[i] * np.outer(v, v))
    return q


def test_ormqr_tall_uses_the_full_q() -> None:
    """For a tall x (m > k) the Q of ``ormqr`` is the full m x m product of reflectors (LAPACK's and Paddle's
    documented meaning; Paddle's kernel refuses a y of m rows and multiplies by the m x k Q instead), for every
    side and transpose, and with fewer reflectors than x has columns (numpy's product of reflectors as oracle)."""
    rng = np.random.default_rng(3)
    q = _full_q(HH, TAU)
    y_left, y_right = rng.standard_normal((4, 2)), rng.standard_normal((2, 4))
    for left, transpose, y, want in ((True, False, y_left, q @ y_left), (True, True, y_left, q.T @ y_left),
                                     (False, False, y_right, y_right @ q), (False, True, y_right, y_right @ q.T)):
        got = paddle.linalg.ormqr(paddle.to_tensor(HH), paddle.to_tensor(TAU), paddle.to_tensor(y), left=left,
                                  transpose=transpose)
        np.testing.assert_allclose(got.numpy(), want, rtol=1e-10, atol=1e-12)
    got = paddle.linalg.ormqr(paddle.to_tensor(SQ), paddle.to_tensor(TAU_SQ[:2]), paddle.to_tensor(y_left[:3]))
    np.testing.assert_allclose(got.numpy(), _full_q(SQ, TAU_SQ[:2]) @ y_left[:3], rtol=1e-10, atol=1e-12)
    # householder_product is the first n columns of the same product
    hp = paddle.linalg.householder_product(paddle.to_tensor(HH), paddle.to_tensor(TAU)).numpy()
    np.testing.assert_allclose(hp, q[:, :3], rtol=1e-10, atol=1e-12)


def test_cond_of_a_singular_matrix_raises_eagerly_and_is_inf_traced() -> None:
    """Paddle raises 'Input is not invertible' (ValueError) for a singular matrix with a norm other than the 2-norm;
    so does ours in an eager call. Traced (to_static) there is no value to check: ours is inf there, as numpy's
    ``linalg.cond`` (p=None stays the ratio of singular values: large, finite)."""
    s = paddle.to_tensor(np.array([[1.0, 2.0], [2.0, 4.0]]))
    for p in (1, -1, np.inf, -np.inf, "fro", "nuc"):
        with pytest.raises(ValueError, match=r"cond: p=.* so x must be invertible, but the matrix is singular"):
            paddle.linalg.cond(s, p)
    traced = paddle.jit.to_static(lambda a: paddle.linalg.cond(a, "fro"))
    assert np.isinf(traced(s).numpy())
    assert paddle.linalg.cond(s).numpy() > 1e15


def _fd_grad(f, x: np.ndarray, w: np.ndarray, eps: float = 1e-6) -> np.ndarray:  # noqa: ANN001
    """Central finite differences of ``sum(f(x) * w)``."""
    g = np.zeros_like(x)
    for i in np.ndindex(x.shape):
        d = np.zeros_like(x)
        d[i] = eps
        g[i] = (np.sum(f(x + d) * w) - np.sum(f(x - d) * w)) / (2 * eps)
    return g


def _tensor_grads(fn, *arrays: np.ndarray, w: np.ndarray):  # noqa: ANN001, ANN202
    ts = [paddle.to_tensor(a, stop_gradient=False) for a in arrays]
    (fn(*ts) * paddle.to_tensor(w)).sum().backward()
    return [t.grad.numpy() for t in ts]


def test_householder_product_and_ormqr_gradients() -> None:
    """Paddle's backward of householder_product fails (an in-place version error); ours (JAX has no derivative
    rule for it: the product of reflectors written out gives the tangent) equals central finite differences of
    the forward, for x and tau, and through ormqr for x, tau and y."""
    w = np.linspace(0.5, 1.5, 12).reshape(4, 3)
    gx, gt = _tensor_grads(paddle.linalg.householder_product, HH, TAU, w=w)

    def hp(x: np.ndarray, t: np.ndarray) -> np.ndarray:
        return paddle.linalg.householder_product(paddle.to_tensor(x), paddle.to_tensor(t)).numpy()

    np.testing.assert_allclose(gx, _fd_grad(lambda x: hp(x, TAU), HH, w), rtol=1e-6, atol=1e-7)
    np.testing.assert_allclose(gt, _fd_grad(lambda t: hp(HH, t), TAU, w), rtol=1e-6, atol=1e-7)
    y = np.random.default_rng(4).standard_normal((4, 2))
    w2 = np.linspace(-1.0, 1.0, 8).reshape(4, 2)
    gx, gt, gy = _tensor_grads(lambda a, b, c: paddle.linalg.ormqr(a, b, c, transpose=True), HH, TAU, y, w=w2)

    def oq(x: np.ndarray, t: np.ndarray, c: np.ndarray) -> np.ndarray:
        return paddle.linalg.ormqr(paddle.to_tensor(x), paddle.to_tensor(t), paddle.to_tensor(c),
                                   transpose=True).numpy()

    np.testing.assert_allclose(gx, _fd_grad(lambda x: oq(x, TAU, y), HH, w2), rtol=1e-6, atol=1e-7)
    np.testing.assert_allclose(gt, _fd_grad(lambda t: oq(HH, t, y), TAU, w2), rtol=1e-6, atol=1e-7)
    np.testing.assert_allclose(gy, _fd_grad(lambda c: oq(HH, TAU, c), y, w2), rtol=1e-6, atol=1e-7)


def test_lstsq_and_lu_unpack_gradients() -> None:
    """Paddle's lstsq passes no gradient (x.grad and y.grad stay None) and its lu_unpack backward crashes
    (segfault); ours are JAX's: lstsq's solution differentiates as ``pinv(x) @ y`` for a full-rank x, and
    lu_unpack's L and U as the masks of the packed factor (jax.grad oracles)."""
    rng = np.random.default_rng(5)
    x, y = rng.standard_normal((5, 3)), rng.standard_normal((5, 2))
    w = rng.standard_normal((3, 2))
    gx, gy = _tensor_grads(lambda a, b: paddle.linalg.lstsq(a, b, driver="gelsd")[0], x, y, w=w)
    jx, jy = jax.grad(lambda a, b: jnp.sum(jnp.linalg.pinv(a) @ b * w), argnums=(0, 1))(x, y)
    np.testing.assert_allclose(gx, jx, rtol=1e-8, atol=1e-10)
    np.testing.assert_allclose(gy, jy, rtol=1e-8, atol=1e-10)
    packed = rng.standard_normal((4, 3))
    piv = paddle.to_tensor(np.array([2, 2, 3], np.int32))
    wl, wu = rng.standard_normal((4, 3)), rng.standard_normal((3, 3))
    t = paddle.to_tensor(packed, stop_gradient=False)
    _, low, up = paddle.linalg.lu_unpack(t, piv)
    ((low * paddle.to_tensor(wl)).sum() + (up * paddle.to_tensor(wu)).sum()).backward()
    want = jax.grad(lambda a: jnp.sum(jnp.tril(a, -1) * wl) + jnp.sum(jnp.triu(a[:3]) * wu))(packed)
    np.testing.assert_allclose(t.grad.numpy(), want, rtol=1e-12)


def test_lu_round_trip_and_pivots() -> None:
    """``P @ L @ U`` rebuilds x for square, tall, wide and batched inputs; the pivots are 1-based row numbers;
    infos is the 1-based index of the first zero pivot (numpy as oracle)."""
    rng = np.random.default_rng(6)
    for shape in ((4, 4), (5, 3), (3, 5), (2, 3, 4, 4)):
        a = rng.standard_normal(shape)
        lu, piv, info = paddle.linalg.lu(paddle.to_tensor(a), get_infos=True)
        p, low, up = paddle.linalg.lu_unpack(lu, piv)
        np.testing.assert_allclose(p.numpy() @ low.numpy() @ up.numpy(), a, rtol=1e-10, atol=1e-12)
        assert piv.numpy().min() >= 1 and piv.numpy().max() <= shape[-2]
        assert not info.numpy().any()
    _, _, info = paddle.linalg.lu(paddle.to_tensor(np.array([[0.0, 0.0, 0.0], [0.0, 1.0, 2.0], [0.0, 3.0, 4.0]])),
                                  get_infos=True)
    assert int(info) == 1


def test_lowrank_properties() -> None:
    """svd_lowrank / pca_lowrank: a rank-2 matrix is rebuilt exactly by q=2; U and V have orthonormal columns;
    the same seed gives the same factors, another draw other ones; M is taken away before the SVD; pca's V spans
    the covariance's top eigenvectors with S**2 / (m - 1) its eigenvalues; the gradient of S at full rank is
    the full SVD's (jax.grad oracle; Paddle's own backward here crashes)."""
    rng = np.random.default_rng(8)
    a = rng.standard_normal((7, 2)) @ rng.standard_normal((2, 5))
    paddle.seed(11)
    u, s, v = paddle.linalg.svd_lowrank(paddle.to_tensor(a), q=2)
    np.testing.assert_allclose(u.numpy() @ np.diag(s.numpy()) @ v.numpy().T, a, rtol=1e-9, atol=1e-10)
    np.testing.assert_allclose(u.numpy().T @ u.numpy(), np.eye(2), atol=1e-12)
    np.testing.assert_allclose(v.numpy().T @ v.numpy(), np.eye(2), atol=1e-12)
    x = rng.standard_normal((8, 5))
    paddle.seed(11)
    u1 = paddle.linalg.svd_lowrank(paddle.to_tensor(x), q=3, niter=0)[0].numpy()
    paddle.seed(11)
    u2 = paddle.linalg.svd_lowrank(paddle.to_tensor(x), q=3, niter=0)[0].numpy()
    u3 = paddle.linalg.svd_lowrank(paddle.to_tensor(x), q=3, niter=0)[0].numpy()
    np.testing.assert_array_equal(u1, u2)
    assert not np.allclose(u1, u3)
    m = rng.standard_normal((1, 5))
    s_m = paddle.linalg.svd_lowrank(paddle.to_tensor(x), q=5, M=paddle.to_tensor(m))[1].numpy()
    np.testing.assert_allclose(s_m, np.linalg.svd(x - m, compute_uv=False), rtol=1e-10)
    _, s, v = paddle.linalg.pca_lowrank(paddle.to_tensor(x), q=5)
    evals, evecs = np.linalg.eigh(np.cov(x, rowvar=False))
    np.testing.assert_allclose(s.numpy() ** 2 / 7, evals[::-1], rtol=1e-10)
    np.testing.assert_allclose(np.abs(v.numpy()[:, 0] @ evecs[:, -1]), 1.0, rtol=1e-10)
    t = paddle.to_tensor(x, stop_gradient=False)
    paddle.linalg.svd_lowrank(t, q=5)[1].sum().backward()
    want = jax.grad(lambda z: jnp.sum(jnp.linalg.svd(z, compute_uv=False)))(x)
    np.testing.assert_allclose(t.grad.numpy(), want, rtol=1e-8, atol=1e-10)


def test_triangular_solve_rows_mismatch_raises() -> None:
    """Paddle answers inf / garbage for a y whose rows do not match x's size; ours raises."""
    with pytest.raises(ValueError, match=r"triangular_solve: y must have as many rows as x \(3\) .* y of shape "
                                         r"\[2, 2\]"):
        paddle.linalg.triangular_solve(paddle.to_tensor(TRI), paddle.ones([2, 2], "float64"))


def test_paths() -> None:
    """Paddle's paths: ``paddle.linalg.<name>`` and ``Tensor.<name>`` (not triangular_solve, which Paddle lists
    among its tensor functions but binds to neither); ``paddle.<name>`` too."""
    for n in ("lstsq", "lu", "lu_unpack", "cond", "householder_product", "ormqr", "svd_lowrank", "pca_lowrank",
              "cov", "triangular_solve"):
        assert callable(getattr(paddle.linalg, n)) and callable(getattr(paddle, n)), n
        assert hasattr(paddle.Tensor, n) == (n != "triangular_solve"), n


def test_misuse_messages() -> None:
    L, T = paddle.linalg, paddle.to_tensor
    a = T(np.eye(3))
    with pytest.raises(ValueError, match=r"lu: x must be a matrix or a batch of matrices .* received shape \[3\]"):
        L.lu(a[0])
    with pytest.raises(RuntimeError, match="lu: x must be a float32, float64, complex64 or complex128 tensor, but "
                                           "received dtype int64"):
        L.lu(T(np.ones((2, 2), np.int64)))
    with pytest.raises(ValueError, match="lu: pivot=False .* is not supported, as in Paddle on the CPU"):
        L.lu(a, pivot=False)
    lu, piv = L.lu(a)
    with pytest.raises(ValueError, match="lu_unpack: y \\(the pivots\\) must be an int32 tensor .* received dtype "
                                         "int64"):
        L.lu_unpack(lu, piv.astype("int64"))
    with pytest.raises(ValueError, match=r"lu_unpack: the pivot 5 is out of range: pivots are 1-based row numbers "
                                         r"in \[1, 3\]"):
        L.lu_unpack(lu, T(np.array([5, 1, 1], np.int32)))
    with pytest.raises(ValueError, match="lu_unpack: y \\(the pivots\\) must have at most 3 entries"):
        L.lu_unpack(lu, T(np.ones(4, np.int32)))
    x, y = T(np.ones((5, 3))), T(np.ones((5, 2)))
    with pytest.raises(ValueError, match="lstsq: driver must be 'gels', 'gelsy', 'gelsd', 'gelss' or None .* "
                                         "received 'foo'"):
        L.lstsq(x, y, driver="foo")
    with pytest.raises(ValueError, match=r"lstsq: x \(\[\*, m, n\]\) and y \(\[\*, m, k\]\) must have the same "
                                         r"number of rows m, but received shapes \[5, 3\] and \[4, 2\]"):
        L.lstsq(x, y[:4])
    with pytest.raises(ValueError, match="lstsq: x, y must have the same dtype, but received x float64, y float32"):
        L.lstsq(x, y.astype("float32"))
    with pytest.raises(ValueError, match=r"lstsq: x .* must have the same batch dimensions, but received shapes "
                                         r"\[2, 5, 3\] and \[5, 2\]"):
        L.lstsq(T(np.ones((2, 5, 3))), y)
    with pytest.raises(ValueError, match=r"lstsq: y must be a matrix .* received shape \[5\]"):
        L.lstsq(x, y[:, 0])
    with pytest.raises(ValueError, match=r"triangular_solve: x must be a square matrix .* received shape \[2, 3\]"):
        L.triangular_solve(a[:2], T(np.ones((3, 1))))
    with pytest.raises(RuntimeError, match="triangular_solve: x must be a float32"):
        L.triangular_solve(T(np.eye(2, dtype=np.int64)), T(np.ones((2, 1), np.int64)))
    with pytest.raises(ValueError, match=r"triangular_solve: the batch dimensions of x \[2\] and y \[3\] must "
                                         "broadcast together"):
        L.triangular_solve(T(np.ones((2, 3, 3))), T(np.ones((3, 3, 1))))
    with pytest.raises(ValueError, match=r"cond: p must be None, 'fro', 'nuc', 1, -1, 2, -2, inf or -inf, but "
                                         "received 3"):
        L.cond(a, 3)
    with pytest.raises(ValueError, match=r"cond: p='fro' needs square matrices .* received shape \[5, 3\]. Use "
                                         "p=None, 2 or -2"):
        L.cond(x, "fro")
    with pytest.raises(ValueError, match="householder_product: tau must have at most as many entries as x has "
                                         r"columns \(3\)"):
        L.householder_product(T(HH), T(np.ones(4)))
    with pytest.raises(ValueError, match=r"householder_product: x must have at least as many rows as columns"):
        L.householder_product(T(HH.T), T(TAU[:2]))
    with pytest.raises(ValueError, match=r"householder_product: tau must have one dimension less than x"):
        L.householder_product(T(np.ones((2, 4, 3))), T(TAU))
    with pytest.raises(TypeError, match=r"householder_product: x must be a float32, .* received dtype int64"):
        L.householder_product(T(np.ones((4, 3), np.int64)), T(np.ones(3, np.int64)))
    with pytest.raises(ValueError, match=r"ormqr: with left=True, y must have as many rows as x has rows \(3\), as "
                                         r"Q is 3 x 3, but received y of shape \[2, 2\]"):
        L.ormqr(T(SQ), T(TAU_SQ), T(np.ones((2, 2))))
    with pytest.raises(ValueError, match=r"ormqr: tau must have at most min\(m, k\) = 3 entries"):
        L.ormqr(T(SQ), T(np.ones(4)), T(np.ones((3, 2))))
    with pytest.raises(ValueError, match="ormqr: x, tau, y must have the same dtype"):
        L.ormqr(T(SQ), T(TAU_SQ), T(np.ones((3, 2), np.float32)))
    lr = T(np.ones((6, 4)))
    with pytest.raises(ValueError, match=r"svd_lowrank: q must be an int in \[0, min\(m, n\)\] = \[0, 4\] for x of "
                                         r"shape \[6, 4\], but received 5"):
        L.svd_lowrank(lr, q=5)
    with pytest.raises(ValueError, match="pca_lowrank: niter .* must be an int >= 0, but received -1"):
        L.pca_lowrank(lr, niter=-1)
    with pytest.raises(ValueError, match=r"svd_lowrank: M must broadcast to x's shape \[6, 4\], but received shape "
                                         r"\[3, 4\]"):
        L.svd_lowrank(lr, q=2, M=T(np.ones((3, 4))))
    with pytest.raises(RuntimeError, match="svd_lowrank: x must be a float32"):
        L.svd_lowrank(T(np.ones((3, 2), np.int64)), q=1)


def test_lstsq_rank_deficient_residuals() -> None:
    """For a tall rank-deficient x Paddle's 'gelsd'/'gelss' return empty residuals (the shape depends on the
    values' rank): so do ours in an eager call (``tests/ops/test_linalg_singular.py``). 'gels' (which assumes full
    rank) keeps the ``[k]`` shape of a full-rank x, holding the squared residual norms of the minimum-norm solution,
    which is Paddle's solution of the other drivers too (numpy's lstsq as oracle)."""
    x = np.array([[1.0, 2, 3], [2, 4, 6], [1, 0, 1], [0, 1, 1]])
    y = np.array([[1.0], [0.5], [2.0], [1.0]])
    want, _, rank, sv = np.linalg.lstsq(x, y, rcond=None)
    for driver in ("gels", "gelsd", "gelss"):
        sol, resid, r, s = paddle.linalg.lstsq(paddle.to_tensor(x), paddle.to_tensor(y), driver=driver)
        np.testing.assert_allclose(sol.numpy(), want, rtol=1e-10)
        if driver == "gels":
            np.testing.assert_allclose(resid.numpy(), ((y - x @ want) ** 2).sum(0), rtol=1e-10)
        else:
            assert resid.shape == [0]
            assert int(r) == rank == 2
            np.testing.assert_allclose(s.numpy(), sv, rtol=1e-10, atol=1e-12)
