"""Focused forward checks for the elementwise, logic, reduction and creation families.

Values come from numpy; dtype rules and tie-breaking numbers marked "Paddle 3.3.1" were
recorded from real Paddle on CPU.
"""

from __future__ import annotations

import numpy as np
import pytest

import pylayer_jax as P


def t(v, dtype=None, sg=True):
    return P.to_tensor(v, dtype=dtype, stop_gradient=sg)


# ---- dtype rules -------------------------------------------------------------------------------
@pytest.mark.parametrize(
    "fn,args,dtype",
    [
        # recorded from Paddle 3.3.1
        (P.divide, ([7, -7, 3], [2, 2, 2]), "float32"),
        (P.floor_divide, ([7, -7, 3], [2, 2, -2]), "int64"),
        (P.remainder, ([7, -7, 3], [2, 2, -2]), "int64"),
        (P.exp, ([1, 2],), "float32"),
        (P.sqrt, ([1, 4],), "float32"),
        (P.abs, ([-1, 2],), "int64"),
        (P.square, ([-1, 2],), "int64"),
        (P.sign, ([-1, 2],), "int64"),
        (P.floor, ([-1, 2],), "int64"),
        (P.hypot, ([3], [4]), "float32"),
        (P.atan2, ([1], [1]), "float64"),
        (P.sum, ([1, 2],), "int64"),
        (P.mean, ([1, 2],), "int64"),
        (P.cumsum, ([1, 2],), "int64"),
        (P.logsumexp, ([1, 2],), "float32"),
        (P.std, ([1, 2],), "float32"),
        (P.median, ([1, 2],), "float32"),
        (P.count_nonzero, ([0.0, 2.0],), "int64"),
        (P.isnan, ([1.0],), "bool"),
        (P.equal, ([1.0], [1.0]), "bool"),
        (P.logical_and, ([1, 0], [2, 2]), "bool"),
    ],
)
def test_result_dtypes(fn, args, dtype):
    assert fn(*[t(a) for a in args]).dtype == getattr(P, dtype)


def test_int_dtypes_kept_or_widened():
    i32 = t([1, 2, 3], "int32")
    assert P.sum(i32).dtype == P.int64 and P.sum(i32, dtype="int32").dtype == P.int32
    assert P.prod(i32).dtype == P.int32
    assert P.cumsum(i32).dtype == P.int64  # Paddle 3.3.1
    assert P.cumprod(i32, 0).dtype == P.int32
    assert P.sum(t([True, False, True])).item() == 2


def test_mean_of_integers_truncates_like_paddle():
    # Paddle 3.3.1: mean([[7,-7,3],[1,2,2]]) -> int64 1
    r = P.mean(t([[7, -7, 3], [1, 2, 2]]))
    assert r.dtype == P.int64 and r.item() == 1
    np.testing.assert_array_equal(P.mean(t([[1, 2], [4, 7]]), axis=1).numpy(), [1, 5])


def test_mixed_dtype_tensors_raise_like_paddle():
    with pytest.raises(TypeError, match="add: Paddle combines tensors of different dtypes only when both are floating"):
        P.add(t([1.0]), t([1]))
    with pytest.raises(TypeError, match="int32 and int64"):
        P.multiply(t([1], "int32"), t([1]))
    with pytest.raises(TypeError, match="equal: .*float32 and int64"):
        P.equal(t([1.0]), t([1]))
    # two floating dtypes promote
    assert P.add(t([1.0]), t([1.0], "float64")).dtype == P.float64


def test_scalar_operands_adapt_to_the_tensor():
    i = t([7, -7, 3])
    assert P.add(i, 2).dtype == P.int64
    r = P.add(i, 1.5)
    assert r.dtype == P.float32
    np.testing.assert_allclose(r.numpy(), [8.5, -5.5, 4.5])
    assert P.pow(i, 2.0).dtype == P.int64  # Paddle 3.3.1 keeps x's dtype for a scalar exponent
    np.testing.assert_array_equal(P.pow(i, 2).numpy(), [49, 49, 9])
    assert P.multiply(t([1.0, 2.0], "float64"), 2.0).dtype == P.float64


