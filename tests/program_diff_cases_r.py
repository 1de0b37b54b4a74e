"""Cases found by ``tests/programs/p59_functional_zoo.py`` and ``p60_jit_save_deploy.py``, written as Paddle code:
``record(paddle)`` runs them with the given library and returns what they give (values, gradients, names, the
type of each error). ``record_paddle_program_diffs_r.py`` runs it with Paddle 3.3.1 into
``data/paddle_program_diffs_r.json``; ``test_program_diffs_r.py`` runs it with pylayer_jax and compares."""

from __future__ import annotations

import os
import tempfile
from typing import Any

import numpy as np
from case_values import _attempt, _grad, _v


def label_smooth_prior(paddle: Any, out: dict[str, Any]) -> None:
    """``F.label_smooth`` gives ``label`` its gradient and ``prior_dist`` none, even where it does not stop it (p59);
    the output stops the gradient when only ``prior_dist`` would take one."""
    F = paddle.nn.functional
    y = paddle.to_tensor(np.eye(4, dtype="float32")[[0, 2, 3]][None], stop_gradient=False)
    pr = paddle.to_tensor(np.array([[0.1, 0.2, 0.3, 0.4]], "float32"), stop_gradient=False)
    o = F.label_smooth(y, prior_dist=pr, epsilon=0.2)
    (o * paddle.arange(12, dtype="float32").reshape([1, 3, 4])).sum().backward()
    out["label_smooth_prior"] = [_v(o), _grad(y), _grad(pr), o.stop_gradient]
    o2 = F.label_smooth(y.detach(), prior_dist=pr, epsilon=0.5)
    out["label_smooth_prior_only"] = [_v(o2), o2.stop_gradient]


def normalize_orders(paddle: Any, out: dict[str, Any]) -> None:
    """``F.normalize`` with ``p=inf``/``-inf``/0 divides by Paddle's ``p_norm`` of that order (the largest or smallest
    magnitude, the count of nonzeros), and its gradient is Paddle's (p59: ``p=inf`` returned ``x`` unchanged with
    a NaN gradient); with another ``p`` the norm's gradient is that of Paddle's kernel, which reads ``epsilon``
    (p59's ``p=3`` gradient was off; here a large ``epsilon`` shows it)."""
    F = paddle.nn.functional
    for p in (float("inf"), float("-inf"), 0, 3):
        x = paddle.to_tensor([[3.0, -4.0, 4.0, 0.0], [0.5, -0.5, -0.1, 0.5]], stop_gradient=False)
        o = F.normalize(x, p=p, axis=1)
        (o * paddle.to_tensor([[1.0, 2.0, 3.0, 4.0], [-1.0, 0.5, 2.0, 1.0]])).sum().backward()
        y = paddle.to_tensor([[[1.0, -2.0], [0.5, 0.25]]], stop_gradient=False)
        o2 = F.normalize(y, p=p, axis=0, epsilon=0.75)
        (o2 * 3.0).sum().backward()
        out[f"normalize_p{p}"] = [_v(o), _grad(x), _v(o2), _grad(y)]


def pairwise_neg_inf_and_diag_embed(paddle: Any, out: dict[str, Any]) -> None:
    """``F.pairwise_distance`` with ``p=-inf`` is the smallest magnitude of ``x - y + epsilon`` (p59: it gave 1);
    ``F.diag_embed``, Paddle's deprecated alias of ``paddle.diag_embed``, exists (its value only: Paddle's stops
    the gradient)."""
    F = paddle.nn.functional
    x = paddle.to_tensor([[1.0, -2.0, 0.5], [0.25, 3.0, -1.0]], stop_gradient=False)
    y = paddle.to_tensor([[0.5, 1.0, 0.0], [1.0, -1.0, -1.5]], stop_gradient=False)
    d = F.pairwise_distance(x, y, p=float("-inf"), keepdim=True)
    (d * paddle.to_tensor([[2.0], [-3.0]])).sum().backward()
    out["pairwise_neg_inf"] = [_v(d), _grad(x), _grad(y)]
    out["f_diag_embed"] = _v(F.diag_embed(paddle.to_tensor([[1.0, 2.0], [3.0, 4.0]]), offset=-1, dim1=2, dim2=0))


def pad_mode_error(paddle: Any, out: dict[str, Any]) -> None:
    """An unknown padding mode is Paddle's AssertionError, from ``F.pad`` and the padding layers (p59)."""
    x = paddle.ones([1, 1, 2, 2])
    out["pad_mode_error"] = [_attempt(lambda: paddle.nn.functional.pad(x, [1, 1, 1, 1], mode="edge")),
                             _attempt(lambda: paddle.nn.Pad2D(1, mode="edge")(x)),
                             _attempt(lambda: paddle.nn.Pad1D(1, mode="wrap")(x[0]))]


class _Net:
    """A two-input, two-output model built with the library's nn (parameters from numpy)."""

    def __new__(cls, paddle: Any) -> Any:
        nn, F = paddle.nn, paddle.nn.functional

        class Net(nn.Layer):
            def __init__(self):
                super().__init__()
                self.fc1 = nn.Linear(4, 6)
                self.fc2 = nn.Linear(6, 2)

            def forward(self, x, s):
                logits = self.fc2(F.relu(self.fc1(x * s)))
                return logits, F.softmax(logits, axis=-1)

        m = Net()
        r = np.random.default_rng(3)
        m.set_state_dict({k: (r.standard_normal(v.shape) * 0.5).astype("float32") for k, v in m.state_dict().items()})
        return m


