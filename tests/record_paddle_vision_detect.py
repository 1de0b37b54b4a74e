"""Record Paddle 3.3.1's ``paddle.vision.ops`` generate_proposals, distribute_fpn_proposals, matrix_nms,
yolo_loss (value and gradient) and read_file into ``tests/data/paddle_vision_detect.npz`` (+ ``.json``: output
structures and the exception types of misuse); cases from ``tests/vision_detect_cases.py``. Run with
``/tmp/paddle/bin/python tests/record_paddle_vision_detect.py``."""

import json
import os
import sys
import tempfile

import numpy as np
import paddle

sys.path.insert(0, os.path.dirname(__file__))
import vision_detect_cases as C  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
V = paddle.vision.ops


def bind(inputs, grads):
    env = {"V": V, "paddle": paddle, "np": np}
    for k, spec in inputs.items():
        env[k] = paddle.to_tensor(C.make(*spec), stop_gradient=k not in grads)
    return env


def main():
    arrays, structure, errors = {}, {}, {}
    for name, inputs, expr, grads in C.CASES:
        env = bind(inputs, grads)
        items, structure[name] = C.flatten(eval(expr, env))
        for i, o in enumerate(items):
            if o is not None:
                arrays[f"{name}/out{i}"] = o.numpy()
        if grads:
            o = items[0]
            w = paddle.to_tensor(np.cos(np.arange(o.size)).reshape(o.shape).astype(o.numpy().dtype))
            for g, v in zip(grads, paddle.grad((o * w).sum(), [env[g] for g in grads])):
                arrays[f"{name}/grad/{g}"] = v.numpy()
    with tempfile.TemporaryDirectory() as d:
        path = os.path.join(d, "bytes.bin")
        with open(path, "wb") as fh:
            fh.write(C.READ_BYTES)
        arrays["read_file/out0"] = V.read_file(path).numpy()
    for name, inputs, expr in C.ERROR_CASES:
        try:
            eval(expr, bind(inputs, []))
            errors[name] = None
        except Exception as e:  # noqa: BLE001  (recording what Paddle raises)
            errors[name] = type(e).__name__
    np.savez_compressed(os.path.join(HERE, "data", "paddle_vision_detect.npz"), **arrays)
    with open(os.path.join(HERE, "data", "paddle_vision_detect.json"), "w") as f:
        json.dump({"paddle": paddle.__version__, "structure": structure, "errors": errors}, f, indent=1,
                  sort_keys=True)
    print(len(arrays), "arrays")


if __name__ == "__main__":
    main()
