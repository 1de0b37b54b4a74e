"""Forward checks for the shape, gather, linalg, random and nn.functional families.

Numbers marked "Paddle 3.3.1" were recorded by running the same call in real Paddle
(paddle.<fn> / paddle.nn.functional.<fn> on CPU) and copying the printed result.
"""

from __future__ import annotations

import jax
import numpy as np
import pytest

import pylayer_jax as paddle
import pylayer_jax.nn.functional as F
from pylayer_jax._ops.table import TABLE
from pylayer_jax._runtime.kernel_cache import KernelCache


def T(a, dtype=None):  # noqa: ANN001, ANN201, N802
    return paddle.to_tensor(a, dtype=dtype)


# ---- shapes ------------------------------------------------------------------------
def test_reshape_zero_copies_dim_and_minus_one_is_inferred() -> None:
    x = paddle.ones([2, 3, 4])
    assert paddle.reshape(x, [0, -1]).shape == [2, 12]
    assert paddle.reshape(x, [-1, 0, 2]).shape == [4, 3, 2]
    assert x.reshape([0, 0, -1]).shape == [2, 3, 4]
    np.testing.assert_array_equal(paddle.reshape(T(np.arange(6.0)), [3, -1]).numpy(), np.arange(6.0).reshape(3, 2))


def test_reshape_errors() -> None:
    x = paddle.ones([2, 3])
    with pytest.raises(ValueError, match="only one dimension of shape may be -1"):
        paddle.reshape(x, [-1, -1])
    with pytest.raises(ValueError, match="element counts must match"):
        paddle.reshape(x, [4, 2])


def test_split_sections_with_minus_one() -> None:
    x = T(np.arange(24.0).reshape(2, 3, 4))
    parts = paddle.split(x, [1, -1, 1], axis=2)  # Paddle 3.3.1: shapes [2,3,1], [2,3,2], [2,3,1]
    assert [p.shape for p in parts] == [[2, 3, 1], [2, 3, 2], [2, 3, 1]]
    np.testing.assert_array_equal(parts[1].numpy(), np.arange(24.0).reshape(2, 3, 4)[:, :, 1:3])
    assert [p.shape for p in paddle.split(x, 2, axis=-1)] == [[2, 3, 2], [2, 3, 2]]
    with pytest.raises(ValueError, match="cannot be split into 3 equal parts"):
        paddle.split(x, 3, axis=2)
    with pytest.raises(ValueError, match="do not add up"):
        paddle.split(x, [1, 1], axis=2)


def test_squeeze_unsqueeze_paddle_rules() -> None:
    # Paddle 3.3.1: unsqueeze inserts one axis after another; squeeze skips axes whose size is not 1
    x = paddle.ones([3, 4])
    assert paddle.unsqueeze(x, [0, -1]).shape == [1, 3, 4, 1]
    assert paddle.unsqueeze(x, [-1, -1]).shape == [3, 4, 1, 1]
    assert paddle.unsqueeze(x, [1, 0]).shape == [1, 3, 1, 4]
    assert paddle.squeeze(paddle.ones([1, 3, 1]), [0, 1]).shape == [3, 1]
    assert paddle.flatten(T(1.0)).shape == [1]


