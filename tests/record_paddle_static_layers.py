"""Record how Paddle 3.3.1 trains ``nn`` layers built in static mode (Program IR, as pylayer_jax's programs).

Run with ``/tmp/paddle/bin/python tests/record_paddle_static_layers.py``; writes
``tests/data/paddle_static_layers.json`` (loss trajectories over 5 ``Executor.run`` calls, parameter
names, batch-norm running statistics, test-clone outputs) and ``tests/data/paddle_static_mlp.pdparams``
/ ``.pdopt`` (``paddle.static.save`` of the trained MLP). Initial weights are fixed with
``ParamAttr(initializer=Assign(...))`` so the numbers do not depend on Paddle's random generator.
"""

import json
import os

os.environ["FLAGS_enable_pir_api"] = "0"  # the Program IR with named Variables (all_parameters, scope names)

import numpy as np  # noqa: E402
import paddle  # noqa: E402

paddle.enable_static()
HERE = os.path.dirname(os.path.abspath(__file__))
RS = np.random.RandomState(0)


def arr(*shape):
    return np.round(RS.standard_normal(shape) * 0.5, 3).astype("float32")


W = {
    "lin_w": arr(3, 2), "lin_b": arr(2),
    "mlp_w1": arr(4, 8), "mlp_b1": arr(8), "mlp_w2": arr(8, 3), "mlp_b2": arr(3),
    "conv_w": arr(2, 1, 3, 3), "conv_b": arr(2),
    "emb_w": arr(5, 3), "head_w": arr(3, 1),
}
X = {
    "lin_x": arr(4, 3), "mlp_x": arr(6, 4), "mlp_y": arr(6, 3), "img": arr(3, 1, 5, 5),
    "ids": np.array([[0, 3, 4], [1, 1, 2]], "int64"),
}


def attr(key):
    return paddle.ParamAttr(initializer=paddle.nn.initializer.Assign(W[key]))


def run(main, startup, feed, fetch, n=5, between=None):
    exe = paddle.static.Executor(paddle.CPUPlace())
    scope = paddle.static.Scope()
    out = []
    with paddle.static.scope_guard(scope):
        exe.run(startup)
        for _ in range(n):
            out.append([np.asarray(v).tolist() for v in exe.run(main, feed=feed, fetch_list=fetch)])
            if between is not None:
                between()
    return out, scope, exe


def linear_sgd():
    main, startup = paddle.static.Program(), paddle.static.Program()
    with paddle.utils.unique_name.guard(), paddle.static.program_guard(main, startup):
        x = paddle.static.data("x", [None, 3], "float32")
        lin = paddle.nn.Linear(3, 2, weight_attr=attr("lin_w"), bias_attr=attr("lin_b"))
        loss = lin(x).mean()
        paddle.optimizer.SGD(0.1).minimize(loss)
    names = [[p.name, p.trainable] for p in main.all_parameters()]
    traj, _, _ = run(main, startup, {"x": X["lin_x"]}, [loss, lin.weight, lin.bias])
    return {"names": names, "loss": [t[0] for t in traj], "weight": traj[-1][1], "bias": traj[-1][2]}


