"""Gradients through the op forms nn.functional runs under saved-tensor hooks (those keeping what Paddle's
kernels keep), with hooks that transform what they store: they must equal jax.grad of the plain op."""

from __future__ import annotations

import jax
import jax.numpy as jnp
import numpy as np
import pytest

import pylayer_jax as P
import pylayer_jax.nn.functional as F
from pylayer_jax._ops.table import TABLE
from pylayer_jax._tensor.dispatch import apply_op
from pylayer_jax.autograd import saved_tensors_hooks

rng = np.random.default_rng(7)
R = lambda *s: rng.standard_normal(s)  # noqa: E731
_x1 = R(2, 3, 8)
_, _mask1 = TABLE["max_pool1d"].fn(jnp.asarray(_x1), 2, return_mask=True)

# (function, its array arguments, which of them are differentiated, attributes)
CASES = {
    "batch_norm-train": ("batch_norm", [R(4, 3, 2), R(3), np.abs(R(3)) + 0.5, R(3), R(3)], (0, 3, 4),
                         {"training": True, "momentum": 0.8}),
    "batch_norm-train-nhwc": ("batch_norm", [R(2, 2, 3, 3), R(3), np.abs(R(3)) + 0.5, R(3), R(3)], (0, 3, 4),
                              {"training": True, "data_format": "NHWC"}),
    "batch_norm-eval": ("batch_norm", [R(4, 3, 2), R(3), np.abs(R(3)) + 0.5, R(3), R(3)], (0, 3, 4), {}),
    "rrelu-eval": ("rrelu", [R(3, 4)], (0,), {"training": False}),
    "bce-pos-weight": ("binary_cross_entropy_with_logits", [R(2, 3), rng.random((2, 3)), np.abs(R(3))], (0,),
                       {"reduction": "sum"}),
    "softmax_with_cross_entropy": ("softmax_with_cross_entropy", [R(3, 4), np.array([[1], [0], [3]])], (0,), {}),
    "softmax_with_cross_entropy-soft": ("softmax_with_cross_entropy", [R(3, 4), rng.dirichlet(np.ones(4), 3)], (0,),
                                        {"soft_label": True, "return_softmax": True}),
    "conv1d": ("conv1d", [R(2, 4, 7), R(6, 2, 3), R(6)], (0, 1, 2), {"stride": 2, "padding": 1, "groups": 2}),
    "conv1d-nlc": ("conv1d", [R(1, 5, 3), R(2, 3, 2)], (0, 1), {"data_format": "NLC", "dilation": 2}),
    "conv1d_transpose": ("conv1d_transpose", [R(2, 4, 5), R(4, 3, 3), R(3)], (0, 1, 2), {"stride": 2}),
    "conv1d_transpose-nlc": ("conv1d_transpose", [R(1, 5, 4), R(4, 2, 2)], (0, 1), {"data_format": "NLC"}),
    "max_pool1d": ("max_pool1d", [R(2, 3, 7)], (0,), {"kernel_size": 3, "stride": 2, "padding": 1}),
    "max_pool1d-mask": ("max_pool1d", [_x1], (0,), {"kernel_size": 2, "return_mask": True}),
    "max_pool2d-mask": ("max_pool2d", [R(1, 2, 5, 5)], (0,), {"kernel_size": 2, "padding": 1, "return_mask": True}),
    "max_pool3d-mask": ("max_pool3d", [R(1, 2, 4, 4, 4)], (0,), {"kernel_size": 2, "return_mask": True}),
    "avg_pool1d": ("avg_pool1d", [R(2, 3, 7)], (0,), {"kernel_size": 3, "stride": 2, "padding": 1}),
    "lp_pool1d": ("lp_pool1d", [np.abs(R(1, 2, 6)) + 0.1], (0,), {"norm_type": 3, "kernel_size": 3}),
    "lp_pool1d-nlc": ("lp_pool1d", [np.abs(R(1, 6, 2)) + 0.1], (0,), {"norm_type": 2, "kernel_size": 2,
                                                                      "data_format": "NLC"}),
    "adaptive_avg_pool1d": ("adaptive_avg_pool1d", [R(2, 3, 7)], (0,), {"output_size": 3}),
    "adaptive_max_pool1d": ("adaptive_max_pool1d", [R(2, 3, 7)], (0,), {"output_size": 3}),
    "adaptive_max_pool1d-mask": ("adaptive_max_pool1d", [R(2, 3, 7)], (0,), {"output_size": 3, "return_mask": True}),
    "adaptive_max_pool2d": ("adaptive_max_pool2d", [R(1, 2, 5, 7)], (0,), {"output_size": [2, 3]}),
    "adaptive_max_pool3d-mask": ("adaptive_max_pool3d", [R(1, 1, 3, 4, 5)], (0,), {"output_size": 2,
                                                                                 "return_mask": True}),
    "max_unpool1d": ("max_unpool1d", [R(2, 3, 4), np.asarray(_mask1)], (0,), {"kernel_size": 2}),
    # Paddle's op chains (nn/_chains.py)
    "glu": ("glu", [R(2, 6)], (0,), {"axis": 1}),
    "soft_margin_loss": ("soft_margin_loss", [R(2, 3), np.sign(R(2, 3))], (0,), {"reduction": "sum"}),
    "poisson_nll_loss": ("poisson_nll_loss", [R(2, 3), np.abs(R(2, 3)) * 3], (0,), {}),
    "poisson_nll_loss-full": ("poisson_nll_loss", [np.abs(R(2, 3)) + 0.1, np.abs(R(2, 3)) * 3], (0,),
                              {"log_input": False, "full": True, "reduction": "none"}),
    "gaussian_nll_loss": ("gaussian_nll_loss", [R(2, 3), R(2, 3), np.abs(R(2, 3)) + 0.1], (0, 1), {"full": True}),
    "hinge_embedding_loss": ("hinge_embedding_loss", [R(3, 2), np.sign(R(3, 2))], (0,), {"margin": 0.5}),
    "normalize": ("normalize", [R(2, 3, 4)], (0,), {"p": 3, "axis": 1}),
    "cosine_similarity": ("cosine_similarity", [R(2, 3), R(2, 3)], (0, 1), {"axis": 1}),
    "multi_label_soft_margin_loss": ("multi_label_soft_margin_loss", [R(2, 3), (R(2, 3) > 0) * 1.0, np.abs(R(3))],
                                     (0,), {}),
    "cosine_embedding_loss": ("cosine_embedding_loss", [R(3, 4), R(3, 4), np.array([1, -1, 1])], (0, 1),
                              {"margin": 0.1}),
    "multi_margin_loss": ("multi_margin_loss", [R(3, 4), np.array([0, 3, 1])], (0,), {"p": 2, "margin": 0.5}),
    "sigmoid_focal_loss": ("sigmoid_focal_loss", [R(2, 3), (R(2, 3) > 0) * 1.0, np.array([3.0])], (0,),
                           {"gamma": 1.5}),
    "dice_loss": ("dice_loss", [np.abs(R(2, 3, 4)), np.array([[[1], [0], [3]], [[2], [2], [0]]])], (0,), {}),
    "triplet_margin_loss": ("triplet_margin_loss", [R(3, 4), R(3, 4), R(3, 4)], (0, 1, 2),
                            {"swap": True, "p": 3, "margin": 2.0}),
    "triplet_margin_with_distance_loss": ("triplet_margin_with_distance_loss", [R(3, 4), R(3, 4), R(3, 4)], (0, 1, 2),
                                          {"margin": 2.0, "reduction": "sum"}),
    "local_response_norm": ("local_response_norm", [R(2, 5, 3)], (0,), {"size": 3, "k": 2.0}),
    "local_response_norm-nlc": ("local_response_norm", [R(2, 3, 5)], (0,), {"size": 2, "data_format": "NLC"}),
    "local_response_norm-nchw": ("local_response_norm", [R(1, 4, 2, 3)], (0,), {"size": 3}),
    "local_response_norm-ndhwc": ("local_response_norm", [R(1, 2, 2, 3, 4)], (0,), {"size": 3,
                                                                                   "data_format": "NDHWC"}),
    "cross_entropy-smooth-weight": ("cross_entropy", [R(3, 4), np.array([2, 0, 3]), np.abs(R(4)) + 0.1], (0,),
                                    {"label_smoothing": 0.1}),
    "cross_entropy-smooth-sum": ("cross_entropy", [R(2, 3, 4), np.array([[2, 0, 3], [1, 1, 0]])], (0,),
                                 {"label_smoothing": 0.2, "reduction": "sum"}),
    "cross_entropy-soft-weight": ("cross_entropy", [R(3, 4), rng.dirichlet(np.ones(4), 3), np.abs(R(4)) + 0.1],
                                  (0,), {"soft_label": True}),
    "cross_entropy-soft-smooth": ("cross_entropy", [R(3, 4), rng.dirichlet(np.ones(4), 3)], (0,),
                                  {"soft_label": True, "label_smoothing": 0.1}),
    "npair_loss": ("npair_loss", [R(4, 3), R(4, 3), np.array([1.0, 2.0, 1.0, 3.0])], (0, 1), {"l2_reg": 0.01}),
    "multi_label_margin_loss": ("multi_label_margin_loss", [R(3, 4), np.array([[3, 0, -1, 1], [1, 2, 3, 0],
                                                                               [2, -1, -1, -1]])], (0,), {}),
    "multi_label_margin_loss-none": ("multi_label_margin_loss", [R(2, 5), np.array([[-1, 2, 0, 0, 0], [4, 4, 1, -1, 2]])],
                                     (0,), {"reduction": "none"}),
    "scaled_dot_product_attention-gqa": ("scaled_dot_product_attention", [R(2, 3, 4, 5), R(2, 6, 2, 5), R(2, 6, 2, 5)],
                                         (0, 1, 2), {}),
    "scaled_dot_product_attention-causal": ("scaled_dot_product_attention", [R(1, 4, 2, 3), R(1, 4, 2, 3),
                                                                             R(1, 4, 2, 3)], (0, 1, 2),
                                            {"is_causal": True, "scale": 0.3}),
    "scaled_dot_product_attention-bool-mask": ("scaled_dot_product_attention",
                                               [R(1, 3, 2, 4), R(1, 5, 2, 4), R(1, 5, 2, 4),
                                                np.tril(np.ones((3, 5), bool), 1)], (0, 1, 2), {}),
    "scaled_dot_product_attention-float-mask": ("scaled_dot_product_attention",
                                                [R(2, 3, 2, 4), R(2, 3, 2, 4), R(2, 3, 2, 4), R(2, 1, 3, 3)],
                                                (0, 1, 2, 3), {}),  # (with is_causal=True: refused)
    # the warp-ctc form keeps the logits' gradient from the forward; the reductions run as ops after it
    "ctc_loss": ("ctc_loss", [R(6, 3, 5), np.array([[1, 2, 2], [4, 3, 0], [2, 0, 0]], np.int32), np.array([6, 5, 3]),
                              np.array([3, 2, 1])], (0,), {"reduction": "none"}),
    "ctc_loss-mean": ("ctc_loss", [R(6, 3, 5), np.array([[1, 2, 2], [4, 3, 0], [2, 0, 0]], np.int32),
                                   np.array([6, 4, 3]), np.array([3, 2, 1])], (0,), {}),
    "ctc_loss-blank3-sum-norm": ("ctc_loss", [R(5, 2, 4), np.array([[0, 1, 1], [2, 1, 0]], np.int32),
                                              np.array([5, 4]), np.array([3, 2])], (0,),
                                 {"blank": 3, "reduction": "sum", "norm_by_times": True}),
    # too few frames for the label, an empty label; zero_infinity and the mean over label lengths
    "ctc_loss-edge": ("ctc_loss", [R(4, 3, 4), np.array([[1, 1, 2], [3, 0, 0], [2, 2, 0]], np.int32),
                                   np.array([3, 4, 4]), np.array([3, 1, 2])], (0,),
                      {"zero_infinity": True, "norm_by_times": True}),
    # the hsigmoid form keeps the pre-activations (clipped to [-40, 40]: the large weights clip some)
    "hsigmoid_loss": ("hsigmoid_loss", [R(5, 3), np.array([0, 3, 5, 2, 6]), R(6, 3), R(6, 1)], (0, 2, 3),
                      {"num_classes": 7}),
    "hsigmoid_loss-nobias": ("hsigmoid_loss", [R(4, 3), np.array([[1], [0], [2], [1]]), R(2, 3)], (0, 2),
                             {"num_classes": 3}),
    "hsigmoid_loss-custom-clipped": ("hsigmoid_loss", [R(4, 3), np.array([0, 1, 2, 3]), R(5, 3) * 30, R(5, 1),
                                                       np.array([[0, 1, -1], [0, 2, 3], [1, -1, -1], [0, 2, 4]]),
                                                       np.array([[1, 0, 0], [0, 1, 1], [1, 0, 0], [1, 1, 0]])],
                                     (0, 2, 3), {"num_classes": 5}),
}

