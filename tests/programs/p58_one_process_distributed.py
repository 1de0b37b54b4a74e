"""Multi-GPU training code run in one process, as people do when debugging it: ``dist.init_parallel_env()``,
``get_rank``/``get_world_size``/``ParallelEnv``, a model wrapped in ``paddle.DataParallel``, a
``DistributedBatchSampler`` over a ``Dataset`` (its index order per epoch with ``set_epoch``, ``shuffle``,
``drop_last``, ``len``) feeding a ``DataLoader``, the collectives on one process (``all_reduce`` with SUM/MAX/AVG,
``broadcast``, ``all_gather``, ``all_gather_object``, ``reduce``, ``scatter``, ``barrier``), ``fleet.init
(is_collective=True)``, ``fleet.distributed_model``/``fleet.distributed_optimizer``, ``fleet.utils.recompute``
inside a model's forward; ~20 training steps, a checkpoint saved with ``paddle.save`` mid-run, loaded into a fresh
model and optimizer with ``paddle.load``/``set_state_dict``, and training continued from it (the losses of the
continued run equal those of the uninterrupted one); ``fleet.get_hybrid_communicate_group()`` and
``fleet.distributed_scaler`` with a ``GradScaler``.

Known difference, left out here: ``fleet.distributed_model(model)`` after ``fleet.init(is_collective=True)`` in one
process fails in Paddle 3.3.1 (an AssertionError: its one-process hybrid group reads as pipeline mode, and the
pipeline wrapper asserts a ``PipelineLayer``); pylayer_jax returns the model, so the program wraps it in
``paddle.DataParallel`` instead. Collectives before a launcher started the processes raise Paddle's RuntimeError
(recorded)."""
import json
import os
import tempfile

import numpy as np
import paddle
import paddle.distributed as dist
import paddle.nn as nn
from paddle.distributed import fleet
from paddle.io import DataLoader, Dataset, DistributedBatchSampler

rec = {}
rng = np.random.default_rng(0)
X = rng.standard_normal((37, 8)).astype("float32")
Y = (X[:, :4] @ rng.standard_normal((4, 3)).astype("float32") + 0.1).astype("float32")


class Pairs(Dataset):
    def __init__(self, x, y):
        super().__init__()
        self.x, self.y = x, y

    def __getitem__(self, i):
        return self.x[i], self.y[i]

    def __len__(self):
        return len(self.x)


ds = Pairs(X, Y)

# --- the parallel environment ---------------------------------------------------------------------------------
dist.init_parallel_env()
env = dist.ParallelEnv()
rec["env"] = [dist.get_rank(), dist.get_world_size(), env.rank, env.world_size, env.local_rank, env.nranks,
              dist.is_initialized(), paddle.distributed.is_available()]

# --- DistributedBatchSampler index orders ---------------------------------------------------------------------
orders = {}
for name, kw in {"plain": dict(batch_size=5), "drop_last": dict(batch_size=5, drop_last=True),
                 "ranks2_r0": dict(batch_size=4, num_replicas=2, rank=0),
                 "ranks2_r1": dict(batch_size=4, num_replicas=2, rank=1),
                 "ranks3_r2_drop": dict(batch_size=4, num_replicas=3, rank=2, drop_last=True)}.items():
    s = DistributedBatchSampler(ds, **kw)
    orders[name] = [len(s), list(s)]
rec["sampler"] = orders
shuffled = DistributedBatchSampler(ds, batch_size=6, shuffle=True)
ep = []
for epoch in range(3):
    shuffled.set_epoch(epoch)
    ep.append(list(shuffled))
shuffled.set_epoch(1)
rec["sampler_shuffle"] = [ep, list(shuffled) == ep[1], len(shuffled)]
two = [DistributedBatchSampler(ds, batch_size=4, num_replicas=2, rank=r, shuffle=True) for r in range(2)]
for s in two:
    s.set_epoch(5)
rec["sampler_shuffle_2ranks"] = [list(s) for s in two]

# --- collectives on one process: without a launcher Paddle has no global group (the error users catch) --------------


