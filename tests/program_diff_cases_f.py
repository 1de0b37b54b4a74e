"""Cases found by the whole programs ``tests/programs/p37_autograd_api.py`` and ``p38_decoding.py``, written as Paddle
code: ``record(paddle)`` runs them with the given library and returns what they give (values, shapes, the type of
each error). ``record_paddle_program_diffs_f.py`` runs it with Paddle 3.3.1 into ``data/paddle_program_diffs_f.json``;
``test_program_diffs_f.py`` runs it with pylayer_jax and compares."""

from __future__ import annotations

from typing import Any

import numpy as np
from case_values import _v


def _attempt(f: Any) -> Any:
    try:
        r = f()
        return _v(r) if hasattr(r, "numpy") else r
    except Exception as e:  # noqa: BLE001  (the type is the result)
        return type(e).__name__


def jacobian(paddle: Any, out: dict[str, Any]) -> None:
    """``paddle.autograd.jacobian`` (p37): the lazy ``Jacobian`` of computed tensors, its list shape, indexing by
    ints / slices / tuples, several ys and xs (nested tuples), 0-D tensors (an axis dropped), ``batch_axis=0``,
    arithmetic and Tensor attributes on the object, and the errors of misuse."""
    a = paddle.to_tensor([0.3, -1.2, 0.8], stop_gradient=False)
    b = paddle.to_tensor([1.5, 0.5], stop_gradient=False)
    y = paddle.concat([a * a, a.sum(keepdim=True) * b[:1] * b[1:], paddle.sin(b)])
    J = paddle.autograd.jacobian(y, a)
    out["jac"] = [type(J).__name__, J.shape, _v(J[:]), _v(J[0]), _v(J[1:3]), _v(J[:, 1]), _v(J[2, 0:2]),
                  _v(J[-1]), _v(J[-2:, -1])]
    Js = paddle.autograd.jacobian([y, a * 3.0], [a, b])
    out["jac_nested"] = [type(Js).__name__, len(Js), [[Js[i][j].shape for j in range(2)] for i in range(2)],
                         _v(Js[0][1][:]), _v(Js[1][0][:]), _v(Js[1][1][:])]
    one_x = paddle.autograd.jacobian([y, a * 2.0], a)
    one_y = paddle.autograd.jacobian(y, (a, b))
    out["jac_tuple"] = [type(one_x).__name__, len(one_x), _v(one_x[1][:]), len(one_y), _v(one_y[1][:])]
    s = paddle.to_tensor(1.5, stop_gradient=False)
    J0 = paddle.autograd.jacobian(s * s * s, s)
    J1 = paddle.autograd.jacobian(a * s, s)
    J2 = paddle.autograd.jacobian((a * a).sum(), a)
    out["jac_0d"] = [J0.shape, _v(J0._evaluate_all()), J1.shape, _v(J1[:]), _v(J1[1]), J2.shape, _v(J2[:]),
                     _v(J2[0:2])]
    xb = paddle.to_tensor(np.linspace(-1, 1, 12).reshape(4, 3).astype("float32"), stop_gradient=False)
    yb = paddle.concat([xb * xb.sum(-1, keepdim=True), paddle.exp(xb[:, :1])], axis=-1)
    Jb = paddle.autograd.jacobian(yb, xb, batch_axis=0)
    Jb1 = paddle.autograd.jacobian(xb.sum(-1), xb, batch_axis=0)
    out["jac_batch"] = [Jb.shape, _v(Jb[:]), _v(Jb[1]), _v(Jb[:, 0]), _v(Jb[1:3, 2:4, 0]), Jb1.shape, _v(Jb1[:])]
    Jt = paddle.autograd.jacobian(paddle.tanh(a), a)
    out["jac_ops"] = [_v(Jt * 2.0), _v(Jt + Jt), _v(Jt - 1.0), _v(Jt @ paddle.ones([3])), _v(Jt ** 2),
                      _v(Jt > 0.5), Jt.numpy().tolist(), float(Jt.sum()), Jt.dtype == paddle.float32]
    out["jac_grads_again"] = _v(paddle.grad(J[:].sum(), a)[0])
    out["jac_errors"] = [
        _attempt(lambda: paddle.autograd.jacobian(a, a, batch_axis=1)),
        _attempt(lambda: paddle.autograd.jacobian(paddle.ones([2, 2]) * a.sum(), a)),
        _attempt(lambda: paddle.autograd.jacobian(a, xb)),
        _attempt(lambda: paddle.autograd.jacobian(a, a, batch_axis=0)[:]),
        _attempt(lambda: J0[0]),
        _attempt(lambda: J[..., 0]),
        _attempt(lambda: J[0.5]),
    ]


