"""Dropout rates, ``paddle.scale``'s factor and bias and celu's and selu's constants as number inputs (``defop``'s
``numbers``, beside ``tests/ops/test_number_inputs.py``): past ``NUMBER_VALUES_KEPT`` values of the attribute, a
Python float goes to one kernel as an input (a dropout rate with its ``1 / (1 - p)``, the alpha dropouts' with their
affine correction, celu's alpha with its reciprocal: ``defop``'s ``derived``), unless ``numbers_if`` keeps it
compiled in (a float16 tensor, a factor of 1, a bias of 0, a rate of 0 or 1 or below ~2**-24, NaN, subnormals).

Oracle: the same call with the number compiled in (the first values are), bit for bit, under the same seed; the
gradients also against ``jax.vjp`` of the op's function with the number a Python constant. The bit-for-bit pairs run
in one child interpreter that compiles with XLA's default options, as a user's kernels are compiled: the suite's
options (``tests/conftest.py``) are not among those the package's number inputs promise its bits under (there
``scale(..., act="tanh")``'s gradient with its numbers as inputs is an ulp off the compiled-in one in a few
elements)."""

from __future__ import annotations

import os
import pickle
import subprocess
import sys

import jax
import jax.numpy as jnp
import numpy as np
import pytest
from xla_default import default_env

import pylayer_jax as P
import pylayer_jax.nn.functional as F
from pylayer_jax._api.random import random_key
from pylayer_jax._exec import deferred as _lazy
from pylayer_jax._ops.table import TABLE, NumberInput
from pylayer_jax._replay import follow as _replay
from pylayer_jax._tensor import dispatch


@pytest.fixture(autouse=True)
def _fresh_number_values(monkeypatch: pytest.MonkeyPatch) -> None:
    """Each test starts with no number attribute seen (the values other tests gave stay theirs)."""
    monkeypatch.setattr(dispatch, "_NUMBER_VALUES", {})


RNG = np.random.default_rng(23)


def R(*shape: int, dtype: str = "float32") -> np.ndarray:
    return (RNG.standard_normal(shape) * 2).astype(dtype)


def _inputs_from_now(*attrs: tuple[str, str]) -> None:
    """The next values of these (op, attribute) pairs go as inputs (as after ``NUMBER_VALUES_KEPT`` values)."""
    for op, name in attrs:
        dispatch._NUMBER_VALUES[(TABLE[op], name)] = None


def _n_inputs(y: P.Tensor, op: str | None = None) -> int:
    """How many number inputs the call of ``op`` (default: the one that made ``y``) behind ``y`` took (read before
    the backward releases the graph)."""
    node = y._edge[0]
    while op is not None and node.op.name != op:  # (an activation after scale, a cast before the op)
        node = next(e for e in node.next_edges if e is not None)[0]
    return sum(type(v) is NumberInput for v in (*node.key[1], *(b for _, b in node.key[2])))


def _bits(a: P.Tensor) -> bytes:
    return np.ascontiguousarray(a.numpy()).tobytes()


def _run(call, x_np: np.ndarray, ct_np: np.ndarray, op: str | None = None, seed: int = 7):  # noqa: ANN001, ANN202
    """``call`` on a fresh input under ``seed``: its output, the input's gradient and the number inputs ``op`` took."""
    x = P.to_tensor(x_np, stop_gradient=False)
    P.seed(seed)
    y = call(x)
    n = _n_inputs(y, op)
    y.backward(P.to_tensor(ct_np))
    return y, x.grad, n


