"""``paddle.fft`` against Paddle 3.3.1 (values, dtypes, shapes, gradients of real losses, error types, frequencies,
shifts, the complex Tensor surface on its outputs: cases ``tests/fft_cases.py``, recorded by
``tests/record_paddle_fft.py``), against numpy.fft in float64, and its gradients against ``jax.grad``; every misuse
raises a sentence (matched here); the cases where Paddle crashes or fails by a bug are tested against numpy."""

from __future__ import annotations

import json
import os
import sys

import jax
import jax.numpy as jnp
import numpy as np
import pytest

import pylayer_jax as paddle

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import fft_cases as C  # noqa: E402
from recorded import Recorded  # noqa: E402

with open(os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "data", "paddle_fft.json")) as _f:
    REF = json.load(_f)
REF.pop("paddle")
# fftfreq(4.0): Paddle's message-less TypeError comes from roll; ours is a TypeError too (same type, recorded)
OURS = Recorded(C.record, paddle)
F = paddle.fft


@pytest.mark.parametrize("key", sorted(REF))
def test_as_paddle(key: str) -> None:
    ref, ours = REF[key], OURS[key]
    if isinstance(ref, dict):
        assert set(ours) == set(ref), key
        for k in ref:
            if k in ("values", "grad"):
                scale = max(1.0, float(np.max(np.abs(np.asarray(ref[k], float)), initial=0.0)))
                np.testing.assert_allclose(np.asarray(ours[k], float), np.asarray(ref[k], float), rtol=1e-5,
                                           atol=2e-6 * scale, err_msg=key)
            elif k == "loss":
                np.testing.assert_allclose(ours[k], ref[k], rtol=1e-5, err_msg=key)
            else:
                assert ours[k] == ref[k], (key, k)
    elif isinstance(ref, list):
        np.testing.assert_allclose(np.asarray(ours, float), np.asarray(ref, float), rtol=1e-5, atol=2e-6, err_msg=key)
    else:
        assert ours == ref, key


def test_every_public_function_is_recorded() -> None:
    names = {k.split("|")[1] for k in REF if k.startswith(("value|", "freq|fft", "freq|rfft", "shift|"))}
    assert names == set(F.__all__)
    assert sorted(F.__all__) == sorted(n for n in dir(F) if not n.startswith("_"))


# ---- numpy.fft in float64 ----------------------------------------------------------------------------------------
_NP = {"fft": np.fft.fft, "ifft": np.fft.ifft, "rfft": np.fft.rfft, "irfft": np.fft.irfft, "hfft": np.fft.hfft,
       "ihfft": np.fft.ihfft, "fft2": np.fft.fft2, "ifft2": np.fft.ifft2, "rfft2": np.fft.rfft2,
       "irfft2": np.fft.irfft2, "fftn": np.fft.fftn, "ifftn": np.fft.ifftn, "rfftn": np.fft.rfftn,
       "irfftn": np.fft.irfftn}


def _np_ref(f: str, x: np.ndarray, kw: dict) -> np.ndarray:
    kw = dict(kw)
    norm = kw.pop("norm", "backward")
    swap = {"backward": "forward", "forward": "backward", "ortho": "ortho"}[norm]
    if "s" in kw and "axes" not in kw:  # (Paddle's default: the last len(s) axes; numpy wants them spelled out)
        kw["axes"] = tuple(range(x.ndim - len(kw["s"]), x.ndim))
    if f in _NP:
        return _NP[f](x, **kw, norm=norm)
    # numpy has no n-D hfft / ihfft: their definitions (numpy's 1-D ones, extended)
    if f in ("hfft2", "hfftn"):
        kw.setdefault("axes", (-2, -1) if f == "hfft2" else None)
        return np.fft.irfftn(np.conj(x), **kw, norm=swap)
    kw.setdefault("axes", (-2, -1) if f == "ihfft2" else None)
    return np.conj(np.fft.rfftn(x, **kw, norm=swap))