def test_misc_shape_ops_match_paddle() -> None:
    # all expected values recorded from Paddle 3.3.1
    assert paddle.swapaxes(paddle.ones([2, 3, 4]), 0, 2).shape == [4, 3, 2]
    assert paddle.swapaxes(paddle.ones([2, 3, 4]), [2, 0, 1]).shape == [4, 2, 3]
    assert paddle.atleast_3d(paddle.ones([3])).shape == [1, 3, 1]
    assert paddle.atleast_3d(paddle.ones([2, 3])).shape == [2, 3, 1]
    assert paddle.atleast_2d(T(1.0)).shape == [1, 1]
    assert isinstance(paddle.atleast_1d(paddle.ones([2]), paddle.ones([2])), list)
    assert paddle.crop(paddle.ones([3, 4]), shape=[-1, 2], offsets=[1, 1]).shape == [2, 2]
    assert paddle.slice(paddle.ones([4, 5]), axes=[0, 1], starts=[-3, 0], ends=[1000, -1]).shape == [3, 4]
    np.testing.assert_array_equal(
        paddle.strided_slice(paddle.arange(10), axes=[0], starts=[8], ends=[1], strides=[-3]).numpy(), [8, 5, 2]
    )
    r = paddle.repeat_interleave(T([[1, 2], [3, 4]]), T([1, 2]), axis=0)
    assert r.numpy().tolist() == [[1, 2], [3, 4], [3, 4]]
    assert paddle.repeat_interleave(T([[1, 2], [3, 4]]), 2).numpy().tolist() == [1, 1, 2, 2, 3, 3, 4, 4]
    assert paddle.trace(paddle.ones([2, 3, 4]), 0, 1, 2).shape == [2]
    assert paddle.gather(paddle.ones([3, 4]), T(1)).shape == [4]
    with pytest.raises(ValueError, match="at most 2 dimensions"):
        paddle.t(paddle.ones([2, 2, 2]))


def test_concat_and_stack_take_lists() -> None:
    a, b = T([[1.0, 2.0]]), T([[3.0, 4.0]])
    np.testing.assert_array_equal(paddle.concat([a, b], axis=1).numpy(), [[1, 2, 3, 4]])
    assert paddle.stack([a, b]).shape == [2, 1, 2]
    a.stop_gradient = False
    paddle.concat([a, b]).sum().backward()
    np.testing.assert_array_equal(a.grad.numpy(), [[1.0, 1.0]])


# ---- gather / scatter ------------------------------------------------------------------
def test_scatter_overwrite_false_zeroes_then_sums() -> None:
    x = T(np.arange(12.0).reshape(4, 3))
    out = paddle.scatter(x, T([1, 1, 2]), paddle.ones([3, 3]) * 5, overwrite=False)
    # Paddle 3.3.1
    np.testing.assert_array_equal(out.numpy(), [[0, 1, 2], [10, 10, 10], [5, 5, 5], [9, 10, 11]])


def test_put_along_axis_reductions() -> None:
    # Paddle 3.3.1
    x = paddle.full([2, 3], 2.0)
    mul = paddle.put_along_axis(x, T([[0], [0]]), 3.0, 1, reduce="mul")
    np.testing.assert_array_equal(mul.numpy(), [[6, 2, 2], [6, 2, 2]])
    add = paddle.put_along_axis(x, T([[0, 0], [1, 1]]), 3.0, 1, reduce="add")
    np.testing.assert_array_equal(add.numpy(), [[8, 2, 2], [2, 8, 2]])
    assign = paddle.put_along_axis(x, T([[0], [1]]), T([[5.0], [6.0]]), 1)
    np.testing.assert_array_equal(assign.numpy(), [[5, 2, 2], [2, 6, 2]])


def test_put_along_axis_where_meshgrid_returns_a_tuple(monkeypatch) -> None:  # noqa: ANN001
    """JAX 0.11 returns jnp.meshgrid's grids as a tuple (a list before): the op must not write into it."""
    real = jax.numpy.meshgrid
    monkeypatch.setattr(jax.numpy, "meshgrid", lambda *a, **k: tuple(real(*a, **k)))
    monkeypatch.setattr(TABLE["put_along_axis"], "_fwd", KernelCache())  # traced anew with the tuple
    x = paddle.full([2, 3], 2.0)
    out = paddle.put_along_axis(x, T([[0, 0], [1, 1]]), 3.0, 1, reduce="add")
    np.testing.assert_array_equal(out.numpy(), [[8, 2, 2], [2, 8, 2]])  # Paddle 3.3.1, as above


