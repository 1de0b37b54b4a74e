"""The programs behind ``tests/static/test_static_api_*.py``, built by both sides.

``tests/record_paddle_static_api.py`` builds them with real Paddle 3.3.1 (the Program IR:
``FLAGS_enable_pir_api=0``, where the legacy ``paddle.static.nn`` layers run) and stores the numbers in
``tests/data/paddle_static_api.json``; the tests build the same programs with pylayer_jax and compare.
Every builder takes the library module and the arrays ``A`` (inputs and initial weights, fixed with
``Assign`` initializers so no random generator is involved).
"""

from __future__ import annotations

from typing import Any

import numpy as np


def arrays() -> dict[str, np.ndarray]:
    rs = np.random.RandomState(7)

    def a(*shape: int, scale: float = 0.5) -> np.ndarray:
        return np.round(rs.standard_normal(shape) * scale, 3).astype("float32")

    return {
        "x": a(2, 3, 6, 6), "x_nhwc": a(2, 6, 6, 3), "x3": a(2, 2, 4, 5, 5), "v": a(4, 6), "v2": a(4, 5),
        "seq": a(2, 4, 3), "ids": np.array([[0, 3], [1, 4], [1, 1]], "int64"),
        "ids1": np.array([[2], [0], [4]], "int64"),
        "w_conv": a(4, 3, 3, 3), "b_conv": a(4), "w_conv_nhwc": a(5, 3, 2, 2), "w_dw": a(3, 1, 3, 3),
        "w_convt": a(3, 2, 3, 3), "b_convt": a(2), "w_conv3": a(3, 2, 3, 3, 3), "w_conv3t": a(2, 2, 2, 2, 2),
        "bn_scale": a(3) + 1, "bn_bias": a(3), "ln_w": a(36) + 1, "ln_b": a(36), "gn_w": a(3) + 1, "gn_b": a(3),
        "emb": a(5, 4), "prelu_c": a(1, 3, 1, 1), "prelu_e": a(1, 3, 6, 6), "bil_w": a(3, 6, 5), "bil_b": a(1, 3),
        "sn_w": a(4, 6), "sn_u": a(4), "sn_v": a(6), "rc_w": a(3, 3),
        "dc_off": a(2, 18, 6, 6, scale=0.7), "dc_mask": np.round(np.random.RandomState(3).uniform(0, 1, (2, 9, 6, 6)),
                                                                  3).astype("float32"),
        "dc_w": a(4, 3, 3, 3), "dc_b": a(4), "cvm_x": np.abs(a(4, 5)) * 4, "cvm": np.abs(a(4, 2)) * 3,
        "nce_x": a(4, 6), "nce_w": a(5, 6), "nce_b": a(5, 1), "nce_lab": np.array([[1], [0], [3], [2]], "int64"),
        "pred": np.array([[.1, .5, .3, .1], [.6, .1, .2, .1], [.2, .2, .5, .1], [.1, .3, .2, .4]], "float32"),
        "lab4": np.array([[1], [2], [2], [1]], "int64"),
        "p2": np.array([[.3, .7], [.8, .2], [.4, .6], [.9, .1], [.45, .55], [.0, 1.0]], "float32"),
        "lab_auc": np.array([[1], [0], [0], [1], [1], [0]], "int64"),
        "fc_w": a(6, 3), "fc_b": a(3), "img": a(4, 1, 5, 5), "tr_ids": np.array([[0, 2], [1, 3], [4, 4], [2, 0]],
                                                                                 "int64"),
        "tr_conv": a(2, 1, 3, 3), "tr_emb": a(5, 2), "tr_head": a(4, 1), "tr_y": a(4, 1),
    }


def attr(paddle: Any, A: dict[str, np.ndarray], key: str, **kw: Any) -> Any:
    return paddle.ParamAttr(initializer=paddle.nn.initializer.Assign(A[key]), **kw)


def loss_of(paddle: Any, out: Any) -> Any:
    """A scalar that depends non-linearly on every element of ``out``."""
    return paddle.mean(out * out) + paddle.mean(out)


# ---- layers: each builder returns (outputs, inputs to differentiate, feed names, scope overrides) ----------
def _x(paddle: Any, name: str = "x", shape: Any = (None, 3, 6, 6)) -> Any:
    v = paddle.static.data(name, list(shape), "float32")
    v.stop_gradient = False
    return v


