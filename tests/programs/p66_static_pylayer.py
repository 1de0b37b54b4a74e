"""Static-graph code with custom gradients (the Program IR: ``FLAGS_enable_pir_api=0`` set before importing paddle, as
code written for static graphs does): paddle.enable_static, Program / program_guard, static.data, static.nn.conv2d,
static.nn.batch_norm, static.nn.embedding and static.nn.fc; paddle.static.nn.static_pylayer with a custom
backward_fn (one input, two inputs, a backward that scales the gradient, one without backward_fn, one inside a
training program); paddle.static.gradients and append_backward; an optimizer's minimize; Executor(place).run(startup),
then 15 training steps feeding numpy batches and fetching by Variable and by name (an intermediate, a parameter);
an ExponentialDecay learning rate stepped between runs; fc with num_flatten_dims=2, embedding with padding_idx;
dropout switched off in the test clone; Program.clone(for_test=True) for
evaluation (batch_norm then uses its running statistics); static.nn.while_loop with gradients through it; parameters set
from numpy through global_scope().find_var(name).get_tensor() so both libraries start equal, and read back the same
way; paddle.disable_static at the end.

Paddle 3.3.1's Program IR no longer runs several functional ops (paddle.exp, tanh, sum, matmul, sin, abs, sqrt,
multiply, maximum, log, sigmoid: ``TypeError: argument must be Value, but got Variable``), so the program is written
with those that still work there (square, clip, mean, mm, linear, the operators, static.nn layers). For the same
reason static.nn.cond fails there (its internal logical_not), so only while_loop is used (p36 runs cond in PIR).
Not mirrored: Paddle's Program IR while_loop writes each iteration's values into the loop_vars Variables themselves,
so a Variable passed as a loop var holds the loop's final value afterwards (``hq`` below would read as ``halved``
everywhere it is used, even before the loop); pylayer_jax leaves it unchanged, as PIR does. The program passes a
copy. Op type names are pylayer_jax's own (one ``grad`` op for the backward pass; ``matmul`` for ``mul``), so only
the optimizer op's presence is compared."""
import os

os.environ["FLAGS_enable_pir_api"] = "0"

import json  # noqa: E402

import numpy as np  # noqa: E402
import paddle  # noqa: E402
import paddle.static as static  # noqa: E402

paddle.enable_static()
place = paddle.CPUPlace()
exe = static.Executor(place)
scope = static.global_scope()
rng = np.random.default_rng(0)
rec = {}


def set_params(program, seed, scale=0.3):
    """Every parameter of ``program`` from numpy, through the scope; returns the sorted names."""
    r = np.random.default_rng(seed)
    names = sorted(p.name for p in program.global_block().all_parameters())
    for name in names:
        t = scope.find_var(name).get_tensor()
        t.set((r.standard_normal(np.array(t).shape) * scale).astype("float32"), place)
    return names


def flat(v):
    return np.asarray(v).ravel().tolist()


# --- static_pylayer variants, with static.gradients / append_backward --------------------------------------------------
def sq_fw(x):
    return paddle.square(x)


def sq_bw(dy):
    return dy * 2.0  # not the true gradient (2 x dy): the custom one is what must come out


def mul_fw(x, y):
    return x * y, x + y


def mul_bw(d_prod, d_sum):
    return d_prod * 2.0, d_sum * 3.0  # one gradient per input, scaled


def clip_fw(x):
    return paddle.clip(x, -1.0, 1.0)


def clip_bw(dy):
    return dy * 0.5  # straight-through, halved


pl_main, pl_start = static.Program(), static.Program()
with static.program_guard(pl_main, pl_start):
    a = static.data("a", [None, 3], "float32")
    b = static.data("b", [None, 3], "float32")
    a.stop_gradient = False
    b.stop_gradient = False
    e = static.nn.static_pylayer(sq_fw, [a], sq_bw)
    (ga_e,) = static.gradients([e], [a])
    prod, tot = static.nn.static_pylayer(mul_fw, [a, b], mul_bw)
    s = paddle.mean(prod) + paddle.mean(tot * tot)
    ga_m, gb_m = static.gradients([s], [a, b])
    c = static.nn.static_pylayer(clip_fw, [a * 3.0], clip_bw)
    (ga_c,) = static.gradients([paddle.mean(c * c)], [a])
    try:  # no backward_fn needs inputs that take no gradient
        static.nn.static_pylayer(lambda x: x * x, [b])
        rec["no_backward_needs_stop_gradient"] = "accepted"
    except ValueError as err:
        rec["no_backward_needs_stop_gradient"] = type(err).__name__
    d = static.data("d", [None, 3], "float32")
    nb = static.nn.static_pylayer(lambda x: x * x, [d])  # no backward_fn: forward only
    w = static.create_parameter([3, 2], "float32", name="pl_w",
                                default_initializer=paddle.nn.initializer.Assign(
                                    np.arange(6, dtype="float32").reshape(3, 2) / 6))
    z = static.nn.static_pylayer(clip_fw, [paddle.mm(a, w)], clip_bw)
    zl = paddle.mean(z * z)
    pg = static.append_backward(zl)
