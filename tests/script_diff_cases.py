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


def _lin(paddle: Any, **kw: Any) -> Any:
    lin = paddle.nn.Linear(2, 2, **kw)
    lin.weight.set_value(paddle.to_tensor([[0.1, -0.2], [0.3, 0.4]]))
    lin.bias.set_value(paddle.to_tensor([0.05, -0.05]))
    return lin


def global_norm_clip_in_place(paddle: Any, out: dict[str, Any]) -> None:
    """``ClipGradByGlobalNorm`` (as an optimizer's ``grad_clip`` or called on (param, grad) pairs) scales the
    gradients in place: after ``step()`` each parameter's ``.grad`` of one or more dimensions holds the clipped
    values (a 0-D one, or one with ``need_clip=False``, keeps its own); the other clips leave ``.grad`` alone."""
    nn = paddle.nn
    x = paddle.to_tensor([[1.0, 2.0], [-1.0, 0.5]])
    for cname, clip in (("global", nn.ClipGradByGlobalNorm(0.1)), ("norm", nn.ClipGradByNorm(0.1)),
                        ("value", nn.ClipGradByValue(0.05)), ("global_big", nn.ClipGradByGlobalNorm(100.0))):
        for oname in ("SGD", "Adam"):
            lin = _lin(paddle, bias_attr=paddle.ParamAttr(need_clip=False))
            s = paddle.create_parameter([], "float32")
            s.set_value(paddle.to_tensor(0.5))
            opt = getattr(paddle.optimizer, oname)(0.1, parameters=lin.parameters() + [s], grad_clip=clip)
            ((lin(x) * s) ** 2).mean().backward()
            opt.step()
            key = f"clip_{cname}_{oname}"
            out[key + "_w"] = _v(lin.weight)
            out[key + "_gw"] = _v(lin.weight.grad)
            out[key + "_gb"] = _v(lin.bias.grad)
            out[key + "_gs"] = _v(s.grad)
    lin = _lin(paddle)
    (lin(x) ** 2).mean().backward()
    pairs = [(p, p.grad) for p in lin.parameters()]
    res = nn.ClipGradByGlobalNorm(0.1)(pairs)
    out["clip_call_same_objects"] = [r[1] is g for r, (_, g) in zip(res, pairs)]
    out["clip_call_grad"] = _v(lin.weight.grad)
    out["clip_call_result"] = _v(res[0][1])


def minimize_after_backward(paddle: Any, out: dict[str, Any]) -> None:
    """Dynamic-mode ``opt.minimize(loss)`` applies the gradients of a ``loss.backward()`` already run (Paddle's
    documented pattern; it ran a second backward here, which failed) and returns ``([], [(param, grad)])``;
    without a backward it updates nothing."""
    x = paddle.to_tensor([[1.0, 2.0], [-1.0, 0.5]])
    lin = _lin(paddle)
    opt = paddle.optimizer.SGD(0.1, parameters=lin.parameters())
    loss = (lin(x) ** 2).mean()
    loss.backward()
    ops, pg = opt.minimize(loss)
    out["minimize_w"] = _v(lin.weight)
    out["minimize_grad"] = _v(lin.weight.grad)
    out["minimize_ret"] = [ops, [p.name == q.name and g.shape == q.grad.shape for (p, g), q in zip(pg, lin.parameters())]]
    lin2 = _lin(paddle)
    opt2 = paddle.optimizer.Adam(0.1, parameters=lin2.parameters())
    ops, pg = opt2.minimize((lin2(x) ** 2).mean())
    out["minimize_no_backward"] = [_v(lin2.weight), ops, len(pg)]
    lin3 = _lin(paddle)
    opt3 = paddle.optimizer.SGD(0.1, parameters=lin3.parameters(), grad_clip=paddle.nn.ClipGradByGlobalNorm(0.1))
    loss = (lin3(x) ** 2).mean()
    loss.backward()
    opt3.minimize(loss, parameters=[lin3.weight])
    out["minimize_params_w"] = _v(lin3.weight)
    out["minimize_params_b"] = _v(lin3.bias)
    out["minimize_clip_grad"] = _v(lin3.weight.grad)


def _err(fn: Any) -> Any:
    try:
        r = fn()
    except Exception as e:  # noqa: BLE001 - the type is what is compared
        return type(e).__name__
    return [str(r.dtype), _v(r)]