def test_remainder_and_floor_divide_follow_python_signs():
    x, y = np.array([7.0, -7.0, 3.0]), np.array([2.0, 2.0, -2.0])
    np.testing.assert_array_equal(P.remainder(t(x), t(y)).numpy(), np.remainder(x, y).astype(np.float32))
    np.testing.assert_array_equal(P.mod(t(x), t(y)).numpy(), [1.0, 1.0, -1.0])
    np.testing.assert_array_equal(P.floor_divide(t([7, -7, 3]), t([2, 2, -2])).numpy(), [3, -4, -2])


def test_divide_rounding_modes():
    x, y = t([7, -7, 5]), t([2, 2, -3])
    np.testing.assert_array_equal(P.divide(x, y, rounding_mode="trunc").numpy(), [3, -3, -1])
    np.testing.assert_array_equal(P.divide(x, y, rounding_mode="floor").numpy(), [3, -4, -2])
    with pytest.raises(ValueError, match="rounding_mode must be None, 'trunc' or 'floor'"):
        P.divide(x, y, rounding_mode="ceil")


# ---- clip and where ----------------------------------------------------------------------------
def test_clip_scalars_tensors_and_int_with_float_bounds():
    x = np.array([[-2.0, 0.0, 0.3], [0.6, 1.5, -0.2]])
    np.testing.assert_allclose(P.clip(t(x), -0.5, 0.5).numpy(), np.clip(x, -0.5, 0.5))
    np.testing.assert_allclose(P.clip(t(x), min=0.1).numpy(), np.maximum(x, 0.1).astype(np.float32))
    lo, hi = np.array([-1.0, 0.1, 0.0]), np.array([[0.5], [1.0]])
    np.testing.assert_allclose(P.clip(t(x), t(lo), t(hi)).numpy(), np.clip(x, lo, hi).astype(np.float32))
    r = P.clip(t([7, -7, 3]), 0.5, 2.5)  # Paddle 3.3.1: float32 [2.5, 0.5, 2.5]
    assert r.dtype == P.float32
    np.testing.assert_allclose(r.numpy(), [2.5, 0.5, 2.5])
    assert P.clip(t([7, -7, 3]), -2, 2).dtype == P.int64


def test_clip_gradient_passes_at_the_bounds():
    # Paddle 3.3.1: clip(x, 0, 1) at [-1, 0, 0.5, 1, 2] gives grads [0, 1, 1, 1, 0]
    x = t([-1.0, 0.0, 0.5, 1.0, 2.0], sg=False)
    P.clip(x, 0.0, 1.0).sum().backward()
    np.testing.assert_array_equal(x.grad.numpy(), [0, 1, 1, 1, 0])


def test_where_with_tensors_and_scalars():
    c = np.array([True, False, True])
    x, y = np.array([1.0, 2.0, 3.0]), np.array([10.0, 20.0, 30.0])
    np.testing.assert_allclose(P.where(t(c), t(x), t(y)).numpy(), np.where(c, x, y))
    r = P.where(t(c), 1.0, 0.0)
    assert r.dtype == P.float32
    np.testing.assert_array_equal(r.numpy(), [1.0, 0.0, 1.0])
    assert P.where(t(c), t([7, -7, 3]), 0).dtype == P.int64
    xt, yt = t(x, sg=False), t(y, sg=False)
    P.where(t(c), xt, yt).sum().backward()
    np.testing.assert_array_equal(xt.grad.numpy(), [1, 0, 1])
    np.testing.assert_array_equal(yt.grad.numpy(), [0, 1, 0])
    # neither x nor y: the indices of the true elements, as Paddle (nonzero(condition, as_tuple=True))
    (idx,) = P.where(t(c))
    np.testing.assert_array_equal(idx.numpy(), [0, 2])
    with pytest.raises(ValueError, match="where: give both x and y"):
        P.where(t(c), t(x))