exe.run(pl_start)
pl2_main = static.Program()
with static.program_guard(pl2_main, static.Program()):
    # a backward giving no gradient to its second input
    a2 = static.data("a", [None, 3], "float32")
    b2 = static.data("b", [None, 3], "float32")
    a2.stop_gradient = False
    b2.stop_gradient = False
    half, both = static.nn.static_pylayer(mul_fw, [a2, b2], lambda dp, ds: (dp * 0.5 + ds, None))
    ga_n, gb_n = static.gradients([paddle.mean(half + both)], [a2, b2])
pl3_main = static.Program()
with static.program_guard(pl3_main, static.Program()):
    # target_gradients seeding the backward pass (Paddle cannot seed a static_pylayer's output: a plain op here)
    a3 = static.data("a", [None, 3], "float32")
    a3.stop_gradient = False
    e3 = paddle.square(a3) * 0.5
    (ga_t,) = static.gradients([e3], [a3], target_gradients=[paddle.ones_like(e3) * 3.0])
A = rng.standard_normal((4, 3)).astype("float32")
Bv = rng.standard_normal((4, 3)).astype("float32")
outs = exe.run(pl_main, feed={"a": A, "b": Bv, "d": Bv}, fetch_list=[e, ga_e, prod, tot, ga_m, gb_m, c, ga_c, nb, zl, pg[0][1]])
rec["pylayer"] = [flat(o) for o in outs]
rec["pylayer_shapes"] = [list(np.asarray(o).shape) for o in outs]
rec["pylayer_none_grad"] = [gb_n is None, flat(exe.run(pl2_main, feed={"a": A, "b": Bv}, fetch_list=[ga_n])[0])]
rec["target_gradients"] = flat(exe.run(pl3_main, feed={"a": A}, fetch_list=[ga_t])[0])
rec["append_backward"] = [p.name for p, _ in pg]

# --- a small conv + embedding model trained with minimize -----------------------------------------------------------
N = 32
IMG = rng.standard_normal((N, 1, 6, 6)).astype("float32")
IDS = rng.integers(0, 10, size=(N, 3)).astype("int64")
Y = ((IMG.mean((1, 2, 3)) + (IDS % 3).sum(1) * 0.1) > 0.2).astype("int64").reshape(N, 1)

main, startup = static.Program(), static.Program()
with static.program_guard(main, startup):
    img = static.data("img", [None, 1, 6, 6], "float32")
    ids = static.data("ids", [None, 3], "int64")
    label = static.data("label", [None, 1], "int64")
    conv = static.nn.conv2d(img, num_filters=4, filter_size=3, padding=1, act=None, name="conv")
    bn = static.nn.batch_norm(conv, act="relu", name="bn")
    pooled = paddle.nn.functional.adaptive_avg_pool2d(bn, 2)
    feat = paddle.flatten(pooled, 1)
    emb = static.nn.embedding(ids, size=[10, 4], param_attr=paddle.ParamAttr(name="emb_w"))
    emb_sum = paddle.mean(emb, axis=1)
    hidden = static.nn.fc(paddle.concat([feat, emb_sum], axis=1), 8, activation="tanh", name="hid")
    # a custom-gradient region inside the training program: clip forward, halved straight-through backward
    hidden_c = static.nn.static_pylayer(clip_fw, [hidden * 2.0], clip_bw)
    logits = static.nn.fc(hidden_c, 2, name="out")
    loss = paddle.mean(paddle.nn.functional.cross_entropy(logits, label))
    acc = paddle.static.accuracy(paddle.nn.functional.softmax(logits), label)
    test_prog = main.clone(for_test=True)
    opt = paddle.optimizer.Momentum(learning_rate=0.1, momentum=0.9)
    opt.minimize(loss)
