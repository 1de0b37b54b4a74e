"""Cases found by the whole programs ``tests/programs/p51_sparse.py`` and ``p52_quantization.py`` (and the probes
written around them), as Paddle code: ``record(paddle)`` runs them with the given library and returns what they give
(values, gradients, flags). ``record_paddle_program_diffs_m.py`` runs it with Paddle 3.3.1 into
``data/paddle_program_diffs_m.json``; ``test_program_diffs_m.py`` runs it with pylayer_jax and compares."""

from __future__ import annotations

from typing import Any

import numpy as np
from case_values import _v


def sparse_values_tensor(paddle: Any, out: dict[str, Any]) -> None:
    """``sparse_coo_tensor`` / ``sparse_csr_tensor`` given a values Tensor set that Tensor's ``stop_gradient`` to the
    one asked for (True by default: the values then get no gradient, even through a later sparse Tensor); a COO
    Tensor is the result of its values (the gradient reaches the caller's Tensor, not a leaf), a CSR one a new leaf
    of a copy (its own ``.grad``; the caller's Tensor gets none)."""
    sp = paddle.sparse
    idx = [[0, 0, 1], [1, 3, 0]]
    for sg in (True, False):
        for how in ("leaf", "leaf_sg", "result"):
            for fmt in ("coo", "csr"):
                vals = paddle.to_tensor([1.0, -2.0, 3.0], stop_gradient=(how == "leaf_sg"))
                src = vals * 2.0 if how == "result" else vals
                if fmt == "coo":
                    w = sp.sparse_coo_tensor(idx, src, [4, 4], stop_gradient=sg)
                else:
                    w = sp.sparse_csr_tensor([0, 2, 3, 3, 3], [1, 3, 0], src, [4, 4], stop_gradient=sg)
                if not w.stop_gradient:
                    sp.sum(sp.square(sp.sin(w))).backward()
                out[f"values_{fmt}_{how}_{sg}"] = [
                    vals.stop_gradient, None if vals.grad is None else _v(vals.grad), w.stop_gradient, w.is_leaf,
                    None if w.grad is None else _v(w.grad.values()), _v(w.values())]
    vals = paddle.to_tensor([1.0, 2.0, 3.0], stop_gradient=False)
    frozen = sp.sparse_coo_tensor(idx, vals, [4, 4])  # the default freezes vals
    later = sp.sparse_coo_tensor(idx, vals * 3.0, [4, 4], stop_gradient=False)
    sp.sum(later).backward()
    out["values_frozen_by_default"] = [frozen.stop_gradient, vals.stop_gradient, vals.grad is None, later.is_leaf]
    v64 = paddle.to_tensor([1.0, 2.0, 3.0], stop_gradient=False)
    cast = sp.sparse_coo_tensor(idx, v64, [4, 4], dtype="float64", stop_gradient=False)
    sp.sum(sp.square(cast)).backward()
    out["values_cast"] = [str(cast.dtype), v64.stop_gradient, _v(v64.grad), cast.is_leaf]


def sparse_bool_to_dense(paddle: Any, out: dict[str, Any]) -> None:
    """A sparse Tensor of bool values (``isnan``'s result, a bool cast) has a dense form (raised before)."""
    sp = paddle.sparse
    x = sp.sparse_coo_tensor([[0, 1, 2], [1, 0, 2]], [1.0, float("nan"), 3.0], [3, 3])
    n = sp.isnan(x)
    out["bool_isnan"] = [str(n.dtype), _v(n.values()), _v(n.to_dense())]
    out["bool_isnan_csr"] = _v(sp.isnan(x.to_sparse_csr()).to_dense())
    out["bool_cast"] = _v(sp.cast(x, value_dtype="bool").to_dense())


def quant_stub(paddle: Any, out: dict[str, Any]) -> None:
    """``paddle.nn.quant`` (missing before): a ``Stub`` before a functional call becomes a ``QuanterStub`` in QAT and
    PTQ (its own observer, else the configuration's activation one), converted like the other quanters; the
    functional layers compute their functions."""
    import importlib

    qz = importlib.import_module(f"{paddle.__name__}.quantization")
    PTQ, QAT, QuantConfig = qz.PTQ, qz.QAT, qz.QuantConfig  # noqa: N806
    AbsmaxObserver = importlib.import_module(f"{qz.__name__}.observers").AbsmaxObserver  # noqa: N806
    FakeQuanterWithAbsMaxObserver = importlib.import_module(  # noqa: N806
        f"{qz.__name__}.quanters").FakeQuanterWithAbsMaxObserver

    q = FakeQuanterWithAbsMaxObserver(moving_rate=0.9)

    class M(paddle.nn.Layer):
        def __init__(self, own: Any) -> None:
            super().__init__()
            self.fc = paddle.nn.Linear(4, 3)
            self.q1 = paddle.nn.quant.Stub()
            self.q2 = paddle.nn.quant.Stub(own)

        def forward(self, x: Any) -> Any:
            h = self.fc(x)
            return self.q1(h) + self.q2(h * 0.3)

    def types(m: Any) -> list[Any]:
        return [[n, type(s).__name__] for n, s in m.named_sublayers()]

    r = np.random.default_rng(0)
    x = paddle.to_tensor(r.standard_normal((5, 4)).astype("float32"))
    m = M(FakeQuanterWithAbsMaxObserver(moving_rate=0.5, bit_length=4))
    m.set_state_dict({k: r.standard_normal(v.shape).astype("float32") for k, v in m.state_dict().items()})
    out["stub_plain"] = _v(m(x))
    qm = QAT(QuantConfig(activation=q, weight=q)).quantize(m)
    out["stub_qat"] = [types(qm), _v(qm(x)), _v(qm.q1._observer.scales()), _v(qm.q2._observer.scales()),
                       list(qm.state_dict())]
    p = M(AbsmaxObserver(quant_bits=4))
    p.set_state_dict(m.state_dict())
    p.eval()
    ptq = PTQ(QuantConfig(activation=AbsmaxObserver(), weight=None))
    pm = ptq.quantize(p)
    out["stub_ptq"] = [types(pm), _v(pm(x))]
    c = ptq.convert(pm)
    out["stub_ptq_converted"] = [types(c), _v(c(x))]
    y = paddle.to_tensor(r.standard_normal((5, 4)).astype("float32"))
    fl = paddle.nn.quant
    out["functional_layers"] = [
        _v(fl.add()(x, y)), _v(fl.subtract()(x, y)), _v(fl.multiply()(x, y)), _v(fl.divide()(x, y)),
        _v(fl.reshape()(x, [2, 10])), _v(fl.transpose()(x, [1, 0])), _v(fl.concat()([x, y], 1)),
        _v(fl.flatten()(x.reshape([5, 2, 2]), 1)), _v(fl.matmul()(x, y, transpose_y=True)),
        isinstance(fl.add(), fl.FloatFunctionalLayer)]


CASES = [sparse_values_tensor, sparse_bool_to_dense, quant_stub]


def record(paddle: Any) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for case in CASES:
        case(paddle, out)
    return out