def attempt(f):
    try:
        r = f()
        return ["ok", None if r is None else str(r)]
    except Exception as e:  # the type is what users catch
        return ["error", type(e).__name__]


t = paddle.to_tensor([1.0, -2.0, 3.0])
gathered = []
objs = []
rec["collectives"] = {
    "all_reduce": attempt(lambda: dist.all_reduce(t)),
    "all_reduce_max": attempt(lambda: dist.all_reduce(t, op=dist.ReduceOp.MAX)),
    "broadcast": attempt(lambda: dist.broadcast(t, src=0)),
    "all_gather": attempt(lambda: dist.all_gather(gathered, t)),
    "all_gather_object": attempt(lambda: dist.all_gather_object(objs, {"step": 3})),
    "reduce": attempt(lambda: dist.reduce(t, dst=0)),
    "barrier": attempt(lambda: dist.barrier()),
    "new_group": attempt(lambda: dist.new_group([0])),
}
rec["after_collectives"] = [t.numpy().tolist(), len(gathered), objs]

# --- fleet ----------------------------------------------------------------------------------------------------
fleet.init(is_collective=True)
rec["fleet"] = [fleet.worker_index(), fleet.worker_num(), fleet.is_first_worker(), fleet.worker_endpoints(),
                fleet.server_num()]
hcg = fleet.get_hybrid_communicate_group()
rec["hcg"] = [hcg.get_data_parallel_world_size(), hcg.get_data_parallel_rank(), hcg.get_model_parallel_world_size(),
              hcg.get_model_parallel_rank(), hcg.get_pipe_parallel_world_size(), hcg.get_stage_id(),
              hcg.get_global_rank(), hcg.nranks, hcg.global_rank]


class Block(nn.Layer):
    def __init__(self):
        super().__init__()
        self.fc1 = nn.Linear(8, 16)
        self.fc2 = nn.Linear(16, 16)

    def forward(self, x):
        return self.fc2(nn.functional.gelu(self.fc1(x)))


class Net(nn.Layer):
    def __init__(self, use_recompute):
        super().__init__()
        self.block = Block()
        self.norm = nn.LayerNorm(16)
        self.head = nn.Linear(16, 3)
        self.use_recompute = use_recompute

    def forward(self, x):
        if self.use_recompute and self.training:
            h = fleet.utils.recompute(self.block, x)
        else:
            h = self.block(x)
        return self.head(nn.functional.relu(self.norm(h)))


def fresh(use_recompute=True):
    m = Net(use_recompute)
    r = np.random.default_rng(1)
    m.set_state_dict({k: (r.standard_normal(v.shape) * 0.3).astype("float32") for k, v in m.state_dict().items()})
    return m


def make(use_recompute=True):
    with paddle.utils.unique_name.guard():  # the names of a fresh process (parameters, optimizer states), so states load
        m = fresh(use_recompute)
        sched = paddle.optimizer.lr.StepDecay(learning_rate=0.02, step_size=6, gamma=0.5)
        o = paddle.optimizer.AdamW(learning_rate=sched, parameters=m.parameters(), weight_decay=0.01,
                                   grad_clip=nn.ClipGradByGlobalNorm(1.0))
        return paddle.DataParallel(m), fleet.distributed_optimizer(o), sched


def loader():
    s = DistributedBatchSampler(ds, batch_size=8, shuffle=True, drop_last=True)
    return s, DataLoader(ds, batch_sampler=s)


def train(model, opt, sched, steps, start=0, log=None):
    with paddle.utils.unique_name.guard():  # the optimizer's state names as a fresh process makes them
        return _train(model, opt, sched, steps, start, log)


def _train(model, opt, sched, steps, start, log):
    sampler, dl = loader()
    step = 0
    epoch = 0
    while step < start + steps:
        sampler.set_epoch(epoch)
        for xb, yb in dl:
            if step >= start:
                model.train()
                loss = nn.functional.mse_loss(model(xb), yb)
                loss.backward()
                opt.step()
                opt.clear_grad()
                sched.step()
                log.append(float(loss))
            step += 1
            if step >= start + steps:
                break
        epoch += 1
    return log