def test_masked_select_eager_and_error_when_traced() -> None:
    x = T([[1.0, 2.0], [3.0, 4.0]])
    m = T([[True, False], [False, True]])
    np.testing.assert_array_equal(paddle.masked_select(x, m).numpy(), [1.0, 4.0])
    np.testing.assert_array_equal(paddle.masked_select(x, T([False, True])).numpy(), [2.0, 4.0])
    x.stop_gradient = False
    paddle.masked_select(x, m).sum().backward()
    np.testing.assert_array_equal(x.grad.numpy(), [[1, 0], [0, 1]])

    def f(a):  # noqa: ANN001, ANN202
        return paddle.masked_select(paddle.Tensor(a), paddle.Tensor(a > 2))._value

    with pytest.raises(RuntimeError, match="masked_select: the output size depends on the values"):
        jax.jit(f)(np.arange(4.0))


def test_masked_fill() -> None:
    out = paddle.masked_fill(T([1.0, 2.0, 3.0]), T([True, False, True]), -1.0)
    np.testing.assert_array_equal(out.numpy(), [-1, 2, -1])


# ---- linear algebra -------------------------------------------------------------------
def test_einsum_equation_first() -> None:
    rng = np.random.default_rng(0)
    a, b = rng.standard_normal((2, 3)), rng.standard_normal((3, 4))
    np.testing.assert_allclose(paddle.einsum("ij,jk->ik", T(a), T(b)).numpy(), a @ b)
    np.testing.assert_allclose(paddle.einsum("ii", T(a @ a.T)).numpy(), np.trace(a @ a.T))
    np.testing.assert_allclose(paddle.einsum("i,j->ij", T(a[0]), T(b[0])).numpy(), np.outer(a[0], b[0]))
    with pytest.raises(TypeError, match="einsum: the first argument must be the equation string"):
        paddle.einsum(T(a), "ij->i")


def test_linalg_paths_and_values() -> None:
    A = T([[2.0, 1.0], [1.0, 3.0]])
    np.testing.assert_allclose(paddle.linalg.slogdet(A).numpy(), [1.0, 1.609438], rtol=1e-6)  # Paddle 3.3.1
    np.testing.assert_allclose(paddle.linalg.matrix_power(A, -1).numpy(), [[0.6, -0.2], [-0.2, 0.4]], rtol=1e-6)
    np.testing.assert_allclose(paddle.linalg.inv(A).numpy(), np.linalg.inv(A.numpy()), rtol=1e-6)
    np.testing.assert_allclose(paddle.linalg.det(A).numpy(), 5.0, rtol=1e-6)
    np.testing.assert_allclose(
        paddle.linalg.cov(T([[1.0, 2.0, 4.0], [0.0, 1.0, 5.0]])).numpy(), [[2.3333335, 4.0], [4.0, 7.0]], rtol=1e-6
    )  # Paddle 3.3.1
    assert isinstance(paddle.linalg.qr(A, mode="r"), paddle.Tensor)
    q, r = paddle.linalg.qr(A)
    np.testing.assert_allclose((q @ r).numpy(), A.numpy(), atol=1e-6)
    assert float(paddle.dist(paddle.ones([2, 3]), paddle.zeros([3]), p=0)) == 6.0  # Paddle 3.3.1
    assert float(paddle.dist(paddle.ones([2, 3]), paddle.zeros([3]), p=float("inf"))) == 1.0
    assert paddle.dot(paddle.ones([2, 3]), paddle.ones([2, 3])).shape == [2]
    assert paddle.inner(paddle.ones([2, 3]), paddle.ones([4, 3])).shape == [2, 4]
    assert paddle.outer(paddle.ones([2, 3]), paddle.ones([4])).shape == [6, 4]
    assert paddle.mm(paddle.ones([2, 2, 3]), paddle.ones([3, 4])).shape == [2, 2, 4]
    assert paddle.cross(paddle.ones([3, 2]), paddle.ones([3, 2])).shape == [3, 2]
    assert paddle.linalg.inv is not None and TABLE["inverse"].name == "inverse"


