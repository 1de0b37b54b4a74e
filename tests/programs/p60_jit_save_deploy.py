"""The deployment path: train a small two-input model, ``paddle.jit.to_static`` with an ``input_spec`` of
``InputSpec``s with a None batch, ``paddle.jit.save`` (the files written), ``paddle.jit.load`` and the loaded
TranslatedLayer run on other batch sizes and fine-tuned a few steps; a static program saved with
``paddle.static.save_inference_model`` and loaded back with ``load_inference_model`` and an Executor, and the
jit-saved files loaded the same way; ``paddle.inference`` Config/create_predictor on the saved files (input and
output handle names, copy_from_cpu/run/copy_to_cpu, a second run with another batch size);
``paddle.save``/``paddle.load`` of model and optimizer state dicts (training resumed from them gives the same
losses) and of nested Python structures of tensors, numbers, strings and numpy arrays. Files go to a temp dir.

Not mirrored, so not recorded: Paddle 3.3.1 writes ``prefix.json`` (the program) and ``prefix.pdiparams``;
pylayer_jax writes those and ``prefix.pdmodel`` (the exported StableHLO), so only the two are checked. A loaded
layer's ``state_dict()`` keys are ``param_0``... in Paddle (its parameters sorted by name, each named with a
``_0`` suffix); pylayer_jax keeps the saved model's structured names (``fc1.weight``) and parameter names, so
the program reads parameters by shape, not by name. A model saved for a fixed size (an InputSpec without None,
or a ``to_static`` layer called once and saved without an ``input_spec``: the shapes of that call) runs in Paddle
on other sizes too (its program does not check them); pylayer_jax's loaded model refuses them with a ValueError
naming the saved shapes (its StableHLO is compiled for them), so only the saved size is run here. The first linear layer has no bias: a bias before batch norm
has a zero gradient up to rounding, which Adam turns into updates of rounding noise in either library."""
import json
import os
import tempfile

import numpy as np
import paddle
import paddle.nn as nn
import paddle.nn.functional as F
from paddle.static import InputSpec

rng = np.random.default_rng(0)
X = rng.standard_normal((32, 8)).astype("float32")
S = rng.uniform(0.5, 1.5, size=(32, 1)).astype("float32")
Y = (X[:, :3].argmax(1)).astype("int64")


class Net(nn.Layer):
    def __init__(self):
        super().__init__()
        self.fc1 = nn.Linear(8, 16, bias_attr=False)  # (a bias before batch norm only gets rounding noise)
        self.bn = nn.BatchNorm1D(16)
        self.drop = nn.Dropout(0.3)
        self.fc2 = nn.Linear(16, 3)

    def forward(self, x, s):
        h = F.relu(self.bn(self.fc1(x * s)))
        logits = self.fc2(self.drop(h))
        return logits, F.softmax(logits, axis=-1)


def build():
    m = Net()
    r = np.random.default_rng(1)
    m.set_state_dict({k: (r.standard_normal(v.shape) * 0.3).astype("float32") if "fc" in k else v.numpy()
                      for k, v in m.state_dict().items()})
    return m


rec = {}
tmp = tempfile.mkdtemp()
model = build()
opt = paddle.optimizer.Adam(learning_rate=0.01, parameters=model.parameters())
rec["loss"] = []
for step in range(6):
    i = (step % 4) * 8
    # dropout is left out of the training steps (its random mask differs between libraries): train() for the
    # batch norm, the dropout layer in eval
    model.train()
    model.drop.eval()
    logits, _ = model(paddle.to_tensor(X[i:i + 8]), paddle.to_tensor(S[i:i + 8]))
    loss = F.cross_entropy(logits, paddle.to_tensor(Y[i:i + 8]))
    loss.backward()
    opt.step()
    opt.clear_grad()
    rec["loss"].append(float(loss))

