"""``paddle.signal.stft`` / ``istft`` against Paddle 3.3.1 (values, dtypes, shapes, the gradients of a real loss with
respect to the signal and the window, in float32 and float64, mixed dtypes, the error of each misuse: cases
``tests/signal_cases.py``, recorded by ``tests/record_paddle_signal.py``), against numpy where Paddle 3.3.1 fails by a
bug, and the round trip ``istft(stft(x)) == x``; every misuse raises a sentence (matched here)."""

from __future__ import annotations

import json
import os
import sys

import numpy as np
import pytest

import pylayer_jax as paddle

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import signal_cases as C  # noqa: E402

with open(os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "data", "paddle_signal.json")) as _f:
    REF = json.load(_f)
REF.pop("paddle")
OURS = C.record(paddle)
S = paddle.signal


def _close(ours: object, ref: object, key: str, single: bool) -> None:
    a, b = np.asarray(ours, float), np.asarray(ref, float)
    scale = max(1.0, float(np.max(np.abs(b), initial=0.0)))
    rtol, atol = (2e-5, 2e-6 * scale) if single else (1e-10, 1e-12 * scale)
    np.testing.assert_allclose(a, b, rtol=rtol, atol=atol, err_msg=key)


@pytest.mark.parametrize("key", sorted(k for k in REF if not k.startswith("error|")))
def test_as_paddle(key: str) -> None:
    ref, ours = REF[key], OURS[key]
    single = not key.endswith("float64")
    if isinstance(ref, list):
        _close(ours, ref, key, True)
        return
    assert set(ours) == set(ref), key
    for k, v in ref.items():
        if k in ("values", "grad_x", "grad_window"):
            _close(ours[k], v, f"{key} {k}", single)
        elif k == "loss":
            np.testing.assert_allclose(ours[k], v, rtol=2e-5 if single else 1e-10, err_msg=key)
        else:
            assert ours[k] == v, (key, k)


# Paddle checks with assert (an AssertionError): ours is a ValueError; a list is an AttributeError in Paddle (it reads
# x.shape), a TypeError here
_OUR_TYPE = {"AssertionError": "ValueError", "AttributeError": "TypeError"}
# what each of our messages says (Paddle's words where it has a sentence)
_SAYS = {
    "stft_rank3": r"x should be a 1D or 2D tensor .* but got rank of x is 3",
    "stft_n_fft_too_long": r"n_fft should be in \(0, seq_length\(16\)\], but got 17",
    "stft_n_fft_zero": r"hop_length should be > 0, but got 0 \(the default n_fft // 4 is 0 for n_fft=0\)",
    "stft_n_fft_negative": r"n_fft should be in \(0, seq_length\(16\)\], but got -8",
    "stft_hop_zero": r"hop_length should be > 0, but got 0\. Pass",
    "stft_default_hop_zero": r"hop_length should be > 0, but got 0 \(the default n_fft // 4 is 0 for n_fft=3\)",
    "stft_win_length_zero": r"win_length should be in \(0, n_fft\(8\)\], but got 0",
    "stft_win_length_too_long": r"win_length should be in \(0, n_fft\(8\)\], but got 9",
    "stft_window_size": r"expected a 1D window tensor of size equal to win_length\(8\), but got window with shape \[7\]",
    "stft_window_2d": r"size equal to win_length\(8\), but got window with shape \[1, 8\]",
    "stft_pad_mode": r"pad_mode should be \"reflect\" or \"constant\", but got 'circular'",
    "stft_onesided_complex": r"onesided should be False when input or window is a complex Tensor",
    "stft_n_fft_float": r"n_fft must be an int, but received 8\.0 \(float\)",
    "stft_float16": r"x must have one of the dtypes int32, int64, float32, float64, complex64, complex128, but "
                    r"received float16",
    "stft_list": r"x must be a Tensor, but received list",
    "stft_int_signal_float_window": r"the window \(float32\) multiplies frames of dtype int64.*x\.astype\('float32'\)",
    "stft_float_signal_int_window": r"the window \(int64\) multiplies frames of dtype float32.*window\.astype\('float32'\)",
    "istft_rank1": r"x should be a 2D or 3D complex tensor .* but got rank of x is 1",
    "istft_rank4": r"but got rank of x is 4",
    "istft_hop_beyond_window": r"hop_length should be in \(0, win_length\(8\)\], but got 9",
    "istft_hop_zero": r"hop_length should be in \(0, win_length\(8\)\], but got 0",
    "istft_win_length_too_long": r"win_length should be in \(0, n_fft\(8\)\], but got 9",
    "istft_fft_size_onesided": r"fft_size should be equal to n_fft // 2 \+ 1\(6\) when onesided is True, but got 5",
    "istft_fft_size_twosided": r"fft_size should be equal to n_fft\(8\) when onesided is False, but got 5",
    "istft_empty": r"x should not be an empty tensor, but got shape \[5, 0\]",
    "istft_window_size": r"size equal to win_length\(8\), but got window with shape \[7\]",
    "istft_return_complex_onesided": r"onesided should be False when input\(output of istft\) or window is a complex",
    "istft_complex_window": r"Data type of window should not be complex when return_complex is False",
    "istft_int_window": r"the window \(int64\) multiplies frames of dtype float32",
    "istft_nola": r"Nonzero Overlap Add \(NOLA\) condition failed.* zero at sample 0 ",
    "istft_nola_edge": r"Nonzero Overlap Add \(NOLA\) condition failed.* zero at sample 4 ",
}