def inplace_operand_dtypes(paddle: Any, out: dict[str, Any]) -> None:
    """Out of place, a 0-D tensor of another dtype meets an N-D one as a number (``int64 [3] + float32 []`` is
    float32); in place it does not, in Paddle: ``x.add_(paddle.to_tensor(1.5))`` on integers is a TypeError (it
    silently truncated to the integers), as is any in-place mix of dtypes that are not both floating point."""
    f0 = paddle.to_tensor(1.5)
    for name in ("add", "subtract", "multiply", "divide", "floor_divide", "remainder", "pow"):
        out[f"inplace_{name}_int_0d_float"] = _err(lambda name=name: getattr(paddle.ones([3], "int64"), name + "_")(f0))
        out[f"outplace_{name}_int_0d_float"] = _err(lambda name=name: getattr(paddle, name)(paddle.ones([3], "int64"), f0))
    out["inplace_float_0d_int"] = _err(lambda: paddle.ones([3], "float32").add_(paddle.to_tensor(2)))
    out["inplace_int32_0d_int64"] = _err(lambda: paddle.ones([3], "int32").multiply_(paddle.to_tensor(2)))
    out["inplace_0d_0d"] = _err(lambda: paddle.ones([], "int64").add_(f0))
    out["inplace_same_dtype"] = _err(lambda: paddle.ones([3], "int64").add_(paddle.to_tensor(2)))
    out["inplace_scalar"] = _err(lambda: paddle.ones([3], "float32").add_(paddle.to_tensor(2.0)))


def replaced_attribute_keeps_its_place(paddle: Any, out: dict[str, Any]) -> None:
    """Assigning a new Parameter or sublayer to an attribute that holds one (``model.conv = nn.Linear(...)`` when
    fine-tuning) keeps its place in ``named_parameters()`` / ``state_dict()`` / ``parameters()`` order, as in
    Paddle (it moved to the end: parameters zipped across models, or optimizer groups, paired other tensors)."""
    nn = paddle.nn

    class M(nn.Layer):
        def __init__(self) -> None:
            super().__init__()
            self.w = self.create_parameter([2])
            self.conv = nn.Linear(2, 2)
            self.b = self.create_parameter([2])
            self.head = nn.Linear(2, 3)
            self.register_buffer("buf", paddle.ones([1]))

    m = M()
    m.w = paddle.create_parameter([3], "float32")
    m.conv = nn.Linear(2, 5)
    out["replace_params"] = [[n, list(p.shape)] for n, p in m.named_parameters()]
    out["replace_children"] = [n for n, _ in m.named_children()]
    out["replace_sd"] = list(m.state_dict().keys())
    m.conv = None
    m.conv = nn.Linear(1, 1)
    out["replace_after_none"] = [n for n, _ in m.named_parameters()]
    s = nn.Sequential(nn.Linear(1, 2), nn.ReLU(), nn.Linear(2, 3))
    s[0] = nn.Linear(1, 4)
    out["replace_seq_setitem"] = [[n, list(p.shape)] for n, p in s.named_parameters()]


def where_condition_only(paddle: Any, out: dict[str, Any]) -> None:
    """``paddle.where(condition)`` with neither x nor y gives the indices of the true elements, one int64 tensor
    per axis (it raised); with both it selects as before."""
    c = paddle.to_tensor([[True, False], [True, True]])
    r = paddle.where(c)
    out["where_cond_only"] = [type(r).__name__, [[str(t.dtype), _v(t)] for t in r]]
    r = paddle.where(paddle.to_tensor([0, 3, 0, 5]))
    out["where_cond_only_int"] = [type(r).__name__, [[str(t.dtype), _v(t)] for t in r]]
    out["where_both"] = _v(paddle.where(c, paddle.ones([2, 2]), 0.0))
    out["where_one_missing"] = _err(lambda: paddle.where(c, paddle.ones([2, 2])))


