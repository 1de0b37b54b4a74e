"""Record Paddle 3.3.1's old-style ``BatchNorm``, ``SyncBatchNorm`` (construction; its forward as BatchNorm*D)
and ``SpectralNorm`` into ``tests/data/paddle_layers_zoo_c.npz`` (+ ``.json``).

Run with ``/tmp/paddle/bin/python tests/record_paddle_layers_zoo_c.py``. The layer cases are run as in
``record_paddle_layers_zoo_b.py`` (seeded parameters, train steps then eval, outputs, gradients of
``sum(out * w)``, state after each step, repr, state_dict keys, parameter names).
"""

import json
import os
import sys

import numpy as np
import paddle

sys.path.insert(0, os.path.dirname(__file__))
from layer_zoo_c_cases import ADAPTIVE, CASES, DECODE, META_CASES, SPECTRAL, decoder  # noqa: E402
from record_paddle_layers_zoo_b import inputs, run_case, weights  # noqa: E402

nn = paddle.nn
HERE = os.path.dirname(os.path.abspath(__file__))


def main():
    arrays, meta = {}, {}
    for name, ctor, _ours, shape, train_steps in CASES:
        run_case(name, ctor, shape, train_steps, arrays, meta)
    for name, ctor in META_CASES:
        paddle.seed(7)
        layer = eval(ctor)
        meta[name] = {"repr": repr(layer), "keys": list(layer.state_dict().keys()),
                      "pnames": [p.name for p in layer.parameters()]}
    for name, ctor, shape in SPECTRAL:
        for dtype in ("float32", "float64"):
            paddle.set_default_dtype(dtype)
            paddle.seed(7)
            layer = eval(ctor)
            key = f"{name}/{dtype}"
            for k, v in layer.state_dict().items():
                arrays[f"{key}/init/{k}"] = v.numpy()
            x = paddle.to_tensor(inputs(shape, dtype, 0), stop_gradient=False)
            out = layer(x)
            arrays[f"{key}/out"] = out.numpy()
            (out * paddle.to_tensor(weights(shape, dtype))).sum().backward()
            arrays[f"{key}/gx"] = x.grad.numpy()
            for k, v in layer.state_dict().items():
                arrays[f"{key}/after/{k}"] = v.numpy()
        paddle.set_default_dtype("float32")
    for name, ctor, shape, labels in ADAPTIVE:
        for dtype in ("float32", "float64"):
            paddle.set_default_dtype(dtype)
            paddle.seed(7)
            layer = eval(ctor)
            key = f"{name}/{dtype}"
            weights_ = [layer.head_weight] + [w for pair in layer.tail_weights for w in pair]
            if layer.head_bias is not None:
                weights_.append(layer.head_bias)
            for j, w in enumerate(weights_):
                arrays[f"{key}/w{j}"] = w.numpy()
            x = paddle.to_tensor(inputs(shape, dtype, 0), stop_gradient=False)
            out, loss = layer(x, paddle.to_tensor(np.asarray(labels, np.int64)))
            arrays[f"{key}/out"], arrays[f"{key}/loss"] = out.numpy(), loss.numpy()
            total = loss + (out * paddle.to_tensor(weights(out.shape, dtype))).sum()
            grads = paddle.grad(total, [x, *weights_])
            for j, g in enumerate(grads):
                arrays[f"{key}/g{j}"] = g.numpy()
            arrays[f"{key}/log_prob"] = layer.log_prob(x).numpy()
            arrays[f"{key}/predict"] = layer.predict(x).numpy()
        paddle.set_default_dtype("float32")
    for name, cell_ctor, end_token, beam, kw in DECODE:
        dec, h, out = decoder(paddle, cell_ctor, end_token, beam)
        ids, states, lengths = nn.dynamic_decode(dec, inits=h, return_length=True, **kw)
        arrays[f"{name}/ids"], arrays[f"{name}/lengths"] = ids.numpy(), lengths.numpy()
        arrays[f"{name}/log_probs"] = states.log_probs.numpy()
        arrays[f"{name}/g_out_w"] = paddle.grad(states.log_probs.sum(), [out.weight])[0].numpy()
    paddle.seed(1)
    big = nn.AdaptiveLogSoftmaxWithLoss(64, 200, [20, 100]).head_weight.numpy().astype(np.float64)
    meta["__init__"] = {"adaptive_head": {"mean": float(big.mean()), "std": float(big.std()), "min": float(big.min()),
                                          "max": float(big.max())}}
    np.savez_compressed(os.path.join(HERE, "data", "paddle_layers_zoo_c.npz"), **arrays)
    with open(os.path.join(HERE, "data", "paddle_layers_zoo_c.json"), "w") as f:
        json.dump(meta, f, indent=1, sort_keys=True)


if __name__ == "__main__":
    main()