# state dicts saved mid-training, and a resumed copy that must track the original
paddle.save(model.state_dict(), os.path.join(tmp, "model.pdparams"))
paddle.save(opt.state_dict(), os.path.join(tmp, "opt.pdopt"))
sd = paddle.load(os.path.join(tmp, "model.pdparams"))
osd = paddle.load(os.path.join(tmp, "opt.pdopt"))
rec["state_keys"] = sorted(sd.keys())
rec["opt_state_keys"] = sorted(k for k in osd.keys() if k != "LR_Scheduler")
rec["loaded_types"] = sorted({type(v).__name__ for v in sd.values()})
# an optimizer state dict names its accumulators after the parameters: a fresh model (new names) cannot take it
twin = build()
topt = paddle.optimizer.Adam(learning_rate=0.01, parameters=twin.parameters())
twin.set_state_dict(sd)
try:
    topt.set_state_dict(osd)
    logits, _ = twin(paddle.to_tensor(X[:8]), paddle.to_tensor(S[:8]))
    F.cross_entropy(logits, paddle.to_tensor(Y[:8])).backward()
    topt.step()
    rec["twin_opt"] = "ok"
except Exception as e:  # noqa: BLE001
    rec["twin_opt"] = type(e).__name__


def resume_steps():
    losses = []
    for step in range(6, 10):
        i = (step % 4) * 8
        model.train()
        model.drop.eval()
        logits, _ = model(paddle.to_tensor(X[i:i + 8]), paddle.to_tensor(S[i:i + 8]))
        loss = F.cross_entropy(logits, paddle.to_tensor(Y[i:i + 8]))
        loss.backward()
        opt.step()
        opt.clear_grad()
        losses.append(float(loss))
    return losses


rec["resume"] = [resume_steps()]
# roll back to the checkpoint and run the same steps again: the same losses
model.set_state_dict(paddle.load(os.path.join(tmp, "model.pdparams")))
opt.set_state_dict(paddle.load(os.path.join(tmp, "opt.pdopt")))
rec["resume"].append(resume_steps())

# to_static with a None batch, jit.save, jit.load
model.eval()
rec["bn_stats"] = [model.bn._mean.numpy().tolist(), model.bn._variance.numpy().tolist()]
rec["eval_out"] = model(paddle.to_tensor(X[:4]), paddle.to_tensor(S[:4]))[0].numpy().tolist()
spec = [InputSpec([None, 8], "float32", name="x"), InputSpec([None, 1], "float32", name="s")]
static = paddle.jit.to_static(model, input_spec=spec, full_graph=True)
eager_out = model(paddle.to_tensor(X[:5]), paddle.to_tensor(S[:5]))
static_out = static(paddle.to_tensor(X[:5]), paddle.to_tensor(S[:5]))
rec["static_vs_eager"] = [float((a - b).abs().max()) for a, b in zip(eager_out, static_out)]
prefix = os.path.join(tmp, "deploy", "net")
paddle.jit.save(static, prefix)
rec["saved_files"] = [os.path.exists(prefix + ext) for ext in (".json", ".pdiparams")]
loaded = paddle.jit.load(prefix)
rec["loaded_type"] = type(loaded).__name__
loaded.eval()
for n in (1, 5, 7):
    outs = loaded(paddle.to_tensor(X[:n]), paddle.to_tensor(S[:n]))
    rec[f"loaded_b{n}"] = [o.numpy().tolist() for o in outs]
    rec[f"loaded_b{n}_shape"] = [list(o.shape) for o in outs]
ref = model(paddle.to_tensor(X[:7]), paddle.to_tensor(S[:7]))
rec["loaded_vs_model"] = float((loaded(paddle.to_tensor(X[:7]), paddle.to_tensor(S[:7]))[0] - ref[0]).abs().max())
rec["loaded_n_params"] = len(loaded.parameters())
rec["loaded_param_shapes"] = sorted(list(p.shape) for p in loaded.parameters())

# fine-tune the loaded layer: in its default eval mode it gives no gradients, train() first (the saved forward stays
# the eval-mode one: running statistics, no dropout)
logits, _ = loaded(paddle.to_tensor(X[:8]), paddle.to_tensor(S[:8]))
F.cross_entropy(logits, paddle.to_tensor(Y[:8])).backward()
rec["eval_mode"] = [loaded.training, logits.stop_gradient, all(p.grad is None for p in loaded.parameters())]
loaded.train()
ft = paddle.optimizer.SGD(learning_rate=0.1, parameters=loaded.parameters())
rec["finetune"] = []
for step in range(4):
    i = (step % 4) * 8
    logits, _ = loaded(paddle.to_tensor(X[i:i + 8]), paddle.to_tensor(S[i:i + 8]))
    loss = F.cross_entropy(logits, paddle.to_tensor(Y[i:i + 8]))
    loss.backward()
    ft.step()
    ft.clear_grad()
    rec["finetune"].append(float(loss))

