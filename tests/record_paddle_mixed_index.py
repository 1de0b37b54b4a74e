"""Record Paddle 3.3.1 on indices that mix ints with index lists, tensors or masks (``c[0, :, [0, 2]]``): Paddle
takes the ints first, as basic indexing, so the result's axes are not numpy's.

Run with ``/tmp/paddle/bin/python tests/record_paddle_mixed_index.py``; writes ``tests/data/paddle_mixed_index.json``
(each index's result shape and values, the gradient of a weighted sum of it, and the tensor after writing a value
of the result's shape into it).
"""

import json
import os
import sys

import paddle

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from mixed_index_cases import INDICES, index, tensor, weights  # noqa: E402

out = {}
for k in INDICES:
    c = tensor(paddle, stop_gradient=False)
    r = c[index(paddle, k)]
    (r * paddle.to_tensor(weights(r.shape))).sum().backward()
    w = tensor(paddle)
    w[index(paddle, k)] = paddle.to_tensor(-weights(r.shape))
    out[k] = {"shape": list(r.shape), "values": r.numpy().ravel().tolist(), "grad": c.grad.numpy().ravel().tolist(),
              "written": w.numpy().ravel().tolist()}
with open(os.path.join(os.path.dirname(os.path.abspath(__file__)), "data", "paddle_mixed_index.json"), "w") as f:
    json.dump(out, f, indent=1, sort_keys=True)
print(out)