# (id, call, the (op, attribute) pairs made inputs, the number inputs the traced call has, input shape, dtype)
CASES = [
    ("dropout", lambda x: F.dropout(x, 0.3), [("dropout", "p")], 2, (16, 8), "float32"),
    ("dropout-float64", lambda x: F.dropout(x, 0.45), [("dropout", "p")], 2, (16, 8), "float64"),
    ("dropout-downscale", lambda x: F.dropout(x, 0.3, mode="downscale_in_infer"), [("dropout", "p")], 2, (16, 8),
     "float32"),
    ("dropout-downscale-infer", lambda x: F.dropout(x, 0.3, training=False, mode="downscale_in_infer"),
     [("dropout", "p")], 2, (16, 8), "float32"),
    ("dropout-axis", lambda x: F.dropout(x, 0.6, axis=[0]), [("dropout", "p")], 2, (16, 8), "float32"),
    ("dropout2d", lambda x: F.dropout2d(x, 0.25), [("dropout", "p")], 2, (2, 3, 4, 4), "float32"),
    ("alpha_dropout", lambda x: F.alpha_dropout(x, 0.2), [("alpha_dropout", "p")], 3, (16, 8), "float32"),
    ("feature_alpha_dropout", lambda x: F.feature_alpha_dropout(x, 0.35), [("feature_alpha_dropout", "p")], 3,
     (4, 6, 3), "float64"),
    ("scale", lambda x: P.scale(x, 2.5, 0.75), [("scale", "scale"), ("scale", "bias")], 2, (16, 8), "float32"),
    ("scale-bias-first", lambda x: P.scale(x, -0.3, 1.5, bias_after_scale=False),
     [("scale", "scale"), ("scale", "bias")], 2, (16, 8), "float64"),
    ("scale-keyword", lambda x: P.scale(x, scale=3.25), [("scale", "scale"), ("scale", "bias")], 1, (16, 8),
     "float32"),
    ("scale-act", lambda x: P.scale(x, 0.5, -0.25, act="tanh"), [("scale", "scale"), ("scale", "bias")], 2, (16, 8),
     "float32"),
    ("celu", lambda x: F.celu(x, 0.7), [("celu", "alpha")], 2, (16, 8), "float32"),
    ("celu-float64", lambda x: F.celu(x, 1.9), [("celu", "alpha")], 2, (16, 8), "float64"),
    ("selu", lambda x: F.selu(x, 1.2, 1.5), [("selu", "scale"), ("selu", "alpha")], 2, (16, 8), "float32"),
]


def _both_forms(cid: str, x: np.ndarray, ct: np.ndarray) -> tuple:
    """Case ``cid`` with its numbers compiled in, then as inputs (the derived ones beside them), under the same seed:
    for each, the number inputs the call took, its output's dtype, and the output's and the gradient's bits."""
    _cid, call, attrs, *_ = next(c for c in CASES if c[0] == cid)
    op = attrs[0][0]
    dispatch._NUMBER_VALUES = {}  # (no number attribute seen, as the autouse fixture gives each test)
    y0, g0, n0 = _run(call, x, ct, op)
    _inputs_from_now(*attrs)
    y1, g1, n1 = _run(call, x, ct, op)
    return (n0, y0.dtype, _bits(y0), _bits(g0)), (n1, y1.dtype, _bits(y1), _bits(g1))


# the child interpreter: this module's _both_forms on every case (argv: this folder, the tests folder, the inputs'
# pickle, where to write the results' pickle)
_CHILD = """
import pickle, sys
sys.path[:0] = sys.argv[1:3]
import test_number_inputs_dropout as T
with open(sys.argv[3], "rb") as f:
    inputs = pickle.load(f)
out = {cid: T._both_forms(cid, x, ct) for cid, (x, ct) in inputs.items()}
with open(sys.argv[4], "wb") as f:
    pickle.dump(out, f)
"""


@pytest.fixture(scope="module")
def both_forms_by_default(tmp_path_factory: pytest.TempPathFactory) -> dict[str, tuple]:
    """``_both_forms`` of every case, compiled with XLA's default options in one child interpreter."""
    inputs = {c[0]: (R(*c[4], dtype=c[5]), R(*c[4], dtype=c[5])) for c in CASES}
    d = tmp_path_factory.mktemp("both_forms")
    with open(d / "inputs.pkl", "wb") as f:
        pickle.dump(inputs, f)
    here = os.path.dirname(os.path.abspath(__file__))
    src = os.path.dirname(os.path.dirname(os.path.abspath(P.__file__)))  # (the child imports this package)
    env = default_env(dict(os.environ))
    env["PYTHONPATH"] = os.pathsep.join([src, *filter(None, [env.get("PYTHONPATH")])])
    p = subprocess.run([sys.executable, "-c", _CHILD, here, os.path.dirname(here), str(d / "inputs.pkl"),
                        str(d / "out.pkl")], env=env, capture_output=True, text=True, timeout=600)
    assert p.returncode == 0, p.stderr[-3000:]
    with open(d / "out.pkl", "rb") as f:
        return pickle.load(f)