@pytest.mark.parametrize("case", C.VALUE_CASES, ids=[C._key(*c) for c in C.VALUE_CASES])
def test_float64_against_numpy(case: tuple) -> None:
    f, xname, kw = case
    x = getattr(C, xname)
    x64 = x.astype(np.complex128 if np.iscomplexobj(x) else np.float64) if x.dtype.kind in "fc" else x
    got = getattr(F, f)(paddle.to_tensor(x64), **kw)
    want = _np_ref(f, x64, kw)
    if x.dtype.kind == "i":
        assert got.dtype == paddle.complex64  # integers: the default float dtype's complex one
        np.testing.assert_allclose(got.numpy(), want, rtol=1e-5, atol=1e-5)
        return
    assert str(got.numpy().dtype) == str(want.dtype), (got.dtype, want.dtype)
    assert got.shape == list(want.shape)
    np.testing.assert_allclose(got.numpy(), want, rtol=1e-10, atol=1e-10)


# ---- gradients against jax.grad ----------------------------------------------------------------------------------
_JNP = {"fft": jnp.fft.fft, "ifft": jnp.fft.ifft, "rfft": jnp.fft.rfft, "irfft": jnp.fft.irfft, "hfft": jnp.fft.hfft,
        "ihfft": jnp.fft.ihfft, "fft2": jnp.fft.fft2, "rfft2": jnp.fft.rfft2, "irfft2": jnp.fft.irfft2,
        "fftn": jnp.fft.fftn, "rfftn": jnp.fft.rfftn, "irfftn": jnp.fft.irfftn}


def _jnp_fn(f: str, kw: dict):  # noqa: ANN202
    kw = dict(kw)
    norm = kw.pop("norm", "backward")
    swap = {"backward": "forward", "forward": "backward", "ortho": "ortho"}[norm]
    if f in _JNP:
        return lambda x: _JNP[f](x, **kw, norm=norm)
    if f == "hfftn":
        return lambda x: jnp.fft.irfftn(jnp.conj(x.astype(jnp.complex128)), **kw, norm=swap)
    return lambda x: jnp.conj(jnp.fft.rfftn(x, **kw, norm=swap))  # ihfftn


@pytest.mark.parametrize("case", C.GRAD_CASES, ids=[C._key(*c) for c in C.GRAD_CASES])
def test_grad_against_jax(case: tuple) -> None:
    f, xname, kw = case
    x = getattr(C, xname).astype(np.float64)
    fn = _jnp_fn(f, kw)
    shape = jax.eval_shape(fn, jnp.asarray(x)).shape
    w = C.W[: int(np.prod(shape))].reshape(shape).astype(np.float64)

    def loss(v):  # noqa: ANN001, ANN202
        y = fn(v)
        return jnp.sum(w * jnp.abs(y) ** 2) if jnp.iscomplexobj(y) else jnp.sum(w * y)

    want = jax.grad(loss)(jnp.asarray(x))
    t = paddle.to_tensor(x, stop_gradient=False)
    y = getattr(F, f)(t, **kw)
    wt = paddle.to_tensor(w)
    ours = (wt * paddle.abs(y) ** 2).sum() if y.dtype == paddle.complex128 else (wt * y).sum()
    ours.backward()
    assert t.grad.dtype == paddle.float64
    np.testing.assert_allclose(t.grad.numpy(), np.asarray(want), rtol=1e-10, atol=1e-10)


def test_spectral_loss_trains_under_to_static() -> None:
    """A spectral loss (``|rfft(w * x) - target|^2``) compiled by ``to_static``: its gradient equals jax.grad's."""
    x = C.X345.astype(np.float64)
    target = np.fft.rfft(x * 0.5, axis=-1)
    w = paddle.to_tensor(np.full([5], 0.3), stop_gradient=False)

    @paddle.jit.to_static
    def step(w):  # noqa: ANN001, ANN202
        y = F.rfft(paddle.to_tensor(x) * w)
        return (paddle.abs(y - paddle.to_tensor(target)) ** 2).sum()

    loss = step(w)
    loss.backward()

    def ref(v):  # noqa: ANN001, ANN202
        return jnp.sum(jnp.abs(jnp.fft.rfft(x * v) - target) ** 2)

    np.testing.assert_allclose(float(loss), float(ref(jnp.full([5], 0.3))), rtol=1e-10)
    np.testing.assert_allclose(w.grad.numpy(), np.asarray(jax.grad(ref)(jnp.full([5], 0.3))), rtol=1e-10)