# a layer saved without to_static first, with input_spec given to jit.save
plain = build()
plain.eval()
prefix2 = os.path.join(tmp, "plain", "net")
paddle.jit.save(plain, prefix2, input_spec=spec)
loaded2 = paddle.jit.load(prefix2)
rec["plain_loaded"] = [o.numpy().tolist() for o in loaded2(paddle.to_tensor(X[:3]), paddle.to_tensor(S[:3]))]
rec["plain_ref"] = [o.numpy().tolist() for o in plain(paddle.to_tensor(X[:3]), paddle.to_tensor(S[:3]))]

# paddle.inference on the jit-saved files
from paddle.inference import Config, create_predictor  # noqa: E402

config = Config(prefix + ".json" if os.path.exists(prefix + ".json") else prefix + ".pdmodel", prefix + ".pdiparams")
config.disable_gpu()
predictor = create_predictor(config)
rec["pred_inputs"] = predictor.get_input_names()
rec["pred_outputs"] = predictor.get_output_names()
for n in (4, 2):
    for name, arr in zip(predictor.get_input_names(), (X[:n], S[:n])):
        predictor.get_input_handle(name).copy_from_cpu(arr)
    predictor.run()
    outs = [predictor.get_output_handle(o).copy_to_cpu() for o in predictor.get_output_names()]
    rec[f"pred_b{n}"] = [o.tolist() for o in outs]
    rec[f"pred_b{n}_shape"] = [list(o.shape) for o in outs]

# static graph: build, train a step, save_inference_model, load_inference_model
paddle.enable_static()
main, startup = paddle.static.Program(), paddle.static.Program()
with paddle.static.program_guard(main, startup):
    xv = paddle.static.data("xin", [None, 8], "float32")
    yv = paddle.static.data("yin", [None], "int64")
    w = paddle.static.create_parameter([8, 3], "float32", name="w_fc",
                                       default_initializer=paddle.nn.initializer.Assign(
                                           np.random.default_rng(2).standard_normal((8, 3)).astype("float32") * 0.3))
    b = paddle.static.create_parameter([3], "float32", name="b_fc",
                                       default_initializer=paddle.nn.initializer.Constant(0.1))
    out = paddle.tanh(paddle.matmul(xv, w) + b)
    prob = F.softmax(out)
    loss = F.cross_entropy(out, yv)
    paddle.optimizer.SGD(learning_rate=0.5).minimize(loss)
exe = paddle.static.Executor(paddle.CPUPlace())
exe.run(startup)
rec["static_loss"] = []
for step in range(5):
    i = (step % 4) * 8
    (lv,) = exe.run(main, feed={"xin": X[i:i + 8], "yin": Y[i:i + 8]}, fetch_list=[loss])
    rec["static_loss"].append(float(lv))
sprefix = os.path.join(tmp, "static", "model")
paddle.static.save_inference_model(sprefix, [xv], [out, prob], exe, program=main)
scope = paddle.static.global_scope()
wv, bv = (np.array(scope.find_var(n).get_tensor()) for n in ("w_fc", "b_fc"))
rec["static_params"] = [wv.tolist(), bv.tolist()]
rec["static_ref"] = np.tanh(X[:6] @ wv + bv).tolist()
prog, feeds, fetches = paddle.static.load_inference_model(sprefix, exe)
rec["static_feeds"] = feeds
rec["static_n_fetch"] = len(fetches)
for n in (6, 3):
    res = exe.run(prog, feed={feeds[0]: X[:n]}, fetch_list=fetches)
    rec[f"static_loaded_b{n}"] = [r.tolist() for r in res]
# the jit-saved files through the static loader
prog2, feeds2, fetches2 = paddle.static.load_inference_model(prefix, exe)
rec["jit_static_feeds"] = feeds2
res = exe.run(prog2, feed={feeds2[0]: X[:2], feeds2[1]: S[:2]}, fetch_list=fetches2)
rec["jit_static_out"] = [r.tolist() for r in res]
paddle.disable_static()

