"""Record what Paddle does with arguments that are easy to overlook into tests/data/paddle_accepted_args.json.

Run with real Paddle: ``/tmp/paddle/bin/python tests/record_paddle_accepted_args.py``. Each entry is the
result of one call (as nested lists) that ``tests/test_no_ignored_arguments.py`` compares against:
``scale(act=...)``, ``cdist(compute_mode=...)`` (the matrix-product form rounds differently, so inputs far
from the origin tell the forms apart), ``repeat_interleave(output_size=...)``, ``instance_norm``'s obsolete
running statistics, and optimizers whose parameter carries its own regularizer.
"""

import json
import os

import numpy as np
import paddle
import paddle.nn.functional as F
from paddle.regularizer import L1Decay, L2Decay

OUT = {}
T = paddle.to_tensor

v = T([-1.0, 0.5, 2.0])
for act in ("relu", "tanh", "sigmoid", "softmax"):
    OUT[f"scale_act_{act}"] = paddle.scale(v, 2.0, bias=0.5, act=act).numpy().tolist()
OUT["scale_act_relu_before"] = paddle.scale(v, 2.0, bias=0.5, bias_after_scale=False, act="relu").numpy().tolist()

rs = np.random.RandomState(0)
a = (rs.randn(30, 3) + 100.0).astype("float32")
b = (rs.randn(4, 3) + 100.0).astype("float32")
OUT["cdist_x"], OUT["cdist_y"] = a.tolist(), b.tolist()
for mode in ("use_mm_for_euclid_dist_if_necessary", "use_mm_for_euclid_dist", "donot_use_mm_for_euclid_dist"):
    OUT[f"cdist_{mode}"] = paddle.cdist(T(a), T(b), compute_mode=mode).numpy().tolist()
    OUT[f"cdist_small_{mode}"] = paddle.cdist(T(b), T(b[:2]), compute_mode=mode).numpy().tolist()

OUT["repeat_interleave_output_size"] = paddle.repeat_interleave(
    T([1.0, 2.0, 3.0]), T([1, 2, 3]), output_size=6).numpy().tolist()

xi = rs.randn(2, 3, 4).astype("float32")
rm, rv = paddle.zeros([3]), paddle.ones([3])
OUT["instance_norm_x"] = xi.tolist()
OUT["instance_norm_with_stats"] = F.instance_norm(T(xi), rm, rv, momentum=0.5).numpy().tolist()
OUT["instance_norm_running_after"] = [rm.numpy().tolist(), rv.numpy().tolist()]

w0 = np.array([1.0, -2.0, 3.0], "float32")
c = T([0.1, 0.2, -0.3])
OPTS = {
    "AdamW": (paddle.optimizer.AdamW, {"learning_rate": 0.1, "weight_decay": 0.01}),
    "Lamb": (paddle.optimizer.Lamb, {"learning_rate": 0.1}),
    "Rprop": (paddle.optimizer.Rprop, {"learning_rate": 0.1}),
}
for key, (cls, kw) in OPTS.items():
    for rname, reg in (("none", None), ("l2", L2Decay(10.0)), ("l1", L1Decay(0.5))):
        w = paddle.create_parameter([3], "float32", attr=paddle.ParamAttr(regularizer=reg),
                                    default_initializer=paddle.nn.initializer.Assign(w0))
        opt = cls(parameters=[w], **kw)
        for _ in range(3):
            (w * c * w).sum().backward()
            opt.step()
            opt.clear_grad()
        OUT[f"opt_{key}_{rname}"] = w.numpy().tolist()

path = os.path.join(os.path.dirname(os.path.abspath(__file__)), "data", "paddle_accepted_args.json")
with open(path, "w") as f:
    json.dump({"paddle": paddle.__version__, "cases": OUT}, f, indent=1)
print("wrote", path)
