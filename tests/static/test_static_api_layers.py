"""``paddle.static.nn``'s legacy layers against Paddle 3.3.1 (Program IR), and training through them.

Numbers from ``tests/record_paddle_static_api.py`` (programs in ``tests/static_api_cases.py``): parameter
names, shapes and trainability, the outputs of two runs, the gradients of a scalar of the outputs with
respect to the inputs and parameters, and the persistable values after the runs (batch-norm statistics).
"""

from __future__ import annotations

import json
import os

import jax
import jax.numpy as jnp
import numpy as np
import pytest
import static_api_cases as cases

import pylayer_jax as paddle

DATA = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "data")
with open(os.path.join(DATA, "paddle_static_api.json")) as _f:
    REF = json.load(_f)
A = cases.arrays()
# Paddle lists spectral_norm's u and v as trainable although it sets stop_gradient on them (they are never
# updated); nce with a custom distribution adds three parameters holding its alias tables, which the sampler
# here does not need
PARAM_NOTES = {"spectral_norm": lambda p: [[n, s, n == "snw"] for n, s, _ in p],
               "nce": lambda p: p[:2]}


@pytest.fixture(autouse=True)
def _static_mode():
    paddle.enable_static()
    yield
    paddle.disable_static()


def close(a, b, rtol=1e-4, atol=1e-5):
    np.testing.assert_allclose(np.asarray(a, "float64"), np.asarray(b, "float64"), rtol=rtol, atol=atol)


@pytest.mark.parametrize("name", sorted(cases.LAYERS))
def test_layer_matches_paddle(name):
    ref = REF["layers"][name]
    got = cases.run_layer(paddle, A, name)
    assert got["params"] == PARAM_NOTES.get(name, lambda p: p)(ref["params"])
    assert got["grad_none"] == ref["grad_none"][:len(got["grad_none"])]
    for r_got, r_ref in zip(got["outputs"], ref["outputs"], strict=True):
        for a, b in zip(r_got, r_ref, strict=True):
            close(a, b)
    if name == "group_norm_default":
        return  # (its gradient: test_group_norm_without_affine_gradient_is_the_derivative)
    for a, b in zip(got["grads"], ref["grads"], strict=True):
        close(a, b)
    for k, v in got["state"].items():
        close(v, ref["state"][k])


def test_group_norm_without_affine_gradient_is_the_derivative():
    """Paddle 3.3.1's group_norm kernel, given no scale, returns an input gradient up to 0.0097 off the
    derivative here; ours is jax.grad's."""
    got = cases.run_layer(paddle, A, "group_norm_default", runs=1)
    x = jnp.asarray(A["x"], jnp.float64)

    def loss(x):
        xr = x.reshape(2, -1)
        m = xr.mean(1, keepdims=True)
        o = ((xr - m) / jnp.sqrt(((xr - m) ** 2).mean(1, keepdims=True) + 1e-3)).reshape(x.shape)
        return jnp.mean(o * o) + jnp.mean(o)

    close(got["grads"][0], jax.grad(loss)(x), atol=1e-6)
    close(got["outputs"][0][0], REF["layers"]["group_norm_default"]["outputs"][0][0])
    assert np.abs(np.asarray(REF["layers"]["group_norm_default"]["grads"][0]) - jax.grad(loss)(x)).max() > 5e-3


@pytest.mark.parametrize("opt", ["sgd", "adam"])
def test_training_conv_batch_norm_embedding_matches_paddle(opt):
    ref = REF["training"][opt]
    main, startup, loss, test, feed = cases.train(paddle, A, opt)
    assert [[p.name, p.shape, p.trainable] for p in main.all_parameters()] == ref["names"]
    exe = paddle.static.Executor(paddle.CPUPlace())
    scope = paddle.static.Scope()
    with paddle.static.scope_guard(scope):
        exe.run(startup)
        losses = [float(exe.run(main, feed=feed, fetch_list=[loss])[0]) for _ in range(5)]
        ev = float(exe.run(test, feed=feed, fetch_list=[loss])[0])
        params = {k: np.asarray(scope.find_var(k).get_tensor()) for k in ref["params"]}
    close(losses, ref["loss"], rtol=2e-5)
    close(ev, ref["eval"], rtol=2e-5)
    for k, v in ref["params"].items():
        close(params[k], v, rtol=1e-4, atol=2e-6)