# ---- gradients that differ from a naive derivative ------------------------------------------------
def test_abs_and_extreme_gradients_at_ties_and_zero():
    # recorded from Paddle 3.3.1
    x = t([-1.0, 0.0, 2.0], sg=False)
    P.abs(x).sum().backward()
    np.testing.assert_array_equal(x.grad.numpy(), [-1, 0, 1])
    x = t([3.0, 1.0, 3.0], sg=False)
    P.max(x).backward()
    np.testing.assert_array_equal(x.grad.numpy(), [0.5, 0, 0.5])
    a, b = t([1.0, 2.0, 3.0], sg=False), t([1.0, 1.0, 4.0], sg=False)
    P.maximum(a, b).sum().backward()
    np.testing.assert_array_equal(a.grad.numpy(), [0.5, 1, 0])
    np.testing.assert_array_equal(b.grad.numpy(), [0.5, 0, 1])
    a, b = t([1.0, 2.0, 3.0], sg=False), t([1.0, 1.0, 4.0], sg=False)
    P.fmax(a, b).sum().backward()
    np.testing.assert_array_equal(a.grad.numpy(), [1, 1, 0])


def test_norm_inf_ties_and_zero_vector():
    x = t([3.0, -3.0, 1.0], sg=False)
    P.norm(x, p=float("inf")).backward()  # Paddle 3.3.1: [1, -1, 0]
    np.testing.assert_array_equal(x.grad.numpy(), [1, -1, 0])
    z = t([0.0, 0.0], sg=False)
    P.norm(z, p=2).backward()
    np.testing.assert_array_equal(z.grad.numpy(), [0, 0])


def test_norm_values_match_numpy():
    x = np.array([[1.5, -2.5, 3.0], [0.5, 3.0, 3.0]])
    tx = t(x)
    np.testing.assert_allclose(P.norm(tx).item(), np.linalg.norm(x), rtol=1e-6)
    np.testing.assert_allclose(P.norm(tx, p=1, axis=1).numpy(), [7.0, 6.5])
    np.testing.assert_allclose(P.norm(tx, p=2, axis=[0, 1]).item(), np.linalg.norm(x, 2), rtol=1e-6)
    np.testing.assert_allclose(P.norm(tx, p="nuc", axis=[0, 1]).item(), np.linalg.norm(x, "nuc"), rtol=1e-6)
    np.testing.assert_allclose(P.norm(tx, p=0, axis=1).numpy(), [3.0, 3.0])
    np.testing.assert_allclose(P.norm(tx, p=-float("inf"), axis=1).numpy(), [1.5, 0.5])
    # as in Paddle: 'nuc' without axis is the matrix norm of a 2-D input, and p=None over two axes the spectral norm
    np.testing.assert_allclose(P.norm(tx, p="nuc").item(), np.linalg.norm(x, "nuc"), rtol=1e-6)
    np.testing.assert_allclose(P.norm(tx, axis=[0, 1]).item(), np.linalg.norm(x, 2), rtol=1e-6)
    with pytest.raises(ValueError, match="norm: a matrix norm needs axis to name exactly two dimensions"):
        P.norm(t(np.ones((2, 2, 2))), p="nuc")


# ---- reductions: axes, keepdim ----------------------------------------------------------------------
def test_axis_lists_and_keepdim():
    x = np.arange(24.0).reshape(2, 3, 4)
    tx = t(x)
    assert P.sum(tx, axis=[0, 2], keepdim=True).shape == [1, 3, 1]
    np.testing.assert_allclose(P.amax(tx, axis=[0, 2]).numpy(), x.max(axis=(0, 2)))
    np.testing.assert_allclose(P.var(tx, axis=1).numpy(), x.var(axis=1, ddof=1), rtol=1e-6)
    np.testing.assert_allclose(P.var(tx, axis=1, unbiased=False).numpy(), x.var(axis=1), rtol=1e-6)
    np.testing.assert_allclose(
        P.std(tx, axis=[1, 2], keepdim=True).numpy(), x.std(axis=(1, 2), ddof=1, keepdims=True), rtol=1e-6
    )
    assert P.mean(tx, axis=[]).shape == []  # an empty axis list reduces everything (Paddle 3.3.1)


