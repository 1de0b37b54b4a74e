"""nn.initializer: deterministic initializers equal Paddle's values; random ones match the statistics of
Paddle's draws (tests/data/paddle_layers_base.json) and the fan rules; paddle.seed repeats them."""

from __future__ import annotations

import json
import math
import os
from pathlib import Path

import jax
import numpy as np
import pytest
from xla_compiles import COMPILES
from xla_default import as_built_by_default

import pylayer_jax as paddle
from pylayer_jax import nn

I = nn.initializer  # noqa: E741
REC = json.loads(Path(__file__).resolve().parents[1].joinpath("data").joinpath("paddle_layers_base.json").read_text())

DETERMINISTIC = {
    "constant": (lambda: I.Constant(0.75), [2, 3]),
    "constant_default": (lambda: I.Constant(), [2]),
    "assign_list": (lambda: I.Assign([[1.0, 2.0], [3.0, 4.0]]), [2, 2]),
    "assign_numpy": (lambda: I.Assign(np.arange(6, dtype="float32").reshape(2, 3)), [2, 3]),
    "numpy_array": (lambda: I.NumpyArrayInitializer(np.ones([3], "float32") * 4), [3]),
    "dirac_3d": (lambda: I.Dirac(), [4, 2, 3]),
    "dirac_4d": (lambda: I.Dirac(), [3, 5, 3, 3]),
    "dirac_groups": (lambda: I.Dirac(groups=2), [4, 3, 3, 3]),
    "dirac_5d": (lambda: I.Dirac(), [2, 2, 3, 1, 3]),
    "bilinear_4": (lambda: I.Bilinear(), [2, 1, 4, 4]),
    "bilinear_3": (lambda: I.Bilinear(), [1, 2, 3, 3]),
}


@pytest.mark.parametrize("name", sorted(DETERMINISTIC))
def test_deterministic_initializers_equal_paddle(name):
    make, shape = DETERMINISTIC[name]
    p = paddle.create_parameter(shape, "float32", default_initializer=make())
    np.testing.assert_allclose(p.numpy(), np.asarray(REC["initializers"][name], np.float32), rtol=0, atol=1e-7)


def test_calculate_gain_equals_paddle():
    got = {n: I.calculate_gain(n) for n in ["sigmoid", "linear", "conv2d", "tanh", "relu", "leaky_relu", "selu"]}
    got["leaky_relu_0.2"] = I.calculate_gain("leaky_relu", 0.2)
    assert got == pytest.approx(REC["gains"])
    with pytest.raises(ValueError, match="calculate_gain: nonlinearity 'swish' is not supported"):
        I.calculate_gain("swish")


RANDOM = {
    "xavier_uniform_conv": (lambda: I.XavierUniform(), [64, 32, 3, 3]),
    "xavier_normal_conv": (lambda: I.XavierNormal(), [64, 32, 3, 3]),
    "xavier_uniform_fans": (lambda: I.XavierUniform(fan_in=10, fan_out=20, gain=2.0), [300, 300]),
    "kaiming_uniform_conv": (lambda: I.KaimingUniform(), [64, 32, 3, 3]),
    "kaiming_normal_conv": (lambda: I.KaimingNormal(), [64, 32, 3, 3]),
    "kaiming_normal_fan_out": (lambda: I.KaimingNormal(mode="fan_out", nonlinearity="leaky_relu",
                                                       negative_slope=0.1), [64, 32, 3, 3]),
    "kaiming_uniform_fan_in": (lambda: I.KaimingUniform(fan_in=50), [200, 300]),
    "normal": (lambda: I.Normal(1.0, 3.0), [300, 300]),
    "uniform": (lambda: I.Uniform(-2.0, 5.0), [300, 300]),
    "truncated_normal": (lambda: I.TruncatedNormal(1.0, 2.0, -1.0, 3.0), [300, 300]),
}