# ---- what Paddle cannot run: against numpy ---------------------------------------------------------------
def _run(build, feed, n=1):
    main, startup = paddle.static.Program(), paddle.static.Program()
    with paddle.utils.unique_name.guard(), paddle.static.program_guard(main, startup):
        fetch = build()
    exe = paddle.static.Executor()
    scope = paddle.static.Scope()
    with paddle.static.scope_guard(scope):
        exe.run(startup)
        out = [exe.run(main, feed=feed, fetch_list=fetch) for _ in range(n)]
    return main, out, scope


def test_row_conv_of_a_2d_input_is_one_sequence():
    """Paddle 3.3.1 returns zeros for a [T, D] input without LoD; here it is one sequence, as the 3-D form per
    batch row (checked against numpy)."""
    x = A["seq"][0]
    w = A["rc_w"]

    def build():
        v = paddle.static.data("s", [None, 3], "float32")
        return [paddle.static.nn.row_conv(v, 2, param_attr=cases.attr(paddle, A, "rc_w"))]

    _, out, _ = _run(build, {"s": x})
    want = sum(np.concatenate([x[j:], np.zeros((j, 3), "float32")]) * w[j] for j in range(3))
    close(out[0][0], want, atol=1e-6)
    np.testing.assert_allclose(np.asarray(REF["layers"]["row_conv"]["outputs"][0][0])[0],
                               1 / (1 + np.exp(-want)), rtol=1e-5, atol=1e-6)  # (Paddle's 3-D form, first row)


def test_sparse_embedding_looks_up_rows_of_its_table():
    """Paddle's Executor cannot run sparse_embedding without parameter servers; here its table is a program
    parameter: ids [N, 1] -> rows [N, D], padding_idx reads zeros, and it trains."""
    def build():
        ids = paddle.static.data("ids1", [None, 1], "int64")
        out = paddle.static.nn.sparse_embedding(ids, [5, 4], padding_idx=0, param_attr=cases.attr(paddle, A, "emb"))
        loss = paddle.mean(out * out)
        paddle.optimizer.SGD(1.0).minimize(loss)
        return [out]

    main, out, scope = _run(build, {"ids1": A["ids1"]}, n=2)
    assert [p.name for p in main.all_parameters()] == ["sparse_embedding_0.w_0"]
    want = A["emb"][A["ids1"][:, 0]] * (A["ids1"] != 0)
    close(out[0][0], want, atol=0)
    table = np.asarray(scope.find_var("sparse_embedding_0.w_0").get_tensor())
    upd = A["emb"].copy()
    upd[[2, 4]] *= (1 - 2 / 12) ** 2  # two SGD steps: d mean(out^2) / d row = 2 row / (3 * 4)
    close(table, upd, atol=1e-6)


def test_nce_cost_against_numpy_with_deterministic_samples():
    """With all sampling mass on one class every negative is that class: the cost is checked against the
    formula in numpy (Paddle gives the same, test_layer_matches_paddle[nce])."""
    got = REF["layers"]["nce"]["outputs"][0][0]
    x, w, b, lab = A["nce_x"], A["nce_w"], A["nce_b"][:, 0], A["nce_lab"][:, 0]
    o_t = 1 / (1 + np.exp(-((x * w[lab]).sum(1) + b[lab])))
    o_n = 1 / (1 + np.exp(-((x * w[4]).sum(1) + b[4])))
    q_t = 3.0 * (lab == 4)
    q_n = 3.0
    cost = -np.log(o_t / (o_t + q_t)) - 3 * np.log(q_n / (o_n + q_n))
    close(got, (cost / 4)[:, None])


def test_nce_uniform_samples_are_drawn_anew_each_run():
    def build():
        x = paddle.static.data("nce_x", [None, 6], "float32")
        lab = paddle.static.data("nce_lab", [None, 1], "int64")
        return [paddle.static.nn.nce(x, lab, 50, num_neg_samples=5)]

    paddle.seed(3)
    _, out, _ = _run(build, {"nce_x": A["nce_x"], "nce_lab": A["nce_lab"]}, n=3)
    costs = [o[0] for o in out]
    assert costs[0].shape == (4, 1) and np.isfinite(costs[0]).all()
    assert not np.allclose(costs[0], costs[1])