def format_zero_d(paddle: Any, out: dict[str, Any]) -> None:
    """``f"{loss:.4f}"`` on a 0-D Tensor formats its number, and ``f"{loss}"`` gives the number (it raised
    TypeError, and printed the Tensor's repr); a Tensor of one or more dimensions takes no format spec."""
    loss = paddle.to_tensor(0.123456)
    out["format_spec"] = [f"{loss:.4f}", format(loss, ".2e"), f"{paddle.to_tensor(7):03d}", f"{loss:>10.2f}"]
    out["format_plain"] = [f"{paddle.to_tensor(3)}", f"{paddle.to_tensor(True)}", f"{paddle.to_tensor(2.5, 'float64')}"]
    out["format_1d_spec"] = _err(lambda: f"{paddle.ones([2]):.2f}")
    out["format_1d_plain_is_str"] = f"{paddle.ones([2])}" == str(paddle.ones([2]))


def optimizer_state_for_other_parameters(paddle: Any, out: dict[str, Any]) -> None:
    """``opt.set_state_dict(state)`` whose accumulators are keyed by other parameter names (a second model built in
    the same process is ``linear_1``, not ``linear_0``): Paddle's next step raises AssertionError; the state was
    silently ignored and the update restarted. An empty state dict, or an optimizer without state, loads fine."""
    nn = paddle.nn
    x = paddle.ones([2, 2])

    def trained(name: str) -> Any:
        lin = nn.Linear(2, 2)
        opt = getattr(paddle.optimizer, name)(0.1, parameters=lin.parameters())
        (lin(x) ** 2).mean().backward()
        opt.step()
        return opt.state_dict()

    def resume(name: str, state: Any) -> Any:
        lin = nn.Linear(2, 2)
        opt = getattr(paddle.optimizer, name)(0.1, parameters=lin.parameters())
        opt.set_state_dict(state)
        (lin(x) ** 2).mean().backward()
        opt.step()
        return _v(lin.weight) is not None

    for name in ("Momentum", "Adam"):
        out[f"state_other_names_{name}"] = _err(lambda name=name: resume(name, trained(name)))
        out[f"state_empty_{name}"] = resume(name, {})
    out["state_sgd"] = resume("SGD", trained("Momentum"))


def batch_norm_use_global_stats(paddle: Any, out: dict[str, Any]) -> None:
    """``use_global_stats=False`` (given, not the default None) always normalises with the batch's statistics and
    updates the running ones, in evaluation mode too (it used the running statistics there); True always uses the
    running ones; the old ``nn.BatchNorm`` (False by default) and ``SyncBatchNorm`` use the running statistics in
    evaluation."""
    nn, F = paddle.nn, paddle.nn.functional
    x = paddle.to_tensor([[1.0, 2.0, 3.0], [3.0, 7.0, 4.0]])
    for ugs in (None, False, True):
        for train in (True, False):
            bn = nn.BatchNorm1D(3, use_global_stats=ugs)
            bn._mean.set_value(paddle.to_tensor([1.0, 1.0, 1.0]))
            bn._variance.set_value(paddle.to_tensor([4.0, 4.0, 4.0]))
            if train:
                bn.train()
            else:
                bn.eval()
            out[f"bn_ugs_{ugs}_{train}"] = [_v(bn(x)), _v(bn._mean), _v(bn._variance)]
            rm, rv = paddle.to_tensor([1.0, 1.0, 1.0]), paddle.to_tensor([4.0, 4.0, 4.0])
            y = F.batch_norm(x, rm, rv, training=train, use_global_stats=ugs)
            out[f"F_bn_ugs_{ugs}_{train}"] = [_v(y), _v(rm), _v(rv)]
    old = nn.BatchNorm(3)
    old.eval()
    out["BatchNorm_eval"] = [_v(old(x)), _v(old._mean)]
    old = nn.BatchNorm(3, use_global_stats=True)
    out["BatchNorm_global_train"] = [_v(old(x)), _v(old._mean)]
    bn = nn.BatchNorm1D(3, use_global_stats=False)
    bn.eval()
    out["bn_ugs_False_eval_one_sample"] = _v(bn(paddle.to_tensor([[1.0, 2.0, 3.0]])))


CASES = [batch_norm_one_value_per_channel, batch_norm_use_global_stats, shape_and_size, astype_to_own_dtype, global_norm_clip_in_place,
         minimize_after_backward, inplace_operand_dtypes, replaced_attribute_keeps_its_place, where_condition_only,
         format_zero_d, optimizer_state_for_other_parameters]


def record(paddle: Any) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for case in CASES:
        case(paddle, out)
    return out
