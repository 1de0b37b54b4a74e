"""The cases of ``paddle.fft``, written as Paddle code: ``record(paddle)`` runs them with the given library and
returns what they give (dtypes, shapes, values — complex ones as [real, imag] pairs —, gradients of real losses,
the type of each error). ``record_paddle_fft.py`` runs it with Paddle 3.3.1 into ``data/paddle_fft.json``;
``fft/test_fft.py`` runs it with pylayer_jax and compares. Cases on which Paddle 3.3.1 crashes the process or
fails by a bug are not here (``fft/test_fft.py`` tests them against numpy)."""

from __future__ import annotations

from typing import Any

import numpy as np

_R = np.random.default_rng(7)
X23 = _R.standard_normal((2, 3)).astype(np.float32)
X345 = _R.standard_normal((3, 4, 5)).astype(np.float32)
X6 = _R.standard_normal(6).astype(np.float32)
C23 = (_R.standard_normal((2, 3)) + 1j * _R.standard_normal((2, 3))).astype(np.complex64)
C34 = (_R.standard_normal((3, 4)) + 1j * _R.standard_normal((3, 4))).astype(np.complex64)
I23 = np.arange(6, dtype=np.int64).reshape(2, 3) - 2
W = _R.standard_normal(256).astype(np.float32)  # loss weights (cut to the output's size)

ONE_D = ["fft", "ifft", "rfft", "irfft", "hfft", "ihfft"]
TWO_D = ["fft2", "ifft2", "rfft2", "irfft2", "hfft2", "ihfft2"]
N_D = ["fftn", "ifftn", "rfftn", "irfftn", "hfftn", "ihfftn"]
REAL_IN = {"rfft", "ihfft", "rfft2", "ihfft2", "rfftn", "ihfftn"}  # refuse complex input
COMPLEX_OUT_TO_REAL = {"irfft", "hfft", "irfft2", "hfft2", "irfftn", "hfftn"}  # refuse integer input (a bug)

# (function, input name, keyword arguments)
VALUE_CASES: list[tuple[str, str, dict[str, Any]]] = []
for _f in ONE_D:
    VALUE_CASES += [(_f, "X23", {}), (_f, "X345", {"axis": 1}), (_f, "X6", {"n": 4}), (_f, "X6", {"n": 9}),
                    (_f, "X345", {"n": 7, "axis": 0, "norm": "ortho"}), (_f, "X23", {"norm": "forward"}),
                    (_f, "X23", {"axis": 0, "norm": "ortho"})]
    if _f not in REAL_IN:
        VALUE_CASES += [(_f, "C23", {}), (_f, "C34", {"n": 5, "axis": 0, "norm": "forward"})]
    if _f not in COMPLEX_OUT_TO_REAL:
        VALUE_CASES += [(_f, "I23", {})]
for _f in TWO_D + N_D:
    VALUE_CASES += [(_f, "X23", {}), (_f, "X345", {}), (_f, "X345", {"axes": (0, 2)}),
                    (_f, "X345", {"s": (3, 6), "axes": (2, 0), "norm": "ortho"}),
                    (_f, "X345", {"s": (2, 3)}), (_f, "X23", {"norm": "forward"})]
    if _f not in REAL_IN:
        VALUE_CASES += [(_f, "C34", {}), (_f, "C34", {"s": (4, 6), "norm": "ortho"})]
    if _f not in COMPLEX_OUT_TO_REAL:
        VALUE_CASES += [(_f, "I23", {})]
for _f in N_D:
    VALUE_CASES += [(_f, "X345", {"axes": (1,)}), (_f, "X345", {"s": (5,)}), (_f, "X345", {"axes": [2, 0, 1]})]