# ---- where Paddle 3.3.1 crashes or fails by a bug: the sane result, against numpy -------------------------------
def test_irfft_hfft_take_integers() -> None:
    """Paddle's irfft/hfft (and the 2-D and n-D ones) cast an integer x and then fail ("kernel fft_c2r ... float32
    not registered"); here an integer x is transformed as fft transforms one: as complex64."""
    y = F.irfft(paddle.to_tensor(C.I23))
    assert y.dtype == paddle.float32
    np.testing.assert_allclose(y.numpy(), np.fft.irfft(C.I23), rtol=1e-6, atol=1e-6)
    np.testing.assert_allclose(F.hfftn(paddle.to_tensor(C.I23)).numpy(),
                               np.fft.irfftn(C.I23, norm="forward"), rtol=1e-6, atol=1e-5)


@pytest.mark.parametrize("f", ["fftshift", "ifftshift"])
def test_shift_with_axes_and_1d(f: str) -> None:
    """Paddle 3.3.1's fftshift/ifftshift raise a SystemError for any axes and for a 1-D x; here numpy's result."""
    x = np.arange(60).reshape(3, 4, 5)
    for axes in (None, 1, -1, (0, 2), [2]):
        np.testing.assert_array_equal(getattr(F, f)(paddle.to_tensor(x), axes=axes).numpy(),
                                      getattr(np.fft, f)(x, axes=axes))
    np.testing.assert_array_equal(getattr(F, f)(paddle.arange(5)).numpy(), getattr(np.fft, f)(np.arange(5)))
    np.testing.assert_array_equal(getattr(F, f)(input=paddle.arange(6), dim=0).numpy(),
                                  getattr(np.fft, f)(np.arange(6)))


def test_numpy_integer_sizes() -> None:
    """Paddle refuses ``n=np.int64(4)`` ("should be an integer"); a numpy integer is taken as the int it is."""
    x = paddle.to_tensor(C.X23.astype(np.float64))
    np.testing.assert_allclose(F.fft(x, n=np.int64(4)).numpy(), np.fft.fft(C.X23.astype(np.float64), n=4))
    np.testing.assert_allclose(F.fftn(x, s=[np.int32(3), 2]).numpy(),
                               np.fft.fftn(C.X23.astype(np.float64), s=[3, 2], axes=(0, 1)))


def test_rfftfreq_integral_float_n() -> None:
    """Paddle's rfftfreq computes with an integral float n (its fftfreq refuses one): kept as Paddle has it."""
    np.testing.assert_allclose(F.rfftfreq(4.0).numpy(), np.fft.rfftfreq(4), rtol=1e-7)
    with pytest.raises(TypeError, match=r"paddle.fft.fftfreq: n must be an int .* received 4.0"):
        F.fftfreq(4.0)
    with pytest.raises(TypeError, match=r"paddle.fft.rfftfreq: n must be an int .* received 4.5"):
        F.rfftfreq(4.5)


def test_fftfreq_default_dtype_and_placement() -> None:
    paddle.set_default_dtype("float64")
    try:
        y = F.fftfreq(5, 0.1)
        assert y.dtype == paddle.float64
        np.testing.assert_allclose(y.numpy(), np.fft.fftfreq(5, 0.1), rtol=1e-15)
        assert F.fft(paddle.to_tensor([1, 2, 3])).dtype == paddle.complex128  # integers: default dtype's complex
    finally:
        paddle.set_default_dtype("float32")
    y = F.rfftfreq(6, requires_grad=True, device="cpu")
    assert y.stop_gradient is False
    np.testing.assert_allclose(y.numpy(), np.fft.rfftfreq(6), rtol=1e-6)


# ---- misuse: a sentence naming the API, the rule, what was received and the fix ------------------------------------
X = paddle.to_tensor(C.X23)