exe.run(startup)
params = set_params(main, 1)
rec["params"] = params
rec["param_shapes"] = [[p.name, list(p.shape), str(p.dtype)] for p in
                       sorted(main.global_block().all_parameters(), key=lambda p: p.name)]
rec["names"] = [img.name, ids.name, label.name, str(loss.dtype), list(logits.shape), list(hidden.shape)]
rec["train"] = {"loss": [], "acc": [], "hidden": [], "logits0": []}
for step in range(15):
    i = (step % 4) * 8
    feed = {"img": IMG[i:i + 8], "ids": IDS[i:i + 8], "label": Y[i:i + 8]}
    lv, av, hv = exe.run(main, feed=feed, fetch_list=[loss, acc, hidden.name])  # by Variable and by name
    rec["train"]["loss"].append(float(lv))
    rec["train"]["acc"].append(float(av))
    rec["train"]["hidden"].append(float(np.abs(hv).mean()))
(lg,) = exe.run(main, feed={"img": IMG[:4], "ids": IDS[:4], "label": Y[:4]}, fetch_list=[logits.name])
rec["train"]["logits_by_name"] = flat(lg)
bn_stats = sorted(v.name for v in main.list_vars() if v.persistable and "bn" in v.name)
rec["bn_stats_names"] = bn_stats
rec["bn_stats"] = {n: flat(scope.find_var(n).get_tensor()) for n in bn_stats}
rec["trained"] = {n: flat(scope.find_var(n).get_tensor()) for n in ("out.w_0", "emb_w")}

# evaluation: the test clone uses batch_norm's running statistics, runs no optimizer
ev = exe.run(test_prog, feed={"img": IMG, "ids": IDS, "label": Y}, fetch_list=[loss, acc, logits])
rec["eval"] = [float(ev[0]), float(ev[1]), flat(ev[2])]
ev2 = exe.run(test_prog, feed={"img": IMG, "ids": IDS, "label": Y}, fetch_list=[loss])
rec["eval_repeat_same"] = bool(np.allclose(ev[0], ev2[0]))
rec["eval_does_not_train"] = flat(scope.find_var("out.w_0").get_tensor()) == rec["trained"]["out.w_0"]
main_types = [op.type for op in main.global_block().ops]
test_types = [op.type for op in test_prog.global_block().ops]
rec["clone_ops"] = [len(test_types) < len(main_types), "momentum" in main_types, "momentum" in test_types]

# --- control flow: a data-dependent while_loop inside a program with gradients -------------------------------------------------
cf_main, cf_start = static.Program(), static.Program()
with static.program_guard(cf_main, cf_start):
    q = static.data("q", [None, 2], "float32")
    q.stop_gradient = False
    wq = static.create_parameter([2, 2], "float32", name="cf_w",
                                 default_initializer=paddle.nn.initializer.Assign(np.array([[1.0, -0.5], [0.25, 2.0]],
                                                                                           "float32")))
    hq = paddle.mm(q, wq)
    total = paddle.mean(hq)
    n0 = paddle.full([1], 0, "int64")
    cnt, halved = static.nn.while_loop(lambda n, v: paddle.max(v * v) >= 1.0, lambda n, v: [n + 1, v / 2.0],
                                       [n0, hq * 1.0])  # (a copy: see the docstring)
    cf_loss = paddle.mean(halved * halved) + paddle.mean(hq * hq) * 0.5
    gq, gw = static.gradients([cf_loss], [q, wq])
exe.run(cf_start)
rec["control"] = []
for Q in (np.array([[1.0, 5.0], [-2.0, 3.0]], "float32"), np.array([[-4.0, 0.5]], "float32")):
    outs = exe.run(cf_main, feed={"q": Q}, fetch_list=[total, cnt, halved, cf_loss, gq, gw])
    rec["control"].append([flat(o) for o in outs])

