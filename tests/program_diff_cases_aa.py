"""Cases found by the whole programs ``tests/programs/p75_creation.py`` (tensor creation) and
``tests/programs/p76_complex_autograd.py`` (complex tensors in training), written as Paddle code: ``record(paddle)``
runs them with the given library and returns what they give (values, gradients, the type of each error).
``record_paddle_program_diffs_aa.py`` runs it with Paddle 3.3.1 into ``data/paddle_program_diffs_aa.json``;
``test_program_diffs_aa.py`` runs it with pylayer_jax and compares."""

from __future__ import annotations

from typing import Any

import numpy as np
from case_values import _attempt, _v


def _c(t: Any) -> list[Any]:
    """A complex tensor's dtype, real and imaginary parts."""
    a = np.asarray(t.numpy())
    return [str(t.dtype), a.real.astype(np.float64).tolist(), a.imag.astype(np.float64).tolist()]


def arange_integer_dtype(paddle: Any, out: dict[str, Any]) -> None:
    """``paddle.arange`` with an integer dtype casts start, end and step to it first (truncating toward zero), so
    the count follows the truncated values, and a fractional step that truncates to 0 is a ValueError; a bool
    start counts as an int (int64 result)."""
    for key, args, dt in (("frac_start", (0.5, 4, 1.5), "int32"), ("neg", (0, -4.9, -1.5), "int64"),
                          ("frac_end", (0, 4.9, 1), "int64"), ("neg_start", (-0.5, 4, 1.5), "int64")):
        r = paddle.arange(*args, dtype=dt)
        out[f"arange_{key}"] = [_v(r), str(r.dtype)]
    out["arange_step_truncated"] = _attempt(lambda: paddle.arange(0, 4, 0.5, dtype="int64"))
    r = paddle.arange(True, 4)
    out["arange_bool_start"] = [_v(r), str(r.dtype)]


def meshgrid_inputs(paddle: Any, out: dict[str, Any]) -> None:
    """``paddle.meshgrid`` of tensors of different dtypes is a ValueError (not a silent promotion); a 0-D input
    counts as a one-element vector."""
    out["meshgrid_mixed"] = _attempt(lambda: paddle.meshgrid(paddle.to_tensor([1, 2]), paddle.to_tensor([1.0])))
    out["meshgrid_int_widths"] = _attempt(lambda: paddle.meshgrid(paddle.to_tensor([1], dtype="int32"),
                                                                  paddle.to_tensor([1])))
    gx, gy = paddle.meshgrid(paddle.to_tensor(1.5), paddle.to_tensor([2.0, 3.0]))  # (Paddle's backward of it crashes)
    out["meshgrid_0d"] = [_v(gx), _v(gy), list(gx.shape), list(gy.shape)]


def polar_gradients(paddle: Any, out: dict[str, Any]) -> None:
    """The gradients of ``paddle.polar`` reach both the magnitudes and the angles (they were computed as if both
    inputs were 0: the magnitudes' gradient ignored the angle and the angles' gradient was 0)."""
    mag = paddle.to_tensor([1.0, 2.0, 0.5], stop_gradient=False)
    ph = paddle.to_tensor([0.3, -1.0, 2.0], stop_gradient=False)
    z = paddle.polar(mag, ph)
    loss = (paddle.real(z) * paddle.to_tensor([1.0, 2.0, 3.0]) + paddle.imag(z) * paddle.to_tensor([0.5, -1.0, 1.0]))
    loss.sum().backward()
    out["polar_linear"] = [_c(z), _v(mag.grad), _v(ph.grad)]
    mag.clear_gradient()
    ph.clear_gradient()
    shift = paddle.to_tensor(np.array([1 + 1j, 2, -1j], "complex64"))
    (paddle.abs(paddle.polar(mag, ph) + shift) ** 2).sum().backward()
    out["polar_abs"] = [_v(mag.grad), _v(ph.grad)]
    m64 = paddle.to_tensor([1.5, 0.25], dtype="float64", stop_gradient=False)
    p64 = paddle.to_tensor([-0.5, 1.0], dtype="float64", stop_gradient=False)
    paddle.angle(paddle.polar(m64, p64) * (1 + 1j)).sum().backward()
    out["polar_f64_angle"] = [_v(m64.grad), _v(p64.grad)]


def angle_at_zero(paddle: Any, out: dict[str, Any]) -> None:
    """The gradient of ``paddle.angle`` at a complex 0 is 0 (atan2's derivative there is 0/0: it was NaN),
    elsewhere (imag, -real) / |z|^2 as a complex leaf's gradient."""
    z = paddle.to_tensor(np.array([0j, -1 + 0j, 1 + 1j, 0j], "complex64"), stop_gradient=False)
    a = paddle.angle(z)
    a.sum().backward()
    out["angle_zero"] = [_v(a), _c(z.grad)]
    w = paddle.to_tensor(np.array([0j, 2 - 1j], "complex128"), stop_gradient=False)
    paddle.angle(w * w).sum().backward()
    out["angle_zero_128"] = _c(w.grad)