@pytest.mark.parametrize(("cid", "n_in"), [(c[0], c[3]) for c in CASES], ids=[c[0] for c in CASES])
def test_a_number_input_gives_the_compiled_values_bit_for_bit(cid: str, n_in: int,
                                                              both_forms_by_default: dict[str, tuple]) -> None:
    """The call with its numbers compiled in, then as inputs (the derived ones beside them), under the same seed:
    the same outputs and gradients bit for bit (compiled with XLA's default options)."""
    (n0, dt0, y0, g0), (n1, dt1, y1, g1) = both_forms_by_default[cid]
    assert n0 == 0
    assert n1 == n_in
    assert dt1 == dt0 and y1 == y0
    assert g1 == g0


def _key_array() -> jax.Array:
    P.seed(7)
    return random_key()._value


# (id, public call, the op's function with the number a constant and the key of seed 7, (op, attributes))
GRADIENTS = [
    ("dropout", lambda x: F.dropout(x, 0.3), lambda x, k: TABLE["dropout"].fn(x, k, 0.3), [("dropout", "p")]),
    ("alpha_dropout", lambda x: F.alpha_dropout(x, 0.2), lambda x, k: TABLE["alpha_dropout"].fn(x, k, 0.2),
     [("alpha_dropout", "p")]),
    ("scale", lambda x: P.scale(x, 2.5, 0.75), lambda x, k: 2.5 * x + 0.75, [("scale", "scale"), ("scale", "bias")]),
    ("celu", lambda x: F.celu(x, 0.7), lambda x, k: TABLE["celu"].fn(x, 0.7), [("celu", "alpha")]),
    ("selu", lambda x: F.selu(x, 1.2, 1.5), lambda x, k: TABLE["selu"].fn(x, 1.2, 1.5),
     [("selu", "scale"), ("selu", "alpha")]),
]


@pytest.mark.parametrize(("cid", "call", "ref", "attrs"), GRADIENTS, ids=[c[0] for c in GRADIENTS])
def test_number_inputs_values_and_gradients_are_jax_vjps(cid, call, ref, attrs):  # noqa: ANN001, ARG001
    """With the numbers as inputs, the values and gradients are jax.vjp's of the op's function with the numbers
    compiled in (the same key)."""
    x, ct = R(16, 8), R(16, 8)
    _inputs_from_now(*attrs)
    y, g, n = _run(call, x, ct, attrs[0][0])
    assert n > 0
    k = _key_array()
    want, vjp = jax.vjp(lambda a: ref(a, k), jnp.asarray(x))
    np.testing.assert_allclose(y.numpy(), np.asarray(want), rtol=2e-6, atol=1e-7)
    np.testing.assert_allclose(g.numpy(), np.asarray(vjp(jnp.asarray(ct))[0]), rtol=2e-6, atol=1e-7)


# (id, call, (op, attributes)): values for which the number stays compiled in, whatever the attribute has taken
KEPT = [
    ("dropout-float16", lambda x: F.dropout(x.astype("float16"), 0.3), [("dropout", "p")]),
    ("dropout-bfloat16", lambda x: F.dropout(x.astype("bfloat16"), 0.3), [("dropout", "p")]),
    ("dropout-p1", lambda x: F.dropout(x, 1.0), [("dropout", "p")]),
    ("dropout-tiny", lambda x: F.dropout(x, 2e-8), [("dropout", "p")]),
    ("dropout-tiny-downscale-infer", lambda x: F.dropout(x, 2e-8, training=False, mode="downscale_in_infer"),
     [("dropout", "p")]),
    ("alpha_dropout-p1", lambda x: F.alpha_dropout(x, 1.0), [("alpha_dropout", "p")]),
    ("alpha_dropout-float16", lambda x: F.alpha_dropout(x.astype("float16"), 0.3), [("alpha_dropout", "p")]),
    ("scale-1", lambda x: P.scale(x, 1.0, 0.5), [("scale", "scale")]),
    ("scale-minus-1", lambda x: P.scale(x, -1.0, 0.5), [("scale", "scale")]),
    ("scale-bias-0", lambda x: P.scale(x, 2.5, 0.0), [("scale", "bias")]),
    ("scale-bias-minus-0", lambda x: P.scale(x, 2.5, -0.0), [("scale", "bias")]),
    ("scale-rounds-to-1", lambda x: P.scale(x, 1.00000001, 0.5), [("scale", "scale")]),
    ("scale-nan", lambda x: P.scale(x, float("nan"), 0.5), [("scale", "scale")]),
    ("scale-subnormal-bias", lambda x: P.scale(x, 2.0, 1e-40), [("scale", "bias")]),
    ("scale-float16", lambda x: P.scale(x.astype("float16"), 2.5, 0.5), [("scale", "scale"), ("scale", "bias")]),
    ("celu-1", lambda x: F.celu(x, 1.0), [("celu", "alpha")]),
    ("celu-float16", lambda x: F.celu(x.astype("float16"), 0.7), [("celu", "alpha")]),
    ("selu-float64-f32-subnormal", lambda x: F.selu(x.astype("float64"), 1e-40), [("selu", "scale")]),
]


