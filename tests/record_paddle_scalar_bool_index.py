"""Record Paddle 3.3.1 on scalar-bool indices (``v[True]``) and comparisons with None (``x == None``).

Run with ``/tmp/paddle/bin/python tests/record_paddle_scalar_bool_index.py``; writes
``tests/data/paddle_scalar_bool_index.json``.
"""

import json
import os
import sys

import paddle

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from scalar_bool_index_cases import INDICES, index, tensor  # noqa: E402

v = tensor(paddle)
out = {"getitem": {}, "setitem": {}}
for k in INDICES:
    r = v[index(paddle, k)]
    out["getitem"][k] = {"shape": list(r.shape), "values": r.numpy().tolist()}
    w = v.clone()
    try:
        w[index(paddle, k)] = -1.0
        out["setitem"][k] = w.numpy().tolist()
    except ValueError as e:  # Paddle's kernel fails on some empty selections (a null index pointer)
        out["setitem"][k] = {"error": type(e).__name__}
x = paddle.to_tensor([1.0, 2.0])
out["compare_none"] = {"eq": x == None, "ne": x != None, "req": None == x, "rne": None != x}  # noqa: E711
with open(os.path.join(os.path.dirname(os.path.abspath(__file__)), "data", "paddle_scalar_bool_index.json"), "w") as f:
    json.dump(out, f, indent=1, sort_keys=True)
print(out)