def hessian(paddle: Any, out: dict[str, Any]) -> None:
    """``paddle.autograd.hessian`` (p37): a ``Hessian`` (a Jacobian of a gradient) of one scalar, of several xs
    (a tuple of tuples, 0-D ones too), batched, and its errors."""
    a = paddle.to_tensor([0.3, -1.2, 0.8], stop_gradient=False)
    b = paddle.to_tensor([1.5, 0.5], stop_gradient=False)
    z = (a * a * b.sum()).sum() + paddle.sin(a[0]) * paddle.sin(a[1]) * paddle.cos(a[2])
    H = paddle.autograd.hessian(z, a)
    out["hess"] = [type(H).__name__, H.shape, _v(H[:]), _v(H[1]), _v(H[:, 2])]
    Hm = paddle.autograd.hessian(z, [a, b])
    out["hess_multi"] = [type(Hm).__name__, type(Hm[0]).__name__, type(Hm[0][1]).__name__,
                         [[Hm[i][j].shape for j in range(2)] for i in range(2)], _v(Hm[0][1][:]), _v(Hm[1][1][:]),
                         _v(Hm[1][0][:])]
    s = paddle.to_tensor(1.5, stop_gradient=False)
    Hs = paddle.autograd.hessian((a * a * a).sum() * s, [a, s])
    out["hess_0d"] = [[[Hs[i][j].shape for j in range(2)] for i in range(2)], _v(Hs[0][0][:]), _v(Hs[0][1][:]),
                      _v(Hs[1][0][:]), _v(Hs[1][1]._evaluate_all())]
    xb = paddle.to_tensor(np.linspace(-1, 1, 12).reshape(4, 3).astype("float32"), stop_gradient=False)
    Hb = paddle.autograd.hessian((xb * xb * xb).sum(-1), xb, batch_axis=0)
    Hb2 = paddle.autograd.hessian((xb * xb).sum(-1) * xb[:, 0], xb, batch_axis=0)
    out["hess_batch"] = [Hb.shape, _v(Hb[:]), _v(Hb2[0]), _v(Hb2[:, 1]), _v(Hb2[1:3, 0:2])]
    out["hess_errors"] = [
        _attempt(lambda: paddle.autograd.hessian(a * 2.0, a)),
        _attempt(lambda: paddle.autograd.hessian(xb * 2.0, xb, batch_axis=0)),
        _attempt(lambda: paddle.autograd.hessian(xb.sum(-1), xb, batch_axis=1)),
        _attempt(lambda: paddle.autograd.hessian(z, a, batch_axis="0")),
    ]
    out["function_is_pylayer"] = paddle.autograd.Function is paddle.autograd.PyLayer


