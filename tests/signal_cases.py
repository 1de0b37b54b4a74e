"""The cases of ``paddle.signal.stft`` / ``istft``, written as Paddle code: ``record(paddle)`` runs them with the given
library and returns what they give (dtypes, shapes, values — complex ones as [real, imag] pairs —, the gradients of
a real loss with respect to the signal and the window, and the type and message of each error).
``record_paddle_signal.py`` runs it with Paddle 3.3.1 into ``data/paddle_signal.json``; ``signal/test_signal.py``
runs it with pylayer_jax and compares. The cases where Paddle 3.3.1 fails by a bug are not here (the test checks
them against numpy)."""

from __future__ import annotations

from typing import Any

import numpy as np

_R = np.random.default_rng(11)
X16 = _R.standard_normal(16)
X2 = _R.standard_normal((2, 20))
C16 = _R.standard_normal(16) + 1j * _R.standard_normal(16)
I16 = np.arange(16, dtype=np.int64) % 5 - 2
HANN8 = np.hanning(10)[1:9]  # (no zeros: every sample has a nonzero window somewhere)
HANN7 = np.hanning(9)[1:8]
HANN5 = np.hanning(7)[1:6]
POS6 = 0.5 + _R.uniform(size=6)
POS8 = 0.5 + _R.uniform(size=8)
S57 = _R.standard_normal((5, 7)) + 1j * _R.standard_normal((5, 7))  # a one-sided n_fft=8 spectrum of 7 frames
S87 = _R.standard_normal((8, 7)) + 1j * _R.standard_normal((8, 7))  # a two-sided one
S257 = _R.standard_normal((2, 5, 7)) + 1j * _R.standard_normal((2, 5, 7))
R57 = _R.standard_normal((5, 7))  # a real "spectrum" (Paddle reads it as complex)
A = _R.standard_normal(400)  # loss weights (cut to the output's size)
B = _R.standard_normal(400)

# (label, signal, window or None, keyword arguments); each in float32 (complex64), those of F64 in float64
# (complex128) too
STFT_CASES: list[tuple[str, str, str | None, dict[str, Any]]] = [
    ("defaults", "X16", None, {"n_fft": 8}),
    ("hann_hop2", "X16", "HANN8", {"n_fft": 8, "hop_length": 2}),
    ("short_window_nocenter", "X16", "HANN5", {"n_fft": 8, "hop_length": 3, "win_length": 5, "center": False}),
    ("constant_normalized", "X16", None, {"n_fft": 6, "hop_length": 2, "pad_mode": "constant", "normalized": True}),
    ("twosided", "X16", "HANN8", {"n_fft": 8, "hop_length": 4, "onesided": False}),
    ("batch_odd", "X2", "HANN7", {"n_fft": 7, "hop_length": 3}),
    ("win_length_no_window", "X16", None, {"n_fft": 8, "hop_length": 2, "win_length": 6}),
    ("complex", "C16", "HANN8", {"n_fft": 8, "hop_length": 2}),
    ("complex_nocenter_normalized", "C16", None, {"n_fft": 5, "hop_length": 2, "center": False,
                                                  "normalized": True}),
    ("twosided_normalized_nocenter", "X2", "HANN5", {"n_fft": 8, "hop_length": 5, "win_length": 5,
                                                     "onesided": False, "normalized": True, "center": False}),
    ("n_fft_is_seq", "X16", None, {"n_fft": 16, "hop_length": 4}),
    ("n_fft_1", "X16", None, {"n_fft": 1, "hop_length": 1}),
]
# (label, spectrum, window or None, keyword arguments)
ISTFT_CASES: list[tuple[str, str, str | None, dict[str, Any]]] = [
    ("defaults", "S57", None, {"n_fft": 8}),
    ("window_hop2", "S57", "POS8", {"n_fft": 8, "hop_length": 2}),
    ("nocenter_length", "S57", "POS8", {"n_fft": 8, "hop_length": 4, "center": False, "length": 20}),
    ("twosided_normalized", "S87", "POS8", {"n_fft": 8, "hop_length": 3, "onesided": False, "normalized": True}),
    ("return_complex", "S87", "POS8", {"n_fft": 8, "hop_length": 2, "onesided": False, "return_complex": True}),
    ("batch_short_window", "S257", "POS6", {"n_fft": 8, "hop_length": 3, "win_length": 6}),
    ("length_short", "S57", None, {"n_fft": 8, "hop_length": 2, "length": 10}),
    ("length_beyond", "S57", None, {"n_fft": 8, "hop_length": 2, "length": 100}),
    ("win_length_no_window", "S57", None, {"n_fft": 8, "hop_length": 2, "win_length": 6}),
    ("real_spectrum", "R57", "POS8", {"n_fft": 8, "hop_length": 2}),
    ("return_complex_normalized_nocenter", "S87", None, {"n_fft": 8, "hop_length": 2, "onesided": False,
                                                        "return_complex": True, "normalized": True, "center": False}),
]
F64 = {"stft": {"hann_hop2", "short_window_nocenter", "constant_normalized", "twosided", "batch_odd", "complex"},
       "istft": {"window_hop2", "nocenter_length", "twosided_normalized", "return_complex", "batch_short_window"}}