model, opt, sched = make()
rec["wrapped"] = [type(model).__name__ in ("DataParallel", "Net"), sorted(model.state_dict().keys())]
full = train(model, opt, sched, 20, log=[])
rec["loss_full"] = full
rec["params_full"] = {k: v.numpy().astype("float64").sum() for k, v in model.state_dict().items()}
model.eval()
rec["eval_out"] = model(paddle.to_tensor(X[:4])).numpy().tolist()

# the same run in two halves with a checkpoint in between
model, opt, sched = make()
first = train(model, opt, sched, 10, log=[])
with tempfile.TemporaryDirectory() as d:
    paddle.save(model.state_dict(), os.path.join(d, "model.pdparams"))
    paddle.save(opt.state_dict(), os.path.join(d, "opt.pdopt"))
    paddle.save({"step": 10, "lr": sched.get_lr()}, os.path.join(d, "meta.pkl"))
    m2, o2, s2 = make()
    m2.set_state_dict(paddle.load(os.path.join(d, "model.pdparams")))
    ostate = paddle.load(os.path.join(d, "opt.pdopt"))
    o2.set_state_dict(ostate)
    meta = paddle.load(os.path.join(d, "meta.pkl"))
rec["opt_state_keys"] = sorted(k for k in ostate.keys() if k != "LR_Scheduler")
rec["lr_state"] = [ostate["LR_Scheduler"]["last_epoch"], ostate["LR_Scheduler"]["last_lr"], meta, s2.get_lr()]
second = train(m2, o2, s2, 10, start=10, log=[])
rec["loss_resumed"] = first + second
rec["params_resumed"] = {k: v.numpy().astype("float64").sum() for k, v in m2.state_dict().items()}

# DataParallel directly, without recompute: one step's gradients equal the plain model's
plain = fresh(False)
dp = paddle.DataParallel(fresh(False))
xb, yb = paddle.to_tensor(X[:8]), paddle.to_tensor(Y[:8])
for m in (plain, dp):
    nn.functional.mse_loss(m(xb), yb).backward()
rec["dp_grads"] = [[p.grad.numpy().astype("float64").sum() for p in m.parameters()] for m in (plain, dp)]
rec["dp_attrs"] = [len(dp.parameters()), sorted(dp.state_dict().keys())[:3], type(dp._layers).__name__]
with dp.no_sync():
    nn.functional.mse_loss(dp(xb), yb).backward()
rec["dp_no_sync_grad"] = dp.parameters()[0].grad.numpy().astype("float64").sum()

# recompute's gradients equal the plain forward's
blk = Block()
blk.set_state_dict(fresh().block.state_dict())
xi = paddle.to_tensor(X[:5], stop_gradient=False)
fleet.utils.recompute(blk, xi).pow(2).sum().backward()
g_re = [xi.grad.numpy().tolist(), blk.fc1.weight.grad.numpy().sum().item()]
xi.clear_grad()
blk.clear_gradients()
blk(xi).pow(2).sum().backward()
rec["recompute_grads"] = [g_re, [xi.grad.numpy().tolist(), blk.fc1.weight.grad.numpy().sum().item()]]

# the GradScaler made fleet-aware (on a CPU place, as Paddle's, loss scaling is off: the steps are plain)
sm = fresh(False)
sopt = fleet.distributed_optimizer(paddle.optimizer.SGD(learning_rate=0.05, parameters=sm.parameters()))
scaler = fleet.distributed_scaler(paddle.amp.GradScaler(init_loss_scaling=1024.0))
slog = []
for i in range(4):
    loss = nn.functional.mse_loss(sm(paddle.to_tensor(X[i * 8:(i + 1) * 8])), paddle.to_tensor(Y[i * 8:(i + 1) * 8]))
    scaler.scale(loss).backward()
    scaler.step(sopt)
    scaler.update()
    sopt.clear_grad()
    slog.append(float(loss))
rec["scaler"] = [slog, scaler.is_enable(), type(scaler).__name__]

with open(os.environ["PROGRAM_OUT"], "w") as fh:
    json.dump(rec, fh, indent=1)