# functions called with their tensors by name (hsigmoid_loss takes num_classes before the weight)
BY_NAME = {"ctc_loss", "hsigmoid_loss"}


def _call_f(fn: str, tensors: list, attrs: dict):  # noqa: ANN202
    if fn in BY_NAME:
        return getattr(F, fn)(**dict(zip(TABLE[fn].tensor_names, tensors)), **attrs)
    return getattr(F, fn)(*tensors, **attrs)


# as Paddle, the chain smooths the label in float32 (one_hot's type) before casting it to the input's type, where the
# fused op smooths in the input's type: the two differ by float32 rounding of the smoothed label
LOOSE = {"cross_entropy-smooth-weight", "cross_entropy-smooth-sum"}


def _negating_hooks(log: list) -> saved_tensors_hooks:
    """Hooks that store a negated numpy copy (logical not for booleans) and undo it on unpack."""
    def flip(a):  # noqa: ANN001, ANN202
        return ~a if a.dtype == np.bool_ else -a

    def pack(t):  # noqa: ANN001, ANN202
        log.append("pack")
        return flip(t.numpy())

    def unpack(a):  # noqa: ANN001, ANN202
        log.append("unpack")
        return P.to_tensor(flip(a))

    return saved_tensors_hooks(pack, unpack)


def _ct(shape: tuple) -> np.ndarray:
    return np.random.default_rng(3).standard_normal(shape)