def conv2d(paddle, A):  # noqa: ANN001, ANN201, D103
    x = _x(paddle)
    out = paddle.static.nn.conv2d(x, 4, 3, stride=2, padding=1, act="relu", param_attr=attr(paddle, A, "w_conv"),
                                  bias_attr=attr(paddle, A, "b_conv"))
    return [out], [x], ["x"], {}


def conv2d_nhwc_same(paddle, A):  # noqa: ANN001, ANN201, D103
    x = _x(paddle, "x_nhwc", (None, 6, 6, 3))
    out = paddle.static.nn.conv2d(x, 5, 2, padding="SAME", data_format="NHWC",
                                  param_attr=attr(paddle, A, "w_conv_nhwc"), bias_attr=False)
    return [out], [x], ["x_nhwc"], {}


def conv2d_depthwise(paddle, A):  # noqa: ANN001, ANN201, D103
    x = _x(paddle)
    out = paddle.static.nn.conv2d(x, 3, 3, padding=[1, 2], groups=3, use_cudnn=False,
                                  param_attr=attr(paddle, A, "w_dw"), act="tanh")
    return [out], [x], ["x"], {}


def conv2d_transpose(paddle, A):  # noqa: ANN001, ANN201, D103
    x = _x(paddle)
    out = paddle.static.nn.conv2d_transpose(x, 2, filter_size=3, stride=2, padding=1,
                                            param_attr=attr(paddle, A, "w_convt"), bias_attr=attr(paddle, A, "b_convt"))
    return [out], [x], ["x"], {}


def conv2d_transpose_output_size(paddle, A):  # noqa: ANN001, ANN201, D103
    x = _x(paddle)
    out = paddle.static.nn.conv2d_transpose(x, 2, output_size=[13, 13], stride=2,
                                            param_attr=attr(paddle, A, "w_convt"), act="sigmoid")
    return [out], [x], ["x"], {}


def conv3d(paddle, A):  # noqa: ANN001, ANN201, D103
    x = _x(paddle, "x3", (None, 2, 4, 5, 5))
    out = paddle.static.nn.conv3d(x, 3, 3, padding=1, param_attr=attr(paddle, A, "w_conv3"))
    return [out], [x], ["x3"], {}


def conv3d_transpose(paddle, A):  # noqa: ANN001, ANN201, D103
    x = _x(paddle, "x3", (None, 2, 4, 5, 5))
    out = paddle.static.nn.conv3d_transpose(x, 2, filter_size=2, stride=2, param_attr=attr(paddle, A, "w_conv3t"))
    return [out], [x], ["x3"], {}


def batch_norm(paddle, A):  # noqa: ANN001, ANN201, D103
    x = _x(paddle)
    out = paddle.static.nn.batch_norm(x, act="relu", momentum=0.8, param_attr=attr(paddle, A, "bn_scale"),
                                      bias_attr=attr(paddle, A, "bn_bias"))
    return [out], [x], ["x"], {}


def batch_norm_nhwc_test(paddle, A):  # noqa: ANN001, ANN201, D103
    x = _x(paddle, "x_nhwc", (None, 6, 6, 3))
    out = paddle.static.nn.batch_norm(x, is_test=True, data_layout="NHWC", epsilon=1e-3,
                                      param_attr=attr(paddle, A, "bn_scale"), bias_attr=attr(paddle, A, "bn_bias"))
    return [out], [x], ["x_nhwc"], {"batch_norm_0.w_1": A["bn_bias"] * 0.5, "batch_norm_0.w_2": A["bn_scale"] ** 2}


def batch_norm_2d(paddle, A):  # noqa: ANN001, ANN201, D103
    x = _x(paddle, "v", (None, 6))
    out = paddle.static.nn.batch_norm(x)
    return [out], [x], ["v"], {}


def layer_norm(paddle, A):  # noqa: ANN001, ANN201, D103
    x = _x(paddle)
    out = paddle.static.nn.layer_norm(x, begin_norm_axis=2, param_attr=attr(paddle, A, "ln_w"),
                                      bias_attr=attr(paddle, A, "ln_b"), act="tanh")
    return [out], [x], ["x"], {}


def layer_norm_no_scale(paddle, A):  # noqa: ANN001, ANN201, D103
    x = _x(paddle)
    out = paddle.static.nn.layer_norm(x, scale=False, epsilon=1e-3)
    return [out], [x], ["x"], {}


def group_norm(paddle, A):  # noqa: ANN001, ANN201, D103
    x = _x(paddle)
    out = paddle.static.nn.group_norm(x, 3, param_attr=attr(paddle, A, "gn_w"), bias_attr=attr(paddle, A, "gn_b"),
                                      act="relu")
    return [out], [x], ["x"], {}