@pytest.mark.parametrize("name", sorted(RANDOM))
def test_random_initializers_match_paddle_statistics(name):
    make, shape = RANDOM[name]
    paddle.seed(11)
    v = paddle.create_parameter(shape, "float64", default_initializer=make()).numpy()
    ref = REC["stats"][name]
    assert list(v.shape) == shape
    spread = ref["std"]
    assert abs(v.mean() - ref["mean"]) < 0.05 * spread
    assert v.std() == pytest.approx(ref["std"], rel=0.03)
    # bounded draws reach their bounds; unbounded ones have Paddle's tails
    tol = 0.01 * spread if name.startswith(("xavier_uniform", "kaiming_uniform", "uniform", "truncated")) else spread
    assert v.min() == pytest.approx(ref["min"], abs=tol) and v.max() == pytest.approx(ref["max"], abs=tol)


def test_fan_rules_for_conv_shapes():
    # Paddle's conv kernel [out, in, kh, kw]: fan_in = in*kh*kw, fan_out = out*kh*kw
    paddle.seed(0)
    v = paddle.create_parameter([8, 4, 5, 5], "float64", default_initializer=I.XavierUniform()).numpy()
    limit = math.sqrt(6.0 / (4 * 25 + 8 * 25))
    assert np.abs(v).max() <= limit and np.abs(v).max() > 0.97 * limit
    v = paddle.create_parameter([8, 4, 5, 5], "float64", default_initializer=I.KaimingUniform()).numpy()
    limit = math.sqrt(2.0) * math.sqrt(3.0 / (4 * 25))
    assert np.abs(v).max() <= limit and np.abs(v).max() > 0.97 * limit


def test_linear_default_init_is_xavier_uniform_and_zero_bias():
    paddle.seed(3)
    lin = nn.Linear(300, 200)
    limit = math.sqrt(6.0 / 500)
    w = lin.weight.numpy()
    assert np.abs(w).max() <= limit and np.abs(w).max() == pytest.approx(REC["stats"]["linear_default_weight"]["max"],
                                                                          abs=0.002)
    assert w.std() == pytest.approx(limit / math.sqrt(3), rel=0.02)
    np.testing.assert_array_equal(lin.bias.numpy(), np.zeros(200))


def test_orthogonal_rows_are_orthonormal_times_gain():
    paddle.seed(5)
    w = paddle.create_parameter([30, 50], "float64", default_initializer=I.Orthogonal(gain=2.0)).numpy()
    np.testing.assert_allclose(w @ w.T, np.asarray(REC["orthogonal_wwt"]), atol=1e-7)
    w = paddle.create_parameter([6, 2, 2], "float64", default_initializer=I.Orthogonal()).numpy().reshape(6, 4)
    np.testing.assert_allclose(w.T @ w, np.eye(4), atol=1e-7)


def test_seed_makes_initialization_repeat():
    paddle.seed(42)
    a = [p.numpy() for p in nn.Linear(4, 3, bias_attr=I.Normal()).parameters()]
    paddle.seed(42)
    b = [p.numpy() for p in nn.Linear(4, 3, bias_attr=I.Normal()).parameters()]
    for x, y in zip(a, b):
        np.testing.assert_array_equal(x, y)
    c = nn.Linear(4, 3).weight.numpy()
    assert not np.array_equal(a[0], c)


def test_initializer_fills_a_parameter_in_place():
    lin = nn.Linear(2, 2)
    w = lin.weight
    out = I.Constant(3.0)(w)
    assert out is w and lin.weight is w
    np.testing.assert_array_equal(w.numpy(), np.full([2, 2], 3.0))
    with pytest.raises(TypeError, match="Constant: an initializer is called on the Tensor or Parameter to fill"):
        I.Constant(1.0)(np.ones(2))


def test_global_initializer_overrides_defaults_not_attrs():
    I.set_global_initializer(I.Constant(2.0), I.Constant(-1.0))
    try:
        lin = nn.Linear(2, 2)
        np.testing.assert_array_equal(lin.weight.numpy(), np.full([2, 2], 2.0))
        np.testing.assert_array_equal(lin.bias.numpy(), np.full([2], -1.0))
        lin = nn.Linear(2, 2, weight_attr=I.Constant(5.0))
        np.testing.assert_array_equal(lin.weight.numpy(), np.full([2, 2], 5.0))
    finally:
        I.set_global_initializer(None, None)
    assert not np.all(nn.Linear(2, 2).weight.numpy() == 2.0)
    with pytest.raises(TypeError, match="set_global_initializer: weight_init must be an Initializer or None"):
        I.set_global_initializer(3)


