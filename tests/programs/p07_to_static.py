"""to_static: a compiled train step (forward + backward + optimizer inside) and an inference function with an
InputSpec, then paddle.jit.save / paddle.jit.load and the loaded layer's outputs compared with the eager model."""
import json
import os
import tempfile

import numpy as np
import paddle
import paddle.nn as nn
import paddle.nn.functional as F
from paddle.static import InputSpec


class MLP(nn.Layer):
    def __init__(self):
        super().__init__()
        self.fc1 = nn.Linear(6, 16)
        self.ln = nn.LayerNorm(16)
        self.fc2 = nn.Linear(16, 4)

    def forward(self, x):
        return self.fc2(F.silu(self.ln(self.fc1(x))))


rng = np.random.default_rng(0)
X = rng.standard_normal((64, 6)).astype("float32")
Y = rng.integers(0, 4, size=(64,)).astype("int64")
model = MLP()
r = np.random.default_rng(1)
model.set_state_dict({k: (r.standard_normal(v.shape) * 0.4).astype("float32") for k, v in model.state_dict().items()})
opt = paddle.optimizer.Momentum(learning_rate=0.05, momentum=0.9, parameters=model.parameters())


@paddle.jit.to_static
def train_step(x, y):
    loss = F.cross_entropy(model(x), y)
    loss.backward()
    opt.step()
    opt.clear_grad()
    return loss


rec = {"loss": []}
for step in range(16):
    i = (step % 4) * 16
    loss = train_step(paddle.to_tensor(X[i:i + 16]), paddle.to_tensor(Y[i:i + 16]))
    rec["loss"].append(float(loss))

model.eval()
static_model = paddle.jit.to_static(model, input_spec=[InputSpec([None, 6], "float32", "x")])
eager_out = model(paddle.to_tensor(X[:5])).numpy()
static_out = static_model(paddle.to_tensor(X[:5])).numpy()
rec["eager"] = eager_out.tolist()
rec["static_equal"] = bool(np.allclose(eager_out, static_out, atol=1e-6))
path = os.path.join(tempfile.mkdtemp(), "mlp")
paddle.jit.save(static_model, path)
loaded = paddle.jit.load(path)
loaded.eval()
out_loaded = loaded(paddle.to_tensor(X[:7]))
rec["loaded"] = out_loaded.numpy().tolist()
rec["loaded_matches"] = bool(np.allclose(out_loaded.numpy()[:5], eager_out, atol=1e-6))
rec["loaded_type"] = type(loaded).__name__
rec["loaded_params"] = len(loaded.parameters())

# fine-tune the loaded layer for a few steps (TranslatedLayer is trainable)
loaded.train()
opt2 = paddle.optimizer.SGD(learning_rate=0.1, parameters=loaded.parameters())
for _step in range(3):
    loss = F.cross_entropy(loaded(paddle.to_tensor(X[:16])), paddle.to_tensor(Y[:16]))
    loss.backward()
    opt2.step()
    opt2.clear_grad()
    rec.setdefault("ft_loss", []).append(float(loss))
with open(os.environ["PROGRAM_OUT"], "w") as f:
    json.dump(rec, f)