@pytest.mark.parametrize(("cid", "call", "attrs"), KEPT, ids=[c[0] for c in KEPT])
def test_values_whose_input_form_would_differ_stay_compiled_in(cid, call, attrs):  # noqa: ANN001, ARG001
    """A float16 tensor, a factor of magnitude 1, a bias of 0, a rate of 1 or below ~2**-24, NaN and subnormals keep
    their number in the key even once the attribute takes inputs: the results are those of before, bit for bit."""
    x, ct = R(16, 8), R(16, 8)
    op = attrs[0][0]
    y0, g0, _ = _run(call, x, ct, op)
    _inputs_from_now(*attrs)
    y1, g1, n1 = _run(call, x, ct, op)
    assert n1 == 0
    assert _bits(y1) == _bits(y0) and _bits(g1) == _bits(g0)


def test_integer_scale_keeps_its_numbers():
    """``paddle.scale`` of an integer tensor truncates its numbers (Paddle's kernel): they stay compiled in."""
    x = P.to_tensor(np.arange(-6, 6, dtype="int32"))
    want = P.scale(x, 2.7, 1.9).numpy()
    _inputs_from_now(("scale", "scale"), ("scale", "bias"))
    got = P.scale(x, 2.7, 1.9)
    assert got.dtype == P.int32
    np.testing.assert_array_equal(got.numpy(), want)
    np.testing.assert_array_equal(want, np.arange(-6, 6) * 2 + 1)


def test_a_rate_keeps_paddles_semantics_as_an_input():
    """Past the kept values a rate is an input; dropout stays Paddle's: the kept values scaled by 1 / (1 - p), the
    identity in eval mode, ``1 - p`` downscaling at inference, p=1 dropping everything, p=0 the input itself."""
    x = P.to_tensor(np.ones(400, "float32"), stop_gradient=False)
    _inputs_from_now(("dropout", "p"))
    y = F.dropout(x, 0.2)
    assert _n_inputs(y) == 2
    kept = y.numpy()[y.numpy() != 0]
    np.testing.assert_array_equal(kept, np.full(kept.shape, np.float32(1 / 0.8)))
    assert 0.6 < kept.size / 400 < 0.95
    assert F.dropout(x, 0.2, training=False) is x and F.dropout(x, 0.0) is x
    np.testing.assert_array_equal(F.dropout(x, 0.2, training=False, mode="downscale_in_infer").numpy(),
                                  np.full(400, np.float32(1.0) * np.float32(0.8)))
    np.testing.assert_array_equal(F.dropout(x, 1.0).numpy(), np.zeros(400, np.float32))
    down = F.dropout(x, 0.3, mode="downscale_in_infer").numpy()
    assert set(np.unique(down)) <= {0.0, 1.0}
    with pytest.raises(ValueError, match="dropout: p must be a number in"):
        F.dropout(x, 1.5)


def test_a_dropout_layer_whose_p_changes_follows_it():
    """``nn.Dropout(p)`` reads its ``p`` at each call: a changed p is the rate of the next draw, as an input too."""
    layer = P.nn.Dropout(0.1)
    x = P.to_tensor(R(64, 32), stop_gradient=False)
    for p in (0.15, 0.25, 0.35, 0.45, 0.55, 0.65):
        layer.p = p
        P.seed(3)
        y = layer(x)
        P.seed(3)
        want = F.dropout(x, p)
        assert _bits(y) == _bits(want)
        np.testing.assert_allclose(np.count_nonzero(y.numpy()) / y.size, 1 - p, atol=0.06)
    assert _n_inputs(y) == 2


