"""Workloads shared by the benchmark script and the Paddle peer script (no project imports).

Each takes the library module (``pylayer_jax`` or ``paddle``) so the same code runs in both.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np


def mlp_step(paddle: Any, x: Any, params: list[Any]) -> Callable[[], Any]:
    """The eager training step of the ``mlp step`` rows: forward, backward, clear_grad, a .grad read."""

    def step() -> Any:
        w1, b1, w2, b2 = params
        out = paddle.matmul(paddle.tanh(paddle.matmul(x, w1) + b1), w2) + b2
        out.mean().backward()
        for p in params:
            p.clear_grad()
        return w1.grad

    return step


def mlp_opt_step(paddle: Any, x: Any, params: list[Any], opt: Any = None) -> Callable[[], Any]:
    """The eager step of the ``mlp SGD/AdamW step`` rows: forward, backward, ``opt.step()`` and ``opt.clear_grad()``
    (with no ``opt``, clear_grad of each parameter); returns the first weight."""

    def step() -> Any:
        w1, b1, w2, b2 = params
        out = paddle.matmul(paddle.tanh(paddle.matmul(x, w1) + b1), w2) + b2
        out.mean().backward()
        if opt is None:
            for p in params:
                p.clear_grad()
        else:
            opt.step()
            opt.clear_grad()
        return w1

    return step


def optimizers(paddle: Any) -> dict[str, Callable[[list[Any]], Any]]:
    """The optimizers of the ``mlp SGD/AdamW step`` rows, each made for a list of parameters."""
    return {
        "SGD": lambda ps: paddle.optimizer.SGD(learning_rate=1e-3, parameters=ps),
        "AdamW": lambda ps: paddle.optimizer.AdamW(learning_rate=1e-3, parameters=ps, weight_decay=0.01),
    }


def cus_tanh_layer(paddle: Any, pylayer: type) -> type:
    """The benchmarks' one custom PyLayer: tanh, its backward from the saved output (``dy * (1 - y**2)``)."""

    class CusTanh(pylayer):
        @staticmethod
        def forward(ctx, x):  # noqa: ANN001, ANN205
            y = paddle.tanh(x)
            ctx.save_for_backward(y)
            return y

        @staticmethod
        def backward(ctx, dy):  # noqa: ANN001, ANN205
            (y,) = ctx.saved_tensor()
            return dy * (1 - paddle.square(y))

    return CusTanh


def pylayer_step(layer: type, x: Any) -> Callable[[], Any]:
    """The eager step of the ``pylayer step`` rows: ``layer.apply(x).mean().backward()``; returns ``x.grad``."""

    def step() -> Any:
        layer.apply(x).mean().backward()
        return x.grad

    return step


def grl_step(paddle: Any, pylayer: type, x: Any, w: Any, alpha: float | Callable[[int], float]) -> Callable[[], Any]:
    """A gradient-reversal step: a PyLayer taking a float ``alpha`` (or ``alpha(step number)``: a schedule, as
    DANN's), then ``h ** 2`` in the loss."""
    count = [0]

    class GradReverse(pylayer):
        @staticmethod
        def forward(ctx, h, a):  # noqa: ANN001, ANN205
            ctx.alpha = a
            return h * 1.0

        @staticmethod
        def backward(ctx, dy):  # noqa: ANN001, ANN205
            return dy * (-ctx.alpha)

    def step() -> Any:
        h = paddle.matmul(x, w)
        count[0] += 1
        a = alpha(count[0]) if callable(alpha) else alpha
        loss = (GradReverse.apply(h, a) ** 2).mean()
        loss.backward()
        w.clear_grad()
        return loss

    return step


SCHEDULE = "numbers changing every step (h / tau, leaky_relu slope, hardtanh bound) 64x8"


def schedule_step(paddle: Any, x: Any, w: Any) -> Callable[[], Any]:
    """A step whose numbers follow schedules, each a new value every step: a temperature (``h / tau``), a
    leaky_relu slope and a hardtanh bound."""
    count = [0]
    f = paddle.nn.functional

    def step() -> Any:
        count[0] += 1
        i = count[0]
        tau, slope, b = 1.0 + 1e-7 * i, 0.1 + 1e-8 * i, 2.0 + 1e-7 * i
        loss = (f.hardtanh(f.leaky_relu(paddle.matmul(x, w) / tau, slope), -b, b) ** 2).mean()
        loss.backward()
        w.clear_grad()
        return loss

    return step