def mlp(opt_name):
    main, startup = paddle.static.Program(), paddle.static.Program()
    with paddle.utils.unique_name.guard(), paddle.static.program_guard(main, startup):
        x = paddle.static.data("x", [None, 4], "float32")
        y = paddle.static.data("y", [None, 3], "float32")
        net = paddle.nn.Sequential(
            paddle.nn.Linear(4, 8, weight_attr=attr("mlp_w1"), bias_attr=attr("mlp_b1")),
            paddle.nn.ReLU(),
            paddle.nn.Linear(8, 3, weight_attr=attr("mlp_w2"), bias_attr=attr("mlp_b2")),
        )
        loss = paddle.nn.functional.mse_loss(net(x), y)
        sched = None
        if opt_name == "sgd":
            opt = paddle.optimizer.SGD(0.1)
        elif opt_name == "momentum_decay_clip":
            opt = paddle.optimizer.Momentum(0.1, momentum=0.9, weight_decay=0.01,
                                            grad_clip=paddle.nn.ClipGradByNorm(0.5))
        elif opt_name == "adam_l2_param":
            opt = paddle.optimizer.Adam(0.05)
        elif opt_name == "sgd_step_decay":
            sched = paddle.optimizer.lr.StepDecay(0.2, step_size=2, gamma=0.5)
            opt = paddle.optimizer.SGD(sched)
        opt.minimize(loss)
    traj, scope, exe = run(main, startup, {"x": X["mlp_x"], "y": X["mlp_y"]}, [loss],
                           between=sched.step if sched is not None else None)
    out = {"loss": [t[0] for t in traj]}
    if opt_name == "sgd":
        out["names"] = [[p.name, p.trainable] for p in main.all_parameters()]
        with paddle.static.scope_guard(scope):
            paddle.static.save(main, os.path.join(HERE, "data", "paddle_static_mlp"))
            os.remove(os.path.join(HERE, "data", "paddle_static_mlp.pdmodel"))  # (Paddle's protobuf: not read)
            out["params"] = {p.name: np.asarray(scope.find_var(p.name).get_tensor()).tolist()
                             for p in main.all_parameters()}
            out["eval"] = np.asarray(exe.run(main.clone(for_test=True), feed={"x": X["mlp_x"], "y": X["mlp_y"]},
                                             fetch_list=[loss])[0]).tolist()
    return out


def mlp_param_regularizer():
    """A ParamAttr(regularizer=L2Decay) on one weight, Adam elsewhere without decay."""
    main, startup = paddle.static.Program(), paddle.static.Program()
    with paddle.utils.unique_name.guard(), paddle.static.program_guard(main, startup):
        x = paddle.static.data("x", [None, 4], "float32")
        y = paddle.static.data("y", [None, 3], "float32")
        w1 = paddle.ParamAttr(initializer=paddle.nn.initializer.Assign(W["mlp_w1"]),
                              regularizer=paddle.regularizer.L2Decay(0.5), learning_rate=2.0)
        net = paddle.nn.Sequential(
            paddle.nn.Linear(4, 8, weight_attr=w1, bias_attr=attr("mlp_b1")), paddle.nn.ReLU(),
            paddle.nn.Linear(8, 3, weight_attr=attr("mlp_w2"), bias_attr=attr("mlp_b2")),
        )
        loss = paddle.nn.functional.mse_loss(net(x), y)
        paddle.optimizer.Adam(0.05).minimize(loss)
    traj, _, _ = run(main, startup, {"x": X["mlp_x"], "y": X["mlp_y"]}, [loss])
    return {"loss": [t[0] for t in traj]}


def conv_bn():
    main, startup = paddle.static.Program(), paddle.static.Program()
    with paddle.utils.unique_name.guard(), paddle.static.program_guard(main, startup):
        img = paddle.static.data("img", [None, 1, 5, 5], "float32")
        conv = paddle.nn.Conv2D(1, 2, 3, weight_attr=attr("conv_w"), bias_attr=attr("conv_b"))
        bn = paddle.nn.BatchNorm2D(2)
        out = bn(conv(img))
        loss = (out * out).mean() + out.mean()
        test = main.clone(for_test=True)
        paddle.optimizer.SGD(0.1).minimize(loss)
    names = [[p.name, p.trainable] for p in main.all_parameters()]
    traj, scope, exe = run(main, startup, {"img": X["img"]}, [loss, bn._mean, bn._variance])
    with paddle.static.scope_guard(scope):
        t = exe.run(test, feed={"img": X["img"]}, fetch_list=[out, bn._mean])
    return {"names": names, "loss": [r[0] for r in traj], "mean": [r[1] for r in traj],
            "variance": [r[2] for r in traj], "test_out": np.asarray(t[0]).tolist(),
            "test_mean": np.asarray(t[1]).tolist()}