def test_argmax_argmin():
    x = np.array([[1.5, -2.5, 3.0], [0.5, 3.0, 3.0]])
    r = P.argmax(t(x))
    assert r.dtype == P.int64 and r.shape == [] and r.item() == 2
    r = P.argmax(t(x), axis=1, keepdim=True)
    np.testing.assert_array_equal(r.numpy(), [[2], [1]])  # first of tied maxima, as Paddle 3.3.1
    assert P.argmin(t(x), axis=0, dtype="int32").dtype == P.int32


def test_topk_sort_argsort_kthvalue():
    x = np.array([1.0, 3.0, 2.0, 3.0, 5.0])
    v, i = P.topk(t(x), 2)  # Paddle 3.3.1: [5, 3], [4, 1]
    np.testing.assert_array_equal(v.numpy(), [5.0, 3.0])
    np.testing.assert_array_equal(i.numpy(), [4, 1])
    assert i.dtype == P.int64
    m = np.array([[1.5, -2.5, 3.0], [0.5, 3.0, 3.0]])
    v, i = P.topk(t(m), 2, axis=1, largest=False)
    np.testing.assert_array_equal(v.numpy(), [[-2.5, 1.5], [0.5, 3.0]])
    np.testing.assert_array_equal(i.numpy(), [[1, 0], [0, 1]])
    np.testing.assert_array_equal(P.argsort(t(x), descending=True).numpy(), [4, 1, 3, 2, 0])
    np.testing.assert_array_equal(P.sort(t(m), axis=0, descending=True).numpy(), [[1.5, 3.0, 3.0], [0.5, -2.5, 3.0]])
    v, i = P.kthvalue(t(m), 2)
    np.testing.assert_array_equal(v.numpy(), [1.5, 3.0])
    np.testing.assert_array_equal(i.numpy(), [0, 1])
    v, i = P.kthvalue(t(m), 1, axis=0, keepdim=True)
    assert v.shape == [1, 3]
    np.testing.assert_array_equal(i.numpy(), [[1, 0, 0]])


def test_topk_gradient_goes_to_picked_elements():
    x = t([1.0, 3.0, 2.0, 5.0], sg=False)
    v, _ = P.topk(x, 2)
    (v * t([10.0, 1.0])).sum().backward()
    np.testing.assert_array_equal(x.grad.numpy(), [0, 1, 0, 10])


def test_mode_median_cummax():
    v, i = P.mode(t([[1.0, 3, 3, 2], [2, 2, 1, 1]]))  # Paddle 3.3.1: [3, 1], [2, 3]
    np.testing.assert_array_equal(v.numpy(), [3.0, 1.0])
    np.testing.assert_array_equal(i.numpy(), [2, 3])
    assert P.median(t([1.0, 4, 2, 3])).item() == 2.5
    v, i = P.median(t([[1.5, -2.5, 3.0], [0.5, 3.0, 3.0]]), axis=1, mode="min")
    np.testing.assert_array_equal(v.numpy(), [1.5, 3.0])
    np.testing.assert_array_equal(i.numpy(), [0, 1])
    assert P.median(t([1.0, 4, 2, 3]), mode="min").item() == 2.0
    v, i = P.cummax(t([1.0, 3, 2, 3, 5]))  # Paddle 3.3.1 indices [0, 1, 1, 3, 4]
    np.testing.assert_array_equal(v.numpy(), [1, 3, 3, 3, 5])
    np.testing.assert_array_equal(i.numpy(), [0, 1, 1, 3, 4])
    v, i = P.cummin(t([3.0, 1, 2, 1, 0]), axis=0)
    np.testing.assert_array_equal(i.numpy(), [0, 1, 1, 3, 4])
    with pytest.raises(ValueError, match="median: mode must be 'avg' or 'min'"):
        P.median(t([1.0]), mode="max")