# mixed dtypes (no gradients): (label, function, signal, signal dtype, window, window dtype, keyword arguments)
MIXED_CASES: list[tuple[str, str, str, str, str, str, dict[str, Any]]] = [
    ("stft_f32_signal_f64_window", "stft", "X16", "float32", "HANN8", "float64", {"n_fft": 8, "hop_length": 2}),
    ("stft_int_signal", "stft", "I16", "int64", "", "", {"n_fft": 8}),
    ("stft_int_signal_constant", "stft", "I16", "int64", "", "", {"n_fft": 8, "pad_mode": "constant"}),
    ("stft_int32_signal", "stft", "I16", "int32", "", "", {"n_fft": 4, "hop_length": 2}),
    ("istft_c64_f64_window", "istft", "S57", "complex64", "POS8", "float64", {"n_fft": 8, "hop_length": 2}),
    ("istft_c128_f32_window", "istft", "S57", "complex128", "POS8", "float32", {"n_fft": 8, "hop_length": 2}),
    ("istft_complex_window", "istft", "S87", "complex64", "POS8", "complex64",
     {"n_fft": 8, "hop_length": 2, "onesided": False, "return_complex": True}),
]
# errors of Paddle's checks: (label, function, signal, keyword arguments; "window" names an input)
ERROR_CASES: list[tuple[str, str, str, dict[str, Any]]] = [
    ("stft_rank3", "stft", "X3D", {"n_fft": 4}),
    ("stft_n_fft_too_long", "stft", "X16", {"n_fft": 17}),
    ("stft_n_fft_zero", "stft", "X16", {"n_fft": 0}),
    ("stft_n_fft_negative", "stft", "X16", {"n_fft": -8, "hop_length": 1}),
    ("stft_hop_zero", "stft", "X16", {"n_fft": 8, "hop_length": 0}),
    ("stft_default_hop_zero", "stft", "X16", {"n_fft": 3}),
    ("stft_win_length_zero", "stft", "X16", {"n_fft": 8, "win_length": 0}),
    ("stft_win_length_too_long", "stft", "X16", {"n_fft": 8, "win_length": 9}),
    ("stft_window_size", "stft", "X16", {"n_fft": 8, "window": "W7"}),
    ("stft_window_2d", "stft", "X16", {"n_fft": 8, "window": "W18"}),
    ("stft_pad_mode", "stft", "X16", {"n_fft": 8, "pad_mode": "circular"}),
    ("stft_onesided_complex", "stft", "C16", {"n_fft": 8, "onesided": True}),
    ("stft_n_fft_float", "stft", "X16", {"n_fft": 8.0}),
    ("stft_float16", "stft", "H16", {"n_fft": 8}),
    ("stft_list", "stft", "LIST", {"n_fft": 2}),
    ("stft_int_signal_float_window", "stft", "I16", {"n_fft": 8, "window": "HANN8"}),
    ("stft_float_signal_int_window", "stft", "X16", {"n_fft": 8, "window": "WI8"}),
    ("istft_rank1", "istft", "S1D", {"n_fft": 8}),
    ("istft_rank4", "istft", "S4D", {"n_fft": 8}),
    ("istft_hop_beyond_window", "istft", "S57", {"n_fft": 8, "hop_length": 9}),
    ("istft_hop_zero", "istft", "S57", {"n_fft": 8, "hop_length": 0}),
    ("istft_win_length_too_long", "istft", "S57", {"n_fft": 8, "win_length": 9, "hop_length": 2}),
    ("istft_fft_size_onesided", "istft", "S57", {"n_fft": 10}),
    ("istft_fft_size_twosided", "istft", "S57", {"n_fft": 8, "onesided": False}),
    ("istft_empty", "istft", "S50", {"n_fft": 8}),
    ("istft_window_size", "istft", "S57", {"n_fft": 8, "window": "W7"}),
    ("istft_return_complex_onesided", "istft", "S57", {"n_fft": 8, "return_complex": True}),
    ("istft_complex_window", "istft", "S57", {"n_fft": 8, "window": "WC8"}),
    ("istft_int_window", "istft", "S57", {"n_fft": 8, "window": "WI8"}),
    ("istft_nola", "istft", "S57", {"n_fft": 8, "hop_length": 2, "window": "W0"}),
    ("istft_nola_edge", "istft", "S57", {"n_fft": 8, "hop_length": 8, "window": "WHALF", "center": False}),
]


