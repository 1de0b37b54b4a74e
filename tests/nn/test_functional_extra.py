"""nn.functional beyond the recorded fixtures: random functions (statistics, determinism under
a seed), in-place forms, Python-composed paths, and bad arguments rejected at the call with
Paddle's exception types (ValueError for every case below, checked against Paddle 3.3.1)."""

from __future__ import annotations

import numpy as np
import pytest

import pylayer_jax as P
import pylayer_jax.nn.functional as F


def t(a, stop_gradient=True):
    return P.to_tensor(np.asarray(a, np.float32), stop_gradient=stop_gradient)


RNG = np.random.default_rng(0)


# ---- random functions ------------------------------------------------------------------------
def test_dropout2d_drops_whole_channels_with_rate_p_and_is_seeded():
    x = t(np.ones((8, 64, 3, 3)))
    P.seed(7)
    y = F.dropout2d(x, p=0.25).numpy()
    per_channel = y.reshape(8, 64, 9)
    assert np.all((per_channel == 0).all(-1) | np.isclose(per_channel, 1 / 0.75).all(-1))
    assert abs((per_channel[..., 0] == 0).mean() - 0.25) < 0.06
    P.seed(7)
    np.testing.assert_array_equal(F.dropout2d(x, p=0.25).numpy(), y)
    np.testing.assert_array_equal(F.dropout2d(x, p=0.25, training=False).numpy(), x.numpy())


def test_dropout1d_and_3d_channel_masks():
    y1 = F.dropout1d(t(np.ones((4, 32, 5))), p=0.5).numpy()
    assert np.all(np.ptp(y1, axis=-1) == 0)
    y3 = F.dropout3d(t(np.ones((2, 16, 2, 2, 2))), p=0.5, data_format="NDHWC").numpy()
    assert np.all(np.ptp(y3.reshape(2, -1, 16), axis=1) == 0)  # NDHWC: one draw per (sample, last-dim channel)


def test_alpha_dropout_keeps_mean_and_variance_of_standard_normal_inputs():
    x = t(RNG.standard_normal((200, 500)))
    y = F.alpha_dropout(x, p=0.2).numpy()
    assert abs(y.mean()) < 0.02 and abs(y.std() - 1) < 0.02
    _, counts = np.unique(y, return_counts=True)
    assert abs(counts.max() / y.size - 0.2) < 0.01  # dropped values share one constant
    yf = F.feature_alpha_dropout(t(RNG.standard_normal((50, 40, 20))), p=0.3).numpy()
    dropped = np.ptp(yf, axis=-1) == 0
    assert 0.2 < dropped.mean() < 0.4
    np.testing.assert_array_equal(F.alpha_dropout(x, p=0.2, training=False).numpy(), x.numpy())


def test_rrelu_training_slopes_lie_in_range_and_eval_uses_their_mean():
    x = t(-np.ones((1000,)))
    y = F.rrelu(x, 0.1, 0.3).numpy()
    assert np.all((y <= -0.1) & (y >= -0.3)) and np.std(y) > 0.03
    np.testing.assert_allclose(F.rrelu(x, 0.1, 0.3, training=False).numpy(), -0.2, rtol=1e-6)
    with pytest.raises(ValueError, match="rrelu: lower and upper"):
        F.rrelu(x, 0.5, 0.2)


def test_gumbel_softmax_soft_sums_to_one_and_hard_is_one_hot_with_soft_gradient():
    x = t(RNG.standard_normal((6, 5)), stop_gradient=False)
    y = F.gumbel_softmax(x, temperature=0.5)
    np.testing.assert_allclose(y.numpy().sum(-1), 1, rtol=1e-6)
    h = F.gumbel_softmax(x, hard=True)
    assert set(np.unique(h.numpy())) <= {0.0, 1.0} and np.all(h.numpy().sum(-1) == 1)
    (h * t(RNG.standard_normal((6, 5)))).sum().backward()
    assert x.grad is not None and np.any(x.grad.numpy() != 0)


def test_scaled_dot_product_attention_dropout_is_seeded_and_off_in_eval():
    q = t(RNG.standard_normal((1, 4, 2, 3)))
    P.seed(3)
    a = F.scaled_dot_product_attention(q, q, q, dropout_p=0.5).numpy()
    P.seed(3)
    np.testing.assert_array_equal(F.scaled_dot_product_attention(q, q, q, dropout_p=0.5).numpy(), a)
    np.testing.assert_allclose(F.scaled_dot_product_attention(q, q, q, dropout_p=0.5, training=False).numpy(),
                               F.scaled_dot_product_attention(q, q, q).numpy())


