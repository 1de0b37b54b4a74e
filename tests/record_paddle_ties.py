"""Record Paddle 3.3.1's gradients at ties and kinks into tests/data/paddle_ties.json.

Run with the Paddle oracle: ``/tmp/paddle/bin/python tests/record_paddle_ties.py``.
Each case calls a function (named by its path under ``paddle``) on float64 inputs placed exactly
on its kinks, thresholds and ties (plus a point on each side), and stores the output (with the sign
of each zero), the tensors ``saved_tensors_hooks`` packs and the gradient of ``sum(out * ct)`` with
respect to every tensor input, ``ct`` = 1, 2, 3, ... Cases of another dtype (integer ``scale``) store
the output only.
``tests/nn/test_activation_ties.py`` replays the cases without Paddle.
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np

# hardsigmoid's default slope and offset, as Paddle writes them: its kinks are where slope * x + offset is 0 and 1
_HS_SLOPE, _HS_OFFSET = 0.1666667, 0.5


def case(fn, inputs, kwargs=None, tag="", extra=(), dtype="float64"):  # noqa: ANN001, ANN201
    """One call ``fn(*tensors, *extra, **kwargs)``: ``fn`` a dotted path under ``paddle``; ``inputs`` the values of
    each tensor argument."""
    return {"id": f"{fn}{tag}", "fn": fn, "inputs": [list(x) for x in inputs], "kwargs": kwargs or {},
            "extra": list(extra), "dtype": dtype}


CASES = [
    case("nn.functional.relu", [[0.0, -0.0, 1.0, -1.0]]),
    case("nn.functional.relu6", [[0.0, 6.0, -1.0, 3.0, 7.0]]),
    case("nn.functional.leaky_relu", [[0.0, -0.0, 1.0, -1.0]]),
    case("nn.functional.leaky_relu", [[0.0, 1.0, -1.0]], {"negative_slope": 0.2}, "-0.2"),
    case("nn.functional.hardtanh", [[-1.0, 1.0, 0.0, -2.0, 2.0]]),
    case("nn.functional.hardtanh", [[-0.5, 2.0, 0.0, -1.0, 3.0]], {"min": -0.5, "max": 2.0}, "-bounds"),
    case("clip", [[-1.0, 1.0, 0.0, -2.0, 2.0]], {"min": -1.0, "max": 1.0}),
    case("clip", [[0.5, 0.0, 1.0]], {"min": 0.5, "max": 0.5}, "-min-eq-max"),
    case("clip", [[0.0, -1.0, 1.0]], {"min": 0.0}, "-min-only"),
    case("clip", [[0.0, -1.0, 1.0]], {"max": 0.0}, "-max-only"),
    case("maximum", [[1.0, 2.0, 3.0, 0.0], [1.0, 0.0, 4.0, -0.0]]),
    case("minimum", [[1.0, 2.0, 3.0, 0.0], [1.0, 0.0, 4.0, -0.0]]),
    case("abs", [[0.0, -0.0, -1.0, 1.0]]),
    case("nn.functional.hardsigmoid", [[-3.0, 3.0, 0.0, -4.0, 4.0, -_HS_OFFSET / _HS_SLOPE,
                                        (1 - _HS_OFFSET) / _HS_SLOPE]]),
    case("nn.functional.hardsigmoid", [[-2.0, 2.0, 0.0, -3.0]], {"slope": 0.25, "offset": 0.5}, "-slope"),
    case("nn.functional.hardswish", [[-3.0, 3.0, 0.0, -4.0, 4.0]]),
    case("nn.functional.elu", [[0.0, -0.0, 1.0, -1.0]]),
    case("nn.functional.elu", [[0.0, 1.0, -1.0]], {"alpha": 0.5}, "-0.5"),
    case("nn.functional.celu", [[0.0, -0.0, 1.0, -1.0]]),
    case("nn.functional.celu", [[0.0, 1.0, -1.0]], {"alpha": 2.0}, "-2"),
    case("nn.functional.selu", [[0.0, -0.0, 1.0, -1.0]]),
    case("nn.functional.softshrink", [[0.5, -0.5, 0.0, 1.0, -1.0]]),
    case("nn.functional.hardshrink", [[0.5, -0.5, 0.0, 1.0, -1.0]]),
    case("nn.functional.thresholded_relu", [[1.0, 0.0, 2.0, -1.0]]),
    case("nn.functional.thresholded_relu", [[0.5, 0.0, 1.0]], {"threshold": 0.5, "value": 0.25}, "-value"),
    case("sign", [[0.0, -0.0, 1.0, -2.0]]),
    case("floor", [[0.0, 1.0, -1.5, 2.5]]),
    case("round", [[0.5, -0.5, 1.5, 2.0]]),
    # scale computes x * scale + bias as written: -0.0 + 0.0 is 0.0 (bias -0.0 keeps it); an integer x takes both
    # numbers truncated to its type
    case("scale", [[-0.0, 0.0, -1.0, 2.0]], {"scale": 1.0, "bias": 0.0}),
    case("scale", [[-0.0, 0.0, -1.0, 2.0]], {"scale": 1.0, "bias": 0.0, "bias_after_scale": False}, "-before"),
    case("scale", [[-0.0, 0.0, -1.0, 2.0]], {"scale": 0.0}, "-by-0"),
    case("scale", [[-0.0, 0.0, -1.0, 2.0]], {"scale": -1.0}, "-by-minus-1"),
    case("scale", [[-0.0, 0.0, -1.0, 2.0]], {"scale": 1.0, "bias": -0.0}, "-bias-minus-0"),
    case("scale", [[3, -2, 7]], {"scale": 2.5, "bias": 1.5}, "-int", dtype="int64"),
    case("scale", [[3, -2, 7]], {"scale": 1.7, "bias": 0.9, "bias_after_scale": False}, "-int-before", dtype="int64"),
    # the operators: x * number is scale (a zero product is 0.0), x / number is divide (-0.0 stays)
    case("Tensor.__mul__", [[-0.0, 0.0, -1.0]], {}, "", [1.0]),
    case("Tensor.__mul__", [[-0.0, 0.0, -1.0]], {}, "-minus-1", [-1.0]),
    case("Tensor.__truediv__", [[-0.0, 0.0, -1.0]], {}, "", [1.0]),
]


def resolve(root, path):  # noqa: ANN001, ANN201
    for part in path.split("."):
        root = getattr(root, part)
    return root


def main() -> None:
    import paddle  # noqa: PLC0415  (the oracle is only present when recording)

    out = {"paddle": paddle.__version__, "cases": []}
    for c in CASES:
        floating = c["dtype"] == "float64"
        xs = []
        for v in c["inputs"]:
            t = paddle.to_tensor(np.array(v, c["dtype"]))
            t.stop_gradient = not floating
            xs.append(t)
        packed = []
        with paddle.autograd.saved_tensors_hooks(lambda t, packed=packed: packed.append(t.numpy().tolist()) or t,
                                                 lambda t: t):
            y = resolve(paddle, c["fn"])(*xs, *c["extra"], **c["kwargs"])
        rec = {**c, "out": y.numpy().tolist(), "signbit": np.signbit(y.numpy()).tolist(), "packed": packed}
        if floating:
            ct = np.arange(1, y.size + 1, dtype=np.float64).reshape(y.shape)
            gs = paddle.grad((y * paddle.to_tensor(ct)).sum(), xs, allow_unused=True)
            rec["grads"] = [None if g is None else g.numpy().tolist() for g in gs]
        out["cases"].append(rec)
    path = Path(__file__).with_name("data") / "paddle_ties.json"
    path.write_text(json.dumps(out, indent=1))
    print(f"wrote {len(out['cases'])} cases to {path}")


if __name__ == "__main__":
    main()
