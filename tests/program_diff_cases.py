"""Cases found by running whole Paddle training programs with both libraries (``tests/programs/``), written as
Paddle code: ``record(paddle)`` runs them with the given library and returns what they give (values, flags, the
type of each error). ``record_paddle_program_diffs.py`` runs it with Paddle 3.3.1 into
``data/paddle_program_diffs.json``; ``test_program_diffs.py`` runs it with pylayer_jax and compares."""

from __future__ import annotations

from typing import Any

import numpy as np


def _v(t: Any) -> Any:
    return np.asarray(t.numpy(), dtype=np.float64).tolist()


def _grad(t: Any) -> Any:
    return None if t.grad is None else _v(t.grad)


def max_pool_ties(paddle: Any, out: dict[str, Any]) -> None:
    """A max pool gives a window's gradient to its first maximum in row-major order when several tie (Paddle's
    kernels), where the ties shared it; ``max`` and ``amax`` still share it evenly."""
    F = paddle.nn.functional
    base = np.array([[1, 1, 2, 0], [1, 1, 2, 2], [3, 0, 0, 0], [3, 3, 0, 0]], "float32")
    cases = {
        "pool2d": lambda x: F.max_pool2d(x, 2, 2),
        "pool2d_3x3_pad": lambda x: F.max_pool2d(x, 3, 1, padding=1),
        "pool2d_ceil": lambda x: F.max_pool2d(x, 3, 2, ceil_mode=True),
        "pool2d_mask": lambda x: F.max_pool2d(x, 2, 2, return_mask=True)[0],
        "pool2d_nhwc": lambda x: F.max_pool2d(x.transpose([0, 2, 3, 1]), 2, 2, data_format="NHWC"),
        "pool1d": lambda x: F.max_pool1d(x[0], 2, 2),
        "pool3d": lambda x: F.max_pool3d(x.unsqueeze(2).tile([1, 1, 2, 1, 1]), 2, 2),
        "adaptive2d": lambda x: F.adaptive_max_pool2d(x, 1),
        "adaptive2d_3": lambda x: F.adaptive_max_pool2d(x, 3),
        "adaptive1d": lambda x: F.adaptive_max_pool1d(x[0], 2),
        "layer": lambda x: paddle.nn.MaxPool2D(2)(x),
        "max": lambda x: x.max(),
        "amax_axis": lambda x: x.amax(axis=[2, 3]),
    }
    for name, f in cases.items():
        x = paddle.to_tensor(base[None, None], stop_gradient=False)
        y = f(x)
        (y * paddle.arange(1, y.size + 1, dtype="float32").reshape(y.shape)).sum().backward()
        out[f"pool_{name}"] = [_v(y), _grad(x)]
    for name, p in (("lp_inf", float("inf")),):
        x = paddle.to_tensor([[[1.0, 1.0, 0.5, 2.0, 2.0, 2.0]]], stop_gradient=False)
        y = F.lp_pool1d(x, p, 2)
        y.sum().backward()
        out[f"pool_{name}"] = [_v(y), _grad(x)]