def emb_ln():
    main, startup = paddle.static.Program(), paddle.static.Program()
    with paddle.utils.unique_name.guard(), paddle.static.program_guard(main, startup):
        ids = paddle.static.data("ids", [None, 3], "int64")
        emb = paddle.nn.Embedding(5, 3, weight_attr=attr("emb_w"))
        ln = paddle.nn.LayerNorm(3)
        head = paddle.nn.Linear(3, 1, weight_attr=attr("head_w"))
        loss = head(ln(emb(ids))).pow(2).mean()
        paddle.optimizer.SGD(0.1).minimize(loss)
    names = [[p.name, p.trainable] for p in main.all_parameters()]
    traj, _, _ = run(main, startup, {"ids": X["ids"]}, [loss, ln.weight])
    return {"names": names, "loss": [t[0] for t in traj], "ln_weight": traj[-1][1]}


def dropout():
    main, startup = paddle.static.Program(), paddle.static.Program()
    with paddle.utils.unique_name.guard(), paddle.static.program_guard(main, startup):
        x = paddle.static.data("x", [64, 64], "float32")
        out = paddle.nn.Dropout(0.5)(x)
        test = main.clone(for_test=True)
    ones = np.ones((64, 64), "float32")
    exe = paddle.static.Executor(paddle.CPUPlace())
    exe.run(startup)
    a, b = (exe.run(main, feed={"x": ones}, fetch_list=[out])[0] for _ in range(2))
    t = exe.run(test, feed={"x": ones}, fetch_list=[out])[0]
    return {"runs_differ": bool(not np.array_equal(a, b)), "values": sorted({float(v) for v in np.unique(a)}),
            "test_is_identity": bool(np.array_equal(t, ones))}


def shared_name():
    main, startup = paddle.static.Program(), paddle.static.Program()
    with paddle.utils.unique_name.guard(), paddle.static.program_guard(main, startup):
        paddle.nn.Linear(3, 2, weight_attr=paddle.ParamAttr(name="w"))
        paddle.nn.Linear(3, 2, weight_attr=paddle.ParamAttr(name="w"))
        names = [p.name for p in main.all_parameters()]
        try:
            paddle.nn.Linear(3, 4, weight_attr=paddle.ParamAttr(name="w"))
            err = None
        except Exception as e:  # noqa: BLE001
            err = type(e).__name__
    return {"names": names, "mismatch_error": err}


def embedding_padding():
    main, startup = paddle.static.Program(), paddle.static.Program()
    with paddle.static.program_guard(main, startup):
        ids = paddle.static.data("ids", [2], "int64")
        emb = paddle.nn.Embedding(5, 3, padding_idx=1)
        out = emb(ids)
    exe = paddle.static.Executor(paddle.CPUPlace())
    exe.run(startup)
    o, w = exe.run(main, feed={"ids": np.array([1, 2], "int64")}, fetch_list=[out, emb.weight])
    return {"output_row_zero": bool(not o[0].any()), "weight_row_zero": bool(not w[1].any())}


res = {"inputs": {k: v.tolist() for k, v in {**W, **X}.items()}, "linear_sgd": linear_sgd(),
       "mlp": {k: mlp(k) for k in ("sgd", "momentum_decay_clip", "adam_l2_param", "sgd_step_decay")},
       "mlp_param_regularizer": mlp_param_regularizer(), "conv_bn": conv_bn(), "emb_ln": emb_ln(),
       "dropout": dropout(), "shared_name": shared_name(), "embedding_padding": embedding_padding()}
with open(os.path.join(HERE, "data", "paddle_static_layers.json"), "w") as f:
    json.dump(res, f, indent=1, sort_keys=True)
print(json.dumps({k: v for k, v in res.items() if k != "inputs"}, indent=1)[:4000])