def test_inverse_saves_output_and_grad_matches_jax() -> None:
    a = np.array([[2.0, 1.0], [1.0, 3.0]])
    x = T(a, "float64")
    x.stop_gradient = False
    paddle.inverse(x).sum().backward()
    want = jax.grad(lambda m: jax.numpy.linalg.inv(m).sum())(a)
    np.testing.assert_allclose(x.grad.numpy(), want, rtol=1e-10)


# ---- random ----------------------------------------------------------------------------
def test_seed_reproducible_and_state_roundtrip() -> None:
    paddle.seed(123)
    a = paddle.rand([4]).numpy()
    b = paddle.randn([4]).numpy()
    paddle.seed(123)
    np.testing.assert_array_equal(paddle.rand([4]).numpy(), a)
    np.testing.assert_array_equal(paddle.randn([4]).numpy(), b)
    st = paddle.get_rng_state()
    c = paddle.uniform([3], min=-2.0, max=-1.0).numpy()
    paddle.set_rng_state(st)
    np.testing.assert_array_equal(paddle.uniform([3], min=-2.0, max=-1.0).numpy(), c)
    assert ((c >= -2.0) & (c < -1.0)).all()
    assert not np.array_equal(paddle.rand([4]).numpy(), a)  # draws advance the state


def test_random_dtypes_and_ranges() -> None:
    paddle.seed(0)
    r = paddle.randint(2, 5, [200])
    assert r.dtype == paddle.int64 and r.shape == [200]
    assert set(np.unique(r.numpy())) == {2, 3, 4}
    assert set(np.unique(paddle.randint(3, shape=[100]).numpy())) <= {0, 1, 2}
    assert paddle.randint(0, 3, [2], dtype="int32").dtype == paddle.int32
    assert paddle.randint_like(paddle.ones([2], dtype="float32"), 0, 3).dtype == paddle.float32  # Paddle 3.3.1
    assert paddle.rand([2]).dtype == paddle.float32 and paddle.randn([2], "float64").dtype == paddle.float64
    assert sorted(paddle.randperm(6).numpy().tolist()) == list(range(6))
    assert paddle.randperm(3).dtype == paddle.int64
    assert paddle.normal(paddle.zeros([3]), 1.0).shape == [3]
    assert paddle.normal(shape=[2]).dtype == paddle.float32
    np.testing.assert_array_equal(paddle.bernoulli(paddle.full([3], 0.5), p=1.0).numpy(), [1, 1, 1])
    m = paddle.multinomial(T([0.1, 0.2, 0.3, 0.4]), 4)
    assert m.dtype == paddle.int64 and sorted(m.numpy().tolist()) == [0, 1, 2, 3]
    with pytest.raises(ValueError, match="randint: high must be greater than low"):
        paddle.randint(3, 3)
    with pytest.raises(TypeError, match="seed: the seed must be an int"):
        paddle.seed(1.5)


def test_random_default_dtype_follows_set_default_dtype() -> None:
    paddle.set_default_dtype("float64")
    try:
        assert paddle.rand([2]).dtype == paddle.float64
    finally:
        paddle.set_default_dtype("float32")


# ---- nn.functional --------------------------------------------------------------------
def test_dropout_scaling_axis_modes_and_seed() -> None:
    x = paddle.ones([50, 40])
    paddle.seed(5)
    y = F.dropout(x, 0.5).numpy()
    assert set(np.unique(y)) == {0.0, 2.0}
    assert 0.4 < (y == 0).mean() < 0.6
    paddle.seed(5)
    np.testing.assert_array_equal(F.dropout(x, 0.5).numpy(), y)
    rows = F.dropout(paddle.ones([6, 4]), 0.5, axis=0).numpy()  # whole rows dropped (Paddle 3.3.1 behaviour)
    assert all(len(set(r)) == 1 for r in rows)
    assert F.dropout(x, 0.5, training=False) is x
    np.testing.assert_allclose(
        F.dropout(paddle.ones([2, 2]), 0.3, training=False, mode="downscale_in_infer").numpy(), 0.7, rtol=1e-6
    )
    kept = F.dropout(paddle.ones([20]), 0.3, mode="downscale_in_infer").numpy()
    assert set(np.unique(kept)) <= {0.0, 1.0}
    np.testing.assert_array_equal(F.dropout(paddle.ones([3]), 1.0).numpy(), [0, 0, 0])
    with pytest.raises(ValueError, match="dropout: p must be a number in"):
        F.dropout(x, 1.5)


