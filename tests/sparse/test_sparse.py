"""``paddle.sparse``: sparse COO/CSR Tensors, their math, and ``paddle.sparse.nn``.

The cases of ``tests/sparse_cases.py`` run here and are compared with Paddle 3.3.1's results recorded by
``tests/record_paddle_sparse.py``: patterns exactly, values, dtypes, shapes and the gradients reaching the dense
sources. What Paddle runs on a GPU only (matmul, mv, addmm, masked_matmul, attention) is checked against numpy and
``jax.grad``; misuse is checked to raise clear errors.
"""

from __future__ import annotations

import json
import math
import pathlib
import warnings

import jax
import jax.numpy as jnp
import numpy as np
import pytest
import sparse_cases as S

import pylayer_jax as paddle

REC = json.loads((pathlib.Path(__file__).resolve().parents[1] / "data" / "paddle_sparse.json").read_text())


def _same(ours, want, where):
    if isinstance(want, dict):
        assert isinstance(ours, dict) and set(ours) == set(want), (where, ours, want)
        for k, w in want.items():
            if k in ("values", "dense"):
                o, w = np.asarray(ours[k], float), np.asarray(w, float)
                assert o.shape == w.shape, (where, k, o.shape, w.shape)
                np.testing.assert_allclose(o, w, rtol=2e-5, atol=2e-6, equal_nan=True, err_msg=f"{where}/{k}")
            else:
                assert ours[k] == w, (where, k, ours[k], w)
    elif isinstance(want, list) and want and isinstance(want[0], (dict, list)):
        assert len(ours) == len(want), where
        for i, (o, w) in enumerate(zip(ours, want)):
            _same(o, w, f"{where}[{i}]")
    else:
        assert ours == want, (where, ours, want)


@pytest.mark.parametrize("case", sorted(S.CASES))
def test_case_matches_paddle(case):
    paddle.seed(0)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        ours = json.loads(json.dumps(S.CASES[case](paddle)))
    want = REC[case]
    assert set(ours) == set(want)
    for key in want:
        _same(ours[key], want[key], f"{case}/{key}")


# ---- what Paddle runs on a GPU only: against numpy and jax.grad -----------------------------------------------
A = S.D2
Y = np.arange(12, dtype=np.float32).reshape(4, 3) / 4.0


def _sp(a, fmt, grad=False):
    d = paddle.to_tensor(a, stop_gradient=not grad)
    return d, (d.to_sparse_csr() if fmt == "csr" else d.to_sparse_coo(a.ndim))


@pytest.mark.parametrize("fmt", ["coo", "csr"])
def test_matmul_sparse_dense_and_grads(fmt):
    d, x = _sp(A, fmt, grad=True)
    y = paddle.to_tensor(Y, stop_gradient=False)
    out = paddle.sparse.matmul(x, y)
    assert not out.is_sparse()
    np.testing.assert_allclose(out.numpy(), A @ Y, rtol=1e-6)
    (out * out).sum().backward()
    gx, gy = jax.grad(lambda a, b: jnp.sum((a @ b) ** 2), (0, 1))(jnp.asarray(A), jnp.asarray(Y))
    np.testing.assert_allclose(d.grad.numpy(), np.where(A != 0, gx, 0), rtol=1e-5)  # at x's pattern only
    np.testing.assert_allclose(y.grad.numpy(), gy, rtol=1e-5)


def test_matmul_batched_csr_and_mv_addmm():
    d3 = paddle.to_tensor(S.D3)
    x3 = d3.to_sparse_csr()
    y3 = np.arange(8, dtype=np.float32).reshape(2, 2, 2)
    np.testing.assert_allclose(paddle.sparse.matmul(x3, paddle.to_tensor(y3)).numpy(), S.D3 @ y3)
    _, x = _sp(A, "csr")
    v = np.array([1.0, -2.0, 0.5, 3.0], np.float32)
    np.testing.assert_allclose(paddle.sparse.mv(x, paddle.to_tensor(v)).numpy(), A @ v, rtol=1e-6)
    inp = np.ones((4, 3), np.float32)
    got = paddle.sparse.addmm(paddle.to_tensor(inp), x, paddle.to_tensor(Y), beta=0.5, alpha=2.0)
    np.testing.assert_allclose(got.numpy(), 0.5 * inp + 2.0 * (A @ Y), rtol=1e-6)