def test_saved_tensor_hooks_forms_take_the_rate_as_an_input():
    """Under saved-tensor hooks dropout runs Paddle's kernel form that keeps the mask (``dropout_residuals``): with
    its rate as an input (and its factor) it packs the mask only, and gives the plain op's values and gradients."""
    x_np, ct = R(8, 6), R(8, 6)
    plain = _run(lambda x: F.dropout(x, 0.4), x_np, ct)
    runs, packed = [], []
    for as_inputs in (False, True):
        if as_inputs:
            _inputs_from_now(("dropout_residuals", "p"))
        with P.autograd.saved_tensors_hooks(lambda t: (packed.append(t.dtype), t)[1], lambda t: t):
            runs.append(_run(lambda x: F.dropout(x, 0.4), x_np, ct, "dropout_residuals"))
    (y0, g0, n0), (y1, g1, n1) = runs
    assert (n0, n1) == (0, 2) and packed == [P.uint8, P.uint8]
    assert _bits(y1) == _bits(y0) == _bits(plain[0]) and _bits(g1) == _bits(g0)
    np.testing.assert_array_equal(g1.numpy(), plain[1].numpy())  # (the plain op's dropped gradients are +0.0)


def _mlp():  # noqa: ANN202
    P.seed(0)
    net = P.nn.Sequential(P.nn.Linear(8, 16), P.nn.ReLU(), P.nn.Dropout(0.1), P.nn.Linear(16, 1))
    opt = P.optimizer.SGD(learning_rate=1e-2, parameters=net.parameters())
    return net, opt


def _train(net, opt, steps: int, rate, scale=None, on_step=None):  # noqa: ANN001, ANN202
    x = P.to_tensor(np.random.default_rng(0).standard_normal((64, 8)).astype("float32"))
    y = P.to_tensor(np.random.default_rng(1).standard_normal((64, 1)).astype("float32"))
    losses = []
    for i in range(steps):
        net[2].p = rate(i)
        out = net(x)
        if scale is not None:
            out = P.scale(out, *scale(i))
        loss = ((out - y) ** 2).mean()
        loss.backward()
        opt.step()
        opt.clear_grad()
        losses.append(float(loss))
        if on_step is not None:
            on_step(i)
    return losses, [p.numpy() for p in net.parameters()]


@pytest.mark.parametrize("with_scale", [False, True], ids=["dropout", "dropout-and-scale"])
def test_a_rate_changing_every_step_compiles_nothing_new(with_scale, monkeypatch):  # noqa: ANN001
    """A 64x8 MLP (Linear-ReLU-Dropout-Linear, SGD) whose dropout rate (and a paddle.scale after it) changes every
    step: after the first steps (the values compiled in, then the first with inputs) nothing compiles and the steps
    replay; the losses and weights are those of the same loop with every value compiled in (a program each step)."""
    rate = lambda i: 0.1 + 0.3 * ((i * 0.618) % 1.0)  # noqa: E731
    scale = (lambda i: (1.0 + 0.01 * (i + 1), 0.02 * (i + 1))) if with_scale else None
    steps, warm, ref_steps = 14, dispatch.NUMBER_VALUES_KEPT + 2, 8
    compiled: list = []
    at_ref: list = []
    replayed = _replay.STATS["steps"]
    net, opt = _mlp()

    def note(i: int) -> None:
        if i == warm:
            compiled.append(_lazy.STATS["compiled"])
        if i == ref_steps - 1:
            at_ref.extend(p.numpy() for p in net.parameters())

    losses = _train(net, opt, steps, rate, scale, note)[0]
    assert _lazy.STATS["compiled"] == compiled[0]
    assert _replay.STATS["steps"] - replayed >= steps - warm - 2
    assert dispatch._NUMBER_VALUES[(TABLE["dropout"], "p")] is None
    monkeypatch.setattr(dispatch, "_NUMBER_VALUES", {})
    monkeypatch.setattr(dispatch, "NUMBER_VALUES_KEPT", 10**6)  # every value compiled in
    want_losses, want_weights = _train(*_mlp(), ref_steps, rate, scale)
    np.testing.assert_allclose(losses[:ref_steps], want_losses, rtol=1e-6)
    for a, b in zip(at_ref, want_weights):
        np.testing.assert_allclose(a, b, rtol=1e-6, atol=1e-7)
