"""Call forms and APIs of ordinary Paddle code, with Paddle 3.3.1's results.

The expressions and Paddle's results are in tests/data/paddle_surface.json (recorded by
tests/record_paddle_surface.py): shapes and axes given one by one, a trailing positional ``name``, ``norm`` /
``vector_norm`` / ``matrix_norm``, ``searchsorted``, ``index_put``, ``masked_scatter``, ``scatter_nd``,
``cartesian_prod``, ``polar``, ``shard_index``, ``block_diag``, Tensor methods, writes of values with extra leading
size-1 dimensions, ``assign`` of numpy scalars and bools, and ``argmax``/``argmin`` over NaN. The tests below the
recorded ones check gradients (against ``jax.grad``) and the errors of misuse.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import jax
import jax.numpy as jnp
import numpy as np
import pytest

import pylayer_jax as P
from pylayer_jax import Tensor

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from record_paddle_surface import as_record, namespace  # noqa: E402

RECORDED = json.loads(Path(__file__).resolve().parents[1].joinpath("data", "paddle_surface.json").read_text())["cases"]
# random draws: only the shape is Paddle's
_SHAPE_ONLY = ("P.empty(", "P.rand(", "P.randn(")


@pytest.mark.parametrize("case", RECORDED, ids=[c["expr"] for c in RECORDED])
def test_matches_paddle(case: dict) -> None:
    dtype, shape, values = as_record(eval(case["expr"], namespace(P)), P)
    assert dtype == case["dtype"]
    assert shape == case["shape"]
    np.testing.assert_allclose(np.asarray(values, np.float64), np.asarray(case["values"], np.float64),
                               rtol=2e-5, atol=2e-5)


def test_the_fixture_covers_the_new_apis() -> None:
    exprs = " ".join(c["expr"] for c in RECORDED)
    for api in ("vector_norm", "matrix_norm", "searchsorted", "index_put", "masked_scatter", "scatter_nd",
                "cartesian_prod", "polar", "shard_index", "masked_select", "copied(", "rank", "element_size",
                "block_diag", "setitem", "assign", "argmax", "argmin", "reshape(3, 2)", "tile(2, 1)"):
        assert api in exprs, api


# ---- gradients -------------------------------------------------------------------------------
def _grad(f, x: np.ndarray) -> np.ndarray:
    t = P.to_tensor(x)
    t.stop_gradient = False
    f(t).sum().backward()
    return t.grad.numpy()


_X = np.array([[1.5, -2.0, 3.0, 0.5], [0.5, 3.0, -1.0, 2.0], [-4.0, 1.0, 0.25, 2.5]])


@pytest.mark.parametrize("p,axis", [(None, [0, 1]), ("nuc", None), (1, [0, 1]), (float("inf"), [1, 0]),
                                    ("fro", [0, 1]), (3, 1), (float("inf"), None), (0.5, 0)])
def test_norm_gradient_matches_jax(p, axis) -> None:
    def ref(v):
        if isinstance(axis, list) or p == "nuc":
            return jnp.linalg.norm(v, ord=2 if p is None else p, axis=None if axis is None else tuple(axis))
        ax = None if axis is None else axis
        if p == float("inf"):
            return jnp.max(jnp.abs(v), axis=ax)
        return jnp.sum(jnp.abs(v) ** p, axis=ax) ** (1 / p)

    got = _grad(lambda t: P.linalg.norm(t, p=p, axis=axis), _X)
    np.testing.assert_allclose(got, np.asarray(jax.grad(lambda v: ref(v).sum())(_X)), rtol=1e-6, atol=1e-9)


def test_vector_and_matrix_norm_gradients_match_jax() -> None:
    got = _grad(lambda t: P.linalg.vector_norm(t, p=3.0, axis=[0, 1]), _X)
    want = jax.grad(lambda v: jnp.sum(jnp.abs(v) ** 3) ** (1 / 3))(_X)
    np.testing.assert_allclose(got, want, rtol=1e-6)
    got = _grad(lambda t: P.linalg.matrix_norm(t, p=-2), _X)
    want = jax.grad(lambda v: jnp.linalg.norm(v, -2))(_X)
    np.testing.assert_allclose(got, want, rtol=1e-6)


def test_norm_with_dtype_gives_the_gradient_in_the_input_dtype() -> None:
    t = P.to_tensor(_X.astype("float32"))
    t.stop_gradient = False
    out = P.linalg.norm(t, dtype="float64")
    assert out.dtype == P.float64
    out.backward()
    assert t.grad.dtype == P.float32
    np.testing.assert_allclose(t.grad.numpy(), _X / np.linalg.norm(_X), rtol=1e-6)


def test_a_leading_one_value_gets_its_gradient_in_its_own_shape() -> None:
    y = P.zeros([3, 3])
    y.stop_gradient = False
    y = y * 1.0
    v = P.to_tensor([[1.0, 2.0, 3.0]])
    v.stop_gradient = False
    y[0, :] = v
    (y * P.to_tensor([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0], [7.0, 8.0, 9.0]])).sum().backward()
    assert v.grad.shape == [1, 3]
    np.testing.assert_array_equal(v.grad.numpy(), [[1.0, 2.0, 3.0]])


def test_a_leading_one_value_at_a_moving_position() -> None:
    # past a few positions the write is the one kernel for every position (setitem_at): it reads the value alike
    y = P.zeros([5, 3])
    for i in range(5):
        y[i, :] = P.to_tensor([[float(i), 1.0, 2.0]])
    np.testing.assert_array_equal(y.numpy(), [[float(i), 1.0, 2.0] for i in range(5)])


def test_index_put_and_masked_scatter_gradients() -> None:
    idx = (P.to_tensor([0, 2]), P.to_tensor([1, 3]))
    x = P.to_tensor(_X)
    x.stop_gradient = False
    v = P.to_tensor([10.0, 20.0], dtype="float64")
    v.stop_gradient = False
    (P.index_put(x, idx, v) * P.to_tensor(np.arange(12.0).reshape(3, 4))).sum().backward()
    gx = np.ones((3, 4)) * np.arange(12.0).reshape(3, 4)
    gx[0, 1] = gx[2, 3] = 0
    np.testing.assert_array_equal(x.grad.numpy(), gx)
    np.testing.assert_array_equal(v.grad.numpy(), [1.0, 11.0])
    m = P.to_tensor([[True, False, True, False]] * 3)
    src = P.to_tensor(np.arange(12.0))
    src.stop_gradient = False
    (P.masked_scatter(P.zeros([3, 4], "float64"), m, src) * P.to_tensor(np.arange(12.0).reshape(3, 4))).sum().backward()
    np.testing.assert_array_equal(src.grad.numpy(), [0, 2, 4, 6, 8, 10, 0, 0, 0, 0, 0, 0])


def test_copy_writes_the_data_outside_autograd() -> None:
    w = P.zeros([3, 4])
    w.stop_gradient = False
    y = w * 2
    src = P.to_tensor(_X.astype("float32"))
    src.stop_gradient = False
    assert y.copy_(src * 3) is y
    np.testing.assert_allclose(y.numpy(), 3 * _X, rtol=1e-6)
    y.sum().backward()  # (as in Paddle: the gradient still flows to w, none to src)
    np.testing.assert_array_equal(w.grad.numpy(), np.full((3, 4), 2.0))
    assert src.grad is None


def test_uniform_fills_in_place_within_the_bounds() -> None:
    P.seed(3)
    y = P.zeros([2000], "float64")
    assert y.uniform_(-2.0, 3.0) is y
    a = y.numpy()
    assert y.dtype == P.float64 and a.min() >= -2.0 and a.max() < 3.0 and abs(a.mean() - 0.5) < 0.15


# ---- misuse ----------------------------------------------------------------------------------
def test_errors_name_the_api_and_the_fix() -> None:
    x = P.to_tensor(_X.astype("float32"))
    with pytest.raises(ValueError, match="vector_norm: a vector norm takes a number for p"):
        P.linalg.vector_norm(x, p="fro")
    with pytest.raises(ValueError, match="matrix_norm: a matrix norm takes p in 'fro', 'nuc'"):
        P.linalg.matrix_norm(x, p=3)
    with pytest.raises(ValueError, match="matrix_norm: a matrix norm needs an input of at least 2 dimensions"):
        P.linalg.matrix_norm(P.to_tensor([1.0, 2.0]))
    with pytest.raises(ValueError, match="matrix_norm: a matrix norm needs axis to name exactly two dimensions"):
        P.linalg.matrix_norm(P.to_tensor(np.ones((2, 2, 2))), axis=[0, 1, 2])
    with pytest.raises(ValueError, match="norm: a matrix norm needs axis to name exactly two dimensions"):
        P.linalg.norm(P.to_tensor(np.ones((2, 2, 2), "float32")), p="nuc")
    with pytest.raises(ValueError, match="norm: a matrix norm takes p in"):
        P.linalg.norm(x, p=0, axis=[0, 1])
    # (Paddle 3.3.1: ValueError "Cannot specify both 'p' and its alias 'ord'", for the functions and the method)
    with pytest.raises(ValueError, match=r"paddle.linalg.norm\(\) got both 'p' and its alias 'ord'"):
        P.linalg.norm(x, p=2, ord=2)
    with pytest.raises(ValueError, match=r"paddle.Tensor.norm\(\) got both 'p' and its alias 'ord'"):
        x.norm(p=2, ord=2)
    with pytest.raises(IndexError, match=r"index_put: index 3 in indices\[0\] is out of range for dimension 0"):
        P.index_put(x, (P.to_tensor([3]),), P.to_tensor([1.0]))
    with pytest.raises(ValueError, match="index_put: indices\\[0\\] must be an integer tensor"):
        P.index_put(x, (P.to_tensor([0.5]),), P.to_tensor([1.0]))
    with pytest.raises(ValueError, match="masked_scatter: the mask holds 9 True entries, but value has only 2"):
        P.masked_scatter(x, x > 0, P.to_tensor([1.0, 2.0]))
    with pytest.raises(TypeError, match="masked_scatter: mask must be a bool tensor"):
        P.masked_scatter(x, P.to_tensor([1, 0, 1, 0]), P.to_tensor([1.0, 2.0]))
    with pytest.raises(ValueError, match="cartesian_prod: the inputs must share one dtype"):
        P.cartesian_prod([P.to_tensor([1, 2]), P.to_tensor([1.0])])
    with pytest.raises(ValueError, match=r"cartesian_prod: every input must be 1-D, but x\[0\] has shape \[1, 2\]"):
        P.cartesian_prod([P.to_tensor([[1, 2]])])
    with pytest.raises(TypeError, match="polar: abs must be a float32 or float64 tensor"):
        P.polar(P.to_tensor([1, 2]), P.to_tensor([0.0, 1.0]))
    with pytest.raises(ValueError, match=r"shard_index: shard_id must be an int in \[0, nshards\)"):
        P.shard_index(P.to_tensor([[16]]), 20, 2, 2)
    with pytest.raises(ValueError, match="shard_index: input must have at least 2 dimensions"):
        P.shard_index(P.to_tensor([16, 1]), 20, 2, 0)
    with pytest.raises(ValueError, match=r"shard_index: id 25 is out of range: ids must be in \[0, index_num\)"):
        P.shard_index(P.to_tensor([[25]]), 20, 2, 0)
    with pytest.raises(RuntimeError, match="searchsorted: an N-D sorted_sequence"):  # (Paddle's type too)
        P.searchsorted(P.to_tensor([[1.0, 3.0], [2.0, 4.0]]), P.to_tensor([[3.0], [3.0], [1.0]]))
    with pytest.raises(ValueError, match="searchsorted: side must be 'left' or 'right'"):
        P.searchsorted(P.to_tensor([1.0, 3.0]), P.to_tensor([2.0]), side="middle")
    with pytest.raises(RuntimeError, match="Tensor.copy_: src has dtype float64, but this tensor is float32"):
        P.zeros([2]).copy_(P.to_tensor([1.0, 2.0], dtype="float64"))
    with pytest.raises(ValueError, match="Tensor.uniform_: Leaf Var"):
        leaf = P.zeros([2])
        leaf.stop_gradient = False
        leaf.uniform_()
    with pytest.raises(ValueError, match=r"transpose: the axes to swap must be in \[-3, 3\)"):
        P.to_tensor(np.ones((2, 3, 4))).transpose(0, 3)
    with pytest.raises(TypeError, match="size is another name for shape, and both were given"):
        P.zeros(shape=[2], size=[2])


def test_a_value_that_does_not_fit_still_raises() -> None:
    y = P.zeros([3, 3])
    with pytest.raises(ValueError, match="setitem"):
        y[0, :] = P.to_tensor([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]])
    with pytest.raises(ValueError, match="setitem"):
        y[0, :] = P.to_tensor([[1.0], [2.0], [3.0]])


def test_the_apis_are_at_paddles_paths() -> None:
    for name in ("searchsorted", "index_put", "index_put_", "masked_scatter", "masked_scatter_", "scatter_nd",
                 "cartesian_prod", "polar", "shard_index", "bucketize", "scatter_nd_add", "block_diag"):
        assert callable(getattr(P, name)), name
    for name in ("vector_norm", "matrix_norm", "norm"):
        assert callable(getattr(P.linalg, name)), name
    for name in ("masked_select", "copy_", "uniform_", "rank", "element_size", "index_put", "index_put_",
                 "masked_scatter", "masked_scatter_", "polar", "shard_index", "scatter_nd", "block_diag"):
        assert callable(getattr(Tensor, name)), name


def test_masked_scatter_with_a_mask_not_computed_yet_checks_its_count() -> None:
    # a mask computed by a deferred op (its input trains): counted at the call, not clamped in the kernel
    w = P.to_tensor([1.0, -1.0, 2.0, 3.0, -4.0, 5.0], stop_gradient=False)
    m = w.reshape([2, 3]) > 0
    with pytest.raises(ValueError, match="masked_scatter: the mask holds 4 True entries, but value has only 2"):
        P.masked_scatter(P.zeros([2, 3]), m, P.to_tensor([1.0, 2.0]))
    np.testing.assert_array_equal(P.masked_scatter(P.zeros([2, 3]), m, P.to_tensor([1.0, 2.0, 3.0, 4.0])).numpy(),
                                  [[1.0, 0.0, 2.0], [3.0, 0.0, 4.0]])