def test_nan_reductions_and_truth_tests():
    x = np.array([1.0, np.nan, 3.0])
    assert P.nanmean(t(x)).item() == 2.0
    assert P.nansum(t(x)).item() == 4.0
    xt = t(x, sg=False)
    P.nansum(xt).backward()  # Paddle 3.3.1: no gradient at the NaN
    np.testing.assert_array_equal(xt.grad.numpy(), [1, 0, 1])
    assert P.all(t([[1.5, 2.0]])).item() is True
    np.testing.assert_array_equal(P.any(t([[0, 1], [0, 0]]), axis=1).numpy(), [True, False])
    assert P.numel(t(np.zeros((2, 3)))).item() == 6


# ---- logic ----------------------------------------------------------------------------------------
def test_comparisons_and_logic():
    x, y = t([1.0, 2.0]), t([1.0, 3.0])
    np.testing.assert_array_equal(P.equal(x, 1.0).numpy(), [True, False])
    assert P.equal_all(x, y).item() is False and P.equal_all(x, t([1.0, 2.0])).item() is True
    assert P.equal_all(x, t([1.0, 2.0, 3.0])).item() is False  # different shapes: False, no error
    assert P.allclose(t([1.0]), t([1.00001])).item() is False  # Paddle 3.3.1
    np.testing.assert_array_equal(P.isclose(t([np.nan, 1.0]), t([np.nan, 1.0]), equal_nan=True).numpy(), [True, True])
    np.testing.assert_array_equal(P.logical_not(t([1.5, 0.0])).numpy(), [False, True])
    np.testing.assert_array_equal(P.bitwise_not(t([1, 0])).numpy(), [-2, -1])
    np.testing.assert_array_equal(P.bitwise_not(t([True, False])).numpy(), [False, True])
    np.testing.assert_array_equal((t([True, False]) & t([True, True])).numpy(), [True, False])
    with pytest.raises(TypeError, match="bitwise_and: bitwise ops need integer or bool tensors"):
        P.bitwise_and(x, x)
    assert P.is_empty(t(np.zeros((0, 3)))).item() is True
    assert (x > 1.5).numpy().tolist() == [False, True]


# ---- creation ---------------------------------------------------------------------------------------
def test_creation_default_dtypes():
    # recorded from Paddle 3.3.1
    assert P.full([2], 3).dtype == P.float32
    assert P.full([2], True).dtype == P.bool
    assert P.full_like(t([1, 2, 3], "int32"), 2.7).numpy().tolist() == [2, 2, 2]
    assert P.zeros(2).shape == [2]
    assert P.zeros(t([2, 1])).shape == [2, 1]
    assert P.ones_like(t([1, 2], "int32")).dtype == P.int32
    assert P.eye(2, 3).numpy().tolist() == [[1, 0, 0], [0, 1, 0]]


def test_creation_follows_default_dtype():
    P.set_default_dtype("float64")
    try:
        assert P.zeros([1]).dtype == P.float64
        assert P.full([1], 1).dtype == P.float64
        assert P.arange(0.5).dtype == P.float64
        assert P.linspace(0, 1, 2).dtype == P.float64
        assert P.exp(t([1])).dtype == P.float32  # math autocast stays float32 (Paddle 3.3.1)
    finally:
        P.set_default_dtype("float32")


def test_arange_dtypes_and_values():
    r = P.arange(5)
    assert r.dtype == P.int64 and r.numpy().tolist() == [0, 1, 2, 3, 4]
    r = P.arange(0.0, 1.0, 0.25)
    assert r.dtype == P.float32
    np.testing.assert_allclose(r.numpy(), [0, 0.25, 0.5, 0.75])
    assert P.arange(1, 5, 2).numpy().tolist() == [1, 3]
    assert P.arange(5, dtype="float32").dtype == P.float32
    assert P.arange(t(3)).numpy().tolist() == [0, 1, 2]
    np.testing.assert_allclose(P.arange(5, 0, -1.5).numpy(), np.arange(5, 0, -1.5))
    with pytest.raises(ValueError, match="arange: step must not be 0"):
        P.arange(0, 3, 0)


