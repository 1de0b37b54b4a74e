"""The cases of ``as_complex`` / ``view_as_complex`` / ``as_real`` / ``view_as_real`` (functions and Tensor methods),
written as Paddle code: ``record(paddle)`` runs them with the given library and returns the results' dtypes,
shapes and values, the gradients reaching a real input, whether a write to one side reaches the other (the memory
sharing of Paddle's views: here a RuntimeError instead), and the type of each error.
``record_paddle_complex_views.py`` runs it with Paddle 3.3.1 into ``data/paddle_complex_views.json``;
``tensor/test_complex_views.py`` runs it with pylayer_jax and compares."""

from __future__ import annotations

from typing import Any

import numpy as np

R = "T(np.arange(12, dtype='float32').reshape(2, 3, 2))"
Z = "T(np.array([[1 + 2j, 3 - 4j], [-5 + 6j, 7.5 + 0j]], 'complex64'))"
VALUES: dict[str, str] = {
    "as_complex": f"P.as_complex({R})",
    "view_as_complex": f"P.view_as_complex({R})",
    "as_complex_method": f"{R}.as_complex()",
    "view_as_complex_method": f"{R}.view_as_complex()",
    "as_complex_float64": "P.as_complex(T([[1.0, -2.0]], 'float64'))",
    "as_complex_1d": "P.as_complex(T([3.0, 4.0]))",
    "as_real": f"P.as_real({Z})",
    "view_as_real": f"P.view_as_real({Z})",
    "as_real_method": f"{Z}.as_real()",
    "view_as_real_method": f"{Z}.view_as_real()",
    "as_real_complex128": "P.as_real(T([1 + 2j], 'complex128'))",
    "as_real_0d": "P.as_real(T(1 + 2j))",
    "round_trip": f"P.as_real(P.as_complex({R}))",
}
ERRORS: dict[str, str] = {
    "as_complex_last_3": "P.as_complex(P.ones([2, 3]))",
    "view_as_complex_last_3": "P.view_as_complex(P.ones([2, 3]))",
    "as_complex_0d": "P.as_complex(P.ones([]))",
    "as_complex_list": "P.as_complex([[1.0, 2.0]])",
    "view_as_complex_list": "P.view_as_complex([[1.0, 2.0]])",
}
# Paddle's kernel-lookup RuntimeErrors for dtypes it has no kernel for; ours are TypeErrors naming the dtypes
DTYPE_ERRORS: dict[str, str] = {
    "as_complex_int": "P.as_complex(P.ones([2, 2], 'int32'))",
    "as_complex_complex": "P.as_complex(P.ones([2, 2], 'complex64'))",
    "as_real_float": "P.as_real(P.ones([2]))",
    "view_as_real_float": "P.view_as_real(P.ones([2]))",
}


def _value(t: Any) -> dict[str, Any]:
    a = np.asarray(t.numpy())
    out = {"dtype": str(t.dtype).replace("paddle.", ""), "shape": list(t.shape)}
    if np.iscomplexobj(a):
        out.update(re=a.real.tolist(), im=a.imag.tolist())
    else:
        out["values"] = a.tolist()
    return out


def _error(env: dict, code: str) -> str | None:
    try:
        eval(code, env)  # noqa: S307
    except Exception as e:  # noqa: BLE001
        return type(e).__name__
    return None


def _shares(paddle: Any, fn: str, src: str, write: str) -> Any:
    """Whether ``write`` (run on the input ``x`` or the result ``y``) reaches the other; the error type if it
    raises."""
    env = {"P": paddle, "T": paddle.to_tensor, "np": np}
    x = eval(src, env)  # noqa: S307
    y = getattr(paddle, fn)(x)
    before = (np.asarray(x.numpy()).copy(), np.asarray(y.numpy()).copy())
    try:
        exec(write, {**env, "x": x, "y": y})  # noqa: S102
    except Exception as e:  # noqa: BLE001
        return type(e).__name__
    return not (np.array_equal(before[0], x.numpy()) and np.array_equal(before[1], y.numpy())) and (
        write.startswith("x") != np.array_equal(before[1], y.numpy()) or write.startswith("y"))


def record(paddle: Any) -> dict[str, Any]:
    env = {"P": paddle, "T": paddle.to_tensor, "np": np}
    out: dict[str, Any] = {"values": {k: _value(eval(c, env)) for k, c in VALUES.items()},  # noqa: S307
                           "errors": {k: _error(env, c) for k, c in ERRORS.items()},
                           "dtype_errors": {k: _error(env, c) for k, c in DTYPE_ERRORS.items()}}
    # gradients reaching a real input through a complex result
    grads = {}
    for fn in ("as_complex", "view_as_complex"):
        x = paddle.to_tensor(np.array([[0.5, 1.0], [2.0, -3.0]], np.float32), stop_gradient=False)
        c = getattr(paddle, fn)(x)
        loss = paddle.real(c * c).sum() + (c * paddle.to_tensor(np.array([1 - 2j, 3 + 1j], np.complex64))).imag().sum()
        loss.backward()
        grads[fn] = x.grad.numpy().tolist()
        x = paddle.to_tensor(np.array([[0.5, 1.0], [2.0, -3.0]], np.float32), stop_gradient=False)
        back = getattr(paddle, fn.replace("complex", "real"))(getattr(paddle, fn)(x) * paddle.to_tensor(
            np.array([2 + 1j, -1j], np.complex64)))
        (back * paddle.to_tensor(np.array([[1.0, 2.0], [3.0, 4.0]], np.float32))).sum().backward()
        grads[fn + "_round_trip"] = x.grad.numpy().tolist()
    out["grads"] = grads
    # memory sharing: does a write to one side reach the other?
    real_src, cx_src = "T(np.arange(4, dtype='float32').reshape(2, 2))", "T(np.array([1 + 2j, 3 + 4j], 'complex64'))"
    out["shares"] = {
        f"{fn}_{who}": _shares(paddle, fn, real_src if "complex" in fn else cx_src, write)
        for fn in ("as_complex", "view_as_complex", "as_real", "view_as_real")
        for who, write in (("write_input", "x[0] = x[0] * 0 + 9"), ("write_result", "y[0] = y[0] * 0 + 9"))
    }
    return out