X = np.random.default_rng(4).standard_normal((5, 4)).astype("float32")
S = np.random.default_rng(5).uniform(0.5, 1.5, (5, 1)).astype("float32")


def loaded_layer_modes(paddle: Any, out: dict[str, Any]) -> None:
    """A ``jit.load``-ed layer starts in eval mode, where its forward gives no gradient to its parameters or inputs
    (its outputs read stop_gradient=False, a leaf that takes a gradient itself); after ``train()`` the gradients
    flow; the values are the saved forward's in both modes (p60)."""
    spec = [paddle.static.InputSpec([None, 4], "float32", "x"), paddle.static.InputSpec([None, 1], "float32", "s")]
    m = _Net(paddle)
    m.eval()
    prefix = os.path.join(tempfile.mkdtemp(), "net")
    paddle.jit.save(m, prefix, input_spec=spec)
    lo = paddle.jit.load(prefix)
    x = paddle.to_tensor(X, stop_gradient=False)
    s = paddle.to_tensor(S)
    logits, prob = lo(x, s)
    (logits * 2.0).sum().backward()
    params = sorted(lo.parameters(), key=lambda p: list(p.shape))
    out["loaded_eval"] = [lo.training, _v(logits), _v(prob), logits.stop_gradient, prob.stop_gradient,
                          logits.is_leaf, _grad(logits), [p.grad is None for p in params], x.grad is None]
    with paddle.no_grad():
        out["loaded_eval_no_grad_sg"] = lo(x, s)[0].stop_gradient
    lo.train()
    logits, prob = lo(x, s)
    (logits * 2.0 + prob).sum().backward()
    out["loaded_train"] = [lo.training, _v(logits), [_grad(p) for p in params], _grad(x)]


def save_traced_without_spec(paddle: Any, out: dict[str, Any]) -> None:
    """A ``to_static`` layer called once is saved by ``jit.save`` without an ``input_spec`` (the program its call
    traced); one never called cannot be (p60)."""
    m = paddle.jit.to_static(_Net(paddle), full_graph=True)
    m.eval()
    ref = m(paddle.to_tensor(X), paddle.to_tensor(S))
    tmp = tempfile.mkdtemp()
    paddle.jit.save(m, os.path.join(tmp, "traced"))
    lo = paddle.jit.load(os.path.join(tmp, "traced"))
    out["saved_traced"] = [[_v(r) for r in ref], [_v(o) for o in lo(paddle.to_tensor(X), paddle.to_tensor(S))]]
    fresh = paddle.jit.to_static(_Net(paddle), full_graph=True)
    out["saved_uncalled"] = _attempt(lambda: paddle.jit.save(fresh, os.path.join(tmp, "fresh")))


def jit_files_in_static(paddle: Any, out: dict[str, Any]) -> None:
    """``paddle.static.load_inference_model`` reads what ``paddle.jit.save`` wrote (feed names from the
    InputSpecs, one fetch per output); ``paddle.jit.load`` reads what ``save_inference_model`` wrote (p60)."""
    spec = [paddle.static.InputSpec([None, 4], "float32", "x"), paddle.static.InputSpec([None, 1], "float32", "s")]
    m = _Net(paddle)
    m.eval()
    tmp = tempfile.mkdtemp()
    prefix = os.path.join(tmp, "net")
    paddle.jit.save(m, prefix, input_spec=spec)
    paddle.enable_static()
    try:
        exe = paddle.static.Executor(paddle.CPUPlace())
        prog, feeds, fetches = paddle.static.load_inference_model(prefix, exe)
        res = exe.run(prog, feed={feeds[0]: X[:3], feeds[1]: S[:3]}, fetch_list=fetches)
        out["static_loads_jit"] = [feeds, len(fetches)] + [np.asarray(r).astype(np.float64).tolist() for r in res]

        main, startup = paddle.static.Program(), paddle.static.Program()
        with paddle.static.program_guard(main, startup):
            xv = paddle.static.data("xin", [None, 4], "float32")
            w = paddle.static.create_parameter([4, 3], "float32", name="w_r", default_initializer=(
                paddle.nn.initializer.Assign(np.arange(12, dtype="float32").reshape(4, 3) / 10)))
            y = paddle.tanh(paddle.matmul(xv, w))
            z = y.sum(axis=1)
        exe.run(startup)
        sprefix = os.path.join(tmp, "static")
        paddle.static.save_inference_model(sprefix, [xv], [y, z], exe, program=main)
    finally:
        paddle.disable_static()
    sl = paddle.jit.load(sprefix)
    got = sl(paddle.to_tensor(X[:2]))
    out["jit_loads_static"] = [type(sl).__name__, len(got)] + [_v(g) for g in got]


CASES = [label_smooth_prior, normalize_orders, pad_mode_error, pairwise_neg_inf_and_diag_embed, loaded_layer_modes, save_traced_without_spec,
         jit_files_in_static]


def record(paddle: Any) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for case in CASES:
        case(paddle, out)
    return out