def grad_keeps_graph(paddle: Any, out: dict[str, Any]) -> None:
    """``paddle.grad`` never frees the graph in Paddle 3.3.1 (p37): called twice on the same outputs with
    retain_graph left out or False, then ``backward()`` after it; ``backward()`` itself still frees it."""
    x = paddle.to_tensor([0.5, -1.0, 2.0], stop_gradient=False)
    y = (x.exp() * x).sum()
    g1 = paddle.grad(y, x)[0]
    g2 = paddle.grad(y, x, retain_graph=False)[0]
    g3 = paddle.grad(y, x)[0]
    y.backward()
    out["grad_twice"] = [_v(g1), _v(g2), _v(g3), _v(x.grad)]
    x.clear_gradient()
    z = paddle.tanh(x * 2.0).sum()
    z.backward()
    # (Paddle raises a SystemError, "Fatal", for these; pylayer_jax a RuntimeError saying why: only whether each
    # raises is compared)
    out["backward_twice"] = _attempt(lambda: z.backward()) in ("SystemError", "RuntimeError")
    out["grad_after_backward"] = _attempt(lambda: paddle.grad(z, x)) in ("SystemError", "RuntimeError")


def increment(paddle: Any, out: dict[str, Any]) -> None:
    """``paddle.increment`` and ``Tensor.increment`` write in place and return x (p38: dynamic_decode's step
    counter), keeping its dtype; more than one element is an error."""
    t = paddle.full([1], 0, "int64")
    r = paddle.increment(t, 1.0)
    r2 = paddle.increment(t)
    f = paddle.to_tensor(3.0)
    r3 = f.increment(2.5)
    i = paddle.to_tensor(3)
    paddle.increment(i, 2.5)
    out["increment"] = [r is t, r2 is t, _v(t), r3 is f, _v(f), _v(i), str(i.dtype)]
    x = paddle.to_tensor([2.0], stop_gradient=False)
    y = x * 3.0
    z = paddle.increment(y, 2.0)
    (z * z).sum().backward()
    out["increment_grad"] = [z is y, _v(y), _v(x.grad)]
    out["increment_many"] = _attempt(lambda: paddle.increment(paddle.to_tensor([1, 2])))


def dynamic_decode_custom(paddle: Any, out: dict[str, Any]) -> None:
    """``nn.dynamic_decode`` over a Decoder that does not track its own finishing (p38): the lengths count the
    steps before the one that finished a sequence, impute_finished keeps the state from before it, the finished
    flags given by ``initialize`` are written in place, and the step counter is one tensor incremented in place.
    States are ``[batch, n]``: for 1-D states Paddle's impute_finished broadcasts them to ``[batch, batch]``, which
    pylayer_jax does not mirror (it keeps each row's state)."""
    nn = paddle.nn

    class Counter(nn.decode.Decoder):
        """Each row counts up by its own step; a row finishes when its state reaches its limit."""

        def __init__(self, step_sizes, limits):
            self.sizes, self.limits, self.times = step_sizes, limits, []

        def initialize(self, inits):
            self.finished0 = paddle.zeros([inits.shape[0]], dtype="bool")
            return inits * 0.0, inits, self.finished0

        def step(self, time, inputs, states, scale=1.0):
            self.times.append(time)
            nxt = states + self.sizes * scale
            return (nxt * 10.0, inputs + 1.0), nxt, inputs + 1.0, (nxt >= self.limits).squeeze(-1)

    sizes = paddle.to_tensor([[1.0], [2.0], [0.5], [3.0]])
    limits = paddle.to_tensor([[3.0], [3.0], [10.0], [3.0]])
    init = paddle.zeros([4, 1])
    for impute in (False, True):
        dec = Counter(sizes, limits)
        (o1, o2), st, lens = nn.dynamic_decode(dec, inits=init, max_step_num=6, impute_finished=impute,
                                               return_length=True)
        out[f"custom_decode_impute_{impute}"] = [
            _v(o1), _v(o2), _v(st), _v(lens), str(lens.dtype), _v(dec.finished0),
            len(dec.times), all(t is dec.times[0] for t in dec.times), _v(dec.times[0]), str(dec.times[0].dtype)]
    dec = Counter(sizes, limits)
    (o1, _), st = nn.dynamic_decode(dec, inits=init, max_step_num=2, output_time_major=True, scale=2.0)
    out["custom_decode_kwargs"] = [_v(o1), _v(st), len(dec.times)]
    mat = paddle.to_tensor(np.arange(8, dtype="float32").reshape(4, 2))

    class Rows(Counter):
        def step(self, time, inputs, states):
            nxt = states + 1.0
            return nxt.sum(-1), nxt, inputs, nxt[:, 0] >= self.limits

    dec = Rows(sizes, paddle.to_tensor([1.0, 4.0, 6.0, 9.0]))  # (2-D states: Paddle's impute_finished reads 1-D
    # states of a batch as [batch, 1] and broadcasts them to [batch, batch])
    o, st, lens = nn.dynamic_decode(dec, inits=mat, impute_finished=True, return_length=True)
    out["custom_decode_2d_state"] = [_v(o), _v(st), _v(lens)]


