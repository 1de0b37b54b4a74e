"""nn layers built in static mode: program parameters, training through Executor.run, against Paddle.

The numbers come from ``tests/record_paddle_static_layers.py`` (Paddle 3.3.1, Program IR); initial
weights are fixed with ``ParamAttr(initializer=Assign(...))``.
"""

from __future__ import annotations

import copy
import json
import os

import numpy as np
import pytest
import static_layer_cases as cases

import pylayer_jax as paddle

DATA = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "data")
with open(os.path.join(DATA, "paddle_static_layers.json")) as _f:
    REF = json.load(_f)
IN = {k: np.asarray(v, "int64" if k == "ids" else "float32") for k, v in REF["inputs"].items()}


@pytest.fixture(autouse=True)
def _static_mode():
    paddle.enable_static()
    yield
    paddle.disable_static()


def programs():
    return cases.programs(paddle)


def run(main, startup, feed, fetch, n=5, between=None):
    return cases.run(paddle, main, startup, feed, fetch, n, between)


def names(main):
    return [[p.name, p.trainable] for p in main.all_parameters()]


def close(a, b, rtol=1e-5, atol=1e-6):
    np.testing.assert_allclose(np.asarray(a, "float64"), np.asarray(b, "float64"), rtol=rtol, atol=atol)


def test_linear_trains_with_sgd_as_paddle():
    ref = REF["linear_sgd"]
    main, startup, lin, loss = cases.linear_sgd(paddle, IN)
    assert isinstance(lin.weight, paddle.static.Parameter) and lin.weight.persistable
    assert names(main) == ref["names"]
    traj, scope, _ = run(main, startup, {"x": IN["lin_x"]}, [loss, lin.weight, lin.bias])
    close([t[0] for t in traj], ref["loss"])
    close(traj[-1][1], ref["weight"])
    close(traj[-1][2], ref["bias"])
    close(np.asarray(scope.find_var("linear_0.w_0").get_tensor()), ref["weight"])  # the scope holds it


def _mlp(opt_name):
    return cases.mlp(paddle, IN, opt_name)


@pytest.mark.parametrize("opt_name", cases.MLP_OPTIMIZERS)
def test_sequential_mlp_trajectory_matches_paddle(opt_name):
    main, startup, _, loss, sched = _mlp(opt_name)
    traj, _, _ = run(main, startup, {"x": IN["mlp_x"], "y": IN["mlp_y"]}, [loss],
                     between=sched.step if sched is not None else None)
    close([t[0] for t in traj], REF["mlp"][opt_name]["loss"])


def test_mlp_parameters_listed_and_test_clone_evaluates():
    ref = REF["mlp"]["sgd"]
    main, startup, net, loss, _ = _mlp("sgd")
    assert names(main) == ref["names"]
    assert [p.name for p in net.parameters()] == [n for n, _ in ref["names"]]
    traj, scope, exe = run(main, startup, {"x": IN["mlp_x"], "y": IN["mlp_y"]}, [loss])
    for name, value in ref["params"].items():
        close(np.asarray(scope.find_var(name).get_tensor()), value)
    with paddle.static.scope_guard(scope):
        ev = exe.run(main.clone(for_test=True), feed={"x": IN["mlp_x"], "y": IN["mlp_y"]}, fetch_list=[loss])[0]
    close(ev, ref["eval"])


def test_param_attr_regularizer_and_learning_rate_are_applied():
    main, startup, net, loss = cases.mlp_param_regularizer(paddle, IN)
    assert net[0].weight.optimize_attr == {"learning_rate": 2.0}
    traj, _, _ = run(main, startup, {"x": IN["mlp_x"], "y": IN["mlp_y"]}, [loss])
    close([t[0] for t in traj], REF["mlp_param_regularizer"]["loss"])


def test_conv_batchnorm_running_stats_update_per_run_and_test_clone_uses_them():
    ref = REF["conv_bn"]
    main, startup, test, bn, out, loss = cases.conv_bn(paddle, IN)
    assert names(main) == ref["names"]
    assert bn._mean.persistable and not bn._mean.trainable
    traj, scope, exe = run(main, startup, {"img": IN["img"]}, [loss, bn._mean, bn._variance])
    close([t[0] for t in traj], ref["loss"])
    close([t[1] for t in traj], ref["mean"])
    close([t[2] for t in traj], ref["variance"])
    with paddle.static.scope_guard(scope):
        t_out, t_mean = exe.run(test, feed={"img": IN["img"]}, fetch_list=[out, bn._mean])
        again = exe.run(test, feed={"img": IN["img"]}, fetch_list=[bn._mean])[0]
    close(t_out, ref["test_out"], rtol=1e-4, atol=1e-5)
    close(t_mean, ref["test_mean"])
    close(again, ref["test_mean"])  # the test program leaves the statistics alone


