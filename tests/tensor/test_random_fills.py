"""The in-place random fills (``normal_``, ``log_normal_``, ``bernoulli_``, ``cauchy_``, ``exponential_``,
``geometric_``, ``random_``) against Paddle 3.3.1 (cases: ``tests/random_fill_cases.py``, recorded by
``tests/record_paddle_random_fills.py``). Draws cannot match Paddle's generator: the recorded draws are compared by
dtype, shape, support (the exact set of values of a discrete draw) and by statistics within bounds of the sampling
error of 20000 draws; the tests below add the theoretical moments (fixed seeds), ``paddle.seed`` repeating a draw,
the in-place write (version bump, views), and each misuse's error.

Deliberate differences from Paddle 3.3.1 (each tested below):
- ``geometric_`` writes geometric samples (integers 1, 2, ... of mean ``1/p``); Paddle writes the unrounded
  ``log(u) / log(1 - p)``, continuous values of mean ``-1/log(1 - p)``, and -inf / NaN for p outside (0, 1], which
  is refused here;
- ``exponential_`` refuses a rate ``lam <= 0`` (Paddle writes inf, or negative values);
- every fill refuses a leaf that needs a gradient under grad mode, as ``uniform_`` (Paddle's ``exponential_``,
  ``log_normal_``, ``geometric_`` and ``random_`` write into it);
- ``random_`` refuses a range outside the dtype (Paddle wraps an int32 around, writes inf into float16), and fills
  int8 / int16 / uint8 tensors, which Paddle's CPU build has no kernel for (a RuntimeError there); float16 and
  bfloat16 fills work (Paddle's CPU build has no kernel for them either);
- ``bernoulli_`` refuses a ``p`` that does not broadcast to ``x`` (Paddle changes ``x``'s shape in place);
- ``cauchy_`` refuses a complex tensor (Paddle writes values of no Cauchy law there);
- a fill of an empty tensor writes nothing (Paddle's ``normal_`` fails in a numpy reduction);
- the dtype errors are TypeErrors naming the dtypes allowed (Paddle: a RuntimeError for the missing kernel), and
  ``normal_('a')`` is a TypeError (Paddle: a ValueError from float('a')).
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import numpy as np
import pytest

import pylayer_jax as paddle

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from random_fill_cases import DRAWS, N, record  # noqa: E402
from recorded import Recorded  # noqa: E402

REF = json.loads(Path(__file__).resolve().parents[1].joinpath("data", "paddle_random_fills.json").read_text())
OURS = Recorded(record, paddle)
HEAVY = {"cauchy_default", "cauchy_1_2", "log_normal_default"}  # no finite variance to bound the sample mean with
DIFFERENT = {"error_normal_str_mean": "TypeError"}


def test_the_fixture_is_paddles() -> None:
    assert REF["paddle"] == "3.3.1"
    assert set(REF) - {"paddle"} == set(OURS)


@pytest.mark.parametrize("key", [d[0] for d in DRAWS])
def test_draw_matches_paddle(key: str) -> None:
    ref, ours = REF[key], OURS[key]
    assert ours["same"] is True and ref["same"] is True
    assert (ours["dtype"], ours["shape"]) == (ref["dtype"], ref["shape"])
    if "values" in ref:  # a discrete draw: every value Paddle wrote, and no other
        assert ours["values"] == ref["values"]
    if "mean_re" in ref:  # complex: each part's mean and variance
        for part in ("re", "im"):
            se = np.sqrt(2 * ref["var_" + part] / N)
            assert abs(ours["mean_" + part] - ref["mean_" + part]) < 6 * se
            assert ours["var_" + part] == pytest.approx(ref["var_" + part], rel=0.08)
        return
    if key in HEAVY:
        assert ours["median"] == pytest.approx(ref["median"], abs=0.15 * max(1.0, abs(ref["median"])))
        assert (ours["min"] > 0) == (ref["min"] > 0)
        return
    spread = np.sqrt(ref["var"]) if "var" in ref else (ref["max"] - ref["min"]) / np.sqrt(12)
    assert abs(ours.get("mean", ours["median"]) - ref.get("mean", ref["median"])) <= 6 * spread * np.sqrt(2 / N) + 1e-12
    if "var" in ref:
        assert ours["var"] == pytest.approx(ref["var"], rel=0.08, abs=1e-12)
    assert (ours["min"] >= 0) == (ref["min"] >= 0)
    if key.startswith("random_full"):  # the top of the dtype's range
        assert ours["max"] == pytest.approx(ref["max"], rel=1e-3)


@pytest.mark.parametrize("key", sorted(k for k in REF if k.startswith("error_")))
def test_error_type_matches_paddle(key: str) -> None:
    assert OURS[key] == DIFFERENT.get(key, REF[key])


def test_module_functions_and_tensor_probabilities_match_paddle() -> None:
    assert OURS["paddle_normal_"] == REF["paddle_normal_"] == [2, 3]
    assert OURS["bernoulli_tensor_p"] == REF["bernoulli_tensor_p"]


# ---- the theoretical moments, with fixed seeds --------------------------------------------------
def _draw(method: str, *args, dtype: str = "float64", n: int = 40000, **kwargs) -> np.ndarray:
    paddle.seed(11)
    x = paddle.zeros([n], dtype)
    getattr(x, method)(*args, **kwargs)
    return x.numpy().astype(np.float64) if dtype not in ("complex64", "complex128") else x.numpy()


def test_moments_of_each_distribution() -> None:
    a = _draw("normal_", 2.0, 3.0)
    assert abs(a.mean() - 2.0) < 0.06 and abs(a.std() - 3.0) < 0.05
    a = np.log(_draw("log_normal_", 0.5, 0.25))
    assert abs(a.mean() - 0.5) < 0.01 and abs(a.std() - 0.25) < 0.005
    a = _draw("bernoulli_", 0.3)
    assert set(np.unique(a)) == {0.0, 1.0} and abs(a.mean() - 0.3) < 0.01
    a = _draw("cauchy_", 1.0, 2.0)
    # median loc; quartiles loc -/+ scale
    assert np.percentile(a, [25, 50, 75]) == pytest.approx([-1.0, 1.0, 3.0], abs=0.1)
    a = _draw("exponential_", 4.0)
    assert a.min() >= 0 and abs(a.mean() - 0.25) < 0.005 and abs(a.std() - 0.25) < 0.006
    a = _draw("geometric_", 0.3)
    assert a.min() == 1 and (a == np.round(a)).all()
    assert abs(a.mean() - 1 / 0.3) < 0.05 and abs(a.var() - 0.7 / 0.09) < 0.4
    assert abs((a == 1).mean() - 0.3) < 0.01 and abs((a == 2).mean() - 0.21) < 0.01
    a = _draw("random_", -3, 4, dtype="int64")
    counts = np.bincount((a + 3).astype(int), minlength=7) / a.size
    assert counts.shape == (7,) and np.abs(counts - 1 / 7).max() < 0.01


def test_complex_normal_follows_paddles_convention() -> None:
    """A real mean m is ``m + m*1j``; each part has variance std**2 / 2 (Paddle 3.3.1's complex Gaussian)."""
    c = _draw("normal_", 3.0, 2.0, dtype="complex128")
    assert abs(c.real.mean() - 3.0) < 0.03 and abs(c.imag.mean() - 3.0) < 0.03
    assert abs(c.real.var() - 2.0) < 0.06 and abs(c.imag.var() - 2.0) < 0.06
    ln = np.log(_draw("log_normal_", 0.5, 1.0, dtype="complex64"))  # exp of that Gaussian
    assert abs(ln.real.mean() - 0.5) < 0.02 and abs(ln.real.var() - 0.5) < 0.02


def test_tensor_parameters() -> None:
    paddle.seed(5)
    x = paddle.zeros([4, 3])
    x.geometric_(paddle.to_tensor([1.0, 1.0, 1.0]))
    np.testing.assert_array_equal(x.numpy(), np.ones((4, 3)))
    x.geometric_([1.0, 2.0, 1.0])  # a probability outside (0, 1] in a tensor: NaN there
    assert np.isnan(x.numpy()[:, 1]).all() and (x.numpy()[:, [0, 2]] == 1).all()
    a = paddle.zeros([20000]).normal_(paddle.to_tensor(5.0), paddle.to_tensor(0.5)).numpy()
    assert abs(a.mean() - 5.0) < 0.02 and abs(a.std() - 0.5) < 0.01
    a = paddle.zeros([20000]).exponential_(paddle.to_tensor(2.0)).numpy()
    assert abs(a.mean() - 0.5) < 0.02
    a = paddle.zeros([20000], "int32").random_(0, paddle.to_tensor(4)).numpy()
    assert set(np.unique(a)) == {0, 1, 2, 3}
    b = paddle.zeros([2, 3], "float64").bernoulli_(paddle.to_tensor([0.0, 1.0, 0.0], "float32"))
    np.testing.assert_array_equal(b.numpy(), [[0, 1, 0], [0, 1, 0]])


@pytest.mark.parametrize("dtype", ["float16", "bfloat16", "float32", "float64"])
def test_low_precision_floats_and_the_dtype_stays(dtype: str) -> None:
    for method, args in (("normal_", ()), ("log_normal_", ()), ("bernoulli_", ()), ("cauchy_", ()),
                         ("exponential_", ()), ("geometric_", (0.5,)), ("random_", (0, 10))):
        x = paddle.zeros([2000], dtype)
        getattr(x, method)(*args)
        assert x.dtype.name == dtype
        a = x.astype("float32").numpy()
        assert np.isfinite(a).all() and len(np.unique(a)) > 1, method


@pytest.mark.parametrize("dtype,top", [("float16", 2**11), ("bfloat16", 2**8), ("uint8", 256), ("int8", 128),
                                       ("int16", 2**15)])
def test_random_default_range(dtype: str, top: int) -> None:
    """random_() spans [0, 2**mantissa_digits) for a float type and [0, iinfo.max] for an integer one."""
    paddle.seed(3)
    a = paddle.zeros([50000], dtype).random_().astype("float64").numpy()
    assert a.min() >= 0 and a.max() <= top - 1 and a.max() >= 0.95 * top and (a == np.round(a)).all()


# ---- the generator and the write ------------------------------------------------------------------
@pytest.mark.parametrize("method,args", [("normal_", (1.0, 2.0)), ("log_normal_", ()), ("bernoulli_", (0.4,)),
                                         ("cauchy_", ()), ("exponential_", (3.0,)), ("geometric_", (0.2,)),
                                         ("random_", (0, 100))])
def test_seed_repeats_and_the_write_is_in_place(method: str, args: tuple) -> None:
    base = paddle.zeros([4, 5], "float64")
    view = base[1]  # a view: it sees the write
    v0 = base.inplace_version
    paddle.seed(42)
    out = getattr(paddle.Tensor, method)(base, *args)
    first = base.numpy().copy()
    assert out is base and base.inplace_version == v0 + 1
    np.testing.assert_array_equal(view.numpy(), first[1])
    paddle.seed(42)
    again = getattr(paddle, method)(paddle.zeros([4, 5], "float64"), *args)
    np.testing.assert_array_equal(again.numpy(), first)
    nxt = getattr(paddle.zeros([4, 5], "float64"), method)(*args).numpy()  # the generator moved on
    assert not np.array_equal(nxt, first)


def test_a_fill_through_a_view_reaches_the_base() -> None:
    base = paddle.zeros([3, 4])
    base.reshape([12])[4:8].exponential_()
    a = base.numpy()
    assert (a[1] > 0).all() and (a[[0, 2]] == 0).all()


def test_gradients_through_the_old_values_stop() -> None:
    w = paddle.to_tensor([1.0, 2.0, 3.0], stop_gradient=False)
    y = w * 2
    y.normal_()
    (y * w).sum().backward()  # d/dw of (draw * w): the draw; nothing flows through the overwritten w * 2
    np.testing.assert_allclose(w.grad.numpy(), y.numpy(), rtol=1e-6)
    with paddle.no_grad():
        leaf = paddle.zeros([3])
        leaf.stop_gradient = False
        assert leaf.random_(1, 2) is leaf
    np.testing.assert_array_equal(leaf.numpy(), [1, 1, 1])


def test_an_empty_tensor_is_filled_with_nothing() -> None:
    x = paddle.zeros([0, 3])
    assert x.normal_() is x and x.shape == [0, 3]


# ---- misuse ----------------------------------------------------------------------------------------
def test_errors_name_the_api_the_rule_and_the_fix() -> None:
    x = paddle.zeros([3])
    with pytest.raises(ValueError, match=r"normal_: x must be a Tensor .*received list"):
        paddle.normal_([1.0])
    with pytest.raises(TypeError, match=r"normal_: the tensor must be float16, .*but it is int32. Cast it"):
        paddle.zeros([3], "int32").normal_()
    with pytest.raises(TypeError, match=r"cauchy_: the tensor must be .*but it is complex64"):
        paddle.zeros([3], "complex64").cauchy_()
    with pytest.raises(TypeError, match=r"random_: the tensor must be .*but it is bool"):
        paddle.zeros([3], "bool").random_()
    with pytest.raises(TypeError, match=r"normal_: a complex mean needs a complex64 or complex128 tensor"):
        x.normal_(1 + 2j)
    with pytest.raises(ValueError, match=r"normal_: Paddle's complex Gaussian takes a mean whose real and imaginary"):
        paddle.zeros([3], "complex64").normal_(1 + 2j)
    with pytest.raises(TypeError, match=r"normal_: mean must be a number, but received str 'a'"):
        x.normal_("a")
    with pytest.raises(ValueError, match=r"normal_: mean must be a number or a one-element Tensor.*\[2\]"):
        x.normal_(paddle.to_tensor([1.0, 2.0]))
    with pytest.raises(TypeError, match=r"bernoulli_: p must be a number, but received NoneType"):
        x.bernoulli_(None)
    with pytest.raises(TypeError, match=r"bernoulli_: a Tensor p must hold floating probabilities.*int64"):
        x.bernoulli_(paddle.to_tensor([0, 1, 1]))
    with pytest.raises(ValueError, match=r"bernoulli_: p of shape \[3, 2\] must broadcast to x's shape \[3, 1\]"):
        paddle.zeros([3, 1]).bernoulli_(paddle.ones([3, 2]))
    with pytest.raises(ValueError, match=r"exponential_: the rate lam must be > 0, but received 0.0"):
        x.exponential_(0.0)
    with pytest.raises(ValueError, match=r"exponential_: the rate lam must be > 0, but received -1.0"):
        x.exponential_(-1.0)
    with pytest.raises(ValueError, match=r"geometric_: probs is the probability .*must be in \(0, 1\], but received 0.0"):
        x.geometric_(0.0)
    with pytest.raises(ValueError, match=r"geometric_: probs .*received 1.5"):
        x.geometric_(1.5)
    with pytest.raises(ValueError, match=r"geometric_: probs of shape \[4\] must broadcast to x's shape \[3\]"):
        x.geometric_([0.5] * 4)
    with pytest.raises(ValueError, match=r"random_: from_ must be less than to, but received from_=3 and to=3"):
        paddle.zeros([3], "int32").random_(3, 3)
    with pytest.raises(ValueError, match=r"random_: from_ must be less than to, but received from_=0 and to=-5"):
        paddle.zeros([3], "int32").random_(-5)
    with pytest.raises(TypeError, match=r"random_: from_ must be an int, but received float 0.5"):
        paddle.zeros([3], "int32").random_(0.5, 3)
    with pytest.raises(TypeError, match=r"random_: from_ must be an int, but received bool"):
        paddle.zeros([3], "int32").random_(True, 3)
    with pytest.raises(ValueError, match=r"random_: the range \[0, 1099511627776\) does not fit x's dtype int32"):
        paddle.zeros([3], "int32").random_(0, 2**40)
    with pytest.raises(ValueError, match=r"random_: the range \[0, 100000\) does not fit x's dtype float16"):
        paddle.zeros([3], "float16").random_(0, 100000)
    with pytest.raises(ValueError, match=r"random_: the range \[-1, 5\) does not fit x's dtype uint8"):
        paddle.zeros([3], "uint8").random_(-1, 5)
    with pytest.raises(TypeError, match=r"paddle.Tensor.exponential_\(\) got both 'lam' and its alias 'lambd'"):
        x.exponential_(lam=1.0, lambd=2.0)
    leaf = paddle.zeros([3])
    leaf.stop_gradient = False
    for method in ("normal_", "log_normal_", "bernoulli_", "cauchy_", "exponential_", "random_"):
        with pytest.raises(ValueError, match=rf"Tensor.{method}: Leaf Var .* can't use inplace strategy"):
            getattr(leaf, method)()
    with pytest.raises(ValueError, match=r"Tensor.geometric_: Leaf Var"):
        leaf.geometric_(0.5)