@pytest.mark.parametrize("fmt", ["coo", "csr"])
def test_matmul_sparse_sparse(fmt):
    _, x = _sp(A, fmt)
    _, y = _sp(S.B, fmt)
    out = paddle.sparse.matmul(x, y)
    assert out.is_sparse() and (out.is_sparse_csr() == (fmt == "csr"))
    np.testing.assert_allclose(out.to_dense().numpy(), A @ S.B, rtol=1e-6)
    want_pattern = ((A != 0).astype(int) @ (S.B != 0).astype(int)) > 0
    got = out.to_sparse_coo(2).indices().numpy()
    assert sorted(map(tuple, got.T)) == sorted(map(tuple, np.argwhere(want_pattern)))
    ss = paddle.sparse.addmm(out, x, y, beta=1.0, alpha=1.0)
    np.testing.assert_allclose(ss.to_dense().numpy(), 2 * (A @ S.B), rtol=1e-6)


def test_masked_matmul_and_grads():
    _, mask = _sp(S.B, "csr")
    x = paddle.to_tensor(A, stop_gradient=False)
    y = paddle.to_tensor(A.T.copy(), stop_gradient=False)
    out = paddle.sparse.masked_matmul(x, y, mask)
    assert out.is_sparse_csr()
    np.testing.assert_array_equal(out.crows().numpy(), mask.crows().numpy())
    np.testing.assert_allclose(out.to_dense().numpy(), np.where(S.B != 0, A @ A.T, 0), rtol=1e-6)
    paddle.sparse.sum(out).backward()
    gx = jax.grad(lambda a, b: jnp.sum(jnp.where(S.B != 0, a @ b, 0)))(jnp.asarray(A), jnp.asarray(A.T))
    np.testing.assert_allclose(x.grad.numpy(), gx, rtol=1e-6)


def test_attention_against_numpy():
    rs = np.random.RandomState(0)
    b, h, s, dh = 1, 2, 4, 3
    q, k, v = (rs.randn(b, h, s, dh).astype(np.float32) for _ in range(3))
    layout = (rs.rand(b * h, s, s) > 0.4).astype(np.float32)
    layout[:, np.arange(s), np.arange(s)] = 1.0  # each row keeps an entry
    kp = np.ones((b, s), np.float32)
    kp[0, 3] = 0.0
    am = np.ones((s, s), np.float32)
    am[0, 1] = 0.0
    qt = paddle.to_tensor(q, stop_gradient=False)
    out = paddle.sparse.nn.functional.attention(qt, paddle.to_tensor(k), paddle.to_tensor(v),
                                                paddle.to_tensor(layout).to_sparse_csr(), paddle.to_tensor(kp),
                                                paddle.to_tensor(am))

    def ref(qq):
        sc = jnp.einsum("bhqd,bhkd->bhqk", qq, k) / math.sqrt(dh)
        keep = (layout.reshape(b, h, s, s) != 0) & (kp[:, None, None, :] != 0) & (am[None, None] != 0)
        p = jax.nn.softmax(jnp.where(keep, sc, -jnp.inf), axis=-1)
        return jnp.einsum("bhqk,bhkd->bhqd", p, v)

    np.testing.assert_allclose(out.numpy(), ref(q), rtol=1e-5, atol=1e-6)
    out.sum().backward()
    np.testing.assert_allclose(qt.grad.numpy(), jax.grad(lambda qq: ref(qq).sum())(jnp.asarray(q)), rtol=1e-4,
                               atol=1e-6)


def test_subtract_grads_on_two_patterns():
    # (Paddle 3.3.1 puts y's gradient at the wrong entries here; the oracle is the dense derivative at each pattern)
    da, a = _sp(A, "coo", grad=True)
    db, b = _sp(S.B, "coo", grad=True)
    paddle.sparse.sum(paddle.sparse.square(paddle.sparse.subtract(a, b))).backward()
    np.testing.assert_allclose(da.grad.numpy(), np.where(A != 0, 2 * (A - S.B), 0))
    np.testing.assert_allclose(db.grad.numpy(), np.where(S.B != 0, -2 * (A - S.B), 0))


@pytest.mark.parametrize("fn", ["sin", "relu", "softmax", "add", "transpose"])
def test_csr_grads_match_coo(fn):
    # Paddle's CPU backward from a CSR Tensor leaves its dense source without a gradient; the COO gradients are
    # checked against Paddle above, and a CSR Tensor's must be the same
    F = paddle.sparse.nn.functional
    call = {"sin": paddle.sparse.sin, "relu": F.relu, "softmax": F.softmax,
            "add": lambda v: paddle.sparse.add(v, paddle.sparse.square(v)),
            "transpose": lambda v: paddle.sparse.transpose(v, [1, 0])}[fn]
    w = np.arange(16, dtype=np.float32).reshape(4, 4)
    grads = []
    for fmt in ("coo", "csr"):
        d, x = _sp(A, fmt, grad=True)
        y = call(x)
        (y.to_dense() * paddle.to_tensor(w)).sum().backward()
        grads.append(d.grad.numpy())
    np.testing.assert_allclose(grads[1], grads[0], rtol=1e-6)
    assert np.any(grads[0] != 0)


