"""Static graphs beyond p18: a regressor built under program_guard with static.data of -1 batch dims, trained by
Adam with a StepDecay learning-rate scheduler stepped between Executor runs (the lr read back each step), fetching
the loss, an intermediate (the hidden layer), a static.nn.cond penalty and a static.nn.while_loop result; an
evaluation program built apart that shares the parameters by name (ParamAttr) fed two batch sizes; parameters read
by name from the global scope; cond with tuple outputs, switch_case, case and a data-dependent while_loop;
paddle.static.gradients (with stop_gradient inputs and a cut path: None) and append_backward on a second program;
all_parameters() names, shapes and dtypes; default_main_program / default_startup_program; paddle.static.save /
paddle.static.load (the parameters restored after being overwritten), load_program_state; save_inference_model /
load_inference_model and the loaded program run on two batch sizes; static.InputSpec; paddle.disable_static.

Left out, Paddle 3.3.1's PIR programs differing from the Program API mirrored here: ``Program.clone(for_test=True)``
raises TypeError (PIR's clone takes no for_test, and values of the original fetched from a clone give an empty
result), so the evaluation program is built apart; ``Block.vars`` / ``Block.var(name)`` do not exist and fetching
intermediates or parameters by name string raises; ``num_blocks`` counts 1 where control flow made sub-blocks
(5 here); a learning-rate scheduler adds ``learning_rate_0`` to ``all_parameters()`` (filtered out below); file sets
differ (``static.save`` also writes ``model.json``, ``save_inference_model`` writes ``.json`` + ``.pdiparams`` where
pylayer_jax writes ``.pdmodel`` + ``.pdiparams`` + ``.json``), so only the parameter files are checked; Paddle aborts
(SIGABRT) in ``static.save`` of a program holding cond / while_loop, so the evaluation program is saved.
``static.gradients`` appended after ``minimize`` reads, in Paddle, the forward activations of the run with the
updated parameters (pylayer_jax recomputes that forward with the updated parameters): not exercised."""
import json
import os
import tempfile

import numpy as np
import paddle
import paddle.static as static

paddle.enable_static()
rng = np.random.default_rng(0)
X = rng.standard_normal((64, 5)).astype("float32")
Y = (np.tanh(X[:, :2]).sum(1, keepdims=True) - 0.5 * X[:, 2:3] + 0.2).astype("float32")
rec = {"in_dynamic_mode": paddle.in_dynamic_mode()}



def net(x):
    """The model, built into the current program; named parameters make a second program share them."""
    h = static.nn.fc(x, 16, activation="tanh", weight_attr=paddle.ParamAttr(name="hid_w"),
                     bias_attr=paddle.ParamAttr(name="hid_b"))
    return h, static.nn.fc(h, 1, weight_attr=paddle.ParamAttr(name="out_w"), bias_attr=paddle.ParamAttr(name="out_b"))


main, startup = static.Program(), static.Program()
with static.program_guard(main, startup):
    x = static.data("x", [-1, 5], "float32")
    y = static.data("y", [-1, 1], "float32")
    hid, pred = net(x)
    err = pred - y
    loss = paddle.mean(paddle.square(err))
    # control flow inside the graph: a penalty switched on by the loss's size, and a loop doubling a value
    big = paddle.greater_than(loss, paddle.full([], 0.5, "float32"))
    penalty = static.nn.cond(big, lambda: loss * 0.1, lambda: loss * 0.0)
    i0 = paddle.full([1], 0, "int64")
    v0 = paddle.full([1], 1.0, "float32")
    _, doubled = static.nn.while_loop(lambda i, v: i < 3, lambda i, v: [i + 1, v * 2.0], [i0, v0])
    sched = paddle.optimizer.lr.StepDecay(learning_rate=0.05, step_size=4, gamma=0.5)
    opt = paddle.optimizer.Adam(learning_rate=sched)
    opt.minimize(loss + penalty)