@pytest.mark.parametrize("cid", list(CASES))
def test_gradients_through_transforming_hooks_equal_jax_grad(cid: str) -> None:
    fn, arrays, diff, attrs = CASES[cid]
    tensors = [P.to_tensor(a, stop_gradient=i not in diff) for i, a in enumerate(arrays)]
    kw = dict(attrs)
    if fn == "binary_cross_entropy_with_logits":  # (pos_weight is a keyword of the function)
        kw["pos_weight"] = tensors.pop()
    log: list = []
    with _negating_hooks(log):
        out = _call_f(fn, tensors, kw)
    out0 = out[0] if isinstance(out, tuple) else out
    ct = _ct(tuple(out0.shape))
    got = P.grad((out0 * P.to_tensor(ct)).sum(), [tensors[i] for i in diff])
    assert log.count("pack") >= 2 and log.count("unpack") == log.count("pack"), log

    plain = TABLE[fn].fn
    names = TABLE[fn].tensor_names

    def loss(*d):  # noqa: ANN002, ANN202
        vals = [jnp.asarray(a) for a in arrays]
        for i, v in zip(diff, d):
            vals[i] = v
        if fn == "binary_cross_entropy_with_logits":
            o = plain(vals[0], vals[1], None, vals[2], **attrs)
        elif fn == "rrelu":  # (no key: the slopes of inference are fixed)
            o = plain(vals[0], jnp.zeros((2,), jnp.int64), **attrs)
        else:  # (momentum only updates batch_norm's running statistics)
            o = plain(**dict(zip(names, vals)), **{k: v for k, v in attrs.items() if k != "momentum"})
        o = o[0] if isinstance(o, tuple) else o
        return jnp.sum(o * ct)

    # jitted: one compile of the reference instead of one per primitive (the reference was most of the test's time)
    want = jax.jit(jax.grad(loss, argnums=tuple(range(len(diff)))))(*[jnp.asarray(arrays[i]) for i in diff])
    tol = {"rtol": 1e-6, "atol": 1e-9} if cid in LOOSE else {"rtol": 1e-10, "atol": 1e-12}
    for i, g, w in zip(diff, got, want):
        np.testing.assert_allclose(g.numpy(), np.asarray(w), **tol, err_msg=f"{cid}: input {i}")