def test_csr3_row_sums_against_numpy():
    # (Paddle 3.3.1's CPU kernel leaves the batched result's crows partly uninitialised, so numpy is the oracle)
    out = paddle.sparse.sum(paddle.to_tensor(S.D3).to_sparse_csr(), axis=-1)
    assert out.is_sparse_csr() and list(out.shape) == [2, 2, 1]
    np.testing.assert_allclose(out.to_dense().numpy(), S.D3.sum(-1, keepdims=True))
    assert out.crows().numpy().tolist() == [0, 1, 2, 0, 0, 1]


def test_deg2rad_int_sync_batch_norm_and_pca():
    xi = paddle.sparse.sparse_coo_tensor([[0, 1]], [30, 90], [3], dtype="int32")
    got = paddle.sparse.deg2rad(xi)
    assert got.dtype == paddle.float32
    np.testing.assert_allclose(got.values().numpy(), np.deg2rad([30.0, 90.0]), rtol=1e-6)
    vox = paddle.to_tensor(S.VOX).to_sparse_coo(4)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        a = paddle.sparse.nn.SyncBatchNorm(2)(vox)
        ref = paddle.sparse.nn.BatchNorm(2)(vox)
    np.testing.assert_allclose(a.values().numpy(), ref.values().numpy(), rtol=1e-6)
    paddle.seed(1)
    u, s, v = paddle.sparse.pca_lowrank(paddle.to_tensor(A).to_sparse_coo(2), q=2)
    centred = A - A.mean(0)
    np.testing.assert_allclose(s.numpy(), np.linalg.svd(centred, compute_uv=False)[:2], rtol=1e-4)


def test_sparse_leaf_grad_clear_and_detach():
    x = paddle.to_tensor(A).to_sparse_coo(2)
    x.stop_gradient = False
    assert x.is_leaf and x.grad is None
    paddle.sparse.sum(paddle.sparse.square(x)).backward()
    assert x.grad.is_sparse_coo()
    np.testing.assert_allclose(x.grad.values().numpy(), 2 * A[A != 0])
    x.clear_grad()
    np.testing.assert_allclose(x.grad.values().numpy(), 0 * A[A != 0])
    det = x.detach()
    assert det.stop_gradient and det.is_leaf and det.is_sparse_coo()
    np.testing.assert_array_equal(det.indices().numpy(), x.indices().numpy())