def test_dropout_gradient_uses_the_same_mask() -> None:
    x = paddle.ones([10, 10])
    x.stop_gradient = False
    y = F.dropout(x, 0.5)
    y.sum().backward()
    np.testing.assert_array_equal(x.grad.numpy(), y.numpy())


def test_linear_weight_is_in_by_out() -> None:
    rng = np.random.default_rng(1)
    x, w, b = rng.standard_normal((2, 3)), rng.standard_normal((3, 4)), rng.standard_normal(4)
    out = F.linear(T(x), T(w), T(b))
    assert out.shape == [2, 4]
    np.testing.assert_allclose(out.numpy(), (x @ w + b).astype(np.float32), rtol=1e-5)


_LOGITS = [[1.0, 2.0, 3.0], [1.0, 0.0, -1.0], [0.5, 0.5, 2.0]]


def test_cross_entropy_hard_labels_match_paddle() -> None:
    logits, lab = T(_LOGITS), T([2, 0, 1])
    # all expected numbers below: Paddle 3.3.1
    np.testing.assert_allclose(F.cross_entropy(logits, lab).numpy(), 0.89473104, rtol=1e-6)
    np.testing.assert_allclose(F.cross_entropy(logits, lab.reshape([3, 1])).numpy(), 0.89473104, rtol=1e-6)
    assert F.cross_entropy(logits, lab, reduction="none").shape == [3]
    assert F.cross_entropy(logits, lab.reshape([3, 1]), reduction="none").shape == [3, 1]
    ign = T([2, -100, 1])
    np.testing.assert_allclose(F.cross_entropy(logits, ign).numpy(), 0.7588623, rtol=1e-6)  # divides by N
    np.testing.assert_allclose(
        F.cross_entropy(logits, ign, reduction="none").numpy(), [0.40760598, 0.0, 1.8689811], rtol=1e-6
    )
    np.testing.assert_allclose(F.cross_entropy(logits, lab, ignore_index=0).numpy(), 1.1382935, rtol=1e-6)
    w = T([1.0, 2.0, 3.0])
    np.testing.assert_allclose(F.cross_entropy(logits, lab, weight=w, reduction="sum").numpy(), 5.3683863, rtol=1e-6)
    np.testing.assert_allclose(
        F.cross_entropy(logits, lab, weight=w, reduction="none").numpy(), [1.2228179, 0.40760598, 3.7379622], rtol=1e-6
    )
    np.testing.assert_allclose(F.cross_entropy(logits, ign, weight=w).numpy(), 0.992156, rtol=1e-5)
    np.testing.assert_allclose(
        F.cross_entropy(F.softmax(logits), lab, use_softmax=False).numpy(), 0.89473104, rtol=1e-6
    )
    np.testing.assert_allclose(
        F.cross_entropy(logits.t(), lab.reshape([1, 3]), axis=0, reduction="none").numpy(),
        [[0.40760598, 0.40760598, 1.8689811]],
        rtol=1e-6,
    )