@pytest.mark.parametrize("call,exc,match", [
    (lambda: F.fft(X, norm="bad"), ValueError, r"paddle.fft.fft: norm must be 'backward', 'ortho' or 'forward', but "
                                               r"received 'bad'"),
    (lambda: F.irfft2(X, norm=None), ValueError, r"paddle.fft.irfft2: norm must be .* received None"),
    (lambda: F.fft(X, axis=2), ValueError, r"paddle.fft.fft: axis 2 is out of range for a 2-D input; it must be in "
                                           r"\[-2, 2\)"),
    (lambda: F.fft(X, axis=1.0), ValueError, r"paddle.fft.fft: axis must be an integer, but received 1.0"),
    (lambda: F.fft(X, axis=True), TypeError, r"paddle.fft.fft: axis must be an integer, but received the bool True"),
    (lambda: F.rfft(X, n=0), ValueError, r"paddle.fft.rfft: n must be a positive transform length, but received 0"),
    (lambda: F.ihfft(X, n=-1), ValueError, r"paddle.fft.ihfft: n must be a positive .* received -1"),
    (lambda: F.fft(X, n=2.0), ValueError, r"paddle.fft.fft: n must be an integer, but received 2.0"),
    (lambda: F.fft(X, n=True), TypeError, r"n must be an integer, but received the bool True"),
    (lambda: F.rfft(paddle.to_tensor(C.C23)), RuntimeError,
     r"paddle.fft.rfft: x must be a real tensor .* received dtype complex64. .*paddle.real\(x\)"),
    (lambda: F.fft(paddle.to_tensor(C.X23 > 0)), RuntimeError,
     r"paddle.fft.fft: x must be a real or complex tensor .* received dtype bool"),
    (lambda: F.hfft(paddle.to_tensor(C.X23.astype(np.float16))), RuntimeError,
     r"paddle.fft.hfft: x must be .* received dtype float16. Convert it, e.g. with x.astype\('complex64'\)"),
    (lambda: F.fft([1.0, 2.0]), TypeError, r"paddle.fft.fft: x must be a Tensor, but received list"),
    (lambda: F.fft(), TypeError, r"paddle.fft.fft: x must be a Tensor, but received NoneType"),
    (lambda: F.fft2(paddle.to_tensor(C.X6)), ValueError,
     r"paddle.fft.fft2: x must have at least 2 dimensions, but received a 1-D tensor of shape \[6\]"),
    (lambda: F.fft2(X, axes=(0, 1, 1)), ValueError,
     r"paddle.fft.fft2: axes must be a list or tuple of 2 integers, but received \[0, 1, 1\] \(3 entries\)"),
    (lambda: F.rfft2(X, axes=1), ValueError, r"paddle.fft.rfft2: axes must be a list or tuple of 2 integers, but "
                                             r"received 1"),
    (lambda: F.fft2(X, s=(4,)), ValueError, r"paddle.fft.fft2: s must be a list or tuple of 2 integers"),
    (lambda: F.fftn(X, axes=1), ValueError, r"paddle.fft.fftn: axes must be a list or tuple of integers, but "
                                            r"received 1"),
    (lambda: F.fftn(X, axes=(0, 5)), ValueError, r"paddle.fft.fftn: each entry of axes 5 is out of range"),
    (lambda: F.fftn(X, s=(2,), axes=(0, 1)), ValueError,
     r"paddle.fft.fftn: s and axes must have the same length, but received 1 sizes \[2\] and 2 axes \[0, 1\]"),
    (lambda: F.hfftn(X, s=(0, 2)), ValueError, r"paddle.fft.hfftn: each entry of s must be a positive transform "
                                               r"length, but received 0"),
    (lambda: F.fftn(X, s=(2, 2.0)), ValueError, r"each entry of s must be an integer, but received 2.0"),
    (lambda: F.fftn(X, s=3), ValueError, r"paddle.fft.fftn: s must be a list or tuple of integers, but received 3"),
    (lambda: F.fftn(X, s=(2, 2, 2)), ValueError,
     r"paddle.fft.fftn: s must not have more entries than x has dimensions, but received s=\[2, 2, 2\] for a 2-D"),
    (lambda: F.irfftn(X, axes=(0, 1, 0)), ValueError,
     r"paddle.fft.irfftn: axes must not have more entries than x has dimensions"),
    (lambda: F.fft(X, input=X), TypeError, r"paddle.fft.fft\(\) got multiple values for argument 'x'"),
    (lambda: F.fft(X, axis=0, dim=1), TypeError, r"paddle.fft.fft\(\) got both 'axis' and its alias 'dim'"),
    (lambda: F.fftn(X, axes=(0, 1), dim=(0, 1)), TypeError, r"got both 'axes' and its alias 'dim'"),
    (lambda: F.fft(X, bad=1), TypeError, r"paddle.fft.fft\(\) got an unexpected keyword argument 'bad'"),
    (lambda: F.fft(X, out=np.zeros(3)), TypeError, r"paddle.fft.fft: out must be a Tensor .* received ndarray"),
    (lambda: F.fftfreq(0), ValueError, r"paddle.fft.fftfreq: n and d must be nonzero, but received n=0, d=1.0"),
    (lambda: F.rfftfreq(4, 0.0), ValueError, r"paddle.fft.rfftfreq: n and d must be nonzero"),
    (lambda: F.fftfreq(paddle.to_tensor(4)), TypeError, r"paddle.fft.fftfreq: n must be an int .* Tensor"),
    (lambda: F.fftfreq(4, "a"), TypeError, r"paddle.fft.fftfreq: d must be a number .* received 'a'"),
    (lambda: F.fftfreq(4, dtype="complex64"), RuntimeError,
     r"paddle.fft.fftfreq: dtype must be float32, float64 or an integer dtype .* received complex64"),
    (lambda: F.fftshift([1, 2]), TypeError, r"paddle.fft.fftshift: x must be a Tensor, but received list"),
    (lambda: F.fftshift(X, axes=5), ValueError, r"paddle.fft.fftshift: each entry of axes 5 is out of range"),
    (lambda: F.ifftshift(paddle.to_tensor(1.0)), ValueError,
     r"paddle.fft.ifftshift: x must have at least 1 dimension, but received a 0-D tensor"),
])
def test_misuse(call, exc: type, match: str) -> None:  # noqa: ANN001
    with pytest.raises(exc, match=match):
        call()


