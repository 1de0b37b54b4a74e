"""Record Paddle 3.3.1's geometric warps and OpenCV resize kernels into ``tests/data/paddle_vision_warps.npz``
(+ ``.json``): cases from ``tests/vision_warp_cases.py``.

Paddle hands numpy images to OpenCV, which 3.3.1 does not install; run with OpenCV on the path (as for
``record_paddle_vision.py``)::

    pip install --target /tmp/cv2pkgs opencv-python-headless==4.12.0.88
    PYTHONPATH=/tmp/cv2pkgs /tmp/paddle/bin/python tests/record_paddle_vision_warps.py

What Paddle raises for the numpy warps without OpenCV is recorded too (from a child interpreter in which
``import cv2`` fails).
"""

import json
import os
import random
import subprocess
import sys

import numpy as np
import paddle

sys.path.insert(0, os.path.dirname(__file__))
import vision_cases as VC  # noqa: E402
import vision_warp_cases as C  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
F = paddle.vision.transforms.functional
T = paddle.vision.transforms


def run_transform(case, arrays, meta, repeats=1, seeded=False):
    name, kind, shape, dtype, seed, expr = case
    if seeded:
        random.seed(VC.RANDOM_SEED)
        np.random.seed(VC.RANDOM_SEED)
    entries = []
    for r in range(repeats):
        img = VC.image(kind, shape, dtype, seed, paddle)
        out = eval(expr, {"F": F, "T": T, "np": np, "img": img, "paddle": paddle})
        k, arr = VC.describe(paddle, out)
        arrays[f"t/{name}/{r}"] = arr
        entries.append({"kind": k, "dtype": str(arr.dtype), "shape": list(arr.shape)})
    meta[name] = entries


def run_grad(case, arrays):
    name, shape, seed, expr = case
    img = paddle.to_tensor(VC.array(shape, "float32", seed).transpose(2, 0, 1) / 255.0, stop_gradient=False)
    out = eval(expr, {"F": F, "T": T, "img": img, "np": np})
    w = paddle.to_tensor(np.cos(np.arange(out.size)).reshape(out.shape).astype("float32"))
    (g,) = paddle.grad((out * w).sum(), [img])
    arrays[f"g/{name}/out"] = out.numpy()
    arrays[f"g/{name}/grad"] = g.numpy()


def run_error(name, expr, meta):
    try:
        eval(expr, {"F": F, "T": T, "np": np, "paddle": paddle})
        meta[name] = None
    except Exception as e:  # noqa: BLE001  (recording what Paddle raises)
        meta[name] = type(e).__name__


def without_opencv():
    code = ("import sys; sys.modules['cv2'] = None\nimport numpy as np, paddle\n"
            "try:\n    paddle.vision.transforms.rotate(np.zeros((4, 4, 3), np.uint8), 10)\n"
            "except Exception as e:\n    print(type(e).__name__ + ': ' + str(e).splitlines()[0])\n")
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    res = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, timeout=300)
    return res.stdout.strip().splitlines()[-1] if res.stdout.strip() else res.stderr.strip().splitlines()[-1]


def main():
    import cv2

    arrays, meta = {}, {"transforms": {}, "random": {}, "errors": {}}
    for case in C.TRANSFORM_CASES:
        run_transform(case, arrays, meta["transforms"])
    for case in C.RANDOM_CASES:
        run_transform(case, arrays, meta["random"], repeats=VC.RANDOM_REPEATS, seeded=True)
    for case in C.GRAD_CASES:
        run_grad(case, arrays)
    for name, expr in C.ERROR_CASES:
        run_error(name, expr, meta["errors"])
    meta["paddle"] = paddle.__version__
    meta["opencv"] = cv2.__version__
    meta["without_opencv"] = without_opencv()
    np.savez_compressed(os.path.join(HERE, "data", "paddle_vision_warps.npz"), **arrays)
    with open(os.path.join(HERE, "data", "paddle_vision_warps.json"), "w") as f:
        json.dump(meta, f, indent=1, sort_keys=True)
    print(len(arrays), "arrays")


if __name__ == "__main__":
    main()
