"""Static-graph style (paddle.enable_static): static.data, static.nn.fc, program_guard with main/startup programs,
an optimizer's minimize, Executor.run with feed/fetch_list, and parameters set from numpy through the global scope."""
import json
import os

import numpy as np
import paddle
import paddle.static as static

paddle.enable_static()
rng = np.random.default_rng(0)
X = rng.standard_normal((64, 4)).astype("float32")
Y = (X @ np.array([[1.0], [-2.0], [0.5], [0.0]], "float32") + 0.3).astype("float32")
main, startup = static.Program(), static.Program()
with static.program_guard(main, startup):
    x = static.data("x", [None, 4], "float32")
    y = static.data("y", [None, 1], "float32")
    h = static.nn.fc(x, 8, activation="relu", name="fc1")
    pred = static.nn.fc(h, 1, name="fc2")
    loss = paddle.mean(paddle.square(pred - y))
    paddle.optimizer.SGD(learning_rate=0.05).minimize(loss)
exe = static.Executor(paddle.CPUPlace())
exe.run(startup)
scope = static.global_scope()
r = np.random.default_rng(1)
params = sorted(p.name for p in main.global_block().all_parameters())
for name in params:
    t = scope.find_var(name).get_tensor()
    shape = np.array(t).shape
    t.set((r.standard_normal(shape) * 0.4).astype("float32"), paddle.CPUPlace())
rec = {"params": params, "loss": []}
for step in range(15):
    i = (step % 4) * 16
    (lv,) = exe.run(main, feed={"x": X[i:i + 16], "y": Y[i:i + 16]}, fetch_list=[loss])
    rec["loss"].append(float(lv))
rec["fc2_w"] = np.array(scope.find_var(params[-1]).get_tensor()).ravel().tolist()
paddle.disable_static()
with open(os.environ["PROGRAM_OUT"], "w") as f:
    json.dump(rec, f)