def test_weight_norm_param_attr_reparameterises_the_weight():
    """WeightNormParamAttr: w = g * v / ||v|| (norm over every axis but dim), g starting at ||v||, so the first
    output equals the plain layer's; both g and v train."""
    attr = paddle.static.WeightNormParamAttr(dim=1, name="wn", initializer=paddle.nn.initializer.Assign(A["fc_w"]))

    def build():
        x = paddle.static.data("v", [None, 6], "float32")
        out = paddle.static.nn.fc(x, 3, weight_attr=attr, bias_attr=False)
        paddle.optimizer.SGD(0.5).minimize(paddle.mean(out * out))
        return [out]

    main, out, scope = _run(build, {"v": A["v"]}, n=2)
    assert sorted(p.name for p in main.all_parameters()) == ["wn_g", "wn_v"]
    close(out[0][0], A["v"] @ A["fc_w"], atol=1e-5)
    g = np.asarray(scope.find_var("wn_g").get_tensor())
    v = np.asarray(scope.find_var("wn_v").get_tensor())
    assert g.shape == (1, 3)

    def fwd(g, v):
        return A["v"] @ (g * v / jnp.sqrt((v * v).sum(0, keepdims=True)))

    def step(g, v):
        dg, dv = jax.grad(lambda g, v: jnp.mean(fwd(g, v) ** 2), argnums=(0, 1))(g, v)
        return g - 0.5 * dg, v - 0.5 * dv

    g1, v1 = step(jnp.sqrt((A["fc_w"] ** 2).sum(0, keepdims=True)), jnp.asarray(A["fc_w"]))
    g2, v2 = step(g1, v1)
    close(out[1][0], fwd(g1, v1), atol=1e-5)
    close(g, g2, atol=1e-6)
    close(v, v2, atol=1e-6)


@pytest.mark.parametrize("call, exc, match", [
    (lambda x: paddle.static.nn.conv2d(x, 4, 3, groups=2), ValueError, r"channels \(3\) must be divisible by groups"),
    (lambda x: paddle.static.nn.conv2d(x, 4, 3, data_format="NCL"), ValueError, "data_format must be 'NCHW'"),
    (lambda x: paddle.static.nn.conv2d(x, 4, 3, use_cudnn=1), ValueError, "use_cudnn must be True or False"),
    (lambda x: paddle.static.nn.conv3d(x, 4, 3), ValueError, r"input must be 5-D"),
    (lambda x: paddle.static.nn.conv2d_transpose(x, 2), ValueError, "output_size must be given"),
    (lambda x: paddle.static.nn.batch_norm(x, bias_attr=False), ValueError, "bias_attr=False is not allowed"),
    (lambda x: paddle.static.nn.layer_norm(x, epsilon=0.1), ValueError, r"epsilon must be in \[0, 0.001\]"),
    (lambda x: paddle.static.nn.group_norm(x, 2), ValueError, r"dividing the channels \(3\)"),
    (lambda x: paddle.static.nn.prelu(x, "row"), ValueError, "mode must be 'all', 'channel' or 'element'"),
    (lambda x: paddle.static.nn.embedding(x, [5, 4]), TypeError, "int32 or int64 ids"),
    (lambda x: paddle.static.nn.spectral_norm(x, dim=2), ValueError, "dim must be 0"),
    (lambda x: paddle.static.nn.conv2d(x, 4, 3, act="swishy"), ValueError, "act must be None or one of"),
    (lambda x: paddle.static.nn.deform_conv2d(x, x, None, 4, 3), ValueError, r"offset must have shape \[N, 18"),
])
def test_layer_misuse_raises(call, exc, match):
    main, startup = paddle.static.Program(), paddle.static.Program()
    with paddle.static.program_guard(main, startup):
        x = paddle.static.data("x", [None, 3, 6, 6], "float32")
        with pytest.raises(exc, match=match):
            call(x)


def test_layers_need_static_variables():
    paddle.disable_static()
    with pytest.raises(TypeError, match="static.nn.conv2d: input must be a Variable of a static program"):
        paddle.static.nn.conv2d(paddle.ones([1, 3, 4, 4]), 2, 3)
    paddle.enable_static()