def group_norm_default(paddle, A):  # noqa: ANN001, ANN201, D103
    x = _x(paddle)
    out = paddle.static.nn.group_norm(x, 1, epsilon=1e-3)
    return [out], [x], ["x"], {}


def instance_norm(paddle, A):  # noqa: ANN001, ANN201, D103
    x = _x(paddle)
    out = paddle.static.nn.instance_norm(x, param_attr=attr(paddle, A, "gn_w"), bias_attr=attr(paddle, A, "gn_b"))
    return [out], [x], ["x"], {}


def instance_norm_default(paddle, A):  # noqa: ANN001, ANN201, D103
    x = _x(paddle)
    out = paddle.static.nn.instance_norm(x)
    return [out], [x], ["x"], {}


def embedding(paddle, A):  # noqa: ANN001, ANN201, D103
    ids = paddle.static.data("ids", [None, 2], "int64")
    out = paddle.static.nn.embedding(ids, [5, 4], padding_idx=-4, param_attr=attr(paddle, A, "emb"))
    return [out], [], ["ids"], {}


def prelu_modes(paddle, A):  # noqa: ANN001, ANN201, D103
    x = _x(paddle)
    a = paddle.static.nn.prelu(x, "all")
    c = paddle.static.nn.prelu(x, "channel", param_attr=attr(paddle, A, "prelu_c"))
    e = paddle.static.nn.prelu(x, "element", param_attr=attr(paddle, A, "prelu_e"))
    return [a, c, e], [x], ["x"], {}


def bilinear_tensor_product(paddle, A):  # noqa: ANN001, ANN201, D103
    x = _x(paddle, "v", (None, 6))
    y = _x(paddle, "v2", (None, 5))
    out = paddle.static.nn.bilinear_tensor_product(x, y, 3, act="tanh", param_attr=attr(paddle, A, "bil_w"),
                                                   bias_attr=attr(paddle, A, "bil_b"))
    return [out], [x, y], ["v", "v2"], {}


def spectral_norm(paddle, A):  # noqa: ANN001, ANN201, D103
    w = paddle.static.create_parameter([4, 6], "float32", attr=attr(paddle, A, "sn_w", name="snw"))
    out = paddle.static.nn.spectral_norm(w, dim=0, power_iters=2)
    return [out], [], [], {"spectral_norm_0.w_0": A["sn_u"], "spectral_norm_0.w_1": A["sn_v"]}


def deform_conv2d(paddle, A):  # noqa: ANN001, ANN201, D103
    x = _x(paddle)
    off = _x(paddle, "dc_off", (None, 18, 6, 6))
    mask = _x(paddle, "dc_mask", (None, 9, 6, 6))
    out = paddle.static.nn.deform_conv2d(x, off, mask, 4, 3, padding=1, weight_attr=attr(paddle, A, "dc_w"),
                                         bias_attr=attr(paddle, A, "dc_b"))
    return [out], [x, off, mask], ["x", "dc_off", "dc_mask"], {}


def deform_conv2d_v1(paddle, A):  # noqa: ANN001, ANN201, D103
    x = _x(paddle)
    off = _x(paddle, "dc_off", (None, 18, 6, 6))
    out = paddle.static.nn.deform_conv2d(x, off, None, 4, 3, padding=1, weight_attr=attr(paddle, A, "dc_w"),
                                         bias_attr=False)
    return [out], [x, off], ["x", "dc_off"], {}


def row_conv(paddle, A):  # noqa: ANN001, ANN201, D103
    x = _x(paddle, "seq", (None, 4, 3))
    out = paddle.static.nn.row_conv(x, 2, param_attr=attr(paddle, A, "rc_w"), act="sigmoid")
    return [out], [x], ["seq"], {}


def cvm(paddle, A):  # noqa: ANN001, ANN201, D103
    x = _x(paddle, "cvm_x", (None, 5))
    c = paddle.static.data("cvm", [None, 2], "float32")
    a = paddle.static.nn.continuous_value_model(x, c, True)
    b = paddle.static.nn.continuous_value_model(x, c, False)
    return [a, b], [x], ["cvm_x", "cvm"], {}


