"""Record Paddle 3.3.1's ``paddle.vision`` results into ``tests/data/paddle_vision.npz`` (+ ``.json``).

Run with OpenCV on the path, since Paddle hands numpy images to OpenCV (its 'cv2' backend) and 3.3.1 does not
install it::

    pip install --target /tmp/cv2pkgs opencv-python-headless==4.12.0.88
    PYTHONPATH=/tmp/cv2pkgs /tmp/paddle/bin/python tests/record_paddle_vision.py

Without OpenCV, Paddle's numpy resize/pad/flip/grayscale raise ImportError; the script records that message too
(from a child interpreter in which ``import cv2`` fails). Cases come from ``tests/vision_cases.py``: transforms on
numpy, Tensor and PIL images (outputs, dtypes, kinds), random transforms under fixed ``random``/``np.random`` seeds,
the errors of misuse, model state-dict keys/shapes, LeNet's random initial weights with its output and gradients,
outputs of bigger models with deterministic weights loaded through ``set_state_dict``, and items of the data sets
read from small synthetic files.
"""

import json
import os
import random
import subprocess
import sys
import tempfile

import numpy as np
import paddle

sys.path.insert(0, os.path.dirname(__file__))
import vision_cases as C  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
F = paddle.vision.transforms.functional
T = paddle.vision.transforms
M = paddle.vision.models


def describe(out):
    """(kind, array) of a transform's output."""
    return C.describe(paddle, out)


def run_transform(case, arrays, meta, repeats=1, seeded=False):
    name, kind, shape, dtype, seed, expr = case
    if seeded:
        random.seed(C.RANDOM_SEED)
        np.random.seed(C.RANDOM_SEED)
    entries = []
    for r in range(repeats):
        img = C.image(kind, shape, dtype, seed, paddle)
        out = eval(expr, {"F": F, "T": T, "np": np, "img": img, "paddle": paddle})
        k, arr = describe(out)
        arrays[f"t/{name}/{r}"] = arr
        entries.append({"kind": k, "dtype": str(arr.dtype), "shape": list(arr.shape),
                        "writeable": bool(arr.flags.writeable) if k == "numpy" else None})
    meta[name] = entries


def run_grad(case, arrays):
    name, shape, seed, expr = case
    img = paddle.to_tensor(C.array(shape, "float32", seed).transpose(2, 0, 1) / 255.0, stop_gradient=False)
    out = eval(expr, {"F": F, "T": T, "img": img})
    w = paddle.to_tensor(np.cos(np.arange(out.size)).reshape(out.shape).astype("float32"))
    (g,) = paddle.grad((out * w).sum(), [img])
    arrays[f"g/{name}/out"] = out.numpy()
    arrays[f"g/{name}/grad"] = g.numpy()


def record_nms(arrays):
    boxes, scores, cats = C.nms_inputs()
    env = {"b": paddle.to_tensor(boxes), "s": paddle.to_tensor(scores), "c": paddle.to_tensor(cats)}
    for name, kwargs in C.NMS_CASES:
        out = paddle.vision.ops.nms(env["b"], **eval(kwargs, env))
        arrays[f"nms/{name}"] = out.numpy()


def run_error(name, expr, meta):
    try:
        eval(expr, {"F": F, "np": np, "paddle": paddle})
        meta[name] = None
    except Exception as e:  # noqa: BLE001  (recording what Paddle raises)
        meta[name] = type(e).__name__


def record_models(arrays, meta):
    for name, ctor, in_shape in C.MODEL_CASES:
        paddle.seed(3)
        model = eval(ctor, {"M": M})
        sd = model.state_dict()
        meta[name] = {"keys": list(sd.keys()), "shapes": [list(v.shape) for v in sd.values()],
                      "params": [list(p.shape) for p in model.parameters()],
                      "n_params": int(sum(int(np.prod(p.shape)) for p in model.parameters()))}
        if in_shape is None:
            continue
        if name == "lenet":  # Paddle's own random initial weights (small enough to store)
            for k, v in sd.items():
                arrays[f"m/{name}/init/{k}"] = v.numpy()
        else:
            model.set_state_dict({k: paddle.to_tensor(v) for k, v in
                                  C.formula_weights({k: list(v.shape) for k, v in sd.items()}).items()})
        x = paddle.to_tensor(C.model_input(in_shape), stop_gradient=False)
        model.eval()
        out = model(x)
        arrays[f"m/{name}/eval"] = out.numpy()
        if name == "lenet":
            w = paddle.to_tensor(np.cos(np.arange(out.size)).reshape(out.shape).astype("float32"))
            params = list(model.parameters())
            grads = paddle.grad((out * w).sum(), [x, *params])
            arrays[f"m/{name}/grad/x"] = grads[0].numpy()
            for (pn, _), g in zip(model.named_parameters(), grads[1:]):
                arrays[f"m/{name}/grad/{pn}"] = g.numpy()
        model.train()
        arrays[f"m/{name}/train"] = eval(C.TRAIN_FORWARD[name], {"model": model, "x": x}).numpy()
        for k, v in model.state_dict().items():
            if k.endswith("_mean") or k.endswith("_variance"):
                arrays[f"m/{name}/after_train/{k}"] = v.numpy()