# --- a regressor trained with Adam, gradients fetched next to the loss -----------------------------------------------
X = rng.standard_normal((48, 5)).astype("float32")
T = (np.sin(X[:, :2]).sum(1, keepdims=True) - 0.3 * X[:, 2:3]).astype("float32")
r_main, r_start = static.Program(), static.Program()
with static.program_guard(r_main, r_start):
    x = static.data("x", [-1, 5], "float32")
    t = static.data("t", [-1, 1], "float32")
    h1 = static.nn.fc(x, 6, activation="relu", name="r1")
    p = static.nn.fc(h1, 1, name="r2")
    mse = paddle.mean(paddle.square(p - t))
    r_test = r_main.clone(for_test=True)
    params_grads = paddle.optimizer.Adam(learning_rate=0.02).minimize(mse)[1]
exe.run(r_start)
set_params(r_main, 2)
rec["regress"] = {"loss": [], "grad_norms": [], "grad_names": [g.name for _, g in params_grads]}
for step in range(15):
    i = (step % 3) * 16
    got = exe.run(r_main, feed={"x": X[i:i + 16], "t": T[i:i + 16]}, fetch_list=[mse] + [g for _, g in params_grads])
    rec["regress"]["loss"].append(float(got[0]))
    rec["regress"]["grad_norms"].append([float(np.linalg.norm(g)) for g in got[1:]])
(pred,) = exe.run(r_test, feed={"x": X[:5], "t": T[:5]}, fetch_list=[p])
rec["regress"]["pred"] = flat(pred)
rec["regress"]["pred_shape"] = list(pred.shape)
rec["regress"]["return_numpy_false"] = type(exe.run(r_test, feed={"x": X[:2], "t": T[:2]}, fetch_list=[p],
                                                    return_numpy=False)[0]).__name__
# --- dropout switched off by the test clone; a sequence model with fc(num_flatten_dims=2), embedding padding_idx,
# an ExponentialDecay learning rate read back each step, a parameter fetched by name ------------------------------
d_main = static.Program()
with static.program_guard(d_main, static.Program()):
    dx = static.data("dx", [None, 50], "float32")
    dy = paddle.nn.functional.dropout(dx, p=0.5)
    d_test = d_main.clone(for_test=True)
DX = np.ones((4, 50), "float32")
(dtrain,) = exe.run(d_main, feed={"dx": DX}, fetch_list=[dy])
(dtest,) = exe.run(d_test, feed={"dx": DX}, fetch_list=[dy])
rec["dropout"] = [sorted(set(np.unique(dtrain).round(4).tolist())), flat(dtest) == flat(DX)]

SEQ = rng.integers(0, 12, size=(24, 5)).astype("int64")
SEQ[:, 3:] = 0
TGT = (SEQ.astype("float32").mean(1, keepdims=True) / 6.0).astype("float32")
s_main, s_start = static.Program(), static.Program()
with static.program_guard(s_main, s_start):
    tok = static.data("tok", [None, 5], "int64")
    tgt = static.data("tgt", [None, 1], "float32")
    se = static.nn.embedding(tok, size=[12, 6], padding_idx=0, param_attr=paddle.ParamAttr(name="seq_emb"))
    per_step = static.nn.fc(se, 4, num_flatten_dims=2, activation="relu", name="step_fc")
    pooled_s = paddle.mean(per_step, axis=1)
    sp = static.nn.fc(pooled_s, 1, name="seq_out")
    s_loss = paddle.mean(paddle.square(sp - tgt))
    sched = paddle.optimizer.lr.ExponentialDecay(learning_rate=0.1, gamma=0.8)
    s_opt = paddle.optimizer.Adam(learning_rate=sched)
    s_opt.minimize(s_loss)
exe.run(s_start)
s_params = set_params(s_main, 3)
rec["seq"] = {"params": s_params, "shapes": [list(se.shape), list(per_step.shape)], "loss": [], "lr": []}
for step in range(15):
    i = (step % 3) * 8
    lv, wv = exe.run(s_main, feed={"tok": SEQ[i:i + 8], "tgt": TGT[i:i + 8]}, fetch_list=[s_loss, "seq_out.w_0"])
    rec["seq"]["loss"].append(float(lv))
    rec["seq"]["lr"].append(s_opt.get_lr())
    sched.step()
rec["seq"]["w_by_name"] = flat(wv)
rec["seq"]["pad_row"] = flat(np.array(scope.find_var("seq_emb").get_tensor())[0])

paddle.disable_static()
rec["after"] = [paddle.in_dynamic_mode(), float(paddle.to_tensor([1.0, 2.0]).sum())]
with open(os.environ["PROGRAM_OUT"], "w") as f:
    json.dump(rec, f)