# ---- in-place forms and Python-composed paths ----------------------------------------------------
@pytest.mark.parametrize("name,args", [("relu_", ()), ("elu_", (0.5,)), ("hardtanh_", (-0.3, 0.4)),
                                       ("leaky_relu_", (0.2,)), ("softmax_", (0,)), ("tanh_", ()),
                                       ("thresholded_relu_", (0.2, 0.05))])
def test_inplace_forms_write_the_out_of_place_result(name, args):
    a = RNG.standard_normal((3, 4))
    want = getattr(F, name[:-1])(t(a), *args).numpy()
    x = t(a)
    v = x.inplace_version
    assert getattr(F, name)(x, *args) is x
    np.testing.assert_allclose(x.numpy(), want, rtol=1e-6)
    assert x.inplace_version == v + 1
    with pytest.raises(ValueError, match="Leaf"):
        getattr(F, name)(t(a, stop_gradient=False), *args)


def test_sequence_mask_default_maxlen_is_the_largest_length():
    m = F.sequence_mask(P.to_tensor(np.array([1, 3, 2])))
    np.testing.assert_array_equal(m.numpy(), np.arange(3) < np.array([1, 3, 2])[:, None])
    assert m.dtype == P.int64


def test_triplet_with_distance_function_matches_the_default_distance():
    a, p, n = (t(RNG.standard_normal((4, 3))) for _ in range(3))
    got = F.triplet_margin_with_distance_loss(a, p, n, distance_function=F.pairwise_distance, swap=True)
    want = F.triplet_margin_with_distance_loss(a, p, n, swap=True)
    np.testing.assert_allclose(got.numpy(), want.numpy(), rtol=1e-6)


def test_batch_norm_eval_leaves_running_statistics_alone():
    rm, rv = t(np.zeros(3)), t(np.ones(3))
    F.batch_norm(t(RNG.standard_normal((4, 3))), rm, rv, training=False)
    np.testing.assert_array_equal(rm.numpy(), 0)
    np.testing.assert_array_equal(rv.numpy(), 1)


# ---- bad arguments -----------------------------------------------------------------------------
X4 = np.ones((1, 2, 4, 4), np.float32)
X3 = np.ones((1, 2, 5), np.float32)
BAD = [
    ("conv2d stride", lambda: F.conv2d(t(X4), t(np.ones((3, 2, 3, 3))), stride=0), "conv2d: stride must be positive"),
    ("conv2d channels", lambda: F.conv2d(t(X4), t(np.ones((3, 3, 3, 3)))), "conv2d: the input has 2 channels"),
    ("conv1d groups", lambda: F.conv1d(t(X3), t(np.ones((3, 2, 3))), groups=4), "divisible by groups"),
    ("conv2d padding", lambda: F.conv2d(t(X4), t(np.ones((3, 2, 3, 3))), padding=[1, 2, 3]), "conv2d: padding must be"),
    ("conv2d big kernel", lambda: F.conv2d(t(X4), t(np.ones((3, 2, 5, 5)))), "smaller than the dilated kernel"),
    ("conv_transpose output_size", lambda: F.conv2d_transpose(t(X4), t(np.ones((2, 2, 3, 3))), output_size=[20, 20]),
     "output_size"),
    ("max_pool2d kernel", lambda: F.max_pool2d(t(X4), 0), "kernel_size must be positive"),
    ("avg_pool1d rank", lambda: F.avg_pool1d(t(X4), 2), "avg_pool1d: the input must be 3-D"),
    ("max_pool2d format", lambda: F.max_pool2d(t(X4), 2, data_format="NCL"), "data_format must be 'NCHW' or 'NHWC'"),
    ("adaptive output", lambda: F.adaptive_avg_pool2d(t(X4), [0, 2]), "output_size must be positive"),
    ("interpolate both", lambda: F.interpolate(t(X4), size=[3, 3], scale_factor=2), "exactly one of size and scale_factor"),
    ("interpolate mode", lambda: F.interpolate(t(X4), size=[3, 3], mode="foo"), "mode must be one of"),
    ("interpolate rank", lambda: F.interpolate(t(X4), size=[3, 3, 3], mode="trilinear"), "needs a 5-D input"),
    ("pixel_shuffle", lambda: F.pixel_shuffle(t(X4), 3), "divisible by upscale_factor"),
    ("group_norm", lambda: F.group_norm(t(X4), 3), "num_groups must be a positive divisor"),
    ("reduction", lambda: F.margin_ranking_loss(t(np.ones(3)), t(np.ones(3)), t(np.ones(3)), reduction="foo"),
     "reduction must be"),
    ("unfold kernel", lambda: F.unfold(t(X4), 0), "unfold: kernel_sizes must be positive"),
    ("maxout rank", lambda: F.maxout(t(X3), 2), "maxout: the input must be 4-D"),
    ("temporal_shift ratio", lambda: F.temporal_shift(t(X4), 1, 0.5), r"shift_ratio must be in \[0, 0.5\)"),
    ("prelu weight", lambda: F.prelu(t(X4), t(np.ones(3))), "prelu: weight must have 1 or 2"),
    ("bilinear shapes", lambda: F.bilinear(t(np.ones((2, 3))), t(np.ones((2, 4))), t(np.ones((5, 3, 3)))), "must match"),
    ("dropout2d rank", lambda: F.dropout2d(t(X3)), "dropout2d: the input must be 4-D"),
    ("alpha_dropout p", lambda: F.alpha_dropout(t(X3), p=1.5), r"p must be a number in \[0, 1\]"),
    ("dropout negative axis", lambda: F.dropout(t(X3), 0.5, axis=-1), r"dropout: each axis must lie in \[0, 3\).*axis=-1\. Count from the front instead: 2"),
    ("dropout axis list", lambda: F.dropout(t(X3), 0.5, axis=[0, -2]), r"dropout: each axis must lie in \[0, 3\).*\[0, -2\]"),
    ("dropout axis past the rank", lambda: F.dropout(t(X3), 0.5, axis=3), r"dropout: each axis must lie in \[0, 3\).*axis=3\.$"),
    # Paddle 3.3.1 applies the causal mask only and drops attn_mask: a silently wrong result, refused here
    ("attention mask and causal", lambda: F.scaled_dot_product_attention(
        t(np.ones((1, 3, 1, 2))), t(np.ones((1, 3, 1, 2))), t(np.ones((1, 3, 1, 2))), attn_mask=t(np.zeros((1, 1, 3, 3))),
        is_causal=True), r"pass attn_mask or is_causal=True, not both .* shape \[1, 1, 3, 3\] with is_causal=True"),
    ("dropout too many axes", lambda: F.dropout(t(X3), 0.5, axis=[0, 1, 2, 0]), "dropout: axis may name at most 3 axes"),
    ("same shape", lambda: F.soft_margin_loss(t(np.ones(3)), t(np.ones(4))), "must have the same shape"),
    ("max_unpool indices", lambda: F.max_unpool1d(t(X3), P.to_tensor(np.zeros((1, 2, 4), np.int64)), 2),
     "indices must have the input's shape"),
]