def nce(paddle, A):  # noqa: ANN001, ANN201, D103
    x = _x(paddle, "nce_x", (None, 6))
    lab = paddle.static.data("nce_lab", [None, 1], "int64")
    out = paddle.static.nn.nce(x, lab, 5, param_attr=attr(paddle, A, "nce_w"), bias_attr=attr(paddle, A, "nce_b"),
                               num_neg_samples=3, sampler="custom_dist", custom_dist=[0.0, 0.0, 0.0, 0.0, 1.0])
    return [out], [x], ["nce_x", "nce_lab"], {}


LAYERS = {f.__name__: f for f in (
    conv2d, conv2d_nhwc_same, conv2d_depthwise, conv2d_transpose, conv2d_transpose_output_size, conv3d,
    conv3d_transpose, batch_norm, batch_norm_nhwc_test, batch_norm_2d, layer_norm, layer_norm_no_scale, group_norm,
    group_norm_default, instance_norm, instance_norm_default, embedding, prelu_modes, bilinear_tensor_product,
    spectral_norm, deform_conv2d, deform_conv2d_v1, row_conv, cvm, nce)}
# layers whose gradient is not compared with Paddle's (a note in the test says why)
NO_GRAD = {"spectral_norm"}
FEEDS = {"x": "x", "x_nhwc": "x_nhwc", "x3": "x3", "v": "v", "v2": "v2", "seq": "seq", "ids": "ids",
         "dc_off": "dc_off", "dc_mask": "dc_mask", "cvm_x": "cvm_x", "cvm": "cvm", "nce_x": "nce_x",
         "nce_lab": "nce_lab"}


def run_layer(paddle: Any, A: dict[str, np.ndarray], name: str, runs: int = 2) -> dict[str, Any]:
    """Build the layer case ``name``, run it ``runs`` times; returns parameter names/shapes, outputs of each run,
    the gradients of ``loss_of`` (first run) with respect to the inputs and parameters, and the persistable
    values after the runs."""
    main, startup = paddle.static.Program(), paddle.static.Program()
    with paddle.utils.unique_name.guard(), paddle.static.program_guard(main, startup):
        outs, inputs, feeds, overrides = LAYERS[name](paddle, A)
        params = [p for p in main.all_parameters() if p.trainable]
        loss = sum((loss_of(paddle, o) for o in outs[1:]), loss_of(paddle, outs[0]))
        wrt = [*inputs, *params]
        grads = paddle.static.gradients([loss], wrt) if wrt and name not in NO_GRAD else []
    res_none = [g is None for g in grads]
    grads = [g for g in grads if g is not None]
    exe = paddle.static.Executor(paddle.CPUPlace())
    scope = paddle.static.Scope()
    res: dict[str, Any] = {"params": [[p.name, list(p.shape), bool(p.trainable)] for p in main.all_parameters()],
                           "grad_none": res_none}
    with paddle.static.scope_guard(scope):
        exe.run(startup)
        for k, v in overrides.items():
            scope.find_var(k).get_tensor().set(v, paddle.CPUPlace())
        feed = {f: A[FEEDS[f]] for f in feeds}
        runs_out = []
        for i in range(runs):
            got = exe.run(main, feed=feed, fetch_list=[*outs, *(grads if i == 0 else [])])
            runs_out.append([np.asarray(g).tolist() for g in got[:len(outs)]])
            if i == 0:
                res["grads"] = [np.asarray(g).tolist() for g in got[len(outs):]]
        res["outputs"] = runs_out
        res["state"] = {p.name: np.asarray(scope.find_var(p.name).get_tensor()).tolist() for p in main.all_parameters()}
    return res


# ---- training through static.nn layers ---------------------------------------------------------------------
def train(paddle: Any, A: dict[str, np.ndarray], opt_name: str) -> tuple[Any, ...]:
    """conv2d + batch_norm on images and embedding on ids, a fc head, trained with ``opt_name``:
    (main, startup, loss, test program, feed)."""
    main, startup = paddle.static.Program(), paddle.static.Program()
    with paddle.utils.unique_name.guard(), paddle.static.program_guard(main, startup):
        img = paddle.static.data("img", [None, 1, 5, 5], "float32")
        ids = paddle.static.data("tr_ids", [None, 2], "int64")
        y = paddle.static.data("tr_y", [None, 1], "float32")
        h = paddle.static.nn.conv2d(img, 2, 3, param_attr=attr(paddle, A, "tr_conv"), act="relu")
        h = paddle.static.nn.batch_norm(h)
        h = paddle.mean(h, axis=[2, 3])
        e = paddle.static.nn.embedding(ids, [5, 2], param_attr=attr(paddle, A, "tr_emb"))
        e = paddle.mean(e, axis=1)
        feat = paddle.concat([h, e], axis=1)
        pred = paddle.static.nn.fc(feat, 1, weight_attr=attr(paddle, A, "tr_head"))
        loss = paddle.mean((pred - y) ** 2)
        test = main.clone(for_test=True)
        opt = paddle.optimizer.SGD(0.2) if opt_name == "sgd" else paddle.optimizer.Adam(0.05)
        opt.minimize(loss)
    return main, startup, loss, test, {"img": A["img"], "tr_ids": A["tr_ids"], "tr_y": A["tr_y"]}


