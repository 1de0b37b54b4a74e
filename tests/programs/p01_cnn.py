"""CNN classifier: Conv2D/BatchNorm2D/MaxPool2D/Dropout/Flatten/Linear, Momentum + L2Decay + PiecewiseDecay,
Dataset/DataLoader, metric.Accuracy, eval under no_grad, save/load of model and optimizer, resumed training."""
import json
import os
import tempfile

import numpy as np
import paddle
import paddle.nn as nn
import paddle.nn.functional as F
from paddle.io import DataLoader, Dataset

rng = np.random.default_rng(0)
X = rng.standard_normal((70, 1, 12, 12)).astype("float32")
Y = ((X[:, 0, :6, :6].mean(axis=(1, 2)) > 0).astype("int64") + (X[:, 0, 6:, 6:].mean(axis=(1, 2)) > 0)).astype("int64")


class ToyDataset(Dataset):
    def __init__(self, x, y):
        super().__init__()
        self.x, self.y = x, y

    def __getitem__(self, idx):
        return self.x[idx], self.y[idx]

    def __len__(self):
        return len(self.x)


class Net(nn.Layer):
    def __init__(self, num_classes=3):
        super().__init__()
        self.conv1 = nn.Conv2D(1, 8, 3, padding=1)
        self.bn1 = nn.BatchNorm2D(8)
        self.pool = nn.MaxPool2D(kernel_size=2, stride=2)
        self.conv2 = nn.Conv2D(8, 16, 3)
        self.bn2 = nn.BatchNorm2D(16)
        self.dropout = nn.Dropout(p=0.0)
        self.flatten = nn.Flatten()
        self.fc = nn.Linear(16 * 2 * 2, num_classes)

    def forward(self, x):
        x = self.pool(F.relu(self.bn1(self.conv1(x))))
        x = self.pool(F.relu(self.bn2(self.conv2(x))))
        return self.fc(self.dropout(self.flatten(x)))


def fixed_init(model, seed=1):
    r = np.random.default_rng(seed)
    sd = {}
    for k, v in model.state_dict().items():
        if k.endswith("_variance"):
            sd[k] = np.ones(v.shape, "float32")
        elif k.endswith("_mean"):
            sd[k] = np.zeros(v.shape, "float32")
        else:
            sd[k] = (r.standard_normal(v.shape) * 0.3).astype("float32")
    model.set_state_dict(sd)


def make_opt(model):
    sched = paddle.optimizer.lr.PiecewiseDecay(boundaries=[6, 12], values=[0.1, 0.05, 0.01])
    opt = paddle.optimizer.Momentum(learning_rate=sched, momentum=0.9, parameters=model.parameters(),
                                    weight_decay=paddle.regularizer.L2Decay(1e-4))
    return sched, opt


rec = {"loss": [], "lr": [], "acc": [], "eval": []}
loader = DataLoader(ToyDataset(X, Y), batch_size=16, shuffle=False, drop_last=False)
loss_fn = nn.CrossEntropyLoss()
metric = paddle.metric.Accuracy()


def train_epoch(model, opt, sched):
    model.train()
    metric.reset()
    for xb, yb in loader:
        logits = model(xb)
        loss = loss_fn(logits, yb)
        loss.backward()
        opt.step()
        opt.clear_grad()
        sched.step()
        correct = metric.compute(logits, yb)
        metric.update(correct)
        rec["loss"].append(float(loss))
        rec["lr"].append(opt.get_lr())
    rec["acc"].append(metric.accumulate())


def evaluate(model):
    model.eval()
    total, n = 0.0, 0
    m = paddle.metric.Accuracy(topk=(1, 2))
    with paddle.no_grad():
        for xb, yb in loader:
            out = model(xb)
            total += loss_fn(out, yb).item() * xb.shape[0]
            n += xb.shape[0]
            m.update(m.compute(F.softmax(out), yb.unsqueeze(-1)))
    rec["eval"].append([total / n] + list(m.accumulate()))


tmp = tempfile.mkdtemp()
with paddle.utils.unique_name.guard():  # a first run (names as in a fresh process)
    model = Net()
    fixed_init(model)
    sched, opt = make_opt(model)
    for _epoch in range(2):
        train_epoch(model, opt, sched)
        evaluate(model)
    paddle.save(model.state_dict(), os.path.join(tmp, "model.pdparams"))
    paddle.save(opt.state_dict(), os.path.join(tmp, "opt.pdopt"))

with paddle.utils.unique_name.guard():  # resumed as a new process would: the same parameter names
    model2 = Net()
    sched2, opt2 = make_opt(model2)
    model2.set_state_dict(paddle.load(os.path.join(tmp, "model.pdparams")))
    opt2.set_state_dict(paddle.load(os.path.join(tmp, "opt.pdopt")))
    rec["resumed_lr"] = opt2.get_lr()
    rec["resumed_last_epoch"] = sched2.last_epoch
    train_epoch(model2, opt2, sched2)
    evaluate(model2)
rec["bn_mean"] = model2.bn1._mean.numpy().tolist()
rec["shapes"] = [list(p.shape) for p in model2.parameters()]
rec["opt_keys"] = sorted(k for k in opt2.state_dict() if k != "LR_Scheduler")

with open(os.environ["PROGRAM_OUT"], "w") as f:
    json.dump(rec, f)