def test_rrelu_training_under_hooks_uses_the_same_slopes_and_gradient() -> None:
    x = P.to_tensor(R(4, 5), stop_gradient=False)
    P.seed(11)
    y = F.rrelu(x)
    (g,) = P.grad(y.sum(), [x])
    P.seed(11)
    log: list = []
    with _negating_hooks(log):
        y2 = F.rrelu(x)
    (g2,) = P.grad(y2.sum(), [x])
    np.testing.assert_array_equal(y2.numpy(), y.numpy())
    np.testing.assert_array_equal(g2.numpy(), g.numpy())
    assert log == ["pack", "pack", "unpack", "unpack"]  # x and the noise


def test_attention_dropout_under_hooks_uses_the_same_mask_and_gradient() -> None:
    q, k, v = (P.to_tensor(R(2, 3, 2, 4), stop_gradient=False) for _ in range(3))
    P.seed(5)
    y = F.scaled_dot_product_attention(q, k, v, dropout_p=0.4)
    g = P.grad(y.sum(), [q, k, v])
    P.seed(5)
    log: list = []
    with _negating_hooks(log):
        y2 = F.scaled_dot_product_attention(q, k, v, dropout_p=0.4)
    g2 = P.grad(y2.sum(), [q, k, v])
    np.testing.assert_allclose(y2.numpy(), y.numpy(), rtol=1e-12, atol=1e-14)
    for a, b in zip(g2, g):
        np.testing.assert_allclose(a.numpy(), b.numpy(), rtol=1e-10, atol=1e-12)
    # the scaled query, key, softmax, dropout's uint8 mask, the dropped weights and value, as Paddle's
    assert log.count("pack") == 6 and log.count("unpack") == 6, log


