"""Training-memory idioms of Paddle code: gradient checkpointing with
``paddle.distributed.fleet.utils.recompute`` (also importable from ``paddle.distributed.fleet.recompute``) around
residual blocks, with dropout off and on, ``use_reentrant`` True and False, ``preserve_rng_state`` True and False,
compared with the same model run without recompute (losses, every parameter's gradient); recompute under
``paddle.amp.auto_cast``; the reentrant gotcha (a block whose inputs all stop gradient gives its parameters no
gradient); ``paddle.DataParallel`` in one process (with and without ``init_parallel_env``), its ``no_sync`` for
gradient accumulation and its state_dict keys; ``paddle.distributed.get_rank / get_world_size / is_initialized``;
a model with tied parameters (embedding shared with the output projection) trained by SGD;
``paddle.no_grad`` as a decorator (of a function and of a generator: the mode holds from its first ``next`` to
its end, also in the loop consuming it, as in Paddle) and a context, ``paddle.set_grad_enabled``,
``paddle.is_grad_enabled``, ``paddle.enable_grad``; ``Tensor.register_hook`` returning None or a new gradient, and its removal."""
import json
import os

import numpy as np
import paddle
import paddle.distributed as dist
import paddle.nn as nn
import paddle.nn.functional as F
from paddle.distributed.fleet.recompute import recompute as recompute2
from paddle.distributed.fleet.utils import recompute

rng = np.random.default_rng(0)
rec = {}
X = rng.standard_normal((16, 8)).astype("float32")
Y = rng.standard_normal((16, 1)).astype("float32")


class Block(nn.Layer):
    def __init__(self, d, p):
        super().__init__()
        self.l1 = nn.Linear(d, 2 * d)
        self.l2 = nn.Linear(2 * d, d)
        self.drop = nn.Dropout(p)
        self.norm = nn.LayerNorm(d)

    def forward(self, x):
        return self.norm(x + self.l2(self.drop(F.gelu(self.l1(x)))))


class Net(nn.Layer):
    def __init__(self, p=0.0, rc=None):
        super().__init__()
        self.inp = nn.Linear(8, 8)
        self.blocks = nn.LayerList([Block(8, p) for _ in range(3)])
        self.head = nn.Linear(8, 1)
        self.rc = rc

    def forward(self, x):
        h = self.inp(x)
        for b in self.blocks:
            if self.rc is not None and self.training:
                h = recompute(b, h, **self.rc)
            else:
                h = b(h)
        return self.head(h)


def init(model):
    r = np.random.default_rng(7)
    model.set_state_dict({k: (r.standard_normal(v.shape) * 0.3).astype("float32")
                          for k, v in model.state_dict().items()})
    return model


def run(p, rc, steps=4, seed=11):
    model = init(Net(p, rc))
    opt = paddle.optimizer.Adam(learning_rate=0.01, parameters=model.parameters())
    paddle.seed(seed)
    losses, grads = [], None
    for _ in range(steps):
        out = model(paddle.to_tensor(X))
        loss = F.mse_loss(out, paddle.to_tensor(Y))
        loss.backward()
        if grads is None:
            grads = {n: prm.grad.numpy() for n, prm in model.named_parameters()}
        opt.step()
        opt.clear_grad()
        losses.append(loss.item())
    return losses, grads, model


def cmp_grads(a, b):
    return all(np.allclose(a[k], b[k], rtol=1e-4, atol=1e-6) for k in a)


base_l, base_g, base_model = run(0.0, None)
rec["base_loss"] = base_l
rec["base_grad_l1"] = base_g["blocks.1.l1.weight"].tolist()
for name, rc in {"reent": {}, "reent_pres": {"preserve_rng_state": True, "use_reentrant": True},
                 "noreent": {"use_reentrant": False}}.items():
    lo, g, m = run(0.0, rc)
    rec[f"rc_{name}_loss"] = lo
    rec[f"rc_{name}_grads_equal"] = cmp_grads(base_g, g)
    rec[f"rc_{name}_grad_l1"] = g["blocks.1.l1.weight"].tolist()
    rec[f"rc_{name}_grad_inp"] = g["inp.weight"].tolist()