# real-valued losses of the transforms of a real input: the gradient of sum(w * |y|^2) (complex y) or sum(w * y)
GRAD_CASES: list[tuple[str, str, dict[str, Any]]] = [
    ("fft", "X23", {}), ("ifft", "X345", {"axis": 1, "norm": "ortho"}), ("rfft", "X6", {"n": 8}),
    ("irfft", "X23", {"n": 5}), ("hfft", "X6", {"norm": "forward"}), ("ihfft", "X345", {"axis": 0}),
    ("fft2", "X345", {}), ("rfft2", "X345", {"s": (3, 4), "axes": (0, 2)}), ("irfft2", "X345", {}),
    ("fftn", "X345", {"norm": "ortho"}), ("rfftn", "X345", {}), ("irfftn", "X345", {"s": (4, 6)}),
    ("hfftn", "X23", {}), ("ihfftn", "X345", {"axes": (1, 2)}),
]

# errors Paddle raises with its Python checks: (label, function, input name, keyword arguments)
ERROR_CASES: list[tuple[str, str, str, dict[str, Any]]] = [
    ("norm_bad", "fft", "X23", {"norm": "bad"}), ("norm_none", "rfft", "X23", {"norm": None}),
    ("axis_oob", "fft", "X23", {"axis": 2}), ("axis_neg_oob", "irfft", "X23", {"axis": -3}),
    ("axis_float", "fft", "X23", {"axis": 1.0}), ("n_zero", "fft", "X23", {"n": 0}),
    ("n_negative", "ihfft", "X23", {"n": -1}), ("n_float", "fft", "X23", {"n": 2.0}),
    ("irfft_n_zero", "irfft", "X23", {"n": 0}), ("rfft_complex", "rfft", "C23", {}),
    ("ihfft_complex", "ihfft", "C23", {}), ("rfft2_complex", "rfft2", "C34", {}),
    ("fft2_1d", "fft2", "X6", {}), ("irfft2_1d", "irfft2", "X6", {}),
    ("fft2_three_axes", "fft2", "X345", {"axes": (0, 1, 2)}), ("fft2_axes_int", "fft2", "X23", {"axes": 1}),
    ("fft2_s_one", "fft2", "X23", {"s": (4,)}), ("fftn_axes_int", "fftn", "X23", {"axes": 1}),
    ("fftn_axes_oob", "fftn", "X23", {"axes": (0, 5)}), ("fftn_s_axes_len", "fftn", "X23", {"s": (2,), "axes": (0, 1)}),
    ("fftn_s_zero", "fftn", "X23", {"s": (0, 2)}), ("fftn_s_float", "fftn", "X23", {"s": (2, 2.0)}),
    ("fftn_s_int", "fftn", "X23", {"s": 3}), ("fftn_s_too_long", "fftn", "X23", {"s": (2, 2, 2)}),
    ("fftn_axes_too_long", "irfftn", "X23", {"axes": (0, 1, 0)}), ("fft_list", "fft", "LIST", {}),
    ("fft_bool", "fft", "B23", {}), ("fft_float16", "fft", "H23", {}), ("rfft_bool", "rfft", "B23", {}),
    ("irfft_float16", "irfft", "H23", {}), ("fft_alias_twice", "fft", "X23", {"input": "X23"}),
]


def _inputs(paddle: Any) -> dict[str, Any]:
    return {"X23": paddle.to_tensor(X23), "X345": paddle.to_tensor(X345), "X6": paddle.to_tensor(X6),
            "C23": paddle.to_tensor(C23), "C34": paddle.to_tensor(C34), "I23": paddle.to_tensor(I23),
            "B23": paddle.to_tensor(X23 > 0), "H23": paddle.to_tensor(X23.astype(np.float16)), "LIST": [1.0, 2.0]}


def pairs(a: np.ndarray) -> Any:
    """Values for JSON: a complex array as nested [real, imag] pairs, a real one as it is."""
    a = np.asarray(a)
    if np.iscomplexobj(a):
        return np.stack([a.real, a.imag], axis=-1).astype(np.float64).tolist()
    return a.astype(np.float64).tolist()


def _key(f: str, x: str, kw: dict[str, Any]) -> str:
    return f"{f}|{x}|" + ",".join(f"{k}={v}" for k, v in sorted(kw.items()))


