"""Record Paddle 3.3.1's activation, loss, dropout, padding, embedding, resampling and vision layers into
tests/data/paddle_layers_zoo_a.json: for every case of ``layer_zoo_a_cases`` in float32 and float64, the
repr, state_dict keys and parameter names, the parameter values (the tests load them), the output and the
gradients of ``sum(out * w)`` with respect to the inputs and the parameters.

Run with the Paddle interpreter: ``/tmp/paddle/bin/python tests/record_paddle_layers_zoo_a.py``.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import numpy as np
import paddle

sys.path.insert(0, str(Path(__file__).parent))
from layer_zoo_a_cases import CASES, make_inputs, run  # noqa: E402


def enc(a, dt):
    if a is None:
        return None
    digits = 9 if dt == "float32" else 15
    return np.vectorize(lambda v: float(f"{v:.{digits}g}"), otypes=[float])(a).tolist() if a.ndim else \
        float(f"{float(a):.{digits}g}")


def record_case(cid, build, specs, mode, dt):
    paddle.set_default_dtype(dt)
    try:
        with paddle.utils.unique_name.guard():
            layer = build(paddle, np.dtype(dt))
        if mode == "eval":
            layer.eval()
        rec = {"repr": repr(layer), "keys": list(layer.state_dict().keys()),
               "param_names": [p.name for p in layer.parameters()],
               "params": {k: enc(np.asarray(v.numpy(), np.float64), dt) for k, v in layer.state_dict().items()}}
        r = run(paddle, layer, make_inputs(cid, specs, np.dtype(dt)), np.dtype(dt))
        rec["repr_after"] = repr(layer)
        rec["out"] = enc(r["out"], dt)
        rec["out_dtype"] = r["out_dtype"]
        rec["grads"] = [enc(g, dt) for g in r["grads"]]
        rec["param_grads"] = {k: enc(g, dt) for k, g in r["param_grads"].items()}
        return rec
    finally:
        paddle.set_default_dtype("float32")


def default_inits():
    paddle.seed(11)
    emb = paddle.nn.Embedding(200, 300).weight.numpy()
    bil = paddle.nn.Bilinear(30, 40, 50).weight.numpy()
    return {
        "embedding": {"max": float(np.abs(emb).max()), "std": float(emb.std()), "mean": float(emb.mean())},
        "bilinear": {"max": float(np.abs(bil).max()), "std": float(bil.std()), "mean": float(bil.mean())},
        "prelu": paddle.nn.PReLU(2, init=0.3).weight.numpy().tolist() if hasattr(paddle.nn.PReLU(2), "weight")
        else paddle.nn.PReLU(2, init=0.3)._weight.numpy().tolist(),
    }


def main():
    rec = {"cases": {}}
    for cid, build, specs, mode in CASES:
        rec["cases"][cid] = {dt: record_case(cid, build, specs, mode, dt) for dt in ("float32", "float64")}
    rec["inits"] = default_inits()
    names = Path("/work/shared/spec/paddle-nn-classes.txt").read_text().split()
    rec["aliases"] = {n: getattr(paddle.nn, n).__name__ for n in names
                      if n[-1] == "d" and "Pad" in n or n.startswith("Upsampling") and n[-1] == "d"
                      or n in ("SiLU", "HuberLoss")}
    sparse = paddle.nn.Embedding(5, 3, sparse=True)
    rec["sparse_repr"] = repr(sparse)
    Path(__file__).with_name("data").joinpath("paddle_layers_zoo_a.json").write_text(json.dumps(rec, separators=(",", ":")))


if __name__ == "__main__":
    main()
