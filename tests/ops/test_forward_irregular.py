"""Focused forward checks for the coverage ops, against numbers recorded from Paddle 3.3.1 (``paddle.<name>``
on the same inputs) or numpy; the eager-only functions; the top-level in-place functions; misuse errors."""

from __future__ import annotations

import jax
import jax.numpy as jnp
import numpy as np
import pytest

import pylayer_jax as P

T = P.to_tensor
X = [[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]


def close(t, want, dtype=None):  # noqa: ANN001, ANN201
    np.testing.assert_allclose(t.numpy(), np.asarray(want), rtol=1e-5, atol=1e-6)
    if dtype is not None:
        assert t.dtype == dtype


# ---- values recorded from Paddle 3.3.1 ------------------------------------------------------------
def test_recorded_elementwise() -> None:
    close(P.frexp(T([8.0, 0.3, -5.0]))[0], [0.5, 0.6, -0.625], P.float32)
    close(P.frexp(T([8.0, 0.3, -5.0]))[1], [4.0, -1.0, 3.0], P.float32)
    close(P.i0(T([1, 2])), [1.2660659, 2.2795851], P.float32)  # integers compute in float32
    close(P.i0e(T([1.0, 2.0])), [0.4657596, 0.3085083])
    close(P.i1(T([1.0, 2.0])), [0.5651591, 1.5906368])
    close(P.copysign(T([1, -2, 3]), T([-1, 1, 0])), [-1, 2, 3], P.int64)
    close(P.copysign(T([1.0, -2.0, 3.0]), -1.0), [-1.0, -2.0, -3.0])
    close(P.ldexp(T([1, 2]), T([2, 3])), [4.0, 16.0], P.float32)
    close(P.gcd(T([12, -18, 0]), T([8, 12, 5])), [4, 6, 5], P.int64)
    close(P.lcm(T([12, -18, 0]), T([8, 12, 5])), [24, 36, 0], P.int64)
    close(P.sinc(T([0.0, 0.5])), [1.0, 0.6366197])
    close(P.polygamma(T([1.0, 2.0]), 1), [1.644934, 0.6449341])
    close(P.multigammaln(T([2.5, 3.0]), 2), [0.8570478, 1.550195])
    close(P.gammaln(T([1.5, 2.0])), [-0.1207822, 0.0])
    close(P.gammainc(T([1.0, 2.0]), T([2.0, 1.0])), [0.8646647, 0.2642411])
    close(P.gammaincc(T([1.0, 2.0]), T([2.0, 1.0])), [0.1353353, 0.7357589])
    close(P.bitwise_right_shift(T([1, -8]), T([2, 1])), [0, -4])
    close(P.bitwise_right_shift(T([1, -8]), T([2, 1]), is_arithmetic=False), [0, 9223372036854775804])
    close(P.bitwise_left_shift(T([1, -8]), T([2, 1])), [4, -16])
    close(P.bitwise_invert(T([1, -8])), [-2, 7])
    close(P.angle(T([-1.0, 2.0])), [np.pi, 0.0], P.float32)
    close(P.true_divide(T([1, 2]), T([2, 2])), [0.5, 1.0], P.float32)
    close(P.nextafter(T([1.0, 2.0]), T([2.0, 1.0])), [1.0000001192092896, 1.9999998807907104])
    assert P.signbit(T([-0.0, 1.0, -2.0])).tolist() == [True, False, True]
    assert P.isin(T([1.0, 2.0, 3.0]), T([2.0, 5.0]), invert=True).tolist() == [True, False, True]
    assert P.isreal(T(np.array([-1 + 1j, 2 + 0j]))).tolist() == [False, True]


def test_recorded_shape_and_index() -> None:
    x = T(X)
    close(P.repeat(x, [2, 1, 2]), np.tile(np.asarray(X), (2, 1, 2)))
    close(P.take(x, T([0, 5, -1])), [1.0, 6.0, 6.0])
    close(P.take(x, T([7, -8]), mode="wrap"), [2.0, 5.0])
    close(P.take(x, T([7, -8]), mode="clip"), [6.0, 1.0])
    close(P.diff(x, n=2, axis=1), [[0.0], [0.0]])
    close(P.diff(x, axis=0, prepend=T([[0.0, 0.0, 0.0]])), [[1.0, 2.0, 3.0], [3.0, 3.0, 3.0]])
    close(P.tensordot(x, x, axes=[[1], [1]]), [[14.0, 32.0], [32.0, 77.0]])
    close(P.tensordot(x, x, axes=[[0, 1]]), 91.0)
    assert [t.shape for t in P.tensor_split(T(np.arange(7.0)), 3)] == [[3], [2], [2]]
    assert [t.shape for t in P.hsplit(T(np.arange(7.0)), [2, 5])] == [[2], [3], [2]]
    close(P.vander(T([1.0, 2.0, 3.0]), 4), [[1, 1, 1, 1], [8, 4, 2, 1], [27, 9, 3, 1]], P.float32)
    close(P.vander(T([1, 2, 3]), increasing=True), [[1, 1, 1], [1, 2, 4], [1, 3, 9]], P.int64)
    close(P.block_diag([T([1.0, 2.0]), T(3.0)]), [[1.0, 2.0, 0.0], [0.0, 0.0, 3.0]])
    close(P.trapezoid(x, x=T([0.0, 1.0, 3.0])), [6.5, 15.5])
    close(P.trapezoid(x, dx=0.5, axis=0), [1.25, 1.75, 2.25])
    close(P.cumulative_trapezoid(x, x=T([0.0, 1.0, 3.0])), [[1.5, 6.5], [4.5, 15.5]])
    close(P.index_add(x, T([0, 2, 0]), 1, T(X), alpha=2), [[9.0, 2.0, 7.0], [24.0, 5.0, 16.0]])
    close(P.index_fill(x, T([0, 2]), 1, -1.0), [[-1.0, 2.0, -1.0], [-1.0, 5.0, -1.0]])
    close(P.index_sample(x, T([[0, 2], [1, 1]])), [[1.0, 3.0], [5.0, 5.0]])
    src = T([[1.0, 2.0], [3.0, 4.0]])
    close(P.scatter_add(x, 1, T([[0, 0], [2, 1]]), src), [[4.0, 2.0, 3.0], [4.0, 9.0, 9.0]])
    close(P.scatter_reduce(x, 1, T([[0, 0], [2, 1]]), src, "amax"), [[2.0, 2.0, 3.0], [4.0, 5.0, 6.0]])
    close(P.scatter_reduce(x, 1, T([[0, 0], [2, 1]]), src, "mean"), [[1.33333, 2.0, 3.0], [4.0, 4.5, 4.5]])
    close(P.scatter_reduce(x, 1, T([[0, 0], [2, 1]]), src, "mean", include_self=False),
          [[1.5, 2.0, 3.0], [4.0, 4.0, 3.0]])
    close(P.permute(x, 1, 0), np.asarray(X).T)
    close(P.narrow(x, 1, 1, 2), [[2.0, 3.0], [5.0, 6.0]])
    close(P.select_scatter(x, T([9.0, 9.0]), 1, 1), [[1.0, 9.0, 3.0], [4.0, 9.0, 6.0]])
    close(P.diagonal_scatter(x, T([9.0, 9.0]), 1), [[1.0, 9.0, 3.0], [4.0, 5.0, 9.0]])
    close(P.slice_scatter(x, T([[9.0], [9.0]]), [1], [0], [3], [2]), [[9.0, 2.0, 9.0], [9.0, 5.0, 9.0]])
    close(P.combinations(T([1, 2, 3]), 2, with_replacement=True), [[1, 1], [1, 2], [1, 3], [2, 2], [2, 3], [3, 3]])
    close(P.bucketize(T([1.0, 2.5, 7.0]), T([1.0, 2.0, 3.0, 5.0]), right=True, out_int32=True), [1, 2, 4], P.int32)
    close(P.reduce_as(x, T([[1.0], [2.0]])), [[6.0], [15.0]])


def test_recorded_linalg_and_stats() -> None:
    x = T(X)
    close(P.addmm(T([1.0, 1.0]), x, x.T, beta=0.5, alpha=2), [[28.5, 64.5], [64.5, 154.5]])
    close(P.mv(x, T([1.0, 0.0, 1.0])), [4.0, 10.0])
    close(P.renorm(x, 2.0, 0, 5.0), [[1.0, 2.0, 3.0], [2.27921, 2.84901, 3.41882]])
    close(P.renorm(x, 1.0, 1, 5.0), [[1.0, 1.42857, 1.66667], [4.0, 3.57143, 3.33333]])
    chol = P.cholesky(T([[4.0, 1.0], [1.0, 3.0]]))
    close(P.cholesky_solve(T([[1.0], [2.0]]), chol), [[0.0909091], [0.6363636]])
    close(P.cholesky_inverse(chol), [[0.2727273, -0.0909091], [-0.0909091, 0.3636364]])
    close(P.cholesky_inverse(chol.T, upper=True), [[0.2727273, -0.0909091], [-0.0909091, 0.3636364]])
    close(P.logcumsumexp(T([[1.0, 0.0, 3.0], [0.0, 5.0, 6.0]]), axis=1),
          [[1.0, 1.31326, 3.16985], [0.0, 5.00672, 6.31507]])
    q = T([[1.0, 5.0, 2.0, 8.0], [3.0, 0.0, 7.0, 4.0]])
    close(P.quantile(q, 0.3), 2.1)
    close(P.quantile(q, [0.3, 0.5], axis=1, keepdim=True), [[[1.9], [2.7]], [[3.5], [3.5]]])
    for method, want in (("lower", [1.0, 0.0]), ("higher", [2.0, 3.0]), ("nearest", [2.0, 3.0]), ("midpoint", [1.5, 1.5])):
        close(P.quantile(q, 0.3, axis=1, interpolation=method), want)
    close(P.nanquantile(T([[1.0, np.nan, 3.0], [np.nan, np.nan, np.nan]]), 0.5, axis=1), [2.0, np.nan])
    m = T([[1.0, np.nan, 3.0, 4.0], [np.nan, np.nan, np.nan, 1.0]])
    close(P.nanmedian(m, axis=1), [3.0, 1.0])
    vals, idx = P.nanmedian(m, axis=1, mode="min")
    close(vals, [3.0, 1.0])
    close(idx, [2, 3], P.int64)
    close(P.nanmedian(m), 2.0)
    close(P.nanmedian(m, mode="min"), 1.0)
    close(P.nanmedian(T([[1, 5, 3, 4]]), axis=1), [3], P.int64)
    close(P.histogram(T([1.0, 2.0, 1.0, 4.0]), bins=4), [2, 1, 0, 1], P.int64)
    close(P.histogram(T([1.0, 2.0, 1.0, 4.0]), bins=3, min=0, max=3), [0, 2, 1])
    close(P.histogram(T([1.0, 2.0, 1.0, 4.0]), bins=3, weight=T([1.0, 2.0, 3.0, 4.0]), density=True), [0.4, 0.2, 0.4])
    close(P.histogram(T([2.0, 2.0]), bins=4), [0, 0, 2, 0])
    close(P.histogram_bin_edges(T([1, 2, 1, 4]), bins=3), [1.0, 2.0, 3.0, 4.0], P.float32)


# ---- eager-only functions ---------------------------------------------------------------------------
def test_nonzero_argwhere_unique_bincount() -> None:
    x = T([[1.0, 0.0, 3.0], [0.0, 5.0, 6.0]])
    close(P.nonzero(x), [[0, 0], [0, 2], [1, 1], [1, 2]], P.int64)
    rows, cols = P.nonzero(x, as_tuple=True)
    assert rows.tolist() == [0, 0, 1, 1] and cols.tolist() == [0, 2, 1, 2]
    close(P.argwhere(x), [[0, 0], [0, 2], [1, 1], [1, 2]])
    out, index, inverse, counts = P.unique(T([3, 1, 2, 1, 3, 3]), return_index=True, return_inverse=True,
                                           return_counts=True)
    assert (out.tolist(), index.tolist(), inverse.tolist(), counts.tolist()) == (
        [1, 2, 3], [1, 2, 0], [2, 0, 1, 0, 2, 2], [2, 1, 3])
    assert P.unique(T([3, 1, 2, 1]), return_index=True, dtype="int32")[1].dtype == P.int32
    rows_u, inv = P.unique(T([[1, 2], [0, 1], [1, 2]]), return_inverse=True, axis=0)
    assert rows_u.tolist() == [[0, 1], [1, 2]] and inv.tolist() == [1, 0, 1]
    vals, inv, cnt = P.unique_consecutive(T([1, 1, 2, 2, 3, 1, 1]), return_inverse=True, return_counts=True)
    assert (vals.tolist(), inv.tolist(), cnt.tolist()) == ([1, 2, 3, 1], [0, 0, 1, 1, 2, 3, 3], [2, 2, 1, 2])
    assert P.bincount(T([1, 1, 3])).tolist() == [0, 2, 0, 1]
    b = P.bincount(T([1, 1, 3]), weights=T([0.5, 1.0, 2.0]), minlength=6)
    close(b, [0.0, 1.5, 0.0, 2.0, 0.0, 0.0], P.float32)
    assert P.bincount(T([1, 1, 3]), weights=T([1, 2, 3], dtype="int32")).dtype == P.float64
    assert T([1, 0, 2]).nonzero().tolist() == [[0], [2]]


def test_eager_only_errors_under_tracing() -> None:
    def f(a):  # noqa: ANN001, ANN202
        return P.nonzero(P.Tensor(a))._value

    with pytest.raises(RuntimeError, match="nonzero: the output shape depends on the values"):
        jax.jit(f)(np.ones(3))
    with pytest.raises(RuntimeError, match="unique: the output shape depends"):
        jax.jit(lambda a: P.unique(P.Tensor(a))._value)(np.ones(3))


def test_misuse_messages() -> None:
    with pytest.raises(ValueError, match="bincount: the elements of x must be non-negative"):
        P.bincount(T([-1, 1]))
    with pytest.raises(ValueError, match="take: with mode='raise' every index must be in"):
        P.take(T(X), T([7]))
    with pytest.raises(ValueError, match="take: mode must be"):
        P.take(T(X), T([0]), mode="bogus")
    with pytest.raises(TypeError, match="real: needs a complex tensor"):
        P.real(T([1.0]))
    with pytest.raises(ValueError, match="nonzero: x must have at least 1 dimension"):
        P.nonzero(T(3.0))
    with pytest.raises(ValueError, match="quantile: q must be in"):
        P.quantile(T(X), 1.5)
    with pytest.raises(ValueError, match="broadcast_shape: the shapes"):
        P.broadcast_shape([2, 3], [4])
    with pytest.raises(TypeError, match="add_: x must be a Tensor"):
        P.add_(np.ones(2), T([1.0, 2.0]))
    with pytest.raises(ValueError, match="vsplit: x needs at least 2 dimensions"):
        P.vsplit(T([1.0, 2.0]), 2)
    with pytest.raises(ValueError, match="scatter_reduce: reduce must be one of"):
        P.scatter_reduce(T(X), 1, T([[0]]), T([[1.0]]), "max")


# ---- helpers ---------------------------------------------------------------------------------------
def test_helpers() -> None:
    x = T(X)
    assert P.is_tensor(x) and not P.is_tensor(np.ones(2))
    assert P.is_floating_point(x) and not P.is_integer(x) and not P.is_complex(x)
    assert P.is_integer(T([1])) and not P.is_integer(T([True]))
    assert P.is_complex(T(np.array([1j])))
    r = P.rank(x)
    assert r.dtype == P.int32 and r.shape == [] and int(r) == 2
    s = P.shape(x)
    assert s.dtype == P.int64 and s.tolist() == [2, 3]
    assert P.broadcast_shape([2, 1, 3], [4, 1]) == [2, 4, 3]
    assert P.broadcast_shapes([2, 1, 3], [4, 1], [1]) == [2, 4, 3]


# ---- top-level in-place functions ------------------------------------------------------------------
def test_inplace_functions_write_into_x() -> None:
    x = T([1.0, 4.0, 9.0])
    v = x.inplace_version
    assert P.sqrt_(x) is x and x.tolist() == [1.0, 2.0, 3.0] and x.inplace_version == v + 1
    P.add_(x, T([1.0, 1.0, 1.0]))
    assert x.tolist() == [2.0, 3.0, 4.0]
    P.clip_(x, 2.5, 3.5)
    assert x.tolist() == [2.5, 3.0, 3.5]
    y = T([[1.0, 2.0], [3.0, 4.0]])
    P.masked_fill_(y, T([[True, False], [False, True]]), 0.0)
    assert y.tolist() == [[0.0, 2.0], [3.0, 0.0]]
    P.index_add_(y, T([1]), 0, T([[10.0, 10.0]]))
    assert y.tolist() == [[0.0, 2.0], [13.0, 10.0]]
    P.scatter_add_(y, 1, T([[0], [0]]), T([[1.0], [1.0]]))
    assert y.tolist() == [[1.0, 2.0], [14.0, 10.0]]
    P.tril_(y)
    assert y.tolist() == [[1.0, 0.0], [14.0, 10.0]]
    g = T([12, 18])
    P.gcd_(g, T([8, 12]))
    assert g.tolist() == [4, 6]


def test_inplace_shape_and_dtype_functions_match_paddle() -> None:
    """Shapes, versions and gradients recorded from Paddle 3.3.1 running the same calls."""
    x = T(np.arange(6.0).reshape(2, 3), stop_gradient=False)
    y = x * 2
    assert P.reshape_(y, [3, 2]) is y and y.shape == [3, 2] and y.inplace_version == 1
    assert P.t_(y) is y and y.shape == [2, 3] and y.inplace_version == 2
    (y * y).sum().backward()
    want = jax.grad(lambda v: jnp.sum(jnp.square(jnp.reshape(v * 2, (3, 2)).T)))(jnp.arange(6.0).reshape(2, 3))
    np.testing.assert_allclose(x.grad.numpy(), np.asarray(want))  # Paddle: [[0, 8, 16], [24, 32, 40]]
    u = T(np.ones((2, 1, 3)))
    P.squeeze_(u, 1)
    assert u.shape == [2, 3]
    P.unsqueeze_(u, 0)
    assert u.shape == [1, 2, 3]
    P.flatten_(u)
    assert u.shape == [6] and u.tolist() == [1.0] * 6
    v = T(np.arange(24.0).reshape(2, 3, 4))
    P.transpose_(v, [2, 0, 1])
    np.testing.assert_array_equal(v.numpy(), np.transpose(np.arange(24.0).reshape(2, 3, 4), [2, 0, 1]))
    c = T([1, 2])
    assert P.cast_(c, "float32") is c and c.dtype == P.float32 and c.tolist() == [1.0, 2.0]
    w = T([1.0, -2.0, 3.0])
    assert P.where_(w > 0, w, P.zeros([3])) is w and w.tolist() == [1.0, 0.0, 3.0]
    m = T(np.ones((2, 3)))
    assert m.reshape_([3, 2]) is m and m.shape == [3, 2] and m.t_().shape == [2, 3]


def test_inplace_shape_functions_refuse_a_leaf_that_needs_grad() -> None:
    x = T(np.ones((2, 3)), stop_gradient=False)
    with pytest.raises(ValueError, match=r"paddle.reshape_: Leaf Var .* can't use inplace strategy"):
        P.reshape_(x, [3, 2])
    with pytest.raises(ValueError, match=r"paddle.where_: an in-place op must keep the shape \[3\], but the result has \[2, 3\]"):
        P.where_(T([[True], [False]]), T([1.0, 2.0, 3.0]), 0.0)


def test_inplace_function_keeps_gradient_flow() -> None:
    a = T([1.0, 2.0], stop_gradient=False)
    b = a * 1.0
    P.exp_(b)
    b.sum().backward()
    np.testing.assert_allclose(a.grad.numpy(), np.exp([1.0, 2.0]), rtol=1e-6)


def test_inplace_refuses_shape_change_and_leaf() -> None:
    with pytest.raises(ValueError, match="in-place op must keep the shape"):
        P.add_(T([1.0, 2.0]), T([[1.0, 2.0], [3.0, 4.0]]))
    with pytest.raises(ValueError, match="Leaf Var"):
        P.tanh_(T([1.0], stop_gradient=False))