def test_cross_entropy_soft_labels_and_smoothing_match_paddle() -> None:
    logits = T(_LOGITS)
    soft = F.softmax(T([[1.0, 0.0, 0.0], [0.0, 1.0, 2.0], [1.0, 1.0, 1.0]]))
    # Paddle 3.3.1
    np.testing.assert_allclose(F.cross_entropy(logits, soft, soft_label=True).numpy(), 1.7078595, rtol=1e-6)
    assert F.cross_entropy(logits, soft, soft_label=True, reduction="none").shape == [3, 1]
    np.testing.assert_allclose(
        F.cross_entropy(logits, soft, soft_label=True, weight=T([1.0, 2.0, 3.0])).numpy(), 1.7295755, rtol=1e-6
    )
    np.testing.assert_allclose(
        F.cross_entropy(logits, T([2, 0, 1]), label_smoothing=0.1).numpy(), 0.94473106, rtol=1e-6
    )
    ls = F.cross_entropy(T(_LOGITS[:2]), T([2, 0]), label_smoothing=0.2, reduction="none")
    assert ls.shape == [2, 1]
    with pytest.raises(ValueError, match="cross_entropy: reduction must be"):
        F.cross_entropy(logits, T([2, 0, 1]), reduction="avg")


def test_pad_order_matches_paddle() -> None:
    x4 = T(np.arange(12.0, dtype=np.float32).reshape(2, 1, 2, 3))
    out = F.pad(x4, [1, 0, 2, 0])  # [left, right, top, bottom] on W then H (Paddle 3.3.1)
    assert out.shape == [2, 1, 4, 4]
    np.testing.assert_array_equal(out[0, 0].numpy(), [[0, 0, 0, 0], [0, 0, 0, 0], [0, 0, 1, 2], [0, 3, 4, 5]])
    assert F.pad(x4, [0, 0, 0, 1, 1, 0, 0, 2]).shape == [2, 2, 3, 5]  # 2*ndim: from the first axis
    x3 = paddle.ones([1, 2, 3])
    assert F.pad(x3, [1, 0, 0, 2, 0, 3], pad_from_left_axis=False).shape == [4, 4, 4]
    assert F.pad(x3, [1, 2], data_format="NLC").shape == [1, 5, 3]
    assert F.pad(paddle.ones([2, 3]), [1, 2]).shape == [2, 6]
    assert F.pad(paddle.ones([1, 1, 2, 3, 4]), [1, 0, 0, 2, 0, 3]).shape == [1, 1, 5, 5, 5]
    assert F.pad(paddle.ones([1, 2, 3, 1]), [1, 0, 0, 2], data_format="NHWC").shape == [1, 4, 4, 1]
    r = T(np.arange(3.0, dtype=np.float32).reshape(1, 1, 3))
    np.testing.assert_array_equal(F.pad(r, [1, 2], mode="circular").numpy(), [[[2, 0, 1, 2, 0, 1]]])
    np.testing.assert_array_equal(F.pad(r, [1, 2], mode="replicate").numpy(), [[[0, 0, 1, 2, 2, 2]]])
    with pytest.raises(AssertionError, match="pad: mode must be one of"):
        F.pad(r, [1, 2], mode="wrap")