test_prog = static.Program()  # evaluation: the same net in a program of its own, sharing the parameters by name
with static.program_guard(test_prog, static.Program()):
    tx = static.data("x", [-1, 5], "float32")
    _, tpred = net(tx)

rec["shapes"] = [list(x.shape), list(pred.shape), list(hid.shape), x.name, y.name]
# (Paddle's PIR programs also list the scheduler's learning_rate_0 among the parameters: left out)
params = sorted(p.name for p in main.global_block().all_parameters() if not p.name.startswith("learning_rate"))
rec["params"] = params
rec["param_shapes"] = sorted([p.name, list(p.shape), str(p.dtype)] for p in main.global_block().all_parameters()
                             if p.name in params)
rec["test_has_params"] = sorted(p.name for p in test_prog.global_block().all_parameters())
rec["defaults"] = [static.default_main_program() is not main, static.default_startup_program() is not startup,
                   isinstance(static.default_main_program(), static.Program)]

exe = static.Executor(paddle.CPUPlace())
exe.run(startup)
scope = static.global_scope()
r = np.random.default_rng(1)
for name in ("hid_w", "hid_b", "out_w", "out_b"):
    t = scope.find_var(name).get_tensor()
    t.set((r.standard_normal(np.array(t).shape) * 0.4).astype("float32"), paddle.CPUPlace())

rec["train"] = {"loss": [], "lr": [], "penalty": [], "doubled": [], "hid": []}
for step in range(12):
    i = (step % 4) * 16
    lv, pv, dv, hv = exe.run(main, feed={"x": X[i:i + 16], "y": Y[i:i + 16]}, fetch_list=[loss, penalty, doubled, hid])
    rec["train"]["hid"].append(float(np.abs(hv).mean()))
    rec["train"]["loss"].append(float(lv))
    rec["train"]["penalty"].append(float(np.asarray(pv).ravel()[0]))
    rec["train"]["doubled"].append(np.asarray(dv).ravel().tolist())
    rec["train"]["lr"].append(opt.get_lr())
    sched.step()

# evaluation: two batch sizes through the -1 dims, fetching an intermediate and a parameter by name
for n in (8, 3):
    (pv,) = exe.run(test_prog, feed={"x": X[:n]}, fetch_list=[tpred])
    rec[f"eval_{n}"] = [list(pv.shape), pv.ravel().tolist(), type(pv).__name__, str(pv.dtype)]
rec["trained"] = {n: np.array(scope.find_var(n).get_tensor()).ravel().tolist() for n in ("out_w", "out_b")}

# gradients of a second program: paddle.static.gradients and append_backward
g_main, g_start = static.Program(), static.Program()
with static.program_guard(g_main, g_start):
    a = static.data("a", [-1, 3], "float32")
    a.stop_gradient = False
    w = static.create_parameter([3, 2], "float32", name="gw",
                                default_initializer=paddle.nn.initializer.Assign(np.arange(6, dtype="float32").reshape(3, 2) / 6))
    z = paddle.matmul(paddle.sin(a), w)
    s = paddle.sum(z * z)
    (ga,) = static.gradients([s], [a])
    c = static.data("c", [-1, 3], "float32")  # declared data: stop_gradient stays True, so no gradient
    cut = paddle.sin(a) * 1.0
    cut.stop_gradient = True  # marked: the path through it is cut
    s2 = paddle.sum(paddle.matmul(c + cut, w))
    rec["gradients_none"] = [g is None for g in static.gradients([s2], [c, a, w, cut])]
    pg = static.append_backward(s)