# eval mode: no recompute path, same outputs
base_model.eval()
rec["eval_out"] = base_model(paddle.to_tensor(X[:4])).numpy().tolist()

# dropout on: the recomputed forward redraws the same mask when the rng state is preserved
dl, dg, _ = run(0.3, None)
for name, rc in {"pres": {"preserve_rng_state": True}, "nopres": {"preserve_rng_state": False},
                 "noreent_pres": {"use_reentrant": False, "preserve_rng_state": True}}.items():
    lo, g, _ = run(0.3, rc)
    rec[f"drop_{name}_loss_equal"] = bool(np.allclose(dl[0], lo[0], rtol=1e-5))
    rec[f"drop_{name}_grads_equal"] = cmp_grads(dg, g)

# recompute of a function of two tensors with a keyword argument; grads of both inputs
w = paddle.to_tensor(rng.standard_normal((4, 4)).astype("float32"), stop_gradient=False)


def fn(a, b, scale=1.0):
    return paddle.tanh(a @ w) * b * scale


a = paddle.to_tensor(rng.standard_normal((3, 4)).astype("float32"), stop_gradient=False)
b = paddle.to_tensor(rng.standard_normal((3, 4)).astype("float32"), stop_gradient=False)
for reent in (True, False):
    for t in (a, b, w):
        t.clear_gradient()
    o = recompute(fn, a, b, scale=2.0, use_reentrant=reent)
    rec[f"fn_stop_grad_{reent}"] = o.stop_gradient
    (o ** 2).sum().backward()
    rec[f"fn_grads_{reent}"] = [a.grad.numpy().tolist(), b.grad.numpy().tolist(), w.grad.numpy().tolist()]

# the reentrant gotcha: no input needs grad -> the block's parameters get no gradient
blk = init(Net()).blocks[0]
xin = paddle.to_tensor(X[:4])
o = recompute(blk, xin)
rec["gotcha_out_stop_grad"] = o.stop_gradient
o2 = recompute2(blk, xin, use_reentrant=False)  # (the same function from paddle.distributed.fleet.recompute)
rec["gotcha_noreent_stop_grad"] = o2.stop_gradient
o2.sum().backward()
rec["gotcha_noreent_grad"] = blk.l1.weight.grad is not None

# recompute under auto_cast (bfloat16 on CPU: matmuls in the white list)
amp_model = init(Net(0.0, {}))
with paddle.amp.auto_cast(dtype="bfloat16"):
    out = amp_model(paddle.to_tensor(X))
    loss = F.mse_loss(out.astype("float32"), paddle.to_tensor(Y))
rec["amp_out_dtype"] = str(out.dtype)
loss.backward()
rec["amp_loss"] = loss.item()
rec["amp_grad_dtype"] = str(amp_model.blocks[0].l1.weight.grad.dtype)
rec["amp_grad_norm"] = float(amp_model.blocks[0].l1.weight.grad.norm())

# ---- distributed in one process -------------------------------------------------------------
rec["dist_before"] = [dist.get_rank(), dist.get_world_size(), dist.is_initialized()]
dist.init_parallel_env()
rec["dist_after"] = [dist.get_rank(), dist.get_world_size(), dist.is_initialized()]
dp = paddle.DataParallel(init(Net()))
rec["dp_keys"] = list(dp.state_dict().keys())[:4]
rec["dp_nparams"] = len(dp.parameters())
rec["dp_sub"] = type(dp._layers).__name__
opt = paddle.optimizer.SGD(learning_rate=0.05, parameters=dp.parameters())
rec["dp_loss"] = []
for _ in range(3):
    with dp.no_sync():
        l1 = F.mse_loss(dp(paddle.to_tensor(X[:8])), paddle.to_tensor(Y[:8]))
        l1.backward()
    l2 = F.mse_loss(dp(paddle.to_tensor(X[8:])), paddle.to_tensor(Y[8:]))
    l2.backward()
    opt.step()
    opt.clear_grad()
    rec["dp_loss"].append([l1.item(), l2.item()])
rec["dp_head"] = dp._layers.head.weight.numpy().tolist()
try:
    dist.all_reduce(paddle.ones([2]))
    rec["all_reduce"] = "ok"
except Exception as e:  # noqa: BLE001
    rec["all_reduce"] = type(e).__name__