def record(paddle: Any) -> dict[str, Any]:
    out: dict[str, Any] = {}
    ins = _inputs(paddle)
    F = paddle.fft
    for f, x, kw in VALUE_CASES:
        y = getattr(F, f)(ins[x], **kw)
        out["value|" + _key(f, x, kw)] = {"dtype": str(y.dtype).replace("paddle.", ""), "shape": list(y.shape),
                                          "values": pairs(y.numpy())}
    for f, x, kw in GRAD_CASES:
        t = paddle.to_tensor(ins[x].numpy(), stop_gradient=False)
        y = getattr(F, f)(t, **kw)
        w = paddle.to_tensor(W[: int(np.prod(y.shape))].reshape(y.shape))
        loss = (w * paddle.abs(y) ** 2).sum() if y.dtype in (paddle.complex64, paddle.complex128) else (w * y).sum()
        loss.backward()
        out["grad|" + _key(f, x, kw)] = {"loss": float(loss.numpy()), "grad": pairs(t.grad.numpy()),
                                         "dtype": str(t.grad.dtype).replace("paddle.", "")}
    for label, f, x, kw in ERROR_CASES:
        kw = {k: (ins[v] if k == "input" else v) for k, v in kw.items()}
        try:
            getattr(F, f)(ins[x], **kw)
            out["error|" + label] = None
        except Exception as e:  # noqa: BLE001  (the type is the record)
            out["error|" + label] = type(e).__name__
    # frequencies and shifts
    for n, d, dtype in [(5, 1.0, None), (6, 0.5, "float64"), (5, 1.0, "int64"), (4, 0.3, "int32"), (1, 2.0, None),
                        (8, -2.0, None)]:
        for f in ("fftfreq", "rfftfreq"):
            y = getattr(F, f)(n, d, dtype)
            out[f"freq|{f}|{n}|{d}|{dtype}"] = {"dtype": str(y.dtype).replace("paddle.", ""),
                                                "values": pairs(y.numpy())}
    for f in ("fftfreq", "rfftfreq"):
        for label, args in [("n0", (0,)), ("d0", (4, 0.0)), ("nfloat", (4.0,))]:
            try:
                getattr(F, f)(*args)
                out[f"error|{f}_{label}"] = None
            except Exception as e:  # noqa: BLE001
                out[f"error|{f}_{label}"] = type(e).__name__
    out["freq|requires_grad"] = F.fftfreq(4, requires_grad=True).stop_gradient
    o = paddle.zeros([1])
    F.rfftfreq(6, out=o)
    out["freq|out"] = pairs(o.numpy())
    for f in ("fftshift", "ifftshift"):  # (Paddle 3.3.1 fails for a 1-D input and for any axes: not recorded)
        for x in ("X23", "X345", "C23", "I23"):
            out[f"shift|{f}|{x}"] = pairs(getattr(F, f)(ins[x]).numpy())
    # the complex Tensor surface on transform outputs
    y = F.fft(ins["X23"])
    out["surface|real"] = pairs(paddle.real(y).numpy())
    out["surface|imag"] = pairs(paddle.imag(y).numpy())
    out["surface|abs"] = pairs(y.abs().numpy())
    out["surface|abs_dtype"] = str(y.abs().dtype).replace("paddle.", "")
    out["surface|angle"] = pairs(paddle.angle(y).numpy())
    out["surface|method_real"] = pairs(y.real().numpy())
    out["surface|conj"] = pairs(y.conj().numpy())
    z = paddle.complex(paddle.real(y), paddle.imag(y) * 2)
    out["surface|complex"] = pairs(z.numpy())
    out["surface|complex_dtype"] = str(z.dtype).replace("paddle.", "")
    out["surface|numpy_dtype"] = str(y.numpy().dtype)
    out["surface|roundtrip"] = pairs(F.irfft(F.rfft(ins["X6"]), n=6).numpy())
    o = paddle.zeros([2, 3], "complex64")
    r = F.fft(ins["X23"], out=o)
    out["surface|out"] = pairs(o.numpy())
    out["surface|out_is_result"] = r is o
    out["surface|alias"] = pairs(F.fft(input=ins["X23"], dim=0).numpy())
    out["surface|alias2"] = pairs(F.rfft2(input=ins["X345"], dim=(0, 1)).numpy())
    return out