LAYER_STEP = "nn.Layer step: Linear-GELU-LayerNorm-Dropout-Linear, AdamW + cosine schedule + clipping, 32x16"


def layer_step(paddle: Any, batch: int = 32, width: int = 16, hidden: int = 32, classes: int = 4) -> Callable[[], Any]:
    """A training step as ordinary Paddle code writes it: an ``nn.Layer`` model (Linear, GELU, LayerNorm, Dropout,
    Linear), cross entropy on a fixed batch, AdamW with weight decay, a cosine learning-rate schedule stepped every
    step and global-norm gradient clipping; returns the loss."""
    nn = paddle.nn

    class Net(nn.Layer):
        def __init__(self) -> None:
            super().__init__()
            self.l1, self.l2 = nn.Linear(width, hidden), nn.Linear(hidden, classes)
            self.norm, self.drop = nn.LayerNorm(hidden), nn.Dropout(0.1)

        def forward(self, x: Any) -> Any:
            return self.l2(self.drop(self.norm(nn.functional.gelu(self.l1(x)))))

    net = Net()
    sched = paddle.optimizer.lr.CosineAnnealingDecay(learning_rate=0.01, T_max=1000)
    opt = paddle.optimizer.AdamW(learning_rate=sched, parameters=net.parameters(), weight_decay=0.01,
                                 grad_clip=nn.ClipGradByGlobalNorm(1.0))
    rng = np.random.default_rng(0)
    x = paddle.to_tensor(rng.standard_normal((batch, width)).astype("float32"))
    y = paddle.to_tensor(rng.integers(0, classes, (batch,)).astype("int64"))

    def step() -> Any:
        loss = nn.functional.cross_entropy(net(x), y)
        loss.backward()
        opt.step()
        opt.clear_grad()
        sched.step()
        return loss

    return step


def batch_loop(paddle: Any, sizes: list[int], width: int = 64, hidden: int = 8, seed: int = 0) -> Callable[[], float]:
    """SGD steps of a ``width x hidden`` MLP, one per batch size in ``sizes``; returns the last loss."""
    rng = np.random.default_rng(seed)
    net1, net2 = paddle.nn.Linear(width, hidden), paddle.nn.Linear(hidden, 1)
    opt = paddle.optimizer.SGD(0.01, parameters=net1.parameters() + net2.parameters())
    data = {b: rng.standard_normal((b, width)).astype("float32") for b in set(sizes)}

    def run() -> float:
        loss = None
        for b in sizes:
            loss = (net2(paddle.tanh(net1(paddle.to_tensor(data[b])))) ** 2).mean()
            loss.backward()
            opt.step()
            opt.clear_grad()
        return float(loss)

    return run


def mlp_train_step(paddle: Any, params: list[Any], lr: float = 0.01) -> Callable[[Any], Any]:
    """The ``compiled mlp step`` rows' training step: forward, backward, an SGD step and clear_grad; returns the
    loss. Paddle runs it eagerly; pylayer_jax runs it under ``paddle.jit.to_static``."""
    opt = paddle.optimizer.SGD(learning_rate=lr, parameters=params)

    def step(x: Any) -> Any:
        w1, b1, w2, b2 = params
        loss = (paddle.matmul(paddle.tanh(paddle.matmul(x, w1) + b1), w2) + b2).mean()
        loss.backward()
        opt.step()
        opt.clear_grad()
        return loss

    return step


def pylayer_train_step(paddle: Any, pylayer: type, w: Any, lr: float = 0.01) -> Callable[[], Any]:
    """The ``compiled pylayer step`` rows' training step: ``pylayer.apply(w).mean()``, backward, an SGD step and
    clear_grad; returns the loss."""
    opt = paddle.optimizer.SGD(learning_rate=lr, parameters=[w])

    def step() -> Any:
        loss = pylayer.apply(w).mean()
        loss.backward()
        opt.step()
        opt.clear_grad()
        return loss

    return step
