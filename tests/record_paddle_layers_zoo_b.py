"""Record Paddle 3.3.1's convolution, pooling and normalisation layers into
``tests/data/paddle_layers_zoo_b.npz`` (+ ``.json``).

Run with ``/tmp/paddle/bin/python tests/record_paddle_layers_zoo_b.py``. For each case (a constructor
expression over ``nn`` evaluated in both frameworks) and each of float32/float64: the parameters and
buffers of the seeded layer, the output of a deterministic input, and the gradients of
``sum(out * w)`` w.r.t. the input and every parameter; norms are run for two train steps (outputs and
running statistics after each) then once in eval. Also ``repr``, state_dict keys, parameter names and
the statistics of the default initialisation of big layers.
"""

import json
import os
import sys

import numpy as np
import paddle

sys.path.insert(0, os.path.dirname(__file__))
from layer_zoo_b_cases import CASES, INIT_CASES  # noqa: E402

nn = paddle.nn
HERE = os.path.dirname(os.path.abspath(__file__))


def inputs(shape, dtype, k):
    rs = np.random.RandomState(k)
    return rs.standard_normal(shape).astype(dtype)


def weights(shape, dtype):
    n = int(np.prod(shape))
    return (np.cos(np.arange(n)) + 1.5).reshape(shape).astype(dtype)


def run_case(name, ctor, shape, train_steps, arrays, meta):
    for dtype in ("float32", "float64"):
        paddle.set_default_dtype(dtype)
        paddle.seed(7)
        layer = eval(ctor)
        key = f"{name}/{dtype}"
        if dtype == "float32":
            meta[name] = {"repr": repr(layer), "keys": list(layer.state_dict().keys()),
                          "pnames": [p.name for p in layer.parameters()]}
        for k, v in layer.state_dict().items():
            arrays[f"{key}/init/{k}"] = v.numpy()
        steps = [("train", i) for i in range(train_steps)] + [("eval", train_steps)]
        if not train_steps:
            steps = [("eval", 0)]
        for mode, i in steps:
            layer.train() if mode == "train" else layer.eval()
            x = paddle.to_tensor(inputs(shape, dtype, i), stop_gradient=False)
            out = layer(x)
            outs = list(out) if isinstance(out, tuple) else [out]
            for j, o in enumerate(outs):
                arrays[f"{key}/{i}/out{j}"] = o.numpy()
            loss = (outs[0] * paddle.to_tensor(weights(outs[0].shape, dtype))).sum()
            params = [p for p in layer.parameters() if not p.stop_gradient]
            grads = paddle.grad(loss, [x, *params], allow_unused=True)
            arrays[f"{key}/{i}/gx"] = grads[0].numpy()
            for (pn, _), g in zip([(n, p) for n, p in layer.named_parameters() if not p.stop_gradient], grads[1:]):
                arrays[f"{key}/{i}/g/{pn}"] = g.numpy()
            for k, v in layer.state_dict().items():
                arrays[f"{key}/{i}/state/{k}"] = v.numpy()
    paddle.set_default_dtype("float32")


def main():
    arrays, meta = {}, {}
    for name, ctor, shape, train_steps in CASES:
        run_case(name, ctor, shape, train_steps, arrays, meta)
    init = {}
    for name, ctor in INIT_CASES:
        paddle.seed(1)
        w = eval(ctor).weight.numpy().astype(np.float64)
        init[name] = {"mean": float(w.mean()), "std": float(w.std()), "min": float(w.min()), "max": float(w.max())}
    meta["__init__"] = init
    np.savez_compressed(os.path.join(HERE, "data", "paddle_layers_zoo_b.npz"), **arrays)
    with open(os.path.join(HERE, "data", "paddle_layers_zoo_b.json"), "w") as f:
        json.dump(meta, f, indent=1, sort_keys=True)


if __name__ == "__main__":
    main()
