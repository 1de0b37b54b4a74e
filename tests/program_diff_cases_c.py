"""Cases found by the whole programs ``tests/programs/p31_vision_models.py`` and ``p32_hapi_callbacks.py``, written
as Paddle code: ``record(paddle)`` runs them with the given library and returns what they give (values, types,
file names, the type of each error). ``record_paddle_program_diffs_c.py`` runs it with Paddle 3.3.1 into
``data/paddle_program_diffs_c.json``; ``test_program_diffs_c.py`` runs it with pylayer_jax and compares."""

from __future__ import annotations

import contextlib
import io
import os
import tempfile
import warnings
from typing import Any

import numpy as np
from case_values import _attempt


def _set(net: Any, seed: int) -> Any:
    r = np.random.default_rng(seed)
    net.set_state_dict({k: (r.standard_normal(v.shape) * 0.3).astype("float32") for k, v in net.state_dict().items()})
    return net


def flops(paddle: Any, out: dict[str, Any]) -> None:
    """``paddle.flops`` (p31: it was missing) by Paddle's per-layer rules: convolutions (groups, no bias,
    transposed), Linear (counted at each call), BatchNorm2D (BatchNorm1D is not counted), average and adaptive
    average pools, LeakyReLU, zero-cost and unknown layers, ``custom_ops``, the table of ``print_detail`` (less its
    layer names), the totals line; a network that is a single leaf counts nothing (Paddle sums its sublayers); the
    network's training mode is put back."""
    nn = paddle.nn

    class Block(nn.Layer):
        def __init__(self):
            super().__init__()
            self.conv = nn.Conv2D(3, 8, 3, padding=1, bias_attr=False)
            self.bn = nn.BatchNorm2D(8)
            self.act = nn.LeakyReLU(0.1)
            self.dw = nn.Conv2D(8, 8, 3, stride=2, groups=4)
            self.up = nn.Conv2DTranspose(8, 4, 2, stride=2, groups=2)
            self.pool = nn.AvgPool2D(2)
            self.apool = nn.AdaptiveAvgPool2D((2, 3))
            self.c1 = nn.Conv1D(4, 6, 3)
            self.bn1 = nn.BatchNorm1D(6)
            self.fc = nn.Linear(6 * 4, 5)
            self.fc2 = nn.Linear(5, 5)
            self.drop = nn.Dropout(0.5)
            self.tanh = nn.Tanh()

        def forward(self, x):
            h = self.act(self.bn(self.conv(x)))
            h = self.up(self.dw(h))
            h = self.apool(self.pool(h) + 0.0)
            h = self.bn1(self.c1(h.flatten(2)))
            h = self.drop(self.fc(h.flatten(1)))
            return self.tanh(self.fc2(self.fc2(h)))

    def run(net: Any, size: list[int], **kw: Any) -> Any:
        buf = io.StringIO()
        with contextlib.redirect_stdout(buf):
            n = paddle.flops(net, size, **kw)
        lines = buf.getvalue().splitlines()
        rows = [[c.strip() for c in ln.split("|")[2:-1]] for ln in lines if ln.startswith("|")]
        return [n, type(n).__name__, [ln for ln in lines if ln.startswith("Total")], rows]

    paddle.seed(0)
    block = Block()
    block.train()
    out["flops_block"] = run(block, [2, 3, 16, 16], print_detail=True) + [block.training, block.fc.training]
    out["flops_block_b1"] = run(block, [1, 3, 12, 12])[:3]

    def count_tanh(m: Any, x: Any, y: Any) -> None:
        m.total_ops += int(np.prod(y.shape)) * 3

    out["flops_custom"] = run(block, [1, 3, 16, 16], custom_ops={nn.Tanh: count_tanh})[:3]
    out["flops_single_leaf"] = run(nn.Linear(4, 3), [2, 4])[:3]
    lenet = paddle.vision.models.LeNet(num_classes=10)
    out["flops_lenet"] = run(lenet, [1, 1, 28, 28], print_detail=True)
    out["flops_mobilenet"] = run(paddle.vision.models.mobilenet_v2(scale=0.5, num_classes=3), [1, 3, 32, 32])[:3]
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        out["flops_not_layer"] = [paddle.flops(lambda x: x, [1, 2]), [str(w.message) for w in caught]]