def to_tensor_huge_int(paddle: Any, out: dict[str, Any]) -> None:
    """``paddle.to_tensor`` of a Python int beyond int64 is a ValueError (no dtype holds it); int64's largest
    value still converts."""
    out["to_tensor_int_2_70"] = _attempt(lambda: paddle.to_tensor([2 ** 70]))
    out["to_tensor_int_scalar_2_70"] = _attempt(lambda: paddle.to_tensor(-2 ** 70))
    out["to_tensor_nested_2_70"] = _attempt(lambda: paddle.to_tensor([[1, 2 ** 70]]))
    r = paddle.to_tensor([2 ** 63 - 1, -2 ** 63])
    out["to_tensor_int64_limits"] = [_v(r), str(r.dtype)]


def complex_norm_gradients(paddle: Any, out: dict[str, Any]) -> None:
    """The gradients of vector norms of a complex leaf are ``x / |x|``-like (dL/dRe + i dL/dIm, as every complex
    gradient here): they were conjugated."""
    a = np.random.default_rng(1).standard_normal((2, 3, 3))
    z0 = (a[0] + 1j * a[1]).astype("complex64")
    for key, f in (("fro", lambda z: paddle.linalg.norm(z)),
                   ("p2_axis", lambda z: paddle.linalg.norm(z, p=2, axis=0, keepdim=True).sum()),
                   ("p3_axis", lambda z: paddle.linalg.norm(z, p=3, axis=1).sum()),
                   ("inf", lambda z: paddle.linalg.norm(z.flatten(), p=float("inf"))),
                   ("vector_p1", lambda z: paddle.linalg.vector_norm(z, p=1)),
                   ("vector_inf_axis", lambda z: paddle.linalg.vector_norm(z, p=float("inf"), axis=1).sum()),
                   ("method", lambda z: (z * 2).norm())):
        z = paddle.to_tensor(z0, stop_gradient=False)
        n = f(z)
        n.backward()
        out[f"norm_grad_{key}"] = [_v(n), _c(z.grad)]


def clip_complex_gradients(paddle: Any, out: dict[str, Any]) -> None:
    """``paddle.nn.utils.clip_grad_norm_`` of complex gradients: the norm (float32) is of their magnitudes and the
    complex gradients are scaled in place (the in-place multiply of a complex64 tensor by a float32 one was
    refused)."""
    z0 = np.array([1 + 2j, -0.5 + 1j, 2 - 1j], "complex64")
    for nt in (2.0, 1.0, float("inf")):
        p = paddle.create_parameter([3], "complex64", default_initializer=paddle.nn.initializer.Constant(1.0))
        q = paddle.create_parameter([2], "float32", default_initializer=paddle.nn.initializer.Constant(0.5))
        (paddle.abs(p - paddle.to_tensor(z0)) ** 2).sum().backward()
        (q * q).sum().backward()
        n = paddle.nn.utils.clip_grad_norm_([p, q], 0.5, norm_type=nt)
        out[f"clip_grad_norm_complex_{nt}"] = [_v(n), str(n.dtype), _c(p.grad), _v(q.grad)]
    x = paddle.to_tensor(z0)
    x.multiply_(paddle.to_tensor(0.5))
    y = paddle.to_tensor(z0.astype("complex128"))
    y.multiply_(paddle.to_tensor([2.0, 1.0, -1.0], dtype="float32"))
    out["complex_inplace_times_real"] = [_c(x), _c(y)]


def detach_keeps_persistable(paddle: Any, out: dict[str, Any]) -> None:
    """``Tensor.detach()`` keeps ``persistable`` (a detached parameter is persistable, as are the tensors of a
    layer's ``state_dict``)."""
    lin = paddle.nn.Linear(2, 2)
    d = lin.weight.detach()
    t = paddle.to_tensor([1.0])
    t.persistable = True
    sd = lin.state_dict()
    out["detach_persistable"] = [d.persistable, d.stop_gradient, t.detach().persistable,
                                 paddle.to_tensor([1.0]).detach().persistable, [v.persistable for v in sd.values()]]


CASES = [arange_integer_dtype, meshgrid_inputs, polar_gradients, angle_at_zero, to_tensor_huge_int,
         complex_norm_gradients, clip_complex_gradients,
         detach_keeps_persistable]


def record(paddle: Any) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for case in CASES:
        case(paddle, out)
    return out
