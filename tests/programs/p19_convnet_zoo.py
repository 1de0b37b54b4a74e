"""A conv net from model-zoo pieces: depthwise-separable Conv2D (groups), GroupNorm, InstanceNorm2D, PReLU,
AdaptiveMaxPool2D, AvgPool2D, ZeroPad2D, PixelShuffle, Upsample, Conv1D over a flattened axis, functional
conv2d with an explicit Parameter, SE-style gating; SGD with a float weight_decay and ClipGradByValue;
CrossEntropyLoss with label smoothing; eval accuracy."""
import json
import os

import numpy as np
import paddle
import paddle.nn as nn
import paddle.nn.functional as F

rng = np.random.default_rng(0)
X = rng.standard_normal((36, 3, 12, 12)).astype("float32")
Y = (X[:, 0].mean((1, 2)) > X[:, 1].mean((1, 2))).astype("int64") + (X[:, 2, :6].mean((1, 2)) > 0).astype("int64")


class SE(nn.Layer):
    def __init__(self, c):
        super().__init__()
        self.fc1, self.fc2 = nn.Linear(c, c // 2), nn.Linear(c // 2, c)

    def forward(self, x):
        s = F.adaptive_avg_pool2d(x, 1).flatten(1)
        return x * F.hardsigmoid(self.fc2(F.relu(self.fc1(s)))).unsqueeze(-1).unsqueeze(-1)


class ZooNet(nn.Layer):
    def __init__(self):
        super().__init__()
        self.pad = nn.ZeroPad2D([1, 1, 1, 1])
        self.stem_w = self.create_parameter([8, 3, 3, 3])
        self.dw = nn.Conv2D(8, 8, 3, padding=1, groups=8)
        self.pw = nn.Conv2D(8, 16, 1)
        self.gn = nn.GroupNorm(4, 16)
        self.act = nn.PReLU(16)
        self.se = SE(16)
        self.inorm = nn.InstanceNorm2D(16)
        self.ps = nn.PixelShuffle(2)            # 16 ch -> 4 ch, x2
        self.up = nn.Upsample(scale_factor=0.5, mode="nearest")
        self.amp = nn.AdaptiveMaxPool2D(3)
        self.avg = nn.AvgPool2D(2, stride=2, ceil_mode=True, exclusive=False)
        self.conv1d = nn.Conv1D(4, 6, 3, padding="same")
        self.fc = nn.Linear(6 * 9 + 4 * 6 * 6, 3)

    def forward(self, x):
        x = F.conv2d(self.pad(x), self.stem_w, stride=1)          # 12
        x = self.act(self.gn(self.pw(F.relu6(self.dw(x)))))
        x = self.inorm(self.se(x))
        x = self.up(self.ps(x))                                     # 4 x 12 x 12
        a = self.avg(x)                                             # 4 x 6 x 6
        b = self.amp(x).flatten(2)                                  # 4 x 9
        b = self.conv1d(b).flatten(1)                               # 54
        return self.fc(paddle.concat([a.flatten(1), b], 1))


model = ZooNet()
r = np.random.default_rng(1)
model.set_state_dict({k: (r.standard_normal(v.shape) * 0.3 + (1.0 if "gn.weight" in k or "inorm.scale" in k else 0.0)).astype("float32")
                      for k, v in model.state_dict().items()})
opt = paddle.optimizer.SGD(learning_rate=0.05, parameters=model.parameters(), weight_decay=1e-3,
                           grad_clip=nn.ClipGradByValue(0.5))
ce = nn.CrossEntropyLoss(label_smoothing=0.1)
rec = {"loss": []}
for step in range(12):
    i = (step % 3) * 12
    loss = ce(model(paddle.to_tensor(X[i:i + 12])), paddle.to_tensor(Y[i:i + 12]))
    loss.backward()
    opt.step()
    opt.clear_grad()
    rec["loss"].append(float(loss))
model.eval()
with paddle.no_grad():
    out = model(paddle.to_tensor(X))
    rec["acc"] = float((out.argmax(1) == paddle.to_tensor(Y)).astype("float32").mean())
    rec["out"] = out[:4].numpy().tolist()
rec["prelu"] = model.act._weight.numpy()[:4].tolist()
with open(os.environ["PROGRAM_OUT"], "w") as f:
    json.dump(rec, f)