def bce_with_logits(paddle: Any, out: dict[str, Any]) -> None:
    """binary_cross_entropy_with_logits as Paddle's kernel: no gradient to label or pos_weight (so the output
    stops the gradient when only the label needs one), and without pos_weight the derivative at a logit of
    exactly 0 is ``sigmoid(0) - label - 1``; sigmoid_focal_loss uses the kernel."""
    F = paddle.nn.functional
    logit = [0.0, 0.0, 0.0, -0.0, 1.0, -1.0, 1e-30]
    label = [0.0, 1.0, 0.3, 0.7, 0.0, 1.0, 0.0]
    pw = paddle.to_tensor([1.0, 1.0, 1.0, 1.0, 2.0, 2.0, 3.0])
    w = [2.0, 1.0, 1.0, 1.0, 2.0, 2.0, 3.0]
    for name, kw in (("plain", {}), ("pos_weight", {"pos_weight": pw}), ("weight", {"weight": "w"}),
                     ("both", {"weight": "w", "pos_weight": pw})):
        x = paddle.to_tensor(logit, stop_gradient=False)
        y = paddle.to_tensor(label, stop_gradient=False)
        wt = paddle.to_tensor(w, stop_gradient=False)
        args = {k: (wt if isinstance(v, str) else v) for k, v in kw.items()}
        loss = F.binary_cross_entropy_with_logits(x, y, reduction="sum", **args)
        loss.backward()
        out[f"bce_{name}"] = [loss.item(), _grad(x), _grad(y), _grad(wt) if "weight" in kw else None]
    for red in ("mean", "none"):
        x = paddle.to_tensor([[0.0, 0.0], [0.5, -0.0]], stop_gradient=False)
        loss = paddle.nn.BCEWithLogitsLoss(reduction=red)(x, paddle.to_tensor([[1.0, 0.0], [1.0, 1.0]]))
        loss.sum().backward()
        out[f"bce_layer_{red}"] = [_v(loss), _grad(x)]
    pwt = paddle.to_tensor([2.0, 3.0], stop_gradient=False)
    x = paddle.to_tensor([0.5, -1.0], stop_gradient=False)
    F.binary_cross_entropy_with_logits(x, paddle.to_tensor([1.0, 0.0]), pos_weight=pwt).backward()
    out["bce_pos_weight_grad"] = [_grad(x), _grad(pwt)]
    only_label = paddle.to_tensor([0.2, 1.0], stop_gradient=False)
    out["bce_only_label_stops"] = F.binary_cross_entropy_with_logits(paddle.to_tensor([0.5, -1.0]), only_label).stop_gradient
    x = paddle.to_tensor([[0.0, 0.0, 0.5, -0.3]], stop_gradient=False)
    y = paddle.to_tensor([[0.0, 1.0, 1.0, 0.4]], stop_gradient=False)
    F.sigmoid_focal_loss(x, y, reduction="sum").backward()
    out["focal_at_zero"] = [_grad(x), _grad(y)]
    with paddle.autograd.saved_tensors_hooks(lambda t: t, lambda t: t):
        x = paddle.to_tensor([0.0, 1.0, 0.0], stop_gradient=False)
        F.binary_cross_entropy_with_logits(x, paddle.to_tensor([1.0, 0.0, 0.0])).backward()
        out["bce_hooks"] = _grad(x)
        x = paddle.to_tensor([[0.0, 0.5]], stop_gradient=False)
        F.sigmoid_focal_loss(x, paddle.to_tensor([[1.0, 0.0]])).backward()
        out["focal_hooks"] = _grad(x)
    # logistic regression from zero weights, updated by hand (the program that found it)
    rng = np.random.default_rng(0)
    X = paddle.to_tensor(rng.standard_normal((50, 3)).astype("float32"))
    t = paddle.to_tensor((rng.standard_normal(50) > 0).astype("float32"))
    wv = paddle.zeros([3])
    wv.stop_gradient = False
    b = paddle.create_parameter([1], "float32", default_initializer=paddle.nn.initializer.Constant(0.0))
    losses = []
    for _ in range(4):
        loss = F.binary_cross_entropy_with_logits(X @ wv + b, t)
        loss.backward()
        with paddle.no_grad():
            wv.subtract_(0.5 * wv.grad)
            b.set_value(b - 0.5 * b.grad)
        wv.clear_grad()
        b.clear_grad()
        losses.append(loss.item())
    out["bce_logreg_from_zero"] = [losses, _v(wv), _v(b)]


def scalar_conversions(paddle: Any, out: dict[str, Any]) -> None:
    """``int()``, ``float()`` and indexing take only a 0-D Tensor (Paddle converts through NumPy, whose 2.3 and
    later take only a 0-D array): a Tensor of shape [1] is a TypeError; ``bool()`` and ``item()`` take it."""
    def attempt(f: Any) -> Any:
        try:
            return f()
        except Exception as e:  # noqa: BLE001  (the type is the result)
            return type(e).__name__

    for shape in ([1], [1, 1], [2], []):
        t = paddle.full(shape, 3, "int64")
        out[f"scalar_{len(shape)}d_{shape[0] if shape else 0}"] = [
            attempt(lambda t=t: int(t)), attempt(lambda t=t: float(t)), attempt(lambda t=t: bool(t)),
            attempt(lambda t=t: [10, 20, 30, 40][t]), attempt(lambda t=t: t.item()),
        ]
    out["scalar_float_0d"] = [float(paddle.to_tensor(2.5)), int(paddle.to_tensor(2.5)), f"{paddle.to_tensor(1.25):.2f}"]