# the static model's files through paddle.jit.load
sl = paddle.jit.load(sprefix)
rec["static_jit_loaded"] = [type(sl).__name__] + [o.numpy().tolist() for o in sl(paddle.to_tensor(X[:4]))]

# paddle.inference on the static model's files
config = Config(sprefix + ".json" if os.path.exists(sprefix + ".json") else sprefix + ".pdmodel",
                sprefix + ".pdiparams")
predictor = create_predictor(config)
rec["spred_inputs"] = predictor.get_input_names()
rec["spred_outputs"] = predictor.get_output_names()
h = predictor.get_input_handle(predictor.get_input_names()[0])
h.reshape([3, 8])
h.copy_from_cpu(X[10:13])
predictor.run()
rec["spred_out"] = [predictor.get_output_handle(o).copy_to_cpu().tolist() for o in predictor.get_output_names()]

# a predictor with the usual CPU settings, handles' shapes and types, run() on a list of Tensors, a clone
config = Config(prefix + ".json" if os.path.exists(prefix + ".json") else prefix + ".pdmodel", prefix + ".pdiparams")
config.disable_gpu()
config.set_cpu_math_library_num_threads(2)
config.switch_ir_optim(True)
config.disable_glog_info()
rec["config"] = [config.use_gpu(), config.cpu_math_library_num_threads(), config.ir_optim()]
predictor = create_predictor(config)
hx = predictor.get_input_handle("x")
hx.reshape([3, 8])
hx.copy_from_cpu(X[5:8])
predictor.get_input_handle("s").copy_from_cpu(S[5:8])
predictor.run()
ho = predictor.get_output_handle(predictor.get_output_names()[1])
rec["handles"] = [hx.shape(), str(hx.type()), ho.shape(), str(ho.type())]
rec["handle_out"] = ho.copy_to_cpu().tolist()
outs = predictor.run([paddle.to_tensor(X[:2]), paddle.to_tensor(S[:2])])
rec["run_list"] = [type(outs).__name__, len(outs)] + [o.numpy().tolist() for o in outs]
twin_pred = predictor.clone()
for name, arr in zip(twin_pred.get_input_names(), (X[9:10], S[9:10])):
    twin_pred.get_input_handle(name).copy_from_cpu(arr)
twin_pred.run()
rec["clone_out"] = twin_pred.get_output_handle("fetch_name_0").copy_to_cpu().tolist()

# jit.save of a plain function, and of a to_static function whose input_spec was given to the decorator
def scale_and_sum(x, y):
    return (x * 2.0 + y).sum(axis=-1)


fprefix = os.path.join(tmp, "fn", "scale_and_sum")
paddle.jit.save(paddle.jit.to_static(scale_and_sum, input_spec=[InputSpec([None, 3], "float32", "x"),
                                                                  InputSpec([None, 3], "float32", "y")]), fprefix)
fl = paddle.jit.load(fprefix)
a3 = np.arange(6, dtype="float32").reshape(2, 3)
rec["fn_loaded"] = [type(fl).__name__, fl(paddle.to_tensor(a3), paddle.to_tensor(a3 * 0.5)).numpy().tolist()]

# a fixed batch size in the spec; a to_static layer called once, saved without a spec
fixed = build()
fixed.eval()
fprefix2 = os.path.join(tmp, "fixed", "net")
paddle.jit.save(fixed, fprefix2, input_spec=[InputSpec([4, 8], "float32", "x"), InputSpec([4, 1], "float32", "s")])
fixed_loaded = paddle.jit.load(fprefix2)
rec["fixed_b4"] = fixed_loaded(paddle.to_tensor(X[:4]), paddle.to_tensor(S[:4]))[0].numpy().tolist()
traced = paddle.jit.to_static(build(), full_graph=True)
traced.eval()
traced_out = traced(paddle.to_tensor(X[:6]), paddle.to_tensor(S[:6]))
tprefix = os.path.join(tmp, "traced", "net")
paddle.jit.save(traced, tprefix)
traced_loaded = paddle.jit.load(tprefix)
rec["traced"] = [[o.numpy().tolist() for o in traced_out],
                 [o.numpy().tolist() for o in traced_loaded(paddle.to_tensor(X[:6]), paddle.to_tensor(S[:6]))]]