def test_embedding_layernorm_trajectory_matches_paddle():
    ref = REF["emb_ln"]
    main, startup, ln, loss = cases.emb_ln(paddle, IN)
    assert names(main) == ref["names"]
    traj, _, _ = run(main, startup, {"ids": IN["ids"]}, [loss, ln.weight])
    close([t[0] for t in traj], ref["loss"], rtol=1e-4)
    close(traj[-1][1], ref["ln_weight"], rtol=1e-4)


def test_dropout_draws_anew_each_run_and_is_identity_in_the_test_clone():
    ref = REF["dropout"]
    main, startup, test, out = cases.dropout(paddle)
    ones = np.ones((64, 64), "float32")
    exe = paddle.static.Executor()
    exe.run(startup)
    a, b = (exe.run(main, feed={"x": ones}, fetch_list=[out])[0] for _ in range(2))
    t = exe.run(test, feed={"x": ones}, fetch_list=[out])[0]
    assert (not np.array_equal(a, b)) == ref["runs_differ"]
    assert sorted({float(v) for v in np.unique(a)}) == ref["values"]
    assert 0.4 < (a == 0).mean() < 0.6
    assert np.array_equal(t, ones) == ref["test_is_identity"]


def test_parameters_of_one_name_are_shared_and_a_shape_mismatch_raises():
    ref = REF["shared_name"]
    main, startup = programs()
    with paddle.utils.unique_name.guard(), paddle.static.program_guard(main, startup):
        a = paddle.nn.Linear(3, 2, weight_attr=paddle.ParamAttr(name="w"))
        b = paddle.nn.Linear(3, 2, weight_attr=paddle.ParamAttr(name="w"))
        assert [p.name for p in main.all_parameters()] == ref["names"]
        assert a.weight is b.weight
        assert ref["mismatch_error"] == "ValueError"
        with pytest.raises(ValueError, match=r"variable 'w' has been created before .* shape \[3, 2\].*\[3, 4\]"):
            paddle.nn.Linear(3, 4, weight_attr=paddle.ParamAttr(name="w"))


def test_create_parameter_apis_make_program_parameters():
    main, startup = programs()
    with paddle.utils.unique_name.guard(), paddle.static.program_guard(main, startup):
        p = paddle.create_parameter([2], "float32", default_initializer=paddle.nn.initializer.Constant(3.0))
        q = paddle.static.create_parameter([2, 2], "float32", attr=paddle.ParamAttr(name="q", trainable=False))
        layer = paddle.nn.Layer()
        r = layer.create_parameter([3], is_bias=True)
    assert (p.name, q.name, r.name) == ("create_parameter_0.w_0", "q", "layer_0.b_0")
    assert [v.name for v in main.all_parameters()] == ["create_parameter_0.w_0", "q", "layer_0.b_0"]
    assert not q.trainable and p.trainable
    exe = paddle.static.Executor()
    scope = paddle.static.Scope()
    with paddle.static.scope_guard(scope):
        exe.run(startup)
    assert np.asarray(scope.find_var(p.name).get_tensor()).tolist() == [3.0, 3.0]
    assert np.asarray(scope.find_var(r.name).get_tensor()).tolist() == [0.0, 0.0, 0.0]
    w = np.asarray(scope.find_var("q").get_tensor())
    assert w.shape == (2, 2) and np.abs(w).max() <= np.sqrt(6 / 4) and np.unique(w).size == 4  # XavierUniform


def test_paddle_seed_repeats_the_startup_initialisation():
    main, startup = programs()
    with paddle.static.program_guard(main, startup):
        lin = paddle.nn.Linear(4, 4)
    vals = []
    for _ in range(2):
        paddle.seed(11)
        scope = paddle.static.Scope()
        with paddle.static.scope_guard(scope):
            paddle.static.Executor().run(startup)
        vals.append(np.asarray(scope.find_var(lin.weight.name).get_tensor()))
    np.testing.assert_array_equal(vals[0], vals[1])


def test_layer_parameters_are_variables_not_values_while_building():
    main, startup = programs()
    with paddle.static.program_guard(main, startup):
        lin = paddle.nn.Linear(2, 2)
        with pytest.raises(RuntimeError, match=r"copy.deepcopy: the static-program parameter .* cannot be copied"):
            copy.deepcopy(lin.weight)
        with pytest.raises(TypeError, match=r"Variable.set_value: .* must be a Variable of the same program"):
            lin.weight.set_value(np.zeros((2, 2), "float32"))
        with pytest.raises(RuntimeError, match=r"no value while the program is being built"):
            lin.weight.numpy()