@pytest.mark.parametrize("label", sorted(k.split("|", 1)[1] for k in REF if k.startswith("error|")))
def test_errors_as_paddle(label: str) -> None:
    ref = REF["error|" + label]
    assert ref is not None, f"Paddle 3.3.1 raised nothing for {label}"
    assert OURS["error|" + label][0] == _OUR_TYPE.get(ref[0], ref[0]), (label, ref, OURS["error|" + label])
    fn, x, kw = next((f, x, kw) for lab, f, x, kw in C.ERROR_CASES if lab == label)
    ins = C._inputs(paddle, "float32", "complex64")
    kw = {k: (ins[v] if k == "window" else v) for k, v in kw.items()}
    with pytest.raises(Exception, match=r"^paddle\.signal\." + fn + ": " + ".*" + _SAYS[label]):
        getattr(S, fn)(ins[x], **kw)


def test_every_case_has_a_message() -> None:
    assert set(_SAYS) == {lab for lab, *_ in C.ERROR_CASES}


# ---- where Paddle 3.3.1 fails by a bug: numpy --------------------------------------------------------------------
def _np_stft(x: np.ndarray, w: np.ndarray, n_fft: int, hop: int) -> np.ndarray:
    xp = np.pad(x, n_fft // 2, mode="reflect")
    t = 1 + (len(xp) - n_fft) // hop
    return np.stack([np.fft.fft(xp[i * hop:i * hop + n_fft] * w) for i in range(t)], axis=-1)


def test_stft_of_a_real_signal_with_a_complex_window_is_the_whole_spectrum() -> None:
    # Paddle 3.3.1 sends the complex frames to its real-input transform, which refuses them (a RuntimeError)
    w = C.HANN8 * np.exp(0.3j * np.arange(8))
    y = S.stft(paddle.to_tensor(C.X16), 8, 2, window=paddle.to_tensor(w))
    assert y.dtype == paddle.complex128 and y.shape == [8, 9]
    np.testing.assert_allclose(y.numpy(), _np_stft(C.X16, w, 8, 2), rtol=1e-12, atol=1e-12)
    with pytest.raises(ValueError, match="onesided should be False when input or window is a complex Tensor"):
        S.stft(paddle.to_tensor(C.X16), 8, 2, window=paddle.to_tensor(w), onesided=True)


@pytest.mark.parametrize("onesided", [True, False])
def test_istft_of_an_odd_n_fft_inverts_stft(onesided: bool) -> None:
    # Paddle 3.3.1 inverts each one-sided frame to n_fft - 1 samples and then cannot multiply them by the window
    x = paddle.to_tensor(C.X2, stop_gradient=False)
    w = paddle.to_tensor(C.HANN7)
    y = S.stft(x, 7, 2, window=w, onesided=onesided)
    back = S.istft(y, 7, 2, window=w, onesided=onesided, length=20)
    assert back.shape == [2, 20] and back.dtype == paddle.float64
    np.testing.assert_allclose(back.numpy(), C.X2, rtol=1e-10, atol=1e-12)
    (back * paddle.to_tensor(C.A[:40].reshape(2, 20))).sum().backward()  # the round trip is the identity
    np.testing.assert_allclose(x.grad.numpy(), C.A[:40].reshape(2, 20), rtol=1e-10, atol=1e-12)


@pytest.mark.parametrize("dtype,tol", [("float32", 2e-5), ("float64", 1e-12)])
@pytest.mark.parametrize("center,normalized", [(True, False), (False, True)])
def test_round_trip(dtype: str, tol: float, center: bool, normalized: bool) -> None:
    x = paddle.to_tensor(C.X2.astype(dtype))
    w = paddle.to_tensor(C.HANN8.astype(dtype))
    y = x.stft(8, 2, window=w, center=center, normalized=normalized)
    back = y.istft(8, 2, window=w, center=center, normalized=normalized, length=20 if center else None)
    n = 20 if center else 2 * (y.shape[-1] - 1) + 8
    assert back.dtype == paddle.to_tensor(C.X2.astype(dtype)).dtype
    np.testing.assert_allclose(back.numpy(), C.X2[:, :n], rtol=tol, atol=tol)


def test_public_names() -> None:
    assert S.__all__ == ["stft", "istft"]
    assert paddle.stft is S.stft and paddle.istft is S.istft
    assert paddle.Tensor.stft is S.stft and paddle.Tensor.istft is S.istft


def test_under_to_static() -> None:
    # traced: the same values (Paddle's NOLA check needs the window's values and is left to eager calls, as in Paddle)
    w = paddle.to_tensor(C.POS8)

    @paddle.jit.to_static
    def f(x: paddle.Tensor) -> paddle.Tensor:
        return S.istft(S.stft(x, 8, 2, window=w), 8, 2, window=w, length=16)

    x = paddle.to_tensor(C.X16)
    np.testing.assert_allclose(f(x).numpy(), C.X16, rtol=1e-10, atol=1e-12)


def test_in_a_static_program() -> None:
    # the batch size is known only when fed: Paddle checks n_fft, fft_size and NOLA eagerly only, and so do these
    paddle.enable_static()
    try:
        main = paddle.static.Program()
        with paddle.static.program_guard(main, paddle.static.Program()):
            x = paddle.static.data("x", [None, 16], "float64")
            w = paddle.to_tensor(C.HANN8)
            z = S.istft(S.stft(x, 8, 2, window=w), 8, 2, window=w, length=16)
        out = paddle.static.Executor().run(main, feed={"x": C.X2[:, :16]}, fetch_list=[z])[0]
    finally:
        paddle.disable_static()
    np.testing.assert_allclose(out, C.X2[:, :16], rtol=1e-10, atol=1e-12)