def summary_counts(paddle: Any, out: dict[str, Any]) -> None:
    """``paddle.summary`` and ``Model.summary`` return numpy.int64 counts (p31: they were ints), an int 0 when no
    layer has parameters."""
    nn = paddle.nn

    def kinds(info: dict) -> Any:
        return {k: [int(v), type(v).__name__] for k, v in info.items()}

    with contextlib.redirect_stdout(io.StringIO()):
        net = nn.Sequential(nn.Linear(4, 8), nn.ReLU(), nn.Linear(8, 2))
        net[2].weight.stop_gradient = True
        out["summary_types"] = kinds(paddle.summary(net, (2, 4)))
        out["summary_no_params"] = kinds(paddle.summary(nn.Sequential(nn.ReLU(), nn.Flatten()), (2, 4)))
        model = paddle.Model(nn.Sequential(nn.Linear(3, 2)), [paddle.static.InputSpec([None, 3], "float32", "x")])
        out["model_summary_types"] = kinds(model.summary())


def save_inference(paddle: Any, out: dict[str, Any]) -> None:
    """``Model.save(path, training=False)`` (p32: it raised NotImplementedError) writes the inference model of
    ``paddle.jit.save`` for the Model's input specs; without ``inputs`` it needs a batch run first (RuntimeError
    before), whose shapes it saves with a warning, and ``summary()`` then uses them."""
    nn = paddle.nn
    x = np.random.default_rng(0).standard_normal((5, 4)).astype("float32")
    y = np.array([[0], [1], [2], [1], [0]], "int64")
    tmp = tempfile.mkdtemp()
    spec = paddle.static.InputSpec([None, 4], "float32", "x")
    model = paddle.Model(_set(nn.Sequential(nn.Linear(4, 6), nn.Tanh(), nn.Linear(6, 3)), 1), [spec])
    model.save(os.path.join(tmp, "a", "m"), training=False)
    files = sorted(os.listdir(os.path.join(tmp, "a")))
    loaded = paddle.jit.load(os.path.join(tmp, "a", "m"))
    out["save_infer"] = [[f for f in ("m.json", "m.pdiparams") if f in files], "m.pdparams" in files,
                         loaded(paddle.to_tensor(x)).numpy().astype("float64").tolist(),
                         loaded(paddle.to_tensor(x[:2])).numpy().shape[0]]

    bare = paddle.Model(_set(nn.Sequential(nn.Linear(4, 3)), 2))
    bare.prepare(paddle.optimizer.SGD(learning_rate=0.1, parameters=bare.parameters()), nn.CrossEntropyLoss())
    out["save_infer_before_run"] = _attempt(lambda: bare.save(os.path.join(tmp, "b", "early"), training=False))
    bare.train_batch([x], [y])
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        bare.save(os.path.join(tmp, "b", "m"), training=False)
    loaded = paddle.jit.load(os.path.join(tmp, "b", "m"))
    with contextlib.redirect_stdout(io.StringIO()):
        info = bare.summary()
    out["save_infer_inferred"] = [[str(w.message) for w in caught if "inputs" in str(w.message)],
                                  loaded(paddle.to_tensor(x)).numpy().astype("float64").tolist(),
                                  {k: int(v) for k, v in info.items()}]
    pred = paddle.Model(_set(nn.Sequential(nn.Linear(4, 3)), 3))
    pred.predict_batch([x[:2]])
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        pred.save(os.path.join(tmp, "c", "m"), training=False)
    out["save_infer_after_predict"] = [str(w.message) for w in caught if "inputs" in str(w.message)]


CASES = (flops, summary_counts, save_inference)


def record(paddle: Any) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for case in CASES:
        case(paddle, out)
    return out