rec["append_backward"] = sorted(p.name for p, _ in pg)
exe.run(g_start)
c_main, c_start = static.Program(), static.Program()
with static.program_guard(c_main, c_start):
    q = static.data("q", [-1, 2], "float32")
    tot = paddle.sum(q)
    branch = static.nn.cond(tot > 0, lambda: (q * 2.0, paddle.full([1], 1, "int32")),
                            lambda: (q - 1.0, paddle.full([1], -1, "int32")))
    sw = static.nn.switch_case(paddle.full([1], 1, "int64"), {0: lambda: q + 10.0, 1: lambda: q * 0.5},
                               default=lambda: q)
    cs = static.nn.case([(tot > 100.0, lambda: q * 0.0)], default=lambda: q + 1.0)
    # a loop whose trip count depends on the data: halve until the largest value is below 1
    n0 = paddle.full([1], 0, "int64")
    cnt, small = static.nn.while_loop(lambda n, v: paddle.max(paddle.abs(v)) >= 1.0, lambda n, v: [n + 1, v / 2.0],
                                      [n0, q])
exe.run(c_start)
rec["control"] = []
for Q in (np.array([[1.0, 5.0], [-2.0, 3.0]], "float32"), np.array([[-4.0, 0.5]], "float32")):
    outs = exe.run(c_main, feed={"q": Q}, fetch_list=[branch[0], branch[1], sw, cs, cnt, small])
    rec["control"].append([np.asarray(o).ravel().tolist() for o in outs] + [list(np.asarray(outs[0]).shape)])

A = rng.standard_normal((4, 3)).astype("float32")
gav, gwv, sv = exe.run(g_main, feed={"a": A, "c": A}, fetch_list=[ga, pg[0][1], s])
rec["grads"] = [np.asarray(gav).ravel().tolist(), np.asarray(gwv).ravel().tolist(), float(sv)]

# save / load of the trained parameters, inference model export
with tempfile.TemporaryDirectory() as d:
    path = os.path.join(d, "model")
    static.save(test_prog, path)  # (Paddle aborts writing a program holding cond / while_loop: the eval one)
    rec["saved_files"] = [os.path.exists(path + ext) for ext in (".pdparams", ".pdopt")]
    before = exe.run(test_prog, feed={"x": X[:4]}, fetch_list=[tpred])[0]
    scope.find_var("out_w").get_tensor().set(np.zeros((16, 1), "float32"), paddle.CPUPlace())
    zeroed = exe.run(test_prog, feed={"x": X[:4]}, fetch_list=[tpred])[0]
    static.load(test_prog, path, exe)
    after = exe.run(test_prog, feed={"x": X[:4]}, fetch_list=[tpred])[0]
    rec["save_load"] = [before.ravel().tolist(), zeroed.ravel().tolist(), after.ravel().tolist()]
    state = static.load_program_state(path)
    rec["program_state"] = sorted(k for k in state if k in params)

    prefix = os.path.join(d, "infer")
    static.save_inference_model(prefix, [tx], [tpred], exe, program=test_prog)
    rec["infer_files"] = os.path.exists(prefix + ".pdiparams")
    prog, feed_names, fetch_targets = static.load_inference_model(prefix, exe)
    rec["infer_io"] = [feed_names, len(fetch_targets)]
    for n in (5, 2):
        (out,) = exe.run(prog, feed={feed_names[0]: X[10:10 + n]}, fetch_list=fetch_targets)
        ref = exe.run(test_prog, feed={"x": X[10:10 + n]}, fetch_list=[tpred])[0]
        rec[f"infer_{n}"] = [list(out.shape), out.ravel().tolist(), bool(np.allclose(out, ref, atol=1e-6))]

spec = static.InputSpec([-1, 5], "float32", "x")
rec["input_spec"] = [list(spec.shape), str(spec.dtype), spec.name, repr(spec)]
spec2 = static.InputSpec.from_numpy(X[:3], name="xs")
rec["input_spec_np"] = [list(spec2.shape), str(spec2.dtype), spec2.name]
paddle.disable_static()
rec["after"] = [paddle.in_dynamic_mode(), paddle.to_tensor([1.0, 2.0]).sum().item()]
with open(os.environ["PROGRAM_OUT"], "w") as f:
    json.dump(rec, f)
