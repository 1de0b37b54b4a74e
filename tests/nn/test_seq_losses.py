"""ctc_loss / CTCLoss beyond the recorded Paddle cases (``tests/nn/test_functional_paddle.py`` has those):
the layer against the function, gradients under ``jax.grad``, and each misuse's exception."""

from __future__ import annotations

import jax
import jax.numpy as jnp
import numpy as np
import pytest

import pylayer_jax as paddle
import pylayer_jax.nn.functional as F
from pylayer_jax import nn

RS = np.random.RandomState(0)
LOGITS = RS.standard_normal((5, 2, 4)).astype("float32")
LABELS = np.array([[1, 2, 2], [1, 3, 0]], np.int32)
IL = np.array([5, 4], np.int64)
LL = np.array([3, 2], np.int64)


def _args(**kw):
    a = {"log_probs": LOGITS, "labels": LABELS, "input_lengths": IL, "label_lengths": LL}
    a.update(kw)
    return {k: paddle.to_tensor(v) for k, v in a.items()}


def test_ctcloss_layer_is_the_function_with_its_options():
    x = paddle.to_tensor(LOGITS, stop_gradient=False)
    layer = nn.CTCLoss(blank=0, reduction="sum")
    a = _args()
    out = layer(x, a["labels"], a["input_lengths"], a["label_lengths"], norm_by_times=True)
    want = F.ctc_loss(x, a["labels"], a["input_lengths"], a["label_lengths"], reduction="sum", norm_by_times=True)
    np.testing.assert_allclose(out.numpy(), want.numpy())
    out.backward()
    # norm_by_times divides each sequence's gradient by its frame count, the loss is unchanged
    x2 = paddle.to_tensor(LOGITS, stop_gradient=False)
    F.ctc_loss(x2, a["labels"], a["input_lengths"], a["label_lengths"], reduction="sum").backward()
    np.testing.assert_allclose(x.grad.numpy(), x2.grad.numpy() / IL[None, :, None], rtol=1e-6)
    np.testing.assert_allclose(out.numpy(), F.ctc_loss(x2, a["labels"], a["input_lengths"], a["label_lengths"],
                                                       reduction="sum").numpy())


def test_ctc_loss_under_jax_grad_equals_the_eager_gradient():
    a = _args()
    f = lambda lg: jnp.asarray(F.ctc_loss(lg, LABELS, IL, LL))  # noqa: E731
    g = jax.grad(f)(jnp.asarray(LOGITS))
    x = paddle.to_tensor(LOGITS, stop_gradient=False)
    F.ctc_loss(x, a["labels"], a["input_lengths"], a["label_lengths"]).backward()
    np.testing.assert_allclose(np.asarray(g), x.grad.numpy(), rtol=1e-5, atol=1e-7)


@pytest.mark.parametrize(("kw", "exc", "match"), [
    ({"log_probs": LOGITS[:, 0]}, ValueError, r"ctc_loss: log_probs must be a 3-D tensor, but received shape \[5, 4\]"),
    ({"labels": LABELS[0]}, ValueError, r"ctc_loss: labels must be a 2-D tensor \[batch_size, max_label_length\]"),
    ({"labels": LABELS[:1]}, ValueError, r"ctc_loss: labels must have batch_size=2 rows"),
    ({"input_lengths": np.array([5, 4, 4], np.int64)}, ValueError, r"input_lengths must have batch_size=2 rows"),
    ({"input_lengths": np.array([6, 4], np.int64)}, ValueError,
     r"ctc_loss: input_lengths holds 6, but each length must be in \[0, 5\]"),
    ({"input_lengths": np.array([-1, 4], np.int64)}, ValueError, r"input_lengths holds -1"),
    ({"label_lengths": np.array([4, 2], np.int64)}, ValueError,
     r"ctc_loss: label_lengths holds 4, but each length must be in \[0, 3\]"),
    ({"labels": np.array([[1, 4, 2], [1, 3, 0]], np.int32)}, ValueError,
     r"ctc_loss: labels holds 4, which is not a class index in \[0, 4\)"),
    ({"labels": LABELS.astype("float32")}, TypeError, r"ctc_loss: labels must be an integer tensor"),
    ({"log_probs": LOGITS.astype("int32")}, TypeError, r"ctc_loss: log_probs must be a float32 or float64 tensor"),
])
def test_ctc_loss_misuse_raises(kw, exc, match):
    with pytest.raises(exc, match=match):
        F.ctc_loss(**_args(**kw))