def _inputs(paddle: Any, real: str, cplx: str) -> dict[str, Any]:
    t = paddle.to_tensor
    return {
        "X16": t(X16.astype(real)), "X2": t(X2.astype(real)), "C16": t(C16.astype(cplx)), "I16": t(I16),
        "HANN8": t(HANN8.astype(real)), "HANN7": t(HANN7.astype(real)), "HANN5": t(HANN5.astype(real)),
        "POS6": t(POS6.astype(real)), "POS8": t(POS8.astype(real)), "S57": t(S57.astype(cplx)),
        "S87": t(S87.astype(cplx)), "S257": t(S257.astype(cplx)), "R57": t(R57.astype(real)),
        "X3D": t(np.ones((2, 2, 16), real)), "W7": t(np.ones(7, real)), "W18": t(np.ones((1, 8), real)),
        "H16": t(X16.astype(np.float16)), "LIST": [1.0, 2.0, 3.0, 4.0], "S1D": t(S57[:, 0].astype(cplx)),
        "S4D": t(S57.reshape(1, 1, 5, 7).astype(cplx)), "S50": t(np.zeros((5, 0), cplx)),
        "WC8": t(np.ones(8, cplx)), "WI8": t(np.ones(8, np.int64)), "W0": t(np.zeros(8, real)), "WHALF": t(np.r_[np.ones(4), np.zeros(4)].astype(real)),
    }


def pairs(a: np.ndarray) -> Any:
    """Values for JSON: a complex array as nested [real, imag] pairs, a real one as it is."""
    a = np.asarray(a)
    if np.iscomplexobj(a):
        return np.stack([a.real, a.imag], axis=-1).astype(np.float64).tolist()
    return a.astype(np.float64).tolist()


def _name(dtype: Any) -> str:
    return str(dtype).replace("paddle.", "")


def _loss(paddle: Any, y: Any) -> Any:
    """A real loss of every output value: sum(A * re + B * im) (as one product with as_real), or sum(A * y)."""
    n = int(np.prod(y.shape))
    dt = "float32" if _name(y.dtype) in ("float32", "complex64") else "float64"
    if _name(y.dtype).startswith("complex"):
        ab = np.stack([A[:n], B[:n]], axis=-1).reshape([*y.shape, 2]).astype(dt)
        return (paddle.as_real(y) * paddle.to_tensor(ab)).sum()
    return (y * paddle.to_tensor(A[:n].reshape(y.shape).astype(dt))).sum()


def _run(paddle: Any, fn: str, ins: dict[str, Any], x: str, w: str | None, kw: dict[str, Any]) -> dict[str, Any]:
    xt = paddle.to_tensor(ins[x].numpy(), stop_gradient=False)
    wt = None if w is None else paddle.to_tensor(ins[w].numpy(), stop_gradient=False)
    y = getattr(paddle.signal, fn)(xt, window=wt, **kw)
    loss = _loss(paddle, y)
    loss.backward()
    out = {"dtype": _name(y.dtype), "shape": list(y.shape), "values": pairs(y.numpy()), "loss": float(loss.numpy()),
           "grad_x": pairs(xt.grad.numpy()), "grad_x_dtype": _name(xt.grad.dtype)}
    if wt is not None:
        out["grad_window"] = pairs(wt.grad.numpy())
    return out


def record(paddle: Any) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for real, cplx in (("float32", "complex64"), ("float64", "complex128")):
        ins = _inputs(paddle, real, cplx)
        for fn, cases in (("stft", STFT_CASES), ("istft", ISTFT_CASES)):
            for label, x, w, kw in cases:
                if real == "float32" or label in F64[fn]:
                    out[f"{fn}|{label}|{real}"] = _run(paddle, fn, ins, x, w, kw)
    ins = _inputs(paddle, "float32", "complex64")
    # the methods are the functions
    out["method|stft"] = pairs(ins["X16"].stft(8, 2, window=ins["HANN8"]).numpy())
    out["method|istft"] = pairs(ins["S57"].istft(8, 2, window=ins["POS8"]).numpy())
    for label, fn, x, xdt, w, wdt, kw in MIXED_CASES:
        src = {"X16": X16, "I16": I16, "S57": S57, "S87": S87}[x]
        win = None if not w else paddle.to_tensor({"HANN8": HANN8, "POS8": POS8}[w].astype(wdt))
        y = getattr(paddle.signal, fn)(paddle.to_tensor(src.astype(xdt)), window=win, **kw)
        out[f"mixed|{label}"] = {"dtype": _name(y.dtype), "shape": list(y.shape), "values": pairs(y.numpy())}
    for label, fn, x, kw in ERROR_CASES:
        kw = {k: (ins[v] if k == "window" else v) for k, v in kw.items()}
        try:
            getattr(paddle.signal, fn)(ins[x], **kw)
            out["error|" + label] = None
        except Exception as e:  # noqa: BLE001  (the type and message are the record)
            out["error|" + label] = [type(e).__name__, str(e).split("\n")[0][:300]]
    return out
