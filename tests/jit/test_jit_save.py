"""jit.save / jit.load and static save/load_inference_model: artifacts loaded in another process.

Each round trip saves here and loads in a fresh Python (``sys.executable``, PYTHONPATH = src only, so
the classes defined in this module cannot be imported there); outputs and gradients come back in an
``.npz`` and are compared with the original model here (its eager backward, and ``jax.grad`` of a
plain-JAX rewrite of the model or a hand-derived gradient as the oracle).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap

import jax
import jax.numpy as jnp
import numpy as np
import pytest

import pylayer_jax as paddle
from pylayer_jax.autograd import PyLayer

PADDLE = json.loads(open(os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "data",
                                     "paddle_jit_save.json")).read())  # tests/record_paddle_jit_save.py
SRC = os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))), "src")
IS = paddle.static.InputSpec

WORKER = textwrap.dedent('''
    import importlib, json, sys
    import numpy as np
    import pylayer_jax as paddle

    job = json.load(open(sys.argv[1]))
    res, arrays = {}, {}
    try:
        importlib.import_module(job["defining_module"])
        res["defining_importable"] = True
    except ImportError:
        res["defining_importable"] = False
    inputs = np.load(job["inputs"])
    if job["kind"] == "layer":
        m = paddle.jit.load(job["path"])
        m.train()  # (as in Paddle, a loaded layer in its default eval mode gives no gradients)
        res["type"] = type(m).__name__
        res["state_dict"] = list(m.state_dict().keys())
        res["param_names"] = [p.name for p in m.parameters()]
        res["is_parameter"] = [type(p).__name__ for p in m.parameters()]
        for k in sorted(inputs.files):
            out = m(paddle.to_tensor(inputs[k]))
            arrays["out_" + k] = out.numpy()
            loss = (out * out).sum() if job["loss"] == "square" else out.sum()
            loss.backward()
            for name, p in m.named_parameters():
                arrays["grad_" + k + "_" + name] = p.grad.numpy()
            m.clear_gradients()
    else:
        paddle.enable_static()
        exe = paddle.static.Executor(paddle.CPUPlace())
        prog, feed_names, fetch_targets = paddle.static.load_inference_model(job["path"], exe)
        res["feed_names"] = feed_names
        res["fetch_names"] = [v.name for v in fetch_targets]
        for k in sorted(inputs.files):
            outs = exe.run(prog, feed={feed_names[0]: inputs[k]}, fetch_list=fetch_targets)
            for i, o in enumerate(outs):
                arrays["out_" + k + "_" + str(i)] = o
    json.dump(res, open(job["result"] + ".json", "w"))
    np.savez(job["result"] + ".npz", **arrays)
''')


def run_elsewhere(tmp_path, kind: str, path: str, inputs: dict[str, np.ndarray], loss: str = "square"):
    """Load ``path`` in a fresh interpreter that cannot import this module; return (info, arrays)."""
    np.savez(tmp_path / "inputs.npz", **inputs)
    job = {"kind": kind, "path": path, "inputs": str(tmp_path / "inputs.npz"), "loss": loss,
           "result": str(tmp_path / "result"), "defining_module": __name__}
    (tmp_path / "job.json").write_text(json.dumps(job))
    (tmp_path / "worker.py").write_text(WORKER)
    env = dict(os.environ, PYTHONPATH=SRC)
    proc = subprocess.run([sys.executable, str(tmp_path / "worker.py"), str(tmp_path / "job.json")], cwd=tmp_path,
                          env=env, capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr[-3000:]
    info = json.loads((tmp_path / "result.json").read_text())
    with np.load(tmp_path / "result.npz") as z:
        arrays = {k: z[k] for k in z.files}
    return info, arrays


class MLP(paddle.nn.Layer):
    def __init__(self) -> None:
        super().__init__()
        self.fc1 = paddle.nn.Linear(3, 5)
        self.fc2 = paddle.nn.Linear(5, 2)
        self.register_buffer("scale", paddle.to_tensor([0.5, 1.0, 1.5, 2.0, 2.5]))

    def forward(self, x):
        return self.fc2(paddle.tanh(self.fc1(x)) * self.scale)


def mlp_jax(params, x):
    """The same model in plain JAX (Paddle's Linear: x @ W + b, W of shape [in, out])."""
    h = jnp.tanh(x @ params["fc1.weight"] + params["fc1.bias"]) * params["scale"]
    return h @ params["fc2.weight"] + params["fc2.bias"]


def test_layer_round_trip_in_another_process(tmp_path):
    paddle.seed(3)
    net = MLP()
    path = str(tmp_path / "art" / "mlp")
    paddle.jit.save(net, path, input_spec=[IS([None, 3], "float32", "x")])
    assert sorted(os.listdir(tmp_path / "art")) == ["mlp.json", "mlp.pdiparams", "mlp.pdmodel"]
    rng = np.random.default_rng(0)
    inputs = {"b5": rng.standard_normal((5, 3)).astype("float32"), "b2": rng.standard_normal((2, 3)).astype("float32")}
    info, got = run_elsewhere(tmp_path, "layer", path, inputs)
    assert info["defining_importable"] is False  # the class that defined the model is not there
    assert info["type"] == "PirTranslatedLayer"  # (Paddle 3.3.1's class of a loaded layer)
    assert info["state_dict"] == list(net.state_dict().keys())
    assert info["param_names"] == [p.name for p in net.parameters()]
    assert set(info["is_parameter"]) == {"Parameter"}
    params = {k: jnp.asarray(v.numpy()) for k, v in net.state_dict().items()}
    for k, x in inputs.items():  # both batch sizes run: the batch dimension was exported symbolically
        np.testing.assert_allclose(got["out_" + k], net(paddle.to_tensor(x)).numpy(), rtol=1e-5, atol=1e-6)
        oracle = jax.grad(lambda p, x=x: jnp.sum(mlp_jax(p, x) ** 2))(params)
        out = net(paddle.to_tensor(x))
        (out * out).sum().backward()
        for name, p in net.named_parameters():
            np.testing.assert_allclose(got[f"grad_{k}_{name}"], oracle[name], rtol=1e-5, atol=1e-6)
            np.testing.assert_allclose(got[f"grad_{k}_{name}"], p.grad.numpy(), rtol=1e-5, atol=1e-6)
        net.clear_gradients()


class RoundSTE(PyLayer):
    """Rounding with a straight-through gradient scaled by 3: autodiff of round would give zeros."""

    @staticmethod
    def forward(ctx, x):
        return paddle.round(x)

    @staticmethod
    def backward(ctx, dy):
        return dy * 3.0


class Quant(paddle.nn.Layer):
    def __init__(self) -> None:
        super().__init__()
        self.fc = paddle.nn.Linear(3, 2)

    def forward(self, x):
        return RoundSTE.apply(self.fc(x) * 4.0)


def test_pylayer_keeps_its_custom_backward_after_load(tmp_path):
    paddle.seed(4)
    net = Quant()
    path = str(tmp_path / "quant")
    paddle.jit.save(net, path, input_spec=[IS([None, 3], "float32", "x")])
    x = np.random.default_rng(1).standard_normal((6, 3)).astype("float32")
    info, got = run_elsewhere(tmp_path, "layer", path, {"b6": x}, loss="sum")
    assert info["defining_importable"] is False
    w, b = net.fc.weight.numpy(), net.fc.bias.numpy()
    np.testing.assert_allclose(got["out_b6"], np.round((x @ w + b) * 4.0), atol=1e-5)
    # d sum(STE(4 (x W + b))) / dW = x^T (3 * 4 * ones), / db = 12 * batch: the custom rule, not round's zero
    np.testing.assert_allclose(got["grad_b6_fc.weight"], x.T @ np.full((6, 2), 12.0, "float32"), rtol=1e-5)
    np.testing.assert_allclose(got["grad_b6_fc.bias"], np.full(2, 72.0), rtol=1e-6)


def test_fine_tuning_the_loaded_layer_matches_the_original(tmp_path):
    paddle.seed(5)
    net = MLP()
    path = str(tmp_path / "ft")
    paddle.jit.save(net, path, input_spec=[IS([None, 3], "float32", "x")])
    loaded = paddle.jit.load(path)
    assert type(loaded).__name__ == "PirTranslatedLayer"
    assert not isinstance(loaded, paddle.jit.TranslatedLayer)  # (not a legacy TranslatedLayer, as in Paddle 3.3.1)
    opt_a = paddle.optimizer.SGD(0.1, parameters=net.parameters())
    opt_b = paddle.optimizer.SGD(0.1, parameters=loaded.parameters())
    loaded.train()  # (as in Paddle, a loaded layer in its default eval mode gives no gradients)
    rng = np.random.default_rng(2)
    params = {k: jnp.asarray(v.numpy()) for k, v in net.state_dict().items()}
    for _ in range(3):
        x = rng.standard_normal((4, 3)).astype("float32")
        y = rng.standard_normal((4, 2)).astype("float32")
        for model, opt in ((net, opt_a), (loaded, opt_b)):
            loss = ((model(paddle.to_tensor(x)) - paddle.to_tensor(y)) ** 2).mean()
            loss.backward()
            opt.step()
            opt.clear_grad()
        g = jax.grad(lambda p, x=x, y=y: jnp.mean((mlp_jax(p, x) - y) ** 2))(params)
        params = {k: (v - 0.1 * g[k] if k != "scale" else v) for k, v in params.items()}
    for (k, a), (k2, b) in zip(net.state_dict().items(), loaded.state_dict().items()):
        assert k == k2
        np.testing.assert_allclose(b.numpy(), a.numpy(), rtol=1e-5, atol=1e-6)
        np.testing.assert_allclose(b.numpy(), params[k], rtol=1e-5, atol=1e-6)


def test_function_with_two_batched_inputs_and_to_static_spec(tmp_path):
    def f(x, y):
        return paddle.tanh(x) * 2.0 + y

    paddle.jit.save(f, str(tmp_path / "f"), [IS([None, 3], "float32", "x"), IS([None, 3], "float32", "y")])
    g = paddle.jit.load(str(tmp_path / "f"))
    for n in (1, 4):
        x, y = np.random.default_rng(n).standard_normal((2, n, 3)).astype("float32")
        np.testing.assert_allclose(g(paddle.to_tensor(x), paddle.to_tensor(y)).numpy(), np.tanh(x) * 2 + y,
                                   rtol=1e-6)
    meta = json.loads((tmp_path / "f.json").read_text())
    assert [s["shape"] for s in meta["inputs"]] == [[-1, 3], [-1, 3]]

    class Sq(paddle.nn.Layer):
        @paddle.jit.to_static(input_spec=[IS([None, 2], "float64", "x")])
        def forward(self, x):
            return x * x

    paddle.jit.save(Sq(), str(tmp_path / "sq"))  # the input_spec given to to_static is used
    sq = paddle.jit.load(str(tmp_path / "sq"))
    x = np.arange(6.0).reshape(3, 2)
    np.testing.assert_array_equal(sq(paddle.to_tensor(x)).numpy(), x * x)


def test_forward_without_shape_polymorphism_falls_back_with_a_warning(tmp_path):
    def f(x):
        return x * float(int(x.shape[0]))  # needs a concrete batch size

    with pytest.warns(UserWarning, match=r"does not allow symbolic sizes.*size 1"):
        paddle.jit.save(f, str(tmp_path / "c"), [IS([None, 3], "float32", "x")])
    g = paddle.jit.load(str(tmp_path / "c"))
    assert g.input_spec[0]["shape"] == [1, 3]
    x = np.ones((1, 3), "float32")
    np.testing.assert_array_equal(g(paddle.to_tensor(x)).numpy(), x)
    with pytest.raises(ValueError, match=r"PirTranslatedLayer: input 'x' has shape \[2, 3\].*\[1, 3\]"):
        g(paddle.ones([2, 3]))


def test_static_inference_model_round_trip_in_another_process(tmp_path):
    paddle.enable_static()
    try:
        main, start = paddle.static.Program(), paddle.static.Program()
        with paddle.static.program_guard(main, start):
            x = paddle.static.data("img", [None, 3], "float32")
            h = paddle.static.nn.fc(x, 4)
            y = paddle.tanh(h) * 2.0
            z = paddle.sum(y, axis=1)
        exe = paddle.static.Executor(paddle.CPUPlace())
        exe.run(start)
        rng = np.random.default_rng(3)
        inputs = {"b5": rng.standard_normal((5, 3)).astype("float32"),
                  "b1": rng.standard_normal((1, 3)).astype("float32")}
        refs = {k: exe.run(main, feed={"img": v}, fetch_list=[y, z]) for k, v in inputs.items()}
        w = [exe.run(main, feed={"img": inputs["b1"]}, fetch_list=[p])[0] for p in main.all_parameters()]
        paddle.static.save_inference_model(str(tmp_path / "inf"), [x], [y, z], exe, program=main)
        names = (y.name, z.name)
    finally:
        paddle.disable_static()
    info, got = run_elsewhere(tmp_path, "program", str(tmp_path / "inf"), inputs)
    assert info["feed_names"] == ["img"]
    assert info["fetch_names"] == list(names)
    wmat, bias = (w[0], w[1]) if w[0].ndim == 2 else (w[1], w[0])
    for k, xv in inputs.items():
        oracle = np.tanh(xv @ wmat + bias) * 2.0
        np.testing.assert_allclose(got[f"out_{k}_0"], oracle, rtol=1e-5, atol=1e-6)
        np.testing.assert_allclose(got[f"out_{k}_0"], refs[k][0], rtol=1e-6, atol=1e-6)
        np.testing.assert_allclose(got[f"out_{k}_1"], refs[k][1], rtol=1e-6, atol=1e-6)


def test_misuse_raises_clear_errors(tmp_path):
    def f(x):
        return x + 1.0

    assert PADDLE["no_input_spec_function"] == PADDLE["missing_path"] == PADDLE["unknown_config"] == "ValueError"
    assert PADDLE["corrupt_files"] == "RuntimeError"
    with pytest.raises(ValueError, match=r"paddle.jit.save: no input_spec for f"):
        paddle.jit.save(f, str(tmp_path / "f"))
    with pytest.raises(TypeError, match=r"input_spec\[0\] must be a paddle.static.InputSpec.*str"):
        paddle.jit.save(f, str(tmp_path / "f"), ["x"])
    with pytest.raises(TypeError, match=r"layer must be a paddle.nn.Layer or a function.*int"):
        paddle.jit.save(3, str(tmp_path / "f"), [IS([2])])
    with pytest.raises(ValueError, match=r"additional config 'foo' is not supported"):
        paddle.jit.save(f, str(tmp_path / "f"), [IS([2])], foo=1)
    with pytest.raises(NotImplementedError, match=r"config 'output_spec' is not supported"):
        paddle.jit.save(f, str(tmp_path / "f"), [IS([2])], output_spec=[0])
    with pytest.raises(ValueError, match=r"paddle.jit.load: the file .*nothere.pdmodel' does not exist"):
        paddle.jit.load(str(tmp_path / "nothere"))
    with pytest.raises(ValueError, match=r"path must be a file prefix"):
        paddle.jit.save(f, str(tmp_path) + os.sep, [IS([2])])

    paddle.jit.save(f, str(tmp_path / "ok"), [IS([None, 2], "float32", "x")])
    g = paddle.jit.load(str(tmp_path / "ok"))
    with pytest.raises(ValueError, match=r"takes 1 inputs \(x\), but received 2"):
        g(paddle.ones([1, 2]), paddle.ones([1, 2]))
    with pytest.raises(ValueError, match=r"input 'x' has dtype float64, but the saved model takes float32"):
        g(paddle.ones([1, 2], "float64"))

    for ext, match in ((".pdmodel", r"ok.pdmodel' is damaged or not a serialized export"),
                       (".pdiparams", r"ok.pdiparams' is damaged or not a parameter archive"),
                       (".json", r"ok.json' is not a description written by save")):
        good = (tmp_path / ("ok" + ext)).read_bytes()
        (tmp_path / ("ok" + ext)).write_bytes(b"garbage" + good[: len(good) // 3])
        with pytest.raises(RuntimeError, match=match):
            paddle.jit.load(str(tmp_path / "ok"))
        (tmp_path / ("ok" + ext)).write_bytes(good)
    np.testing.assert_array_equal(paddle.jit.load(str(tmp_path / "ok"))(paddle.ones([3, 2])).numpy(),
                                  np.full((3, 2), 2.0))


def test_static_save_misuse(tmp_path):
    paddle.enable_static()
    try:
        main, start = paddle.static.Program(), paddle.static.Program()
        with paddle.static.program_guard(main, start):
            x = paddle.static.data("x", [None, 3], "float32")
            y = paddle.static.nn.fc(x, 2)
        exe = paddle.static.Executor()
        with pytest.raises(TypeError, match=r"feed_vars must be a Variable or a non-empty list"):
            paddle.static.save_inference_model(str(tmp_path / "m"), ["x"], [y], exe, program=main)
        with pytest.raises(ValueError, match=r"keyword argument 'foo' is not supported"):
            paddle.static.save_inference_model(str(tmp_path / "m"), [x], [y], exe, program=main, foo=1)
        with pytest.raises(NotImplementedError, match=r"legacy_format=True .* is not supported"):
            paddle.static.save_inference_model(str(tmp_path / "m"), [x], [y], exe, program=main, legacy_format=True)
        with pytest.raises(RuntimeError, match=r"has no value in the scope; run the startup program"):
            paddle.static.save_inference_model(str(tmp_path / "m"), [x], [y], exe, program=main)
    finally:
        paddle.disable_static()


class TwoHeads(paddle.nn.Layer):
    def __init__(self) -> None:
        super().__init__()
        self.table = paddle.create_parameter([4, 3], "float32")
        self.fc = paddle.nn.Linear(3, 2)

    def forward(self, ids, x):
        h = self.fc(x + paddle.nn.functional.embedding(ids, self.table))
        return h, {"mean": h.mean(), "ids2": ids * 2}


def test_several_outputs_and_integer_inputs(tmp_path):
    paddle.seed(6)
    net = TwoHeads()
    paddle.jit.save(net, str(tmp_path / "two"), [IS([None], "int64", "ids"), IS([None, 3], "float32", "x")])
    m = paddle.jit.load(str(tmp_path / "two"))
    m.train()
    ids = paddle.to_tensor([1, 3, 0, 3])
    x = paddle.to_tensor(np.random.default_rng(4).standard_normal((4, 3)).astype("float32"))
    got, ref = m(ids, x), net(ids, x)
    np.testing.assert_allclose(got[0].numpy(), ref[0].numpy(), rtol=1e-6)
    assert isinstance(got, list) and len(got) == 3  # as Paddle's loaded program: the outputs flat, dict keys sorted
    np.testing.assert_array_equal(got[1].numpy(), [2, 6, 0, 6])
    assert got[1].dtype == paddle.int64
    (got[0].square().sum() + got[2] * 3.0).backward()
    (ref[0].square().sum() + ref[1]["mean"] * 3.0).backward()
    params = {k: jnp.asarray(v.numpy()) for k, v in net.state_dict().items()}

    def oracle(p):
        h = (x.numpy() + p["table"][ids.numpy()]) @ p["fc.weight"] + p["fc.bias"]
        return jnp.sum(h ** 2) + jnp.mean(h) * 3.0

    g = jax.grad(oracle)(params)
    for (name, p), (name2, q) in zip(m.named_parameters(), net.named_parameters()):
        assert name == name2
        np.testing.assert_allclose(p.grad.numpy(), q.grad.numpy(), rtol=1e-5, atol=1e-6)
        np.testing.assert_allclose(p.grad.numpy(), g[name], rtol=1e-5, atol=1e-6)


def test_random_ops_draw_from_the_global_generator_like_the_original(tmp_path):
    def f(x):
        return paddle.nn.functional.dropout(x, 0.5, training=True)

    paddle.jit.save(f, str(tmp_path / "drop"), [IS([None, 8], "float32", "x")])
    g = paddle.jit.load(str(tmp_path / "drop"))
    x = paddle.ones([6, 8])
    paddle.seed(11)
    a1, a2 = g(x).numpy(), g(x).numpy()
    paddle.seed(11)
    b1, b2 = f(x).numpy(), f(x).numpy()
    np.testing.assert_array_equal(a1, b1)  # the same masks as the original under the same seed
    np.testing.assert_array_equal(a2, b2)
    assert (a1 != a2).any()  # a fresh mask per call, not one baked into the artifact


def test_loaded_layer_inside_to_static_and_jax_grad(tmp_path):
    paddle.seed(8)
    net = MLP()
    paddle.jit.save(net, str(tmp_path / "m"), [IS([None, 3], "float32", "x")])
    m = paddle.jit.load(str(tmp_path / "m"))
    xv = np.random.default_rng(5).standard_normal((3, 3)).astype("float32")
    x = paddle.to_tensor(xv)
    f = paddle.jit.to_static(lambda x: (m(x) ** 2).sum())
    f(x).backward()
    params = {k: jnp.asarray(v.numpy()) for k, v in net.state_dict().items()}
    g = jax.grad(lambda p: jnp.sum(mlp_jax(p, xv) ** 2))(params)
    np.testing.assert_allclose(f(x).numpy(), jnp.sum(mlp_jax(params, xv) ** 2), rtol=1e-5)
    for name, p in m.named_parameters():
        np.testing.assert_allclose(p.grad.numpy(), g[name], rtol=1e-5, atol=1e-6)


class Counter(paddle.nn.Layer):
    def __init__(self, always: bool) -> None:
        super().__init__()
        self.always = always
        self.register_buffer("seen", paddle.zeros([1]))
        self.fc = paddle.nn.Linear(2, 2)

    def forward(self, x):
        if self.training or self.always:
            self.seen.set_value(self.seen + 1.0)
        return paddle.nn.functional.dropout(self.fc(x), 0.5, training=self.training)


def test_forward_is_saved_in_eval_mode_and_buffer_writes_are_refused(tmp_path):
    net = Counter(always=True)
    with pytest.raises(ValueError, match=r"^paddle.jit.save: the forward writes \['seen'\].*only when self.training"):
        paddle.jit.save(net, str(tmp_path / "c"), [IS([None, 2], "float32", "x")])
    np.testing.assert_array_equal(net.seen.numpy(), [0.0])  # the traced write did not leak out
    assert net.training and net.fc.training  # modes put back

    net = Counter(always=False)  # writes and drops out only in training mode: saved as its eval forward
    paddle.jit.save(net, str(tmp_path / "c"), [IS([None, 2], "float32", "x")])
    assert net.training and net.fc.training
    assert PADDLE["original_training_after_save"] is True
    loaded = paddle.jit.load(str(tmp_path / "c"))
    assert loaded.training is PADDLE["loaded_training"] is False  # as Paddle's loaded layer
    x = paddle.ones([3, 2])
    expected = x.numpy() @ net.fc.weight.numpy() + net.fc.bias.numpy()  # no dropout: the inference forward
    np.testing.assert_allclose(loaded(x).numpy(), expected, rtol=1e-6)
    loaded.train()
    assert PADDLE["loaded_eval_is_identity"] and PADDLE["loaded_train_is_identity"]  # Paddle's dropout after load
    np.testing.assert_allclose(loaded(x).numpy(), expected, rtol=1e-6)
    np.testing.assert_array_equal(net.seen.numpy(), [0.0])


def test_saving_a_layer_method_keeps_its_parameters_as_parameters(tmp_path):
    paddle.seed(9)
    net = MLP()
    paddle.jit.save(net.forward, str(tmp_path / "meth"), [IS([None, 3], "float32", "x")])
    m = paddle.jit.load(str(tmp_path / "meth"))
    m.train()
    assert list(m.state_dict().keys()) == list(net.state_dict().keys())
    xv = np.ones((2, 3), "float32")
    (m(paddle.to_tensor(xv)) ** 2).sum().backward()
    params = {k: jnp.asarray(v.numpy()) for k, v in net.state_dict().items()}
    g = jax.grad(lambda p: jnp.sum(mlp_jax(p, xv) ** 2))(params)
    for name, p in m.named_parameters():
        np.testing.assert_allclose(p.grad.numpy(), g[name], rtol=1e-5, atol=1e-6)


def test_inference_model_with_static_pylayer_and_a_fed_fetch(tmp_path):
    paddle.enable_static()
    try:
        main, start = paddle.static.Program(), paddle.static.Program()
        with paddle.static.program_guard(main, start):
            x = paddle.static.data("x", [None, 3], "float32")
            h = paddle.static.nn.fc(x, 4)
            y = paddle.static.nn.static_pylayer(paddle.tanh, [h], lambda dy: dy * 5.0)
        exe = paddle.static.Executor()
        exe.run(start)
        w, b = (exe.run(main, feed={"x": np.zeros((1, 3), "float32")}, fetch_list=[p])[0]
                for p in main.all_parameters())
        if w.ndim == 1:
            w, b = b, w
        paddle.static.save_inference_model(str(tmp_path / "spl"), x, [y, x], exe, program=main)
        prog, feeds, fetches = paddle.static.load_inference_model(str(tmp_path / "spl"), exe)
        assert feeds == ["x"] and [v.name for v in fetches] == [y.name, "x"]
        for n in (4, 1):
            xv = np.random.default_rng(n).standard_normal((n, 3)).astype("float32")
            a, fed = exe.run(prog, feed={"x": xv}, fetch_list=fetches)
            np.testing.assert_allclose(a, np.tanh(xv @ w + b), rtol=1e-5, atol=1e-6)
            np.testing.assert_array_equal(fed, xv)
    finally:
        paddle.disable_static()