@pytest.mark.parametrize("call,match", [
    # Paddle 3.3.1 aborts the process ("axis specified repeatedly")
    (lambda: F.fft2(X, axes=(0, 0)), r"paddle.fft.fft2: axes \[0, 0\] names the same axis twice"),
    (lambda: F.rfftn(X, axes=(1, -1)), r"paddle.fft.rfftn: axes \[1, -1\] names the same axis twice"),
    # Paddle 3.3.1 raises an IndexError (fftn) or segfaults (rfftn, s=())
    (lambda: F.fftn(X, axes=()), r"paddle.fft.fftn: axes must name at least one axis"),
    (lambda: F.rfftn(X, s=()), r"paddle.fft.rfftn: s must name at least one axis"),
    # Paddle 3.3.1 segfaults on a 0-D input of the n-D transforms
    (lambda: F.fftn(paddle.to_tensor(1.0)), r"paddle.fft.fftn: x must have at least 1 dimension, but received a 0-D"),
    (lambda: F.fft(paddle.to_tensor(1.0)), r"paddle.fft.fft: axis -1 is out of range for a 0-D input"),
    # Paddle 3.3.1 gives [2, 1] zeros for rfft of an empty axis and an empty result for irfft of one point
    (lambda: F.rfft(paddle.zeros([2, 0])), r"paddle.fft.rfft: the transformed axis 1 of x has length 0"),
    (lambda: F.irfft(paddle.ones([1], "complex64")), r"paddle.fft.irfft: the output length along axis 0 defaults to "
                                                     r"2 \* \(m - 1\) = 0 .* Pass the output length"),
    # Paddle 3.3.1 returns an empty tensor for a negative n
    (lambda: F.fftfreq(-3), r"paddle.fft.fftfreq: n must be a positive number of samples, but received -3"),
])
def test_where_paddle_crashes(call, match: str) -> None:  # noqa: ANN001
    """Paddle 3.3.1 crashes the process, or gives a result that is no transform, on these: each is a ValueError."""
    with pytest.raises(ValueError, match=match):
        call()


def test_zero_length_complex_transform_is_empty() -> None:
    """As Paddle: fft over an empty axis is empty; with n it is the transform of zeros."""
    assert F.fft(paddle.zeros([2, 0])).shape == [2, 0]
    np.testing.assert_array_equal(F.fft(paddle.zeros([2, 0]), n=3).numpy(), np.zeros([2, 3], np.complex64))