@pytest.mark.parametrize("what,call,match", BAD, ids=[b[0] for b in BAD])
def test_bad_arguments_raise_value_error(what, call, match):
    with pytest.raises(ValueError, match=match):
        call()


def test_dropout_axes_are_checked_only_when_a_mask_is_drawn_as_paddle_does() -> None:
    # Paddle 3.3.1 raises for a negative axis in training (ValueError) and for a non-int axis (TypeError); with p=0,
    # p=1 or outside training it draws nothing and checks nothing
    x = t(X3)
    with pytest.raises(TypeError, match=r"dropout: axis must be an int or a list of ints, but received 1\.0"):
        F.dropout(x, 0.5, axis=1.0)
    np.testing.assert_array_equal(F.dropout(x, 0.0, axis=-1).numpy(), X3)
    np.testing.assert_array_equal(F.dropout(x, 1.0, axis=-1).numpy(), np.zeros_like(X3))
    np.testing.assert_array_equal(F.dropout(x, 0.5, axis=-1, training=False).numpy(), X3)
    np.testing.assert_array_equal(F.dropout(x, 0.5, axis=-1, training=False, mode="downscale_in_infer").numpy(),
                                  X3 * 0.5)
    P.seed(4)
    once = F.dropout(t(np.ones((6, 2, 5))), 0.5, axis=0).numpy()
    P.seed(4)
    np.testing.assert_array_equal(F.dropout(t(np.ones((6, 2, 5))), 0.5, axis=[0, 0]).numpy(), once)
    y = F.dropout(x, 0.5, axis=2).numpy()  # one draw per position of axis 2: the same for every channel
    assert set(np.unique(y)) <= {0.0, 2.0}
    np.testing.assert_array_equal(y, np.broadcast_to(y[:, :1], y.shape))


def test_deferred_index_error_names_the_user_line_through_a_layer() -> None:
    # the ids come from a recorded op, so they are checked when the buffer runs; the message names this file's
    # line, past the package's own frames (nn.Embedding's forward and __call__ sit between)
    x = P.to_tensor(np.arange(12.0).reshape(3, 4), stop_gradient=False)
    emb = P.nn.Embedding(5, 2)
    ids = P.argmax(x * 2, axis=1) + 7
    out = emb(ids).sum()
    with pytest.raises(ValueError, match=r"out of range.*called at .*test_functional_extra\.py:\d+"):
        out.numpy()