def test_initializer_errors():
    with pytest.raises(ValueError, match=r"Assign: the value has shape \[2\] but the parameter has shape \[3\]"):
        paddle.create_parameter([3], "float32", default_initializer=I.Assign([1.0, 2.0]))
    with pytest.raises(AssertionError, match="Dirac: the parameter must have 3, 4 or 5 dimensions"):
        paddle.create_parameter([3, 3], "float32", default_initializer=I.Dirac())
    with pytest.raises(AssertionError, match=r"Dirac: the parameter's dimension 0 \(3\) must be divisible by groups=2"):
        paddle.create_parameter([3, 3, 3], "float32", default_initializer=I.Dirac(groups=2))
    with pytest.raises(ValueError, match=r"Bilinear: the kernel must be square"):
        paddle.create_parameter([1, 1, 3, 4], "float32", default_initializer=I.Bilinear())
    with pytest.raises(ValueError, match="KaimingNormal/KaimingUniform: mode must be 'fan_in' or 'fan_out'"):
        I.KaimingNormal(mode="x")
    with pytest.raises(AssertionError, match="Orthogonal: the parameter needs at least 2 dimensions"):
        paddle.create_parameter([3], "float32", default_initializer=I.Orthogonal())
    with pytest.raises(TypeError, match="Normal: random initialization needs a floating dtype, but the parameter is int32"):
        paddle.create_parameter([3], "int32", default_initializer=I.Normal())
    with pytest.raises(ValueError, match="TruncatedNormal: a must be below b"):
        I.TruncatedNormal(a=1.0, b=0.0)


def test_every_paddle_initializer_class_exists():
    assert len(REC["initializer_classes"]) == 20
    for name in REC["initializer_classes"]:
        cls = getattr(I, name)
        assert isinstance(cls, type) and (cls is I.Initializer or issubclass(cls, I.Initializer)), name
    assert callable(I.calculate_gain) and callable(I.set_global_initializer)


def test_static_programs_take_nn_initializers():
    paddle.enable_static()
    try:
        main, start = paddle.static.Program(), paddle.static.Program()
        with paddle.static.program_guard(main, start):
            w = paddle.static.create_parameter([2, 3], "float32", default_initializer=I.Constant(2.0))
            u = paddle.static.create_parameter([300, 300], "float32",
                                               attr=paddle.ParamAttr(initializer=I.XavierUniform()))
        exe = paddle.static.Executor(paddle.CPUPlace())
        exe.run(start)
        wv, uv = exe.run(main, fetch_list=[w, u])
    finally:
        paddle.disable_static()
    np.testing.assert_array_equal(wv, np.full([2, 3], 2.0))
    limit = math.sqrt(6.0 / 600)
    assert np.abs(uv).max() <= limit and np.abs(uv).max() > 0.97 * limit


def test_constant_fills_a_new_shape_without_compiling(caplog) -> None:
    # small constants are filled on the host and transferred (jnp.full compiled a program per shape)
    import logging

    with jax.log_compiles(True), caplog.at_level(logging.WARNING, logger="jax"):
        caplog.clear()
        w = paddle.create_parameter([5, 11], "float64", default_initializer=I.Constant(0.25))
        b = paddle.create_parameter([11], "float16", default_initializer=I.Constant(-3.0))
    assert not [r.getMessage() for r in caplog.records if "Compiling" in r.getMessage() and "split" not in r.getMessage()]
    np.testing.assert_array_equal(w.numpy(), np.full([5, 11], 0.25))
    assert b.dtype == paddle.float16 and np.array_equal(b.numpy(), np.full([11], -3.0, np.float16))




