"""Record Paddle 3.3.1's ``paddle.vision.ops`` values (and gradients of the differentiable ones) into
``tests/data/paddle_vision_ops.npz`` (+ ``.json`` for the exception types of misuse): cases from
``tests/vision_ops_cases.py``. Run with ``/tmp/paddle/bin/python tests/record_paddle_vision_ops.py``."""

import json
import os
import sys

import numpy as np
import paddle

sys.path.insert(0, os.path.dirname(__file__))
import vision_ops_cases as C  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
V = paddle.vision.ops


def bind(inputs, grads):
    env = {"V": V, "paddle": paddle, "np": np}
    for k, spec in inputs.items():
        env[k] = paddle.to_tensor(C.make(*spec), stop_gradient=k not in grads)
    return env


def main():
    arrays, errors = {}, {}
    for name, inputs, expr, grads in C.CASES:
        paddle.seed(0)
        env = bind(inputs, grads)
        out = eval(expr, env)
        outs = list(out) if isinstance(out, (tuple, list)) else [out]
        for i, o in enumerate(outs):
            arrays[f"{name}/out{i}"] = o.numpy()
        if grads:
            o = outs[0]
            w = paddle.to_tensor(np.cos(np.arange(o.size)).reshape(o.shape).astype("float32"))
            gs = paddle.grad((o * w).sum(), [env[g] for g in grads])
            for g, v in zip(grads, gs):
                arrays[f"{name}/grad/{g}"] = v.numpy()
    for name, inputs, expr in C.ERROR_CASES:
        try:
            eval(expr, bind(inputs, []))
            errors[name] = None
        except Exception as e:  # noqa: BLE001  (recording what Paddle raises)
            errors[name] = type(e).__name__
    np.savez_compressed(os.path.join(HERE, "data", "paddle_vision_ops.npz"), **arrays)
    with open(os.path.join(HERE, "data", "paddle_vision_ops.json"), "w") as f:
        json.dump({"paddle": paddle.__version__, "errors": errors}, f, indent=1, sort_keys=True)
    print(len(arrays), "arrays")


if __name__ == "__main__":
    main()