def test_load_reads_the_parameters_paddle_saved():
    ref = REF["mlp"]["sgd"]
    main, startup, _, loss, _ = _mlp("sgd")
    exe = paddle.static.Executor()
    scope = paddle.static.Scope()
    with paddle.static.scope_guard(scope):
        exe.run(startup)
        paddle.static.load(main, os.path.join(DATA, "paddle_static_mlp"))
        ev = exe.run(main.clone(for_test=True), feed={"x": IN["mlp_x"], "y": IN["mlp_y"]}, fetch_list=[loss])[0]
    for name, value in ref["params"].items():
        close(np.asarray(scope.find_var(name).get_tensor()), value)
    close(ev, ref["eval"])


def test_save_then_load_resumes_training_exactly(tmp_path):
    feed = {"x": IN["mlp_x"], "y": IN["mlp_y"]}
    main, startup, _, loss, _ = _mlp("momentum_decay_clip")
    whole, _, _ = run(main, startup, feed, [loss], n=4)
    exe = paddle.static.Executor()
    first = paddle.static.Scope()
    with paddle.static.scope_guard(first):
        exe.run(startup)
        for _ in range(2):
            exe.run(main, feed=feed, fetch_list=[loss])
        paddle.static.save(main, str(tmp_path / "ckpt" / "mlp"))
    assert sorted(os.listdir(tmp_path / "ckpt")) == ["mlp.pdopt", "mlp.pdparams"]
    second = paddle.static.Scope()
    with paddle.static.scope_guard(second):
        exe.run(startup)
        paddle.static.load(main, str(tmp_path / "ckpt" / "mlp.pdparams"))
        rest = [exe.run(main, feed=feed, fetch_list=[loss])[0] for _ in range(2)]
    close(rest, [w[0] for w in whole[2:]])


def test_save_and_load_errors(tmp_path):
    main, startup, _, loss, _ = _mlp("sgd")
    with pytest.raises(RuntimeError, match=r"paddle.static.save: the scope holds no value for .*run the startup"):
        with paddle.static.scope_guard(paddle.static.Scope()):
            paddle.static.save(main, str(tmp_path / "m"))
    with pytest.raises(ValueError, match=r"paddle.static.save: protocol must be an int in \[2, 4\].*received 5"):
        paddle.static.save(main, str(tmp_path / "m"), protocol=5)
    with pytest.raises(ValueError, match=r"paddle.static.load: .*nothing.pdparams does not exist"):
        paddle.static.load(main, str(tmp_path / "nothing"))
    other, other_start = programs()
    with paddle.utils.unique_name.guard(), paddle.static.program_guard(other, other_start):
        paddle.nn.Linear(4, 5)
    scope = paddle.static.Scope()
    with paddle.static.scope_guard(scope):
        paddle.static.Executor().run(other_start)
        paddle.static.save(other, str(tmp_path / "other"))
        before = np.asarray(scope.find_var("linear_0.w_0").get_tensor())
        with pytest.raises(ValueError, match=r"linear_0.w_0 has shape \[4, 5\] in .* but the program declares \[4, 8\]"):
            paddle.static.load(main, str(tmp_path / "other"))
        np.testing.assert_array_equal(np.asarray(scope.find_var("linear_0.w_0").get_tensor()), before)


def test_load_with_var_list_sets_only_those_variables(tmp_path):
    main, startup, net, loss, _ = _mlp("momentum_decay_clip")
    feed = {"x": IN["mlp_x"], "y": IN["mlp_y"]}
    exe = paddle.static.Executor()
    scope = paddle.static.Scope()
    with paddle.static.scope_guard(scope):
        exe.run(startup)
        exe.run(main, feed=feed, fetch_list=[loss])
        paddle.static.save(main, str(tmp_path / "mlp"))
        saved = {v.name: np.asarray(scope.find_var(v.name).get_tensor()).copy() for v in main.list_vars()
                 if v.persistable and scope.find_var(v.name) is not None}
        for name, value in saved.items():  # every persistable value changed in the scope
            scope.find_var(name).get_tensor().set(value + 5, paddle.CPUPlace())
        velocity = next(v for v in main.list_vars() if v.persistable and "velocity" in v.name)
        chosen = [net[0].weight, net[2].bias, velocity]
        paddle.static.load(main, str(tmp_path / "mlp"), exe, var_list=chosen)
        for name, value in saved.items():
            got = np.asarray(scope.find_var(name).get_tensor())
            want = value if name in {v.name for v in chosen} else value + 5
            np.testing.assert_array_equal(got, want, err_msg=name)
        paddle.static.load(main, str(tmp_path / "mlp"), exe, var_list=[])  # nothing to load
        np.testing.assert_array_equal(np.asarray(scope.find_var(net[0].bias.name).get_tensor()),
                                      saved[net[0].bias.name] + 5)