# dropout forms in training: (call, input shape, the tensors Paddle packs). Under hooks they run the forms that keep
# the mask (Paddle's kernel, or its chain for slices and the alpha dropouts); with the same seed they must draw the
# mask the plain ops draw and give the same values and gradients (the packs of the other forms, dropout2d/3d and p=0
# included, are compared with Paddle's in tests/nn/test_functional_paddle.py)
DROPOUTS = {
    "dropout": (lambda x: F.dropout(x, 0.4), (4, 5), 1),
    "dropout-p1": (lambda x: F.dropout(x, 1.0), (4, 5), 1),
    "dropout-axes-down": (lambda x: F.dropout(x, 0.5, axis=[0, 2], mode="downscale_in_infer"), (3, 2, 4), 2),
    "alpha_dropout": (lambda x: F.alpha_dropout(x, 0.3), (4, 5), 2),
    "feature_alpha_dropout": (lambda x: F.feature_alpha_dropout(x, 0.5), (3, 4, 2), 2),
}


@pytest.mark.parametrize("cid", list(DROPOUTS))
def test_dropouts_under_hooks_use_the_same_mask_and_gradient(cid: str) -> None:
    call, shape, n_packed = DROPOUTS[cid]
    x = P.to_tensor(R(*shape), stop_gradient=False)
    ct = P.to_tensor(_ct(shape))
    P.seed(5)
    y = call(x)
    (g,) = P.grad((y * ct).sum(), [x])
    P.seed(5)
    log: list = []
    with _negating_hooks(log):
        y2 = call(x)
    assert log == ["pack"] * n_packed
    (g2,) = P.grad((y2 * ct).sum(), [x])
    assert log == ["pack"] * n_packed + ["unpack"] * n_packed
    np.testing.assert_allclose(y2.numpy(), y.numpy(), rtol=1e-12, atol=1e-14)
    np.testing.assert_allclose(g2.numpy(), g.numpy(), rtol=1e-12, atol=1e-14)
    # the backward multiplies by the mask: the gradient is ct times the factor each element was multiplied by
    # (for the alpha dropouts, by the affine correction's a where kept)
    gx, yv, xv, cv = g.numpy(), y.numpy(), x.numpy(), ct.numpy()
    if cid.startswith(("alpha", "feature_alpha")):
        factor = gx / cv
        kept = factor != 0
        b = yv[kept] - factor[kept] * xv[kept]
        np.testing.assert_allclose(b, b.flat[0], rtol=1e-10)  # kept: a * x + b with one a and one b
        assert len(set(np.round(yv[~kept], 10))) <= 1  # dropped: one constant
    else:
        np.testing.assert_allclose(gx, cv * yv / xv, rtol=1e-10, atol=1e-12)
    if not cid.endswith(("p0", "p1")):  # a real draw: some kept, some dropped
        assert 0 < np.count_nonzero(gx) < gx.size


