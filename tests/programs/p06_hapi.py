"""hapi: paddle.Model(net, inputs, labels).prepare(Adam, CrossEntropyLoss, Accuracy(topk=(1, 2))), fit with
eval_data and a recording Callback, evaluate, predict, save/load, train_batch/eval_batch/predict_batch."""
import json
import os
import tempfile

import numpy as np
import paddle
import paddle.nn as nn
from paddle.io import Dataset
from paddle.static import InputSpec

rng = np.random.default_rng(0)
X = rng.standard_normal((90, 8)).astype("float32")
Y = (np.argmax(X[:, :4], 1) % 3).astype("int64")[:, None]


class DS(Dataset):
    def __init__(self, x, y=None):
        self.x, self.y = x, y

    def __getitem__(self, i):
        return (self.x[i], self.y[i]) if self.y is not None else (self.x[i],)

    def __len__(self):
        return len(self.x)


class Recorder(paddle.callbacks.Callback):
    def __init__(self):
        super().__init__()
        self.batch_losses, self.epoch_logs, self.eval_logs = [], [], []

    def on_train_batch_end(self, step, logs=None):
        self.batch_losses.append(float(np.asarray(logs["loss"]).ravel()[0]))

    def on_epoch_end(self, epoch, logs=None):
        self.epoch_logs.append({k: np.asarray(v).ravel().tolist() for k, v in logs.items()})

    def on_eval_end(self, logs=None):
        self.eval_logs.append({k: np.asarray(v).ravel().tolist() for k, v in logs.items()})


net = nn.Sequential(nn.Linear(8, 16), nn.ReLU(), nn.Linear(16, 3))
r = np.random.default_rng(1)
net.set_state_dict({k: (r.standard_normal(v.shape) * 0.4).astype("float32") for k, v in net.state_dict().items()})
model = paddle.Model(net, inputs=[InputSpec([None, 8], "float32", "x")], labels=[InputSpec([None, 1], "int64", "y")])
model.prepare(paddle.optimizer.Adam(learning_rate=0.01, parameters=model.parameters()), nn.CrossEntropyLoss(),
              paddle.metric.Accuracy(topk=(1, 2)))
cb = Recorder()
model.fit(DS(X[:60], Y[:60]), eval_data=DS(X[60:], Y[60:]), epochs=3, batch_size=16, shuffle=False, verbose=0,
          callbacks=[cb])
rec = {"batch_losses": cb.batch_losses, "epoch_logs": cb.epoch_logs, "eval_logs": cb.eval_logs}
res = model.evaluate(DS(X[60:], Y[60:]), batch_size=8, verbose=0)
rec["evaluate"] = {k: np.asarray(v).ravel().tolist() for k, v in res.items()}
pred = model.predict(DS(X[60:70]), batch_size=4, verbose=0)
rec["predict_struct"] = [len(pred), len(pred[0]), [list(np.asarray(a).shape) for a in pred[0]]]
rec["predict"] = np.concatenate(pred[0]).tolist()
pred_stacked = model.predict(DS(X[60:70]), batch_size=4, stack_outputs=True, verbose=0)
rec["predict_stacked"] = [list(np.asarray(a).shape) for a in pred_stacked]
tmp = tempfile.mkdtemp()
model.save(os.path.join(tmp, "ckpt"))
rec["files"] = sorted(os.listdir(tmp))
out = model.train_batch([X[:8]], [Y[:8]])
rec["train_batch"] = np.asarray(out[0] if isinstance(out, (list, tuple)) else out, dtype="float64").ravel().tolist()
model.load(os.path.join(tmp, "ckpt"))
ev = model.eval_batch([X[:8]], [Y[:8]])
rec["eval_batch"] = np.asarray(ev[0] if isinstance(ev, (list, tuple)) else ev, dtype="float64").ravel().tolist()
rec["predict_batch"] = np.asarray(model.predict_batch([X[:3]])[0]).tolist()
with open(os.environ["PROGRAM_OUT"], "w") as f:
    json.dump(rec, f)
