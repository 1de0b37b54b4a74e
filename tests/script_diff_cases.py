"""Cases found by running ordinary Paddle training/inference code with both libraries, written as Paddle code:
``record(paddle)`` runs them with the given library and returns what they give (values, dtypes, shapes, the
type of each error). ``record_paddle_script_diffs.py`` runs it with Paddle 3.3.1 into
``data/paddle_script_diffs.json``; ``test_script_diffs.py`` runs it with pylayer_jax and compares."""

from __future__ import annotations

from typing import Any

import numpy as np


def _v(t: Any) -> Any:
    return np.asarray(t.numpy(), dtype=np.float64).tolist()


def batch_norm_one_value_per_channel(paddle: Any, out: dict[str, Any]) -> None:
    """Training-mode batch norm over one value per channel (a last batch of one sample): Paddle's kernel gives
    the input itself (no normalisation, no affine), leaves the running statistics alone, passes the gradient
    through to the input and gives zero gradients to weight and bias."""
    F = paddle.nn.functional
    x = paddle.to_tensor([[1.0, 2.0, 3.0]], stop_gradient=False)
    bn = paddle.nn.BatchNorm1D(3, momentum=0.5)
    bn.weight.set_value(paddle.to_tensor([2.0, 2.0, 2.0]))
    bn.bias.set_value(paddle.to_tensor([1.0, 1.0, 1.0]))
    y = bn(x)
    (y * paddle.to_tensor([1.0, 2.0, 3.0])).sum().backward()
    out["bn1_y"] = _v(y)
    out["bn1_dx"] = _v(x.grad)
    out["bn1_dw"] = _v(bn.weight.grad)
    out["bn1_db"] = _v(bn.bias.grad)
    out["bn1_mean"] = _v(bn._mean)
    out["bn1_var"] = _v(bn._variance)
    w, b = paddle.to_tensor([2.0, 2.0, 2.0]), paddle.to_tensor([1.0, 1.0, 1.0])
    x0 = paddle.to_tensor([[1.0, 2.0, 3.0]])
    for fmt, shape in (("NCHW", [1, 3, 1, 1]), ("NHWC", [1, 1, 1, 3]), ("NCL", [1, 3, 1]), ("NLC", [1, 1, 3])):
        out["bn1_F_" + fmt] = _v(F.batch_norm(x0.reshape(shape), paddle.zeros([3]), paddle.ones([3]), w, b,
                                              training=True, data_format=fmt))
    bn2 = paddle.nn.BatchNorm2D(3)
    out["bn1_2d"] = _v(bn2(x0.reshape([1, 3, 1, 1])))
    out["bn1_2d_mean"] = _v(bn2._mean)
    bn3 = paddle.nn.BatchNorm(3)
    out["bn1_BatchNorm"] = _v(bn3(x0))
    out["bn1_BatchNorm_var"] = _v(bn3._variance)
    # two values per channel (one sample, two positions) are normalised as usual
    out["bn1_two_positions"] = _v(paddle.nn.BatchNorm1D(3)(paddle.to_tensor([[[1.0, 3.0]] * 3])))
    # evaluation mode uses the running statistics whatever the batch
    bn4 = paddle.nn.BatchNorm1D(3)
    bn4._mean.set_value(paddle.to_tensor([1.0, 1.0, 1.0]))
    bn4.eval()
    out["bn1_eval"] = _v(bn4(x0))
    # under saved-tensor hooks (the form that keeps what the kernel keeps)
    x = paddle.to_tensor([[1.0, 2.0, 3.0]], stop_gradient=False)
    bn5 = paddle.nn.BatchNorm1D(3)
    with paddle.autograd.saved_tensors_hooks(lambda t: t, lambda t: t):
        y = bn5(x)
    (y * paddle.to_tensor([1.0, 2.0, 3.0])).sum().backward()
    out["bn1_hooks_y"] = _v(y)
    out["bn1_hooks_dx"] = _v(x.grad)
    out["bn1_hooks_db"] = _v(bn5.bias.grad)
    out["bn1_hooks_mean"] = _v(bn5._mean)


def shape_and_size(paddle: Any, out: dict[str, Any]) -> None:
    """``Tensor.shape`` is a ``paddle.Size``: a list that equals the tuple of the same ints (``x.shape == (2, 3)``
    was False), stays a Size when sliced or added to, and has ``numel()``; ``Tensor.size`` is the element count
    and, called (``x.size()``, ``x.size(1)``), the shape or one of its entries."""
    x = paddle.ones([2, 3])
    s = x.shape
    out["shape_eq_tuple"] = [s == (2, 3), s != (2, 3), (2, 3) == s, s == [2, 3], s == (2, 3, 1), s != [2, 3]]
    out["shape_eq_shape"] = [s == paddle.zeros([2, 3]).shape, paddle.ones([]).shape == (), s[1:] == (3,)]
    out["shape_types"] = [isinstance(s, list), isinstance(s, tuple), type(s[1:]).__name__, type(s + (4,)).__name__,
                          type([1] + s).__name__, type(s * 2).__name__, type(s[0]).__name__]
    out["shape_ops"] = [list(s + (4,)), list([1] + s), list(s * 2), s.numel(), paddle.ones([]).shape.numel()]
    s.append(5)
    out["shape_is_new"] = [list(s), list(x.shape)]
    out["size"] = [x.size == 6, x.size + 1, int(x.size), list(x.size()), x.size(1), x.size(-2), isinstance(x.size, int)]
    out["param_shape_eq"] = paddle.nn.Linear(2, 3).weight.shape == (2, 3)


def astype_to_own_dtype(paddle: Any, out: dict[str, Any]) -> None:
    """``x.astype(dtype)`` with x's own dtype is x itself in Paddle, so a write to the result is a write to x
    (it was a copy); ``x.cast`` and ``paddle.cast`` copy."""
    x = paddle.to_tensor([1.0, 2.0, 3.0])
    y = x.astype("float32")
    y[0] = 5.0
    y.add_(paddle.to_tensor(1.0))
    out["astype_same_writes"] = _v(x)
    out["astype_same_is"] = [x.astype(paddle.float32) is x, x.astype(np.float32) is x, x.astype("float64") is x,
                             x.cast("float32") is x, paddle.cast(x, "float32") is x]
    w = paddle.nn.Linear(2, 2).weight
    out["astype_param_is"] = w.astype("float32") is w
    z = x.cast("float32")
    z[1] = -1.0
    out["cast_copies"] = _v(x)


CASES = [batch_norm_one_value_per_channel, shape_and_size, astype_to_own_dtype]


def record(paddle: Any) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for case in CASES:
        case(paddle, out)
    return out