def test_losses_and_activations_match_paddle() -> None:
    # every expected number: Paddle 3.3.1
    np.testing.assert_allclose(F.smooth_l1_loss(T([0.0, 2.0]), T([0.5, 0.0]), delta=1.5).numpy(), 1.0, rtol=1e-6)
    inp, lab = T([[-1.0, -2.0]]), T([[0.3, 0.7]])
    np.testing.assert_allclose(F.kl_div(inp, lab).numpy(), 0.5445679, rtol=1e-6)
    np.testing.assert_allclose(F.kl_div(inp, lab, reduction="batchmean").numpy(), 1.0891358, rtol=1e-6)
    np.testing.assert_allclose(
        F.nll_loss(T([[-1.0, -2.0], [-0.5, -3.0]]), T([1, 0]), weight=T([1.0, 3.0])).numpy(), 1.625, rtol=1e-6
    )
    np.testing.assert_allclose(
        F.binary_cross_entropy_with_logits(T([0.5, -1.0]), T([1.0, 0.0]), pos_weight=T([2.0, 3.0])).numpy(),
        0.6307078,
        rtol=1e-6,
    )
    np.testing.assert_allclose(F.hardsigmoid(T([0.5])).numpy(), [0.5833334], rtol=1e-6)
    np.testing.assert_allclose(F.hardswish(T([1.0])).numpy(), [0.6666667], rtol=1e-6)
    np.testing.assert_allclose(F.gelu(T([1.0]), approximate=True).numpy(), [0.841192], rtol=1e-6)
    np.testing.assert_allclose(F.gelu(T([1.0])).numpy(), [0.8413447], rtol=1e-6)
    np.testing.assert_allclose(F.selu(T([-1.0])).numpy(), [-1.1113306], rtol=1e-6)
    np.testing.assert_allclose(F.celu(T([-1.0]), 2.0).numpy(), [-0.78693867], rtol=1e-6)
    np.testing.assert_allclose(F.softplus(T([30.0, 1.0]), beta=2, threshold=20).numpy(), [30.0, 1.063464], rtol=1e-6)
    np.testing.assert_allclose(
        F.pairwise_distance(paddle.ones([2, 3]), paddle.zeros([2, 3])).numpy(), [1.7320524, 1.7320524], rtol=1e-6
    )
    np.testing.assert_allclose(F.normalize(T([[3.0, 4.0]])).numpy(), [[0.6, 0.8]], rtol=1e-6)
    np.testing.assert_allclose(
        F.batch_norm(paddle.ones([2, 3]), paddle.zeros([3]), paddle.ones([3])).numpy(), 0.999995, rtol=1e-6
    )
    emb = F.embedding(T([0, 2]), paddle.ones([3, 2]), padding_idx=2)
    np.testing.assert_array_equal(emb.numpy(), [[1, 1], [0, 0]])
    assert F.one_hot(T([1, 2]), 3).dtype == paddle.float32
    assert F.softmax(T([1.0, 2.0]), dtype="float64").dtype == paddle.float64
    assert F.log_softmax(T([1, 2]), dtype="float64").dtype == paddle.float64


def test_layer_norm_matches_numpy() -> None:
    rng = np.random.default_rng(2)
    x, w, b = rng.standard_normal((2, 3, 4)), rng.standard_normal(12), rng.standard_normal(12)
    out = F.layer_norm(T(x, "float64"), [3, 4], T(w, "float64"), T(b, "float64"), epsilon=1e-5).numpy()
    flat = x.reshape(2, 12)
    want = (flat - flat.mean(1, keepdims=True)) / np.sqrt(flat.var(1, keepdims=True) + 1e-5) * w + b
    np.testing.assert_allclose(out, want.reshape(2, 3, 4), rtol=1e-10)
    with pytest.raises(ValueError, match="normalized_shape"):
        F.layer_norm(T(x), [4, 3])


def test_shared_table_entries_and_saves() -> None:
    assert F.tanh.__name__ == paddle.tanh.__name__ == "tanh"
    np.testing.assert_allclose(F.tanh(T([0.5])).numpy(), paddle.tanh(T([0.5])).numpy())
    assert TABLE["softmax"].saves == ("out",) and TABLE["relu"].saves == ("out",) and TABLE["sigmoid"].saves == ("out",)
    assert TABLE["reshape"].saves == () and TABLE["transpose"].saves == () and TABLE["concat"].saves == ()


def test_softmax_grad_from_saved_output() -> None:
    a = np.array([[0.1, -0.4, 1.2], [2.0, 0.3, -1.0]])
    x = T(a, "float64")
    x.stop_gradient = False
    ct = np.array([[1.0, 2.0, -1.0], [0.5, 0.0, 3.0]])
    (F.softmax(x, axis=1) * T(ct)).sum().backward()
    want = jax.grad(lambda v: (jax.nn.softmax(v, axis=1) * ct).sum())(a)
    np.testing.assert_allclose(x.grad.numpy(), want, rtol=1e-10)
