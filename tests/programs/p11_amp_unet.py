"""A small U-Net-like segmenter: Conv2D + BatchNorm + ReLU blocks, MaxPool2D down, Conv2DTranspose and
F.interpolate up, concat skips, AdaptiveAvgPool2D side head, BCE-with-logits + soft dice; Momentum(nesterov) with
OneCycleLR; GradScaler (scale/step/update) around float32 training, as AMP-ready scripts do on CPU."""
import json
import os

import numpy as np
import paddle
import paddle.nn as nn
import paddle.nn.functional as F

rng = np.random.default_rng(0)
imgs = rng.standard_normal((24, 1, 16, 16)).astype("float32")
yy, xx = np.mgrid[:16, :16]
masks = np.stack([((yy - 8 - i % 3) ** 2 + (xx - 8) ** 2 < 20 + i).astype("float32") for i in range(24)])[:, None]
imgs = imgs * 0.5 + masks


def block(cin, cout):
    return nn.Sequential(nn.Conv2D(cin, cout, 3, padding=1, bias_attr=False), nn.BatchNorm2D(cout), nn.ReLU())


class UNet(nn.Layer):
    def __init__(self):
        super().__init__()
        self.e1, self.e2 = block(1, 8), block(8, 16)
        self.pool = nn.MaxPool2D(2)
        self.mid = block(16, 16)
        self.up2 = nn.Conv2DTranspose(16, 16, 2, stride=2)
        self.d2 = block(32, 8)
        self.d1 = block(16, 8)
        self.out = nn.Conv2D(8, 1, 1)
        self.side = nn.Sequential(nn.AdaptiveAvgPool2D(1), nn.Flatten(), nn.Linear(16, 1))

    def forward(self, x):
        a = self.e1(x)                       # 16
        b = self.e2(self.pool(a))            # 8
        m = self.mid(self.pool(b))           # 4
        u = self.d2(paddle.concat([self.up2(m), b], 1))            # 8
        u = F.interpolate(u, scale_factor=2, mode="bilinear", align_corners=False)  # 16
        u = self.d1(paddle.concat([u, a], 1))
        return self.out(u), self.side(m)


model = UNet()
r = np.random.default_rng(1)
sd = {}
for k, v in model.state_dict().items():
    sd[k] = (np.ones(v.shape) if k.endswith("_variance") else np.zeros(v.shape) if k.endswith("_mean")
             else r.standard_normal(v.shape) * 0.3).astype("float32")
model.set_state_dict(sd)
sched = paddle.optimizer.lr.OneCycleLR(max_learning_rate=0.05, total_steps=18, phase_pct=0.3)
opt = paddle.optimizer.Momentum(learning_rate=sched, momentum=0.9, use_nesterov=True, parameters=model.parameters())
scaler = paddle.amp.GradScaler(init_loss_scaling=1024.0)


def dice_loss(logits, target, eps=1.0):
    p = F.sigmoid(logits)
    inter = (p * target).sum(axis=[1, 2, 3])
    return (1 - (2 * inter + eps) / (p.sum(axis=[1, 2, 3]) + target.sum(axis=[1, 2, 3]) + eps)).mean()


rec = {"loss": [], "lr": [], "scale": [], "iou": []}
for step in range(18):
    i = (step % 3) * 8
    x, y = paddle.to_tensor(imgs[i:i + 8]), paddle.to_tensor(masks[i:i + 8])
    with paddle.amp.auto_cast(enable=False):
        seg, side = model(x)
        loss = F.binary_cross_entropy_with_logits(seg, y) + dice_loss(seg, y) + 0.1 * F.mse_loss(side.squeeze(-1), y.mean(axis=[1, 2, 3]))
    scaled = scaler.scale(loss)
    scaled.backward()
    scaler.step(opt)
    scaler.update()
    opt.clear_grad()
    sched.step()
    pred = (seg > 0).astype("float32")
    iou = ((pred * y).sum() / ((pred + y) > 0).astype("float32").sum()).item()
    rec["loss"].append(float(loss))
    rec["lr"].append(opt.get_lr())
    rec["scale"].append([scaler.is_enable(), float(scaled) / float(loss)])
    rec["iou"].append(iou)
model.eval()
with paddle.no_grad():
    seg, _ = model(paddle.to_tensor(imgs[:2]))
    rec["eval_seg"] = seg[0, 0, 6:10, 6:10].numpy().tolist()
rec["scaler_state"] = {k: float(np.asarray(v)) for k, v in scaler.state_dict().items() if np.asarray(v).size == 1}
with open(os.environ["PROGRAM_OUT"], "w") as f:
    json.dump(rec, f)