def cnn_batch_norm_max_pool(paddle: Any, out: dict[str, Any]) -> None:
    """A batch-normalised convolution under a max pool and ``max``: its training step's program computes the
    normalised values in two loops; they must agree (the gradient went 0 / 0, NaN), and so must
    ``h == h.max(keepdim=True)``, True once per row."""
    nn, F = paddle.nn, paddle.nn.functional
    rng = np.random.default_rng(0)
    conv, bn = nn.Conv2D(1, 8, 3, padding=1), nn.BatchNorm2D(8)
    fc = nn.Linear(8 * 6 * 6, 3)
    for p, s in ((conv.weight, 1.0), (conv.bias, 0.3), (bn.weight, 1.0), (bn.bias, 1.0), (fc.weight, 0.1), (fc.bias, 0.1)):
        p.set_value((rng.standard_normal(p.shape) * s).astype("float32"))
    x = paddle.to_tensor(rng.standard_normal((16, 1, 12, 12)).astype("float32"))
    label = paddle.to_tensor(rng.integers(0, 3, size=16))
    params = conv.parameters() + bn.parameters() + fc.parameters()
    opt = paddle.optimizer.Momentum(learning_rate=0.01, momentum=0.9, parameters=params)
    losses, counts, amax_grads = [], [], []
    for _ in range(4):
        h = bn(conv(x))
        loss = F.cross_entropy(fc(F.max_pool2d(F.relu(h), 2, 2).flatten(1)), label)
        loss = loss + 0.01 * h.amax(axis=[2, 3]).sum() + 0.01 * F.max_pool1d(h.flatten(2), 4).sum()
        loss.backward()
        amax_grads.append(float(conv.weight.grad.abs().sum()))
        opt.step()
        opt.clear_grad()
        losses.append(loss.item())
        with paddle.no_grad():
            h = bn(conv(x))
            counts.append(int((h == h.max(axis=[2, 3], keepdim=True)).astype("int64").sum()))
    out["cnn_losses"] = losses
    out["cnn_grad_sums"] = amax_grads
    out["cnn_max_equal_counts"] = counts


def optimizer_state_names(paddle: Any, out: dict[str, Any]) -> None:
    """Accumulator names are unique names given when an optimizer first keeps state for a parameter: a second
    optimizer over the same parameters has ``..._velocity_1``, so the state dict of the first does not load into it
    (a training resumed in the same process: Paddle's AssertionError); under ``unique_name.guard()`` the counters
    start again."""
    with paddle.utils.unique_name.guard():
        lin = paddle.nn.Linear(2, 2)
        x = paddle.ones([1, 2])

        def step(opt: Any) -> list[str]:
            lin(x).sum().backward()
            opt.step()
            opt.clear_grad()
            return sorted(opt.state_dict())

        o1 = paddle.optimizer.Momentum(parameters=lin.parameters())
        out["names_before_step"] = sorted(o1.state_dict())
        out["names_first"] = step(o1)
        out["names_adam"] = step(paddle.optimizer.Adam(parameters=lin.parameters()))[:3]
        o2 = paddle.optimizer.Momentum(parameters=lin.parameters())
        o2.set_state_dict(o1.state_dict())
        try:
            step(o2)
            out["names_second_loads_first"] = "loaded"
        except AssertionError as e:
            out["names_second_loads_first"] = type(e).__name__
        out["names_named"] = step(paddle.optimizer.Momentum(parameters=lin.parameters(), name="myopt"))
        with paddle.utils.unique_name.guard():
            out["names_guard"] = step(paddle.optimizer.Momentum(parameters=lin.parameters()))
        lin2 = paddle.nn.Linear(2, 1)
        lin2.weight.stop_gradient = True
        o3 = paddle.optimizer.Momentum(parameters=lin2.parameters())
        lin2(x).sum().backward()
        o3.step()
        frozen = sorted(o3.state_dict())
        lin2.weight.stop_gradient = False
        lin2(x).sum().backward()
        o3.step()
        out["names_unfrozen"] = [frozen, sorted(o3.state_dict())]


CASES = (max_pool_ties, bce_with_logits, scalar_conversions, cnn_batch_norm_max_pool, optimizer_state_names)


def record(paddle: Any) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for case in CASES:
        case(paddle, out)
    return out