@pytest.mark.parametrize("batched", [True, False])
def test_adaptive_log_softmax_chain_under_transforming_hooks_equals_jax_grad(batched: bool) -> None:
    # labels in the head, in both clusters and (unbatched) in the second cluster only
    x = R(5, 6) if batched else R(6)
    label = np.array([0, 7, 3, 9, 5]) if batched else np.array(8)
    cutoffs = [3, 6, 10]
    head_w, head_b = R(6, 5), R(5)
    tails = [R(6, 3), R(3, 3), R(6, 2), R(2, 4)]
    arrays = [x, head_w, head_b, *tails]
    ts = [P.to_tensor(a, stop_gradient=False) for a in arrays]
    log: list = []
    with _negating_hooks(log):
        out, loss = F.adaptive_log_softmax_with_loss(ts[0], P.to_tensor(label), ts[1], [ts[3:5], ts[5:7]], cutoffs,
                                                     head_bias=ts[2])
    ct = _ct(tuple(out.shape))
    got = P.grad((out * P.to_tensor(ct)).sum() + loss * 0.7, ts, allow_unused=True)
    assert log.count("pack") >= 9 and log.count("unpack") == log.count("pack"), log

    def f(x, hw, hb, *tw):  # noqa: ANN001, ANN002, ANN202
        o, m = TABLE["adaptive_log_softmax_with_loss"].fn(x, jnp.asarray(label), hw, list(tw), hb, tuple(cutoffs))
        return jnp.sum(o * ct) + m * 0.7

    want = jax.jit(jax.grad(f, argnums=tuple(range(len(arrays)))))(*[jnp.asarray(a) for a in arrays])
    # (as in Paddle's chain, a cluster without rows is not in the graph: its weights get no gradient)
    assert [g is None for g in got] == [False] * 3 + [not batched] * 2 + [False] * 2
    for i, (g, w) in enumerate(zip(got, want)):
        if g is None:
            assert not np.any(np.asarray(w)), f"tensor {i}"
        else:
            np.testing.assert_allclose(g.numpy(), np.asarray(w), rtol=1e-10, atol=1e-12, err_msg=f"tensor {i}")


@pytest.mark.parametrize("cid", ["batch_norm-train", "conv1d", "max_pool2d-mask", "hsigmoid_loss"])
def test_second_order_through_the_hook_forms_equals_the_plain_ops(cid: str) -> None:
    fn, arrays, diff, attrs = CASES[cid]

    def second(hooked: bool) -> list[np.ndarray]:
        ts = [P.to_tensor(a, stop_gradient=i not in diff) for i, a in enumerate(arrays)]
        log: list = []
        if hooked:
            with _negating_hooks(log):
                out = _call_f(fn, ts, attrs)
        else:
            out = _call_f(fn, ts, attrs)
        out0 = out[0] if isinstance(out, tuple) else out
        (gx,) = P.grad((out0 * P.to_tensor(_ct(tuple(out0.shape)))).sum(), [ts[0]], create_graph=True)
        wrt = [ts[i] for i in diff]
        return [None if g is None else g.numpy() for g in P.grad((gx * gx).sum(), wrt, allow_unused=True)]

    for a, b in zip(second(True), second(False)):
        if a is None or b is None:
            assert a is None or not np.any(a)
            assert b is None or not np.any(b)
        else:
            np.testing.assert_allclose(a, b, rtol=1e-9, atol=1e-11)


def test_ctc_and_hsigmoid_under_hooks_raise_the_errors_of_their_functions() -> None:
    lp = P.to_tensor(R(4, 2, 3), stop_gradient=False)
    labels, lengths = P.to_tensor(np.array([[1, 2], [2, 0]], np.int32)), P.to_tensor(np.array([4, 3]))
    with saved_tensors_hooks(lambda t: t, lambda t: t):
        with pytest.raises(ValueError, match=r"^ctc_loss: blank must be a class index in \[0, 3\), but received 3"):
            F.ctc_loss(lp, labels, lengths, P.to_tensor(np.array([2, 1])), blank=3)
        with pytest.raises(ValueError, match=r"^ctc_loss: label_lengths holds 5, but each length must be in \[0, 2\]"):
            F.ctc_loss(lp, labels, lengths, P.to_tensor(np.array([5, 1])))
        with pytest.raises(ValueError, match="reduction"):
            F.ctc_loss(lp, labels, lengths, P.to_tensor(np.array([2, 1])), reduction="avg")
        x, w = P.to_tensor(R(3, 2), stop_gradient=False), P.to_tensor(R(3, 2))
        with pytest.raises(ValueError, match=r"^hsigmoid_loss: label 4 is out of range for num_classes=4"):
            F.hsigmoid_loss(x, P.to_tensor(np.array([0, 4, 1])), 4, w)


def test_softmax_with_cross_entropy_forms_refuse_the_other_return_softmax() -> None:
    x, lab = P.to_tensor(R(3, 4)), P.to_tensor(np.array([[1], [0], [3]]))
    with pytest.raises(ValueError, match="runs with return_softmax=False.*use softmax_with_cross_entropy_softmax_residuals"):
        apply_op(TABLE["softmax_with_cross_entropy_residuals"], (x, lab), {"return_softmax": True})
    with pytest.raises(ValueError, match="runs with return_softmax=True.*use softmax_with_cross_entropy_residuals"):
        apply_op(TABLE["softmax_with_cross_entropy_softmax_residuals"], (x, lab), {"return_softmax": False})
