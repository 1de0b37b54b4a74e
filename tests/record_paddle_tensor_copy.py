"""Record Paddle 3.3.1's pickling, copying and paddle.grad hook behaviour into tests/data/paddle_tensor_copy.json.

Run with real Paddle: ``/tmp/paddle/bin/python tests/record_paddle_tensor_copy.py``.
"""

import copy
import json
import os
import pickle

import numpy as np
import paddle

out = {}
x = paddle.to_tensor([1.0, 2.0], stop_gradient=False)
y = x * 2
out["pickle_nonleaf"] = []
for proto in range(pickle.HIGHEST_PROTOCOL + 1):
    z = pickle.loads(pickle.dumps(y, protocol=proto))
    out["pickle_nonleaf"].append([z.numpy().tolist(), z.stop_gradient, z.is_leaf, str(z.dtype)])
c = copy.deepcopy(y)
out["deepcopy_nonleaf"] = [c.numpy().tolist(), c.stop_gradient, c.is_leaf]
(x * 3).sum().backward()
c = copy.deepcopy(x)
out["deepcopy_leaf"] = [c.numpy().tolist(), c.stop_gradient, c.is_leaf, c.grad is None]
c = copy.copy(x)
out["copy_leaf"] = [c is x, c.numpy().tolist(), c.stop_gradient, c.grad is None]

# which hooks run in paddle.grad: leaf hooks do not, non-leaf hooks do (also on the target itself)
w = paddle.to_tensor([1.0, 2.0, 3.0], stop_gradient=False)
w.register_hook(lambda g: 2 * g)
out["grad_leaf_hook"] = paddle.grad((w**3).sum(), w)[0].numpy().tolist()
(w**3).sum().backward()
out["backward_leaf_hook"] = w.grad.numpy().tolist()
w2 = paddle.to_tensor([1.0, 2.0, 3.0], stop_gradient=False)
h = w2 * 1.0
h.register_hook(lambda g: 2 * g)
out["grad_nonleaf_hook_to_leaf"] = paddle.grad((h**3).sum(), w2)[0].numpy().tolist()
h2 = w2 * 1.0
h2.register_hook(lambda g: 2 * g)
out["grad_nonleaf_hook_to_itself"] = paddle.grad((h2**3).sum(), h2)[0].numpy().tolist()
w3 = paddle.to_tensor([1.0, 2.0, 3.0], stop_gradient=False)
w3.register_hook(lambda g: 2 * g)
u = w3 * 1.0
out["grad_leaf_hook_to_nonleaf"] = paddle.grad((u**3).sum(), u)[0].numpy().tolist()
out["from_dlpack_numpy"] = [paddle.from_dlpack(np.arange(3.0)).numpy().tolist(),
                            str(paddle.from_dlpack(np.arange(3.0)).dtype)]

path = os.path.join(os.path.dirname(os.path.abspath(__file__)), "data", "paddle_tensor_copy.json")
with open(path, "w") as fh:
    json.dump(out, fh, indent=1)
print(json.dumps(out))