# ---- case / switch_case ------------------------------------------------------------------------------------
def branches(paddle: Any) -> tuple[Any, ...]:
    """case and switch_case on fed values: (main, startup, x, i, outputs, grads)."""
    main, startup = paddle.static.Program(), paddle.static.Program()
    with paddle.static.program_guard(main, startup):
        x = paddle.static.data("bx", [3], "float32")
        x.stop_gradient = False
        i = paddle.static.data("bi", [1], "int64")
        s = paddle.mean(x) * 3.0
        c = paddle.static.nn.case([(s < -1.0, lambda: x * 2.0), (s < 1.0, lambda: paddle.exp(x))], lambda: x * x)
        c2 = paddle.static.nn.case([(s < 0.0, lambda: x - 1.0), (s > 5.0, lambda: x + 1.0)])
        w = paddle.static.nn.switch_case(i, {1: lambda: x * 3.0, 3: lambda: paddle.sin(x)}, lambda: x / 2.0)
        w2 = paddle.static.nn.switch_case(i, [lambda: x + 10.0, lambda: x * x * x])
        loss = paddle.mean(c) + paddle.mean(c2 * c2) + paddle.mean(w) + paddle.mean(w2)
        (g,) = paddle.static.gradients([loss], [x])
    return main, startup, [c, c2, w, w2, g]


BRANCH_FEEDS = [([-2.0, 0.5, 0.1], 1), ([0.1, 0.2, 0.3], 3), ([1.0, 2.0, 3.0], 0), ([3.0, 2.0, 1.0], 7),
                ([-0.5, 0.1, 0.1], 2)]


# ---- ExponentialMovingAverage --------------------------------------------------------------------------------
def ema(paddle: Any, A: dict[str, np.ndarray], thres: bool) -> tuple[Any, ...]:
    """fc trained with SGD and an EMA of its parameters: (main, startup, test, loss, ema, weight, bias)."""
    main, startup = paddle.static.Program(), paddle.static.Program()
    with paddle.utils.unique_name.guard(), paddle.static.program_guard(main, startup):
        x = paddle.static.data("v", [None, 6], "float32")
        out = paddle.static.nn.fc(x, 3, weight_attr=attr(paddle, A, "fc_w", name="ew"),
                                  bias_attr=attr(paddle, A, "fc_b", name="eb"))
        loss = paddle.mean(out * out)
        test = main.clone(for_test=True)
        paddle.optimizer.SGD(0.3).minimize(loss)
        steps = None
        if thres:
            steps = paddle.static.create_global_var([1], 0.0, "float32", persistable=True, name="my_steps")
            paddle.assign(steps + 1.0, output=steps)
        e = paddle.static.ExponentialMovingAverage(0.9, thres_steps=steps)
        e.update()
    return main, startup, test, loss, e, main.global_block().var("ew"), main.global_block().var("eb")


# ---- metrics ---------------------------------------------------------------------------------------------------
def metrics(paddle: Any) -> tuple[Any, ...]:
    main, startup = paddle.static.Program(), paddle.static.Program()
    with paddle.static.program_guard(main, startup):
        pred = paddle.static.data("pred", [None, 4], "float32")
        lab = paddle.static.data("lab4", [None, 1], "int64")
        p2 = paddle.static.data("p2", [None, 2], "float32")
        la = paddle.static.data("lab_auc", [None, 1], "int64")
        a1 = paddle.static.accuracy(pred, lab, k=1)
        a2 = paddle.static.accuracy(pred, lab, k=2)
        auc1 = paddle.static.auc(p2, la, num_thresholds=7, slide_steps=2)
        auc0 = paddle.static.auc(p2, la, num_thresholds=15, slide_steps=0)
    return main, startup, [a1, a2, auc1[0], auc1[1], *auc1[2], auc0[0], auc0[1], *auc0[2]]
