"""Training scripts for ``e2e.py`` and ``lazy_off.py`` (PyLayers in three of them), written as a Paddle user writes them (no project
imports): the same text runs with ``import paddle`` and with ``import pylayer_jax as paddle``.

Each script is a function of the library module and a step count that builds its model, trains it on batches of
32 drawn once from NumPy (a small data set cycled as an epoch loop does) and returns the losses it read, one every
10 steps (``float(loss)``, as a script that logs its progress does). The parameters are set from NumPy after the
model is built (``set_value``) so that both libraries start from the same weights and their losses can be compared;
the default initialisers draw from each library's own generator.

- ``dann``: domain-adversarial training. A feature stack of ``nn.Linear`` + ReLU, a gradient-reversal PyLayer
  whose ``alpha`` follows DANN's schedule (a new Python float every step), a label head and a domain head,
  three cross-entropy losses (source labels, source and target domains), Adam.
- ``cus_tanh``: a custom activation PyLayer (``tanh`` with ``save_for_backward``) used twice inside an
  ``nn.Layer`` MLP regressor, ``mse_loss``, Momentum.
- ``ste``: weight quantisation with a straight-through estimator: a PyLayer rounding a weight to 4 bits in
  ``forward`` and passing the gradient through in ``backward``, applied to the weights of two linear layers
  (``F.linear``) of a classifier, cross entropy, SGD.
- ``slices``: a regressor trained as a notebook loop often is, its batches sliced out of whole-data-set Tensors
  (``X[i * 32:(i + 1) * 32]``: a new slice start every step, 50 batches an epoch), ``nn.Linear`` + ReLU, mse, SGD.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

import numpy as np
from _workloads import cus_tanh_layer

BATCH = 32


def _set_params(model: Any, rng: np.random.Generator) -> None:
    for p in model.parameters():
        fan_in = p.shape[0] if len(p.shape) > 1 else 16
        p.set_value((rng.standard_normal(p.shape) / np.sqrt(fan_in)).astype("float32"))


def dann(paddle: Any, steps: int = 150, seed: int = 0) -> list[float]:
    nn, F = paddle.nn, paddle.nn.functional
    PyLayer = paddle.autograd.PyLayer

    class GradReverse(PyLayer):
        @staticmethod
        def forward(ctx, x, alpha):  # noqa: ANN001, ANN205
            ctx.alpha = alpha
            return x * 1.0

        @staticmethod
        def backward(ctx, grad):  # noqa: ANN001, ANN205
            return -ctx.alpha * grad

    class DANN(nn.Layer):
        def __init__(self) -> None:
            super().__init__()
            self.feature = nn.Sequential(nn.Linear(32, 64), nn.ReLU(), nn.Linear(64, 32), nn.ReLU())
            self.label_head = nn.Linear(32, 4)
            self.domain_head = nn.Sequential(nn.Linear(32, 16), nn.ReLU(), nn.Linear(16, 2))

        def forward(self, x, alpha):  # noqa: ANN001, ANN202
            f = self.feature(x)
            return self.label_head(f), self.domain_head(GradReverse.apply(f, alpha))

    rng = np.random.default_rng(seed)
    model = DANN()
    _set_params(model, rng)
    opt = paddle.optimizer.Adam(learning_rate=1e-3, parameters=model.parameters())
    n = 8  # batches in the data set
    xs = rng.standard_normal((n, BATCH, 32)).astype("float32")
    ys = rng.integers(0, 4, (n, BATCH)).astype("int64")
    xt = (rng.standard_normal((n, BATCH, 32)) + 0.5).astype("float32")
    zeros, ones = np.zeros((BATCH,), "int64"), np.ones((BATCH,), "int64")
    losses = []
    for step in range(steps):
        p = step / steps
        alpha = 2.0 / (1.0 + math.exp(-10 * p)) - 1.0
        src, tgt = paddle.to_tensor(xs[step % n]), paddle.to_tensor(xt[step % n])
        label = paddle.to_tensor(ys[step % n])
        class_out, dom_src = model(src, alpha)
        _, dom_tgt = model(tgt, alpha)
        loss = (F.cross_entropy(class_out, label) + F.cross_entropy(dom_src, paddle.to_tensor(zeros))
                + F.cross_entropy(dom_tgt, paddle.to_tensor(ones)))
        loss.backward()
        opt.step()
        opt.clear_grad()
        if step % 10 == 0:
            losses.append(float(loss))
    return losses


def cus_tanh(paddle: Any, steps: int = 100, seed: int = 0) -> list[float]:
    nn, F = paddle.nn, paddle.nn.functional
    CusTanh = cus_tanh_layer(paddle, paddle.autograd.PyLayer)  # (tanh saving its output: the benchmarks' PyLayer)

    class MLP(nn.Layer):
        def __init__(self) -> None:
            super().__init__()
            self.fc1, self.fc2, self.fc3 = nn.Linear(16, 64), nn.Linear(64, 64), nn.Linear(64, 1)

        def forward(self, x):  # noqa: ANN001, ANN202
            return self.fc3(CusTanh.apply(self.fc2(CusTanh.apply(self.fc1(x)))))

    rng = np.random.default_rng(seed)
    model = MLP()
    _set_params(model, rng)
    opt = paddle.optimizer.Momentum(learning_rate=0.01, momentum=0.9, parameters=model.parameters())
    n = 8
    xs = rng.standard_normal((n, BATCH, 16)).astype("float32")
    ys = np.sin(xs.sum(-1, keepdims=True)).astype("float32")
    losses = []
    for step in range(steps):
        x, y = paddle.to_tensor(xs[step % n]), paddle.to_tensor(ys[step % n])
        loss = F.mse_loss(model(x), y)
        loss.backward()
        opt.step()
        opt.clear_grad()
        if step % 10 == 0:
            losses.append(float(loss))
    return losses


def ste(paddle: Any, steps: int = 100, seed: int = 0) -> list[float]:
    nn, F = paddle.nn, paddle.nn.functional
    PyLayer = paddle.autograd.PyLayer

    class RoundSTE(PyLayer):
        @staticmethod
        def forward(ctx, w, scale):  # noqa: ANN001, ANN205
            return paddle.round(paddle.clip(w, -1.0, 1.0) * scale) / scale

        @staticmethod
        def backward(ctx, grad):  # noqa: ANN001, ANN205
            return grad

    class QuantLinear(nn.Linear):
        def forward(self, x):  # noqa: ANN001, ANN202
            return F.linear(x, RoundSTE.apply(self.weight, 7.0), self.bias)

    class Net(nn.Layer):
        def __init__(self) -> None:
            super().__init__()
            self.fc1, self.fc2 = QuantLinear(32, 64), QuantLinear(64, 10)

        def forward(self, x):  # noqa: ANN001, ANN202
            return self.fc2(F.relu(self.fc1(x)))

    rng = np.random.default_rng(seed)
    model = Net()
    _set_params(model, rng)
    opt = paddle.optimizer.SGD(learning_rate=0.05, parameters=model.parameters())
    n = 8
    xs = rng.standard_normal((n, BATCH, 32)).astype("float32")
    ys = rng.integers(0, 10, (n, BATCH)).astype("int64")
    losses = []
    for step in range(steps):
        x, y = paddle.to_tensor(xs[step % n]), paddle.to_tensor(ys[step % n])
        loss = F.cross_entropy(model(x), y)
        loss.backward()
        opt.step()
        opt.clear_grad()
        if step % 10 == 0:
            losses.append(float(loss))
    return losses


def slices(paddle: Any, steps: int = 100, seed: int = 0) -> list[float]:
    nn, F = paddle.nn, paddle.nn.functional
    rng = np.random.default_rng(seed)
    model = nn.Sequential(nn.Linear(16, 64), nn.ReLU(), nn.Linear(64, 1))
    _set_params(model, rng)
    opt = paddle.optimizer.SGD(learning_rate=0.05, parameters=model.parameters())
    n = 50
    xs = rng.standard_normal((n * BATCH, 16)).astype("float32")
    X = paddle.to_tensor(xs)
    Y = paddle.to_tensor(np.sin(xs.sum(-1, keepdims=True)).astype("float32"))
    losses = []
    for step in range(steps):
        i = step % n
        loss = F.mse_loss(model(X[i * BATCH:(i + 1) * BATCH]), Y[i * BATCH:(i + 1) * BATCH])
        loss.backward()
        opt.step()
        opt.clear_grad()
        if step % 10 == 0:
            losses.append(float(loss))
    return losses


SCRIPTS: dict[str, tuple[Callable[..., list[float]], int, str]] = {
    "dann": (dann, 150, "DANN: GRL PyLayer, alpha schedule, 2 heads, 3 cross entropies, Adam"),
    "cus_tanh": (cus_tanh, 100, "cus_tanh PyLayer (save_for_backward) x2 in an MLP, mse, Momentum"),
    "ste": (ste, 100, "4-bit weight STE PyLayer on 2 linear layers, cross entropy, SGD"),
    "slices": (slices, 100, "batches sliced from data-set Tensors (X[i * 32:(i + 1) * 32]), MLP, mse, SGD"),
}
