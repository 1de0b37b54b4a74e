"""Record how Paddle 3.3.1 trains ``nn`` layers built in static mode (Program IR, as pylayer_jax's programs).

Run with ``/tmp/paddle/bin/python tests/record_paddle_static_layers.py``; writes
``tests/data/paddle_static_layers.json`` (loss trajectories over 5 ``Executor.run`` calls, parameter
names, batch-norm running statistics, test-clone outputs) and ``tests/data/paddle_static_mlp.pdparams``
/ ``.pdopt`` (``paddle.static.save`` of the trained MLP). Initial weights are fixed with
``ParamAttr(initializer=Assign(...))`` so the numbers do not depend on Paddle's random generator.
"""

import json
import os
import sys

os.environ["FLAGS_enable_pir_api"] = "0"  # the Program IR with named Variables (all_parameters, scope names)

import numpy as np  # noqa: E402
import paddle  # noqa: E402

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import static_layer_cases as cases  # noqa: E402

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


def lists(traj):
    return [[np.asarray(v).tolist() for v in r] for r in traj]


def linear_sgd():
    main, startup, lin, loss = cases.linear_sgd(paddle, W)
    names = [[p.name, p.trainable] for p in main.all_parameters()]
    traj, _, _ = cases.run(paddle, main, startup, {"x": X["lin_x"]}, [loss, lin.weight, lin.bias])
    traj = lists(traj)
    return {"names": names, "loss": [t[0] for t in traj], "weight": traj[-1][1], "bias": traj[-1][2]}


def mlp(opt_name):
    main, startup, _, loss, sched = cases.mlp(paddle, W, opt_name)
    traj, scope, exe = cases.run(paddle, main, startup, {"x": X["mlp_x"], "y": X["mlp_y"]}, [loss],
                                 between=sched.step if sched is not None else None)
    out = {"loss": [t[0] for t in lists(traj)]}
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
    main, startup, _, loss = cases.mlp_param_regularizer(paddle, W)
    traj, _, _ = cases.run(paddle, main, startup, {"x": X["mlp_x"], "y": X["mlp_y"]}, [loss])
    return {"loss": [t[0] for t in lists(traj)]}


def conv_bn():
    main, startup, test, bn, out, loss = cases.conv_bn(paddle, W)
    names = [[p.name, p.trainable] for p in main.all_parameters()]
    traj, scope, exe = cases.run(paddle, main, startup, {"img": X["img"]}, [loss, bn._mean, bn._variance])
    traj = lists(traj)
    with paddle.static.scope_guard(scope):
        t = exe.run(test, feed={"img": X["img"]}, fetch_list=[out, bn._mean])
    return {"names": names, "loss": [r[0] for r in traj], "mean": [r[1] for r in traj],
            "variance": [r[2] for r in traj], "test_out": np.asarray(t[0]).tolist(),
            "test_mean": np.asarray(t[1]).tolist()}


def emb_ln():
    main, startup, ln, loss = cases.emb_ln(paddle, W)
    names = [[p.name, p.trainable] for p in main.all_parameters()]
    traj, _, _ = cases.run(paddle, main, startup, {"ids": X["ids"]}, [loss, ln.weight])
    traj = lists(traj)
    return {"names": names, "loss": [t[0] for t in traj], "ln_weight": traj[-1][1]}


def dropout():
    main, startup, test, out = cases.dropout(paddle)
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
       "mlp": {k: mlp(k) for k in cases.MLP_OPTIMIZERS},
       "mlp_param_regularizer": mlp_param_regularizer(), "conv_bn": conv_bn(), "emb_ln": emb_ln(),
       "dropout": dropout(), "shared_name": shared_name(), "embedding_padding": embedding_padding()}
with open(os.path.join(HERE, "data", "paddle_static_layers.json"), "w") as f:
    json.dump(res, f, indent=1, sort_keys=True)
print(json.dumps({k: v for k, v in res.items() if k != "inputs"}, indent=1)[:4000])