# ---- misuse ------------------------------------------------------------------------------------------------
def test_misuse_raises_clear_errors():
    d = paddle.to_tensor(A)
    x = d.to_sparse_coo(2)
    c = d.to_sparse_csr()
    with pytest.raises(TypeError, match=r"sparse COO Tensor was passed to a dense operation.*to_dense\(\)"):
        paddle.sin(x)
    with pytest.raises(TypeError, match=r"numpy\(\) needs a dense Tensor.*to_dense\(\)\.numpy\(\)"):
        x.numpy()
    with pytest.raises(TypeError, match=r"paddle.sparse.sin: x must be a sparse COO or CSR Tensor, but received a "
                                        r"dense Tensor"):
        paddle.sparse.sin(d)
    with pytest.raises(NotImplementedError, match=r"paddle.sparse.add: y must be a sparse Tensor like x"):
        paddle.sparse.add(x, d)
    with pytest.raises(ValueError, match=r"same sparse format, but received COO and CSR"):
        paddle.sparse.add(x, c)
    with pytest.raises(ValueError, match=r"same shape, but received \[4, 4\] and \[2, 8\]"):
        paddle.sparse.multiply(x, paddle.sparse.reshape(x, [2, 8]))
    with pytest.raises(ValueError, match=r"indices\(\): only a sparse COO Tensor has indices"):
        c.indices()
    with pytest.raises(ValueError, match=r"crows\(\): only a sparse CSR Tensor has crows"):
        x.crows()
    with pytest.raises(ValueError, match=r"Tensor.nnz\(\): this Tensor is dense"):
        d.nnz()
    with pytest.raises(ValueError, match=r"Tensor.values\(\): this Tensor is dense.*to_sparse_coo"):
        d.values()
    with pytest.raises(NotImplementedError, match=r"to_dense\(\): this Tensor is already dense"):
        d.to_dense()
    with pytest.raises(ValueError, match=r"to_sparse_coo: sparse_dim must be an int in \[1, 2\].*received 3"):
        d.to_sparse_coo(3)
    with pytest.raises(ValueError, match=r"to_sparse_csr: a CSR Tensor is 2-D or 3-D.*1-D"):
        paddle.to_tensor([1.0, 0.0]).to_sparse_csr()
    with pytest.raises(ValueError, match=r"sparse_coo_tensor: values must have one row per index column \(nnz=2\)"):
        paddle.sparse.sparse_coo_tensor([[0, 1]], [1.0, 2.0, 3.0], [3])
    with pytest.raises(ValueError, match=r"must hold every index \(at least \[5\]"):
        paddle.sparse.sparse_coo_tensor([[0, 4]], [1.0, 2.0], [3])
    with pytest.raises(TypeError, match=r"indices must hold integers, but received dtype float"):
        paddle.sparse.sparse_coo_tensor([[0.5, 1.0]], [1.0, 2.0], [3])
    with pytest.raises(ValueError, match=r"crows must hold batch \* \(rows \+ 1\) = 3 offsets"):
        paddle.sparse.sparse_csr_tensor([0, 1], [0], [1.0], [2, 2])
    with pytest.raises(ValueError, match=r"crows must start at 0 in each batch, never decrease"):
        paddle.sparse.sparse_csr_tensor([0, 2, 1], [0, 1], [1.0, 2.0], [2, 2])
    with pytest.raises(ValueError, match=r"cols must lie in \[0, 2\)"):
        paddle.sparse.sparse_csr_tensor([0, 1, 1], [5], [1.0], [2, 2])
    with pytest.raises(NotImplementedError, match=r"CSR Tensor sums over all values or over its last axis only"):
        paddle.sparse.sum(c, axis=0)
    with pytest.raises(ValueError, match=r"only axis=-1 \(the last axis\) is supported"):
        paddle.sparse.nn.functional.softmax(x, axis=0)
    with pytest.raises(NotImplementedError, match=r"masked_matmul: mask must be a sparse CSR Tensor"):
        paddle.sparse.masked_matmul(d, d, x)
    with pytest.raises(ValueError, match=r"matmul: y must be a 2-D Tensor of shape \[K, N\] with K = 4"):
        paddle.sparse.matmul(x, paddle.ones([3, 2]))
    with pytest.raises(ValueError, match=r"perm must be a permutation of range\(2\)"):
        paddle.sparse.transpose(x, [0, 0])
    with pytest.raises(ValueError, match=r"must hold as many elements as the input's \[4, 4\]"):
        paddle.sparse.reshape(x, [3, 5])
    with pytest.raises(TypeError, match=r"pow: factor must be a Python number"):
        paddle.sparse.pow(x, d)
    q = paddle.ones([1, 2, 4, 3])
    layout = paddle.ones([2, 4, 4]).to_sparse_csr()
    with pytest.raises(ValueError, match=r"attention: key_padding_mask must be a dense Tensor of shape \[1, 4\], but "
                                        r"received \[4\]"):
        paddle.sparse.nn.functional.attention(q, q, q, layout, paddle.ones([4]))
    with pytest.raises(ValueError, match=r"sparse_mask must be a CSR Tensor of shape \[batch \* heads, seq, seq\]"):
        paddle.sparse.nn.functional.attention(q, q, q, paddle.ones([2, 4, 4]).to_sparse_coo(3))
    vox = paddle.to_tensor(S.VOX).to_sparse_coo(4)
    w = paddle.ones([3, 3, 3, 2, 3])
    with pytest.raises(ValueError, match=r"data_format must be 'NDHWC'"):
        paddle.sparse.nn.functional.conv3d(vox, w, data_format="NCDHW")
    with pytest.raises(NotImplementedError, match=r"needs odd kernel sizes, but received \[2, 2, 2\]"):
        paddle.sparse.nn.functional.subm_conv3d(vox, paddle.ones([2, 2, 2, 2, 3]))
    with pytest.raises(ValueError, match=r"with the channels dense \(to_sparse_coo\(4\)\)"):
        paddle.sparse.nn.functional.conv3d(paddle.to_tensor(S.VOX).to_sparse_coo(5), w)
    with pytest.raises(ValueError, match=r"weight must be a dense Tensor \[kD, kH, kW, C_in, C_out\] with C_in = 2"):
        paddle.sparse.nn.functional.conv3d(vox, paddle.ones([3, 3, 3, 4, 3]))
    with pytest.raises(ValueError, match=r"only groups=1 is supported"):
        paddle.sparse.nn.Conv3D(2, 3, 3, groups=2)
    with pytest.raises(ValueError, match=r"sparse BatchNorm takes data_format 'NDHWC' or 'NHWC'"):
        paddle.sparse.nn.BatchNorm(2, data_format="NCHW")