# ---- tied parameters --------------------------------------------------------------------------
class TiedLM(nn.Layer):
    def __init__(self, v, d):
        super().__init__()
        self.emb = nn.Embedding(v, d)
        self.proj = nn.Linear(d, d)
        self.out_bias = self.create_parameter([v], is_bias=True)

    def forward(self, ids):
        h = paddle.tanh(self.proj(self.emb(ids)))
        return paddle.matmul(h, self.emb.weight, transpose_y=True) + self.out_bias


lm = TiedLM(10, 6)
lm.set_state_dict({k: (np.random.default_rng(3).standard_normal(v.shape) * 0.3).astype("float32")
                   for k, v in lm.state_dict().items()})
rec["tied_keys"] = list(lm.state_dict().keys())
rec["tied_nparams"] = len(lm.parameters())
ids = paddle.to_tensor(rng.integers(0, 10, (4, 5)))
tgt = paddle.to_tensor(rng.integers(0, 10, (4, 5)))
sgd = paddle.optimizer.SGD(learning_rate=0.5, parameters=lm.parameters())
rec["tied_loss"] = []
for step in range(8):
    logits = lm(ids)
    loss = F.cross_entropy(logits.reshape([-1, 10]), tgt.reshape([-1]))
    loss.backward()
    if step == 0:
        rec["tied_grad"] = lm.emb.weight.grad.numpy().tolist()
    sgd.step()
    sgd.clear_grad()
    rec["tied_loss"].append(loss.item())

# ---- grad mode switches -----------------------------------------------------------------------
lin = init(Net()).head


@paddle.no_grad()
def predict(x):
    return lin(x), paddle.is_grad_enabled()


xx = paddle.to_tensor(X[:2])
po, flag = predict(xx)
rec["nograd_deco"] = [po.stop_gradient, flag, paddle.is_grad_enabled()]
with paddle.no_grad():
    q = lin(xx)
    with paddle.enable_grad():
        q2 = lin(xx)
        inner = paddle.is_grad_enabled()
rec["nograd_ctx"] = [q.stop_gradient, q2.stop_gradient, inner]
with paddle.set_grad_enabled(False):
    q3 = lin(xx)
    f3 = paddle.is_grad_enabled()
rec["set_grad"] = [q3.stop_gradient, f3, paddle.is_grad_enabled()]
paddle.set_grad_enabled(False)
rec["set_grad_call"] = [lin(xx).stop_gradient, paddle.is_grad_enabled()]
paddle.set_grad_enabled(True)
rec["set_grad_back"] = [lin(xx).stop_gradient, paddle.is_grad_enabled()]


@paddle.no_grad()
def gen():
    for _ in range(2):
        yield lin(xx).stop_gradient, paddle.is_grad_enabled()


rec["nograd_gen"] = [list(t) for t in gen()]
g = gen()
first = next(g)
rec["nograd_gen_between"] = [first[1], paddle.is_grad_enabled(), lin(xx).stop_gradient]  # the mode stays off
rest = list(g)
rec["nograd_gen_after"] = [len(rest), paddle.is_grad_enabled()]

# ---- hooks ------------------------------------------------------------------------------------
seen = []
v = paddle.to_tensor([1.0, 2.0, 3.0], stop_gradient=False)
h1 = v * 2
hk1 = h1.register_hook(lambda g: seen.append(g.numpy().tolist()))
hk2 = h1.register_hook(lambda g: g * 10)
(h1 ** 2).sum().backward()
rec["hook_seen"] = seen
rec["hook_grad"] = v.grad.numpy().tolist()
v.clear_gradient()
h1 = v * 2
hk = h1.register_hook(lambda g: g * 10)
hk.remove()
(h1 ** 2).sum().backward()
rec["hook_removed"] = v.grad.numpy().tolist()
p = paddle.create_parameter([3], "float32", default_initializer=nn.initializer.Constant(1.0))
p.register_hook(lambda g: g.clip(max=0.5))
(p * paddle.to_tensor([0.1, 1.0, 2.0])).sum().backward()
rec["leaf_hook"] = p.grad.numpy().tolist()

with open(os.environ["PROGRAM_OUT"], "w") as f:
    json.dump(rec, f)