def cross_entropy_soft_mean(paddle: Any, out: dict[str, Any]) -> None:
    """``F.cross_entropy`` with label_smoothing (or soft labels) and ``ignore_index >= 0`` (p38: a padded batch):
    'mean' divides by the count of the soft label's entries that differ from ignore_index (weighted by the class
    weights), so a smoothed label's mean is also divided by the number of classes; padded rows are not ignored.
    The same under saved_tensors_hooks (Paddle's op chain), with gradients."""
    F = paddle.nn.functional
    rng = np.random.default_rng(3)
    logits = rng.standard_normal((2, 3, 5)).astype("float32")
    lab = paddle.to_tensor([[1, 2, 0], [4, 0, 0]])
    w = paddle.to_tensor([0.5, 1.0, 1.5, 2.0, 0.25])
    soft = paddle.to_tensor(np.abs(rng.standard_normal((2, 3, 5))).astype("float32"))
    soft = soft / soft.sum(-1, keepdim=True)
    onehot = F.one_hot(lab, 5)
    calls = {
        "smooth_ign0": lambda x: F.cross_entropy(x, lab, ignore_index=0, label_smoothing=0.1),
        "smooth_ign3": lambda x: F.cross_entropy(x, lab, ignore_index=3, label_smoothing=0.2),
        "smooth_default": lambda x: F.cross_entropy(x, lab, label_smoothing=0.1),
        "smooth_weight_ign0": lambda x: F.cross_entropy(x, lab, weight=w, ignore_index=0, label_smoothing=0.1),
        "smooth_weight": lambda x: F.cross_entropy(x, lab, weight=w, label_smoothing=0.1),
        "smooth_sum_ign0": lambda x: F.cross_entropy(x, lab, ignore_index=0, label_smoothing=0.1, reduction="sum"),
        "soft_ign0": lambda x: F.cross_entropy(x, soft, soft_label=True, ignore_index=0),
        "onehot_ign0": lambda x: F.cross_entropy(x, onehot, soft_label=True, ignore_index=0),
        "soft_weight_ign0": lambda x: F.cross_entropy(x, soft, weight=w, soft_label=True, ignore_index=0),
        "layer_smooth_ign0": lambda x: paddle.nn.CrossEntropyLoss(ignore_index=0, label_smoothing=0.1)(x, lab),
    }
    for name, f in calls.items():
        got = []
        for hooked in (False, True):
            x = paddle.to_tensor(logits, stop_gradient=False)
            if hooked:
                with paddle.autograd.saved_tensors_hooks(lambda t: t, lambda t: t):
                    loss = f(x)
            else:
                loss = f(x)
            loss.backward()
            got.append([_v(loss), _v(x.grad[0, 1])])
        out[f"ce_{name}"] = got


CASES = [jacobian, hessian, grad_keeps_graph, increment, dynamic_decode_custom, cross_entropy_soft_mean]


def record(paddle: Any) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for case in CASES:
        case(paddle, out)
    return out