def test_ranges_diagonals_triangles():
    np.testing.assert_array_equal(P.linspace(0, 10, 5, dtype="int32").numpy(), [0, 2, 5, 7, 10])
    np.testing.assert_allclose(P.logspace(0, 2, 3, base=2.0).numpy(), [1, 2, 4])
    d = P.diag(t([1.5, -2.5, 3.0]), offset=1, padding_value=9)
    assert d.shape == [4, 4] and d.numpy()[0].tolist() == [9.0, 1.5, 9.0, 9.0]
    assert P.diag(t([[1, 2], [3, 4]]), offset=-1).numpy().tolist() == [3]
    assert P.diagflat(t([[1, 2], [3, 4]]), offset=1).shape == [5, 5]
    e = P.diag_embed(t([[1.0, 2], [3, 4]]), offset=1, dim1=0, dim2=2)
    assert e.shape == [3, 2, 3]
    np.testing.assert_array_equal(e.numpy()[:, 1, :], np.diag([3.0, 4.0], 1))
    np.testing.assert_array_equal(P.tril_indices(3, 3, 0).numpy(), [[0, 1, 1, 2, 2, 2], [0, 0, 1, 0, 1, 2]])
    np.testing.assert_array_equal(P.triu_indices(3).numpy(), [[0, 0, 0, 1, 1, 2], [0, 1, 2, 1, 2, 2]])
    np.testing.assert_array_equal(P.tril(P.ones([3, 3]), -1).numpy(), np.tril(np.ones((3, 3)), -1))
    a, b = P.meshgrid(t([1, 2]), t([3, 4, 5]))
    assert a.shape == [2, 3] and b.numpy().tolist() == [[3, 4, 5], [3, 4, 5]]
    a2, _ = P.meshgrid([t([1, 2]), t([3, 4, 5])])
    np.testing.assert_array_equal(a2.numpy(), a.numpy())


def test_assign_and_clone():
    assert P.assign([1, 2]).dtype == P.int64
    assert P.assign([1.0, 2]).dtype == P.float64  # Paddle 3.3.1
    x = t([1.0, 2.0], sg=False)
    c = x.clone()
    assert c.stop_gradient is False
    (c * 3).sum().backward()
    np.testing.assert_array_equal(x.grad.numpy(), [3, 3])
    out = t([0.0, 0.0])  # writing into output, as in Paddle (tensor/test_grad_writes.py::test_assign_into_output)
    assert P.assign(x, output=out) is out
    np.testing.assert_array_equal(out.numpy(), [1.0, 2.0])


def test_shape_errors():
    with pytest.raises(ValueError, match="zeros: every dimension of shape must be >= 0"):
        P.zeros([2, -1])
    with pytest.raises(ValueError, match="diag: x must be 1-D or 2-D"):
        P.diag(P.zeros([2, 2, 2]))


def test_float32_exp_is_computed_in_float32_within_one_ulp() -> None:
    """No float64 detour (a slow path on GPUs, missing on TPUs); the result is within one ulp of the correctly
    rounded exp (numpy's float64 exp rounded to float32), which is what Paddle prints."""
    import jax
    import jax.numpy as jnp

    from pylayer_jax._ops.table import TABLE

    x = np.linspace(-20, 20, 4001, dtype=np.float32)
    jaxpr = jax.make_jaxpr(lambda v: TABLE["exp"].call(None, (), (), [v]))(jnp.asarray(x))
    assert "f64" not in str(jaxpr)
    got = P.exp(P.to_tensor(x)).numpy()
    assert got.dtype == np.float32
    want = np.exp(x.astype(np.float64)).astype(np.float32)
    assert np.abs(got.view(np.int32) - want.view(np.int32)).max() <= 1