def test_load_var_list_errors(tmp_path):
    main, startup, net, loss, _ = _mlp("sgd")
    other, other_start = programs()
    with paddle.utils.unique_name.guard("other_"), paddle.static.program_guard(other, other_start):
        foreign = paddle.nn.Linear(2, 2).weight
    scope = paddle.static.Scope()
    with paddle.static.scope_guard(scope):
        paddle.static.Executor().run(startup)
        paddle.static.save(main, str(tmp_path / "m"))
        x = main.global_block().var("x")
        with pytest.raises(LookupError, match=r"paddle.static.load: the variable \S*linear_0.w_0 in var_list is "
                                              r"not in the program's variable list"):
            paddle.static.load(main, str(tmp_path / "m"), var_list=[foreign])
        with pytest.raises(ValueError, match=r"paddle.static.load: the variable x in var_list is not persistable"):
            paddle.static.load(main, str(tmp_path / "m"), var_list=[x])
        with pytest.raises(TypeError, match=r"paddle.static.load: var_list must hold Variables of the program, but "
                                            r"received str"):
            paddle.static.load(main, str(tmp_path / "m"), var_list=["linear_0.w_0"])
        with pytest.raises(TypeError, match=r"paddle.static.load: var_list must be a list"):
            paddle.static.load(main, str(tmp_path / "m"), var_list=net[0].weight)


_FORWARD_CASES = [
    ("nn.LSTM(4, 5)", [2, 3, 4], 1), ("nn.GRU(4, 5, num_layers=2, direction='bidirect')", [2, 3, 4], 1),
    ("nn.TransformerEncoderLayer(4, 2, 8, dropout=0.0)", [2, 3, 4], 1), ("nn.MultiHeadAttention(4, 2)", [2, 3, 4], 3),
    ("nn.GroupNorm(2, 4)", [2, 4, 3], 1), ("nn.InstanceNorm1D(4)", [2, 4, 3], 1), ("nn.Bilinear(4, 4, 3)", [2, 4], 2),
    ("nn.PReLU(3)", [2, 3], 1), ("nn.Conv2DTranspose(2, 3, 3, stride=2)", [1, 2, 3, 3], 1),
    ("nn.Embedding(5, 3, padding_idx=1)", [2, 3], 1),
]


@pytest.mark.parametrize("expr,shape,n_in", _FORWARD_CASES, ids=[c[0] for c in _FORWARD_CASES])
def test_layer_forward_in_a_program_matches_eager_with_the_same_weights(expr, shape, n_in):
    nn = paddle.nn  # noqa: F841  (the expressions name it)
    ints = "Embedding" in expr
    a = (np.array([[0, 1, 4], [1, 2, 3]], "int64") if ints
         else np.random.RandomState(0).standard_normal(shape).astype("float32"))
    paddle.disable_static()
    eager = eval(expr)
    eager.eval()
    weights = {k: v.numpy() for k, v in eager.state_dict().items()}
    ref = eager(*[paddle.to_tensor(a)] * n_in)
    ref = ref[0] if isinstance(ref, tuple) else ref
    paddle.enable_static()
    main, startup = programs()
    with paddle.static.program_guard(main, startup):
        layer = eval(expr)
        layer.eval()
        x = paddle.static.data("x", shape, "int64" if ints else "float32")
        out = layer(*[x] * n_in)
        out = out[0] if isinstance(out, tuple) else out
    scope = paddle.static.Scope()
    exe = paddle.static.Executor()
    with paddle.static.scope_guard(scope):
        exe.run(startup)
        first = {k: np.asarray(scope.find_var(v.name).get_tensor()) for k, v in layer.state_dict().items()}
        for k, v in layer.state_dict().items():
            if isinstance(v, paddle.static.Parameter):
                scope.var(v.name).get_tensor().set(weights[k])
        got = exe.run(main, feed={"x": a}, fetch_list=[out])[0]
    close(got, ref.numpy(), rtol=1e-4, atol=1e-5)
    if ints:  # the padding row reads as zeros though (as in Paddle) the startup does not zero it
        ref = REF["embedding_padding"]
        assert (not np.any(got[0, 1])) == ref["output_row_zero"]
        assert (not np.any(first["weight"][1])) == ref["weight_row_zero"]