def test_ctc_loss_bad_blank_and_reduction_raise():
    with pytest.raises(ValueError, match=r"ctc_loss: blank must be a class index in \[0, 4\), but received 4"):
        F.ctc_loss(**_args(), blank=4)
    with pytest.raises(ValueError, match=r"ctc_loss: reduction must be 'mean', 'sum' or 'none', but received 'avg'"):
        F.ctc_loss(**_args(), reduction="avg")
    with pytest.raises(ValueError, match=r"CTCLoss: reduction must be 'sum', 'mean' or 'none', but received 'avg'"):
        nn.CTCLoss(reduction="avg")


# ---- hsigmoid_loss / HSigmoidLoss ----
HX = RS.standard_normal((4, 3)).astype("float32")
HLAB = np.array([0, 3, 5, 2])


def test_hsigmoid_layer_is_the_function_with_its_parameters():
    layer = nn.HSigmoidLoss(3, 6)
    assert layer.weight.shape == [5, 3] and layer.bias.shape == [5, 1]
    x = paddle.to_tensor(HX, stop_gradient=False)
    out = layer(x, paddle.to_tensor(HLAB))
    want = F.hsigmoid_loss(x, paddle.to_tensor(HLAB), 6, layer.weight, layer.bias)
    np.testing.assert_allclose(out.numpy(), want.numpy())
    custom = nn.HSigmoidLoss(3, 4, is_custom=True, bias_attr=False)
    assert custom.weight.shape == [4, 3] and custom.bias is None
    table = paddle.to_tensor(np.array([[0, 1], [2, -1], [3, 0], [1, 2]]))
    code = paddle.to_tensor(np.array([[1, 0], [0, 0], [1, 1], [0, 1]]))
    out = custom(x, paddle.to_tensor(HLAB), table, code)
    np.testing.assert_allclose(out.numpy(), F.hsigmoid_loss(x, paddle.to_tensor(HLAB), 4, custom.weight, None, table,
                                                            code).numpy())


def _hs(**kw):
    a = {"input": paddle.to_tensor(HX), "label": paddle.to_tensor(HLAB), "num_classes": 6,
         "weight": paddle.to_tensor(RS.standard_normal((5, 3)).astype("float32")), "bias": None}
    a.update(kw)
    return F.hsigmoid_loss(**a)


@pytest.mark.parametrize(("kw", "exc", "match"), [
    ({"label": paddle.to_tensor(np.array([0, 6, 1, 1]))}, ValueError,
     r"hsigmoid_loss: label 6 is out of range for num_classes=6: it must be in \[0, 6\)"),
    ({"num_classes": 1}, ValueError, r"hsigmoid_loss: num_classes must be an int >= 2 with the default tree"),
    ({"num_classes": 7}, ValueError, r"the default tree over 7 classes has 6 nodes, so weight must have 6 rows"),
    ({"input": paddle.to_tensor(HX[0])}, ValueError, r"hsigmoid_loss: input must be 2-D"),
    ({"label": paddle.to_tensor(HLAB[:3])}, ValueError, r"hsigmoid_loss: label must have shape \[4\] or \[4, 1\]"),
    ({"label": paddle.to_tensor(HLAB.astype("float32"))}, TypeError, r"hsigmoid_loss: label must be an integer"),
    ({"bias": paddle.ones([5])}, ValueError, r"hsigmoid_loss: bias must have shape \[5, 1\]"),
    ({"path_table": paddle.to_tensor(np.zeros((4, 2), np.int64))}, ValueError,
     r"hsigmoid_loss: path_table and path_code go together .* only path_table was given"),
    ({"path_table": paddle.to_tensor(np.array([[0, 5], [1, -1], [2, 0], [0, 0]])),
      "path_code": paddle.to_tensor(np.zeros((4, 2), np.int64))}, ValueError,
     r"hsigmoid_loss: path_table holds 5, which is not a node index in \[0, 5\)"),
    ({"path_table": paddle.to_tensor(np.zeros((4, 2), np.int64)),
      "path_code": paddle.to_tensor(np.zeros((4, 3), np.int64))}, ValueError,
     r"path_table and path_code must have the same shape"),
    ({"is_sparse": 1}, TypeError, r"hsigmoid_loss: is_sparse must be a bool"),
])
def test_hsigmoid_loss_misuse_raises(kw, exc, match):
    with pytest.raises(exc, match=match):
        _hs(**kw)


def test_hsigmoid_layer_needs_two_classes_with_the_default_tree():
    with pytest.raises(ValueError, match=r"HSigmoidLoss: num_classes must be at least 2 with the default tree"):
        nn.HSigmoidLoss(3, 1)