# InputSpec utilities
spec_x = InputSpec.from_tensor(paddle.to_tensor(X[:4]), name="xx")
spec_n = InputSpec.from_numpy(S[:4], name="ss")
rec["specs"] = [[list(sp.shape), str(sp.dtype), sp.name] for sp in (spec_x, spec_n, spec_x.batch(16), spec[0])]
rec["spec_unbatch"] = list(InputSpec([16, 8], "float32").unbatch().shape)

# paddle.save / paddle.load through a file-like buffer, an LR scheduler's state, return_numpy
import io  # noqa: E402

buf = io.BytesIO()
paddle.save({"w": model.fc2.weight, "step": 3}, buf)
buf.seek(0)
from_buf = paddle.load(buf)
rec["from_buffer"] = [sorted(from_buf), bool((from_buf["w"] - model.fc2.weight).abs().max() == 0), from_buf["step"]]
sched = paddle.optimizer.lr.StepDecay(learning_rate=0.1, step_size=2, gamma=0.5)
for _ in range(5):
    sched.step()
paddle.save(sched.state_dict(), os.path.join(tmp, "sched.pdparams"))
sched2 = paddle.optimizer.lr.StepDecay(learning_rate=0.1, step_size=2, gamma=0.5)
sched2.set_state_dict(paddle.load(os.path.join(tmp, "sched.pdparams")))
rec["sched"] = [sched2.last_epoch, sched2.get_lr(), sorted(paddle.load(os.path.join(tmp, "sched.pdparams")))]
sdn = paddle.load(os.path.join(tmp, "model.pdparams"), return_numpy=True)
rec["state_numpy"] = sorted({type(v).__name__ for v in sdn.values()})

# what a typo in a path raises
errors = {}
for what, f in (("load", lambda: paddle.load(os.path.join(tmp, "nothere.pdparams"))),
                ("jit_load", lambda: paddle.jit.load(os.path.join(tmp, "nothere"))),
                ("predictor", lambda: create_predictor(Config(os.path.join(tmp, "nothere.json"),
                                                              os.path.join(tmp, "nothere.pdiparams")))),
                ("wrong_inputs", lambda: loaded(paddle.to_tensor(X[:2]))),
                ("save_dir", lambda: paddle.save(model.state_dict(), tmp))):
    try:
        f()
        errors[what] = "ok"
    except Exception as e:  # noqa: BLE001
        errors[what] = type(e).__name__
rec["errors"] = errors

# nested Python structures
nested = {
    "step": 7, "name": "ckpt", "lr": 0.01,
    "tensors": [paddle.to_tensor(X[:2]), (paddle.to_tensor(Y[:3]), paddle.to_tensor([1.5, 2.5], dtype="float64"))],
    "inner": {"mask": paddle.to_tensor([True, False]), "arr": np.arange(4, dtype="int32"),
              "half": paddle.to_tensor([1.0, 2.0], dtype="float16")},
}
paddle.save(nested, os.path.join(tmp, "nested.pdparams"))
back = paddle.load(os.path.join(tmp, "nested.pdparams"))


def describe(v):
    if isinstance(v, dict):
        return {k: describe(x) for k, x in sorted(v.items())}
    if isinstance(v, (list, tuple)):
        return [type(v).__name__] + [describe(x) for x in v]
    if isinstance(v, paddle.Tensor):
        return ["Tensor", str(v.dtype), list(v.shape), v.numpy().astype("float64").tolist(), v.stop_gradient]
    if isinstance(v, np.ndarray):
        return ["ndarray", str(v.dtype), v.tolist()]
    return [type(v).__name__, v]


rec["nested"] = describe(back)
back_np = paddle.load(os.path.join(tmp, "nested.pdparams"), return_numpy=True)
rec["nested_numpy"] = describe(back_np)
# a single tensor, and a parameter
paddle.save(model.fc2.weight, os.path.join(tmp, "w.pdtensor"))
wl = paddle.load(os.path.join(tmp, "w.pdtensor"))
rec["param_loaded"] = [type(wl).__name__, list(wl.shape), bool((wl - model.fc2.weight).abs().max() == 0)]

with open(os.environ["PROGRAM_OUT"], "w") as f:
    json.dump(rec, f)
