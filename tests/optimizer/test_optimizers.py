"""Every optimizer's 10-step trajectory against Paddle 3.3.1 (tests/data/paddle_optimizers.json,
written by tests/record_paddle_optimizers.py): plain, weight decay (float, L1, L2), each
gradient clip, a StepDecay scheduler and per-optimizer variants, in float32 and float64."""

from __future__ import annotations

import json
import os

import jax.numpy as jnp
import numpy as np
import pytest

import pylayer_jax as paddle

DATA = json.load(open(os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "data", "paddle_optimizers.json")))


class StepDecay:
    """A stand-in for ``optimizer.lr.StepDecay`` with Paddle's scheduler contract."""

    def __init__(self, learning_rate, step_size, gamma=0.1):
        self.base_lr, self.step_size, self.gamma = learning_rate, step_size, gamma
        self.last_epoch = 0
        self.last_lr = learning_rate

    def __call__(self):
        return self.last_lr

    def step(self, epoch=None):
        self.last_epoch += 1
        self.last_lr = self.base_lr * self.gamma ** (self.last_epoch // self.step_size)

    def state_dict(self):
        return {"last_epoch": self.last_epoch, "last_lr": self.last_lr}

    def set_state_dict(self, sd):
        self.last_epoch, self.last_lr = sd["last_epoch"], sd["last_lr"]


def _kwargs(spec, names):
    out = {}
    for k, v in spec.items():
        if k == "weight_decay" and v == "L1":
            out[k] = paddle.regularizer.L1Decay(0.1)
        elif k == "weight_decay" and v == "L2":
            out[k] = paddle.regularizer.L2Decay(0.1)
        elif k == "grad_clip":
            kind, c = v
            out[k] = {"value": paddle.nn.ClipGradByValue, "norm": paddle.nn.ClipGradByNorm,
                      "global": paddle.nn.ClipGradByGlobalNorm}[kind](c)
        elif v == "half_for_b":
            out[k] = lambda p: 0.5 if p.name == names["b"] else 1.0
        elif v == "only_w":
            out[k] = lambda n: n == names["w"]
        elif v == "exclude_b":
            out[k] = lambda p: p.name == names["b"]
        elif k in ("etas", "learning_rate_range"):
            out[k] = tuple(v)
        elif k != "scheduler":
            out[k] = v
    return out


def train(opt_name, spec, dtype, steps=None):
    x = paddle.to_tensor(np.array(DATA["x"], dtype))
    y = paddle.to_tensor(np.array(DATA["y"], dtype))
    w = paddle.to_tensor(np.array(DATA["w0"], dtype), stop_gradient=False)
    b = paddle.to_tensor(np.array(DATA["b0"], dtype), stop_gradient=False)
    kw = dict(DATA["base"][opt_name])
    kw.update(_kwargs(spec, {"w": w.name, "b": b.name}))
    sched = None
    if spec.get("scheduler"):
        sched = kw["learning_rate"] = StepDecay(kw["learning_rate"], step_size=3, gamma=0.5)
    opt = getattr(paddle.optimizer, opt_name)(parameters=[w, b], **kw)
    traj = []
    for _ in range(steps or DATA["steps"]):
        loss = ((paddle.matmul(x, w) + b - y) ** 2).mean()
        loss.backward()
        opt.step()
        opt.clear_grad()
        if sched is not None:
            sched.step()
        traj.append([w.numpy(), b.numpy()])
    return traj, opt


def _rows():
    out = []
    for r in DATA["rows"]:
        if r.get("error") == "RuntimeError":  # Paddle has no float64 clip_by_norm kernel: no oracle
            continue
        if r.get("error") == "NotImplementedError":  # lr_ratio: Paddle implements it only on GPU
            continue
        if r["spec"].get("rescale_grad", 1.0) != 1.0:  # Paddle 3.3.1 ignores it eagerly: test_momentum_rescale_grad
            continue
        out.append(pytest.param(r, id=f"{r['optimizer']}-{r['case']}-{r['dtype']}"))
    return out


@pytest.mark.parametrize("row", _rows())
def test_trajectory_matches_paddle(row):
    if "error" in row:
        with pytest.raises(getattr(__builtins__, row["error"], None) or TypeError):
            train(row["optimizer"], row["spec"], row["dtype"])
        return
    traj, _ = train(row["optimizer"], row["spec"], row["dtype"])
    tol = dict(rtol=2e-5, atol=2e-6) if row["dtype"] == "float32" else dict(rtol=1e-6, atol=1e-7)
    if row["optimizer"] == "RAdam" and row["dtype"] == "float32":
        # the first rectified step (rho_t just above 5) amplifies float32 rounding of rho_t: 2e-4 apart
        tol = dict(rtol=5e-4, atol=2e-5)
    if row["optimizer"] == "Lamb" and row["dtype"] == "float64":
        tol = dict(rtol=5e-5, atol=1e-6)  # Paddle's float64 Lamb differs at float32 level (3e-5) for an excluded b
    for k, ((w, b), (pw, pb)) in enumerate(zip(traj, row["traj"])):
        np.testing.assert_allclose(w, pw, **tol, err_msg=f"step {k + 1} w")
        np.testing.assert_allclose(b, pb, **tol, err_msg=f"step {k + 1} b")


def test_momentum_rescale_grad():
    # Paddle documents g * rescale_grad before the update (its eager kernel skips it); numpy oracle:
    # v = mu * v + (rescale * g + wd * p); p -= lr * v
    row = next(r for r in DATA["rows"] if r["optimizer"] == "Momentum" and r["case"] == "variant1"
               and r["dtype"] == "float64")
    traj, _ = train("Momentum", row["spec"], "float64")
    x, y = np.array(DATA["x"]), np.array(DATA["y"])
    w, b = np.array(DATA["w0"]), np.array(DATA["b0"])
    vw, vb = np.zeros_like(w), np.zeros_like(b)
    for k in range(DATA["steps"]):
        r = 2 * (x @ w + b - y) / (x.shape[0] * y.shape[1])
        gw, gb = x.T @ r, r.sum(0)
        vw = 0.9 * vw + (0.5 * gw + 0.1 * w)
        vb = 0.9 * vb + (0.5 * gb + 0.1 * b)
        w, b = w - 0.05 * vw, b - 0.05 * vb
        np.testing.assert_allclose(traj[k][0], w, rtol=1e-12)
        np.testing.assert_allclose(traj[k][1], b, rtol=1e-12)


EXTRAS = DATA["extras"]


def test_sgd_weight_decay_example_matches_paddle():
    w = paddle.to_tensor(np.array([0.0, 1.0], "float32"), stop_gradient=False)
    opt = paddle.optimizer.SGD(0.1, parameters=[w], weight_decay=0.5)
    for _ in range(5):
        ((w - 3.0) ** 2).sum().backward()
        opt.step()
        opt.clear_grad()
    np.testing.assert_allclose(w.numpy(), EXTRAS["sgd_decay_example"], rtol=1e-6)


def test_parameter_groups_match_paddle():
    w = paddle.to_tensor(np.array([1.0, 2.0], "float32"), stop_gradient=False)
    b = paddle.to_tensor(np.array([-1.0, 0.5], "float32"), stop_gradient=False)
    opt = paddle.optimizer.SGD(0.1, parameters=[{"params": [w], "learning_rate": 0.5, "weight_decay": 0.2},
                                                {"params": [b]}], weight_decay=0.05)
    for _ in range(3):
        ((w - 3.0) ** 2).sum().backward()
        ((b + 1.0) ** 3).sum().backward()
        opt.step()
        opt.clear_grad()
    np.testing.assert_allclose([w.numpy(), b.numpy()], EXTRAS["groups_sgd"], rtol=1e-6)


def test_state_dict_keys_and_round_trip():
    w = paddle.to_tensor(np.array([1.0, -2.0], "float32"), stop_gradient=False)
    w.name = "lin.w_0"
    sched = StepDecay(0.1, step_size=3)
    opt = paddle.optimizer.Adam(sched, parameters=[w])
    (w * w).sum().backward()
    opt.step()
    sd = opt.state_dict()
    assert sorted(sd) == EXTRAS["adam_state_keys"]
    assert sd["LR_Scheduler"] == EXTRAS["adam_state_lr"]
    for k, shape in EXTRAS["adam_state_shapes"].items():
        assert list(sd[k].shape) == shape
    w2 = paddle.to_tensor(w.numpy(), stop_gradient=False)
    w2.name = "lin.w_0"
    with paddle.utils.unique_name.guard():  # a resumed process: accumulator names start at _0 again
        opt2 = paddle.optimizer.Adam(StepDecay(0.1, step_size=3), parameters=[w2])
        opt2.set_state_dict(sd)
        opt.clear_grad()
        for o, t in ((opt, w), (opt2, w2)):
            (t * t).sum().backward()
            o.step()
    np.testing.assert_allclose(w2.numpy(), w.numpy(), rtol=1e-7)


@pytest.mark.parametrize("name", sorted(EXTRAS["state_keys"]))
def test_state_dict_names_match_paddle(name):
    w = paddle.to_tensor(np.array([1.0, -2.0], "float32"), stop_gradient=False)
    w.name = f"sd_{name}.w_0"
    opt = getattr(paddle.optimizer, name)(parameters=[w], **DATA["base"][name])
    (w * w).sum().backward()
    opt.step()
    assert sorted(opt.state_dict()) == EXTRAS["state_keys"][name]


def test_misuse_raises():
    t = paddle.to_tensor(np.array([1.0, 2.0], "float32"), stop_gradient=False)
    with pytest.raises(TypeError, match=r"parameters should be a list of Tensors.*wrap a single Tensor"):
        paddle.optimizer.SGD(0.1, parameters=t)
    with pytest.raises(TypeError, match=r"a parameter group must have a 'params' entry"):
        paddle.optimizer.SGD(0.1, parameters=[{"learning_rate": 0.1}])
    with pytest.raises(TypeError, match=r"learning_rate should be a float or an LRScheduler"):
        paddle.optimizer.SGD("fast", parameters=[t])
    with pytest.raises(RuntimeError, match=r"set_lr: the learning rate is an LRScheduler"):
        paddle.optimizer.SGD(StepDecay(0.1, 2), parameters=[t]).set_lr(0.5)
    with pytest.raises(TypeError, match=r"set_lr: value must be a float"):
        paddle.optimizer.SGD(0.1, parameters=[t]).set_lr("a")
    with pytest.raises(TypeError, match=r"weight_decay should be a float, regularizer.L1Decay"):
        paddle.optimizer.SGD(0.1, parameters=[t], weight_decay="l2")
    with pytest.raises(TypeError, match=r"AdamW: weight_decay should be a float"):
        paddle.optimizer.AdamW(0.1, parameters=[t], weight_decay=paddle.regularizer.L2Decay(0.1))
    with pytest.raises(TypeError, match=r"grad_clip should be an instance of nn.ClipGradByValue"):
        paddle.optimizer.SGD(0.1, parameters=[t], grad_clip=0.5)
    with pytest.raises(TypeError, match=r"unexpected keyword argument 'momentum'"):
        paddle.optimizer.SGD(0.1, parameters=[t], momentum=0.9)
    with pytest.raises(NotImplementedError, match=r"use_lowprecision_moment=True is not supported"):
        paddle.optimizer.AdamW(0.1, parameters=[t], use_lowprecision_moment=True)


def test_lr_api_and_scheduler_value_used():
    t = paddle.to_tensor(np.array([1.0], "float64"), stop_gradient=False)
    opt = paddle.optimizer.SGD(0.1, parameters=[t])
    opt.set_lr(0.25)
    assert opt.get_lr() == 0.25
    t.sum().backward()
    opt.step()
    np.testing.assert_allclose(t.numpy(), [0.75])
    sched = StepDecay(0.5, step_size=1, gamma=0.5)
    opt.set_lr_scheduler(sched)
    sched.step()
    assert opt.get_lr() == 0.25
    opt.clear_grad()
    t.sum().backward()
    opt.step()
    np.testing.assert_allclose(t.numpy(), [0.5])


def test_clip_standalone_matches_numpy():
    g1 = np.array([3.0, 4.0], "float32")
    g2 = np.array([1.0, -12.0], "float32")
    p1 = paddle.to_tensor(np.zeros(2, "float32"))
    p2 = paddle.to_tensor(np.zeros(2, "float32"))
    pairs = [(p1, paddle.to_tensor(g1)), (p2, paddle.to_tensor(g2))]
    out = paddle.nn.ClipGradByGlobalNorm(6.5)(pairs)
    scale = 6.5 / np.sqrt((g1**2).sum() + (g2**2).sum())
    np.testing.assert_allclose(out[0][1].numpy(), g1 * scale, rtol=1e-6)
    np.testing.assert_allclose(out[1][1].numpy(), g2 * scale, rtol=1e-6)
    # as Paddle's, the global-norm clip scales the given gradients in place and returns them
    assert out[0][1] is pairs[0][1]
    np.testing.assert_allclose(pairs[0][1].numpy(), g1 * scale, rtol=1e-6)
    pairs = [(p1, paddle.to_tensor(g1)), (p2, paddle.to_tensor(g2))]
    out = paddle.nn.ClipGradByNorm(1.0)(pairs)
    np.testing.assert_allclose(out[0][1].numpy(), g1 / 5.0, rtol=1e-6)
    out = paddle.nn.ClipGradByValue(2.0, min=-1.0)(pairs)
    np.testing.assert_allclose(out[1][1].numpy(), np.clip(g2, -1, 2))


class _Param(paddle.Tensor):
    """A stand-in for nn's Parameter with the attributes optimizers read (regularizer, optimize_attr, need_clip)."""


def _param(values, **attrs):
    p = _Param(jnp.asarray(np.array(values, "float32")), stop_gradient=False)
    p.regularizer, p.optimize_attr, p.need_clip = None, {"learning_rate": 1.0}, True
    for k, v in attrs.items():
        setattr(p, k, v)
    return p


def test_parameter_attributes_match_paddle():
    # w: its own L1Decay(0.3) over the optimizer's L2Decay, learning-rate multiplier 2, need_clip False
    w = _param([1.0, 2.0], regularizer=paddle.regularizer.L1Decay(0.3), optimize_attr={"learning_rate": 2.0},
               need_clip=False)
    b = _param([-1.0, 0.5])
    opt = paddle.optimizer.Momentum(0.1, parameters=[w, b], weight_decay=paddle.regularizer.L2Decay(0.1),
                                    grad_clip=paddle.nn.ClipGradByGlobalNorm(0.5))
    for _ in range(3):
        ((w - 3.0) ** 2).sum().backward()
        ((b + 1.0) ** 3).sum().backward()
        opt.step()
        opt.clear_grad()
    np.testing.assert_allclose([w.numpy(), b.numpy()], EXTRAS["param_attrs_momentum"], rtol=1e-6)


def test_adamw_lr_ratio_and_apply_decay_param_fun_against_numpy():
    # Paddle runs lr_ratio only on GPU; the rule (its GPU kernel): lr_p = lr * lr_ratio(p),
    # p *= 1 - lr_p * coeff (for parameters apply_decay_param_fun accepts), then Adam with lr_p
    row = next(r for r in DATA["rows"] if r["optimizer"] == "AdamW" and r["case"] == "variant1"
               and r["dtype"] == "float64")
    traj, _ = train("AdamW", row["spec"], "float64")
    x, y = np.array(DATA["x"]), np.array(DATA["y"])
    ps = [np.array(DATA["w0"]), np.array(DATA["b0"])]
    ratio, decay = [1.0, 0.5], [0.2, 0.0]
    m1 = [np.zeros_like(p) for p in ps]
    m2 = [np.zeros_like(p) for p in ps]
    b1p = b2p = 1.0
    for k in range(DATA["steps"]):
        r = 2 * (x @ ps[0] + ps[1] - y) / (x.shape[0] * y.shape[1])
        gs = [x.T @ r, r.sum(0)]
        b1p, b2p = b1p * 0.9, b2p * 0.999
        for i in range(2):
            lr = 0.05 * ratio[i]
            m1[i] = 0.9 * m1[i] + 0.1 * gs[i]
            m2[i] = 0.999 * m2[i] + 0.001 * gs[i] ** 2
            ps[i] = ps[i] * (1 - lr * decay[i])
            ps[i] = ps[i] - lr * (m1[i] / (1 - b1p)) / (np.sqrt(m2[i] / (1 - b2p)) + 1e-8)
        np.testing.assert_allclose(traj[k][0], ps[0], rtol=1e-9)
        np.testing.assert_allclose(traj[k][1], ps[1], rtol=1e-9)


@pytest.mark.parametrize("row", [pytest.param(r, id=f"{r['line_search_fn']}-{r['dtype']}") for r in DATA["lbfgs"]])
def test_lbfgs_matches_paddle(row):
    dtype = row["dtype"]
    x = paddle.to_tensor(np.array(DATA["x"], dtype))
    y = paddle.to_tensor(np.array(DATA["y"], dtype))
    w = paddle.to_tensor(np.array(DATA["w0"], dtype), stop_gradient=False)
    b = paddle.to_tensor(np.array(DATA["b0"], dtype), stop_gradient=False)
    opt = paddle.optimizer.LBFGS(learning_rate=0.5, max_iter=4, history_size=3, line_search_fn=row["line_search_fn"],
                                 parameters=[w, b])

    def closure():
        opt.clear_grad()
        loss = ((paddle.matmul(x, w) + b - y) ** 2).mean()
        loss.backward()
        return loss

    tol = dict(rtol=1e-4, atol=1e-5) if dtype == "float32" else dict(rtol=1e-8, atol=1e-10)
    for k in range(3):
        opt.step(closure)
        np.testing.assert_allclose(w.numpy(), row["traj"][k][0], **tol, err_msg=f"step {k + 1}")
        np.testing.assert_allclose(b.numpy(), row["traj"][k][1], **tol, err_msg=f"step {k + 1}")


def test_lbfgs_misuse():
    w = paddle.to_tensor(np.array([1.0], "float32"), stop_gradient=False)
    with pytest.raises(TypeError, match=r"LBFGS.step: a closure .* is required"):
        paddle.optimizer.LBFGS(parameters=[w]).step()
    with pytest.raises(NotImplementedError, match=r"LBFGS: weight_decay is not supported"):
        paddle.optimizer.LBFGS(parameters=[w], weight_decay=0.1)
    with pytest.raises(ValueError, match=r"line_search_fn must be None or 'strong_wolfe'"):
        paddle.optimizer.LBFGS(parameters=[w], line_search_fn="armijo")