def test_building_a_model_compiles_nothing_and_draws_jaxs_numbers() -> None:
    # random initializers draw on the host (JAX's threefry stream in numpy): no program per weight shape
    inits = [I.XavierUniform(), I.XavierNormal(), I.KaimingUniform(), I.KaimingNormal(), I.Uniform(-0.5, 0.25),
             I.Normal(0.5, 2.0)]
    shapes = [[3, 5], [7, 2], [2, 3, 3, 3], [11], [4, 9], [6, 1]]
    paddle.seed(123)
    before = COMPILES[0]
    params = [paddle.create_parameter(s, "float32", default_initializer=i) for i, s in zip(inits, shapes)]
    half = paddle.create_parameter([5, 4], "float16", default_initializer=I.XavierUniform())
    assert COMPILES[0] == before
    # the oracle: jax.random on the keys the generator splits off, scaled as the initializers' formulas say (two of
    # them: each oracle compiles)
    state, k0 = jax.random.split(jax.random.PRNGKey(123))
    state, k1 = jax.random.split(state)
    lim = math.sqrt(6.0 / (3 + 5))
    want = as_built_by_default(lambda k: jax.random.uniform(k, (3, 5), "float32", -lim, lim))(k0)
    np.testing.assert_array_equal(params[0].numpy(), want)
    std = math.sqrt(2.0 / (7 + 2))
    np.testing.assert_allclose(params[1].numpy(), std * jax.random.normal(k1, (7, 2), "float32"), rtol=1e-6, atol=1e-7)
    assert half.dtype == paddle.float16 and np.abs(half.numpy()).max() <= math.sqrt(6.0 / 9)
    assert params[5].numpy().std() > 0.5 and np.abs(params[4].numpy() + 0.125).max() <= 0.375


def test_large_draws_use_jax_random_with_the_same_numbers(monkeypatch: pytest.MonkeyPatch) -> None:
    # above HOST_DRAW elements jax.random draws (a compile is small beside such a draw): the same stream either way
    from pylayer_jax.nn.initializer import _base

    monkeypatch.setattr(_base, "HOST_DRAW", 50)
    paddle.seed(4)
    big = paddle.create_parameter([8, 8], "float32", default_initializer=I.XavierUniform()).numpy()
    monkeypatch.setattr(_base, "HOST_DRAW", 1 << 17)
    paddle.seed(4)
    small = paddle.create_parameter([8, 8], "float32", default_initializer=I.XavierUniform()).numpy()
    # (bit for bit where XLA fuses uniform's multiply-add, as by default; the suite's lower optimisation rounds
    # them apart: one rounding of the sum, see tests/xla_default.py)
    apart = "optimization_level=0" in os.environ.get("XLA_FLAGS", "")
    np.testing.assert_allclose(big, small, rtol=0, atol=1e-7 if apart else 0)
    assert np.abs(big).max() <= math.sqrt(6.0 / 16) and big.std() > 0.1


def test_larger_draws_share_one_program_per_size_class_with_jax_randoms_numbers(monkeypatch: pytest.MonkeyPatch) -> None:
    # above HOST_DRAW elements a draw is the head of a flat draw of the next power-of-two size: weights of many
    # shapes compile one program per size class and kind (a ResNet-18 took seconds to build, one compile per shape),
    # and the numbers are jax.random's for the shape itself (the oracle: BUCKET_DRAW 0 draws with jax.random)
    from pylayer_jax.nn.initializer import _base

    monkeypatch.setattr(_base, "HOST_DRAW", 50)
    shapes = [[9, 10], [10, 11], [2, 3, 4, 5], [12, 10]]  # 90 to 120 elements: the class of 128
    inits = [I.Normal(0.5, 2.0), I.XavierUniform()]

    def build(shapes: list[list[int]]) -> list[np.ndarray]:
        paddle.seed(7)
        return [paddle.create_parameter(s, dt, default_initializer=i).numpy()
                for i in inits for s in shapes for dt in ("float32", "float64")]

    build([[11, 11]])  # (compiles each kind's program for the class once per dtype)
    before = COMPILES[0]
    bucketed = build(shapes)  # other shapes of the class: nothing compiles
    assert COMPILES[0] == before
    monkeypatch.setattr(_base, "BUCKET_DRAW", 0)
    direct = build(shapes)
    apart = "optimization_level=0" in os.environ.get("XLA_FLAGS", "")  # (uniform's multiply-add: see the test above)
    for a, b in zip(bucketed, direct):
        assert a.shape == b.shape and a.dtype == b.dtype
        np.testing.assert_allclose(a, b, rtol=0, atol=1e-7 if apart else 0)