def record_datasets(arrays, meta):
    D = paddle.vision.datasets
    with tempfile.TemporaryDirectory() as tmp:
        ip, lp = C.write_mnist(tmp)
        for backend in ("cv2", "pil"):
            ds = D.MNIST(image_path=ip, label_path=lp, backend=backend)
            items = [ds[i] for i in (0, 7, 99)]
            meta[f"mnist_{backend}"] = {"len": len(ds), "kinds": [describe(im)[0] for im, _ in items],
                                        "label_dtype": str(items[0][1].dtype), "label_shape": list(items[0][1].shape)}
            for i, (im, lab) in zip((0, 7, 99), items):
                arrays[f"d/mnist_{backend}/{i}/image"] = describe(im)[1]
                arrays[f"d/mnist_{backend}/{i}/label"] = lab
        ds = D.FashionMNIST(image_path=ip, label_path=lp, mode="test", backend="cv2",
                            transform=T.Compose([T.ToTensor()]))
        im, lab = ds[3]
        meta["fashion_tensor"] = {"len": len(ds), "kind": describe(im)[0], "dtype": str(im.dtype),
                                  "shape": list(im.shape)}
        arrays["d/fashion/3/image"] = describe(im)[1]
        for hundred in (False, True):
            path = C.write_cifar(tmp, hundred)
            cls = D.Cifar100 if hundred else D.Cifar10
            key = "cifar100" if hundred else "cifar10"
            for mode in ("train", "test"):
                for backend in ("cv2", "pil"):
                    ds = cls(data_file=path, mode=mode, backend=backend)
                    items = [ds[i] for i in range(len(ds))]
                    meta[f"{key}_{mode}_{backend}"] = {
                        "len": len(ds), "kinds": [describe(im)[0] for im, _ in items],
                        "labels": [int(lab) for _, lab in items], "label_dtype": str(items[0][1].dtype),
                        "label_shape": list(items[0][1].shape)}
                    for i, (im, _) in enumerate(items):
                        arrays[f"d/{key}_{mode}_{backend}/{i}"] = describe(im)[1]
    for name, expr in [("mnist_no_path", "D.MNIST(download=False)"),
                       ("cifar_no_file", "D.Cifar10(download=False)"),
                       ("bad_mode", "D.MNIST(image_path='x', label_path='y', mode='valid')"),
                       ("bad_backend", "D.Cifar10(data_file='x', backend='tensor')")]:
        try:
            eval(expr, {"D": D})
            meta[name] = None
        except Exception as e:  # noqa: BLE001
            meta[name] = type(e).__name__


def no_cv2_message():
    code = ("import sys; sys.modules['cv2'] = None\nimport numpy as np, paddle\n"
            "try:\n    paddle.vision.transforms.resize(np.zeros((4, 4, 3), np.uint8), 2)\n"
            "except Exception as e:\n    print(type(e).__name__ + ': ' + str(e).splitlines()[0])\n")
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    res = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, timeout=300)
    return res.stdout.strip().splitlines()[-1] if res.stdout.strip() else res.stderr.strip().splitlines()[-1]


def main():
    import cv2  # noqa: F401  (Paddle's numpy transforms need it: see the module docstring)

    arrays, meta = {}, {"transforms": {}, "random": {}, "errors": {}, "models": {}, "datasets": {}}
    for case in C.TRANSFORM_CASES:
        run_transform(case, arrays, meta["transforms"])
    for case in C.RANDOM_CASES:
        run_transform(case, arrays, meta["random"], repeats=C.RANDOM_REPEATS, seeded=True)
    for case in C.GRAD_CASES:
        run_grad(case, arrays)
    record_nms(arrays)
    for name, expr in C.ERROR_CASES:
        run_error(name, expr, meta["errors"])
    record_models(arrays, meta["models"])
    record_datasets(arrays, meta["datasets"])
    meta["paddle"] = paddle.__version__
    meta["opencv"] = __import__("cv2").__version__
    meta["without_opencv"] = no_cv2_message()
    np.savez_compressed(os.path.join(HERE, "data", "paddle_vision.npz"), **arrays)
    with open(os.path.join(HERE, "data", "paddle_vision.json"), "w") as f:
        json.dump(meta, f, indent=1, sort_keys=True)
    print(len(arrays), "arrays")


if __name__ == "__main__":
    main()
