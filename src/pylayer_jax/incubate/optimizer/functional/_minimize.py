"""``paddle.incubate.optimizer.functional``: ``minimize_bfgs`` and ``minimize_lbfgs`` (layer L8).

The iteration is sequential and branches on values (the line search's tests, the convergence tests), so it runs on
the host in numpy, in the dtype the caller names, as Paddle's dynamic mode runs its loop in Python; each value and
gradient of the objective is an ordinary eager call and ``paddle.grad``. The steps follow Paddle 3.3.1's, so the
results agree with it: the strong-Wolfe line search with cubic-interpolation zoom (Nocedal and Wright, algorithms
3.5 and 3.6) with its count of function calls and the slope it keeps for the bracket's low end, a curvature of
exactly zero read as ``rho = 1000``, and BFGS's inverse-Hessian update written as Paddle writes it,
``(I - rho y s^T) H (I - rho s y^T) + rho s s^T``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from ...._runtime import dtypes as _dtypes
from ...._tensor.backward_entry import grad as _grad
from ...._tensor.facade import Tensor
from ....static._mode import in_dynamic_mode

_C1, _C2, _ALPHA_MAX, _TOLERANCE_CHANGE = 1e-4, 0.9, 10.0, 1e-8  # Paddle's line-search settings


class _Objective:
    """``f`` with its value and gradient at a numpy point, counted."""

    def __init__(self, f: Callable[[Tensor], Tensor], dtype: np.dtype) -> None:
        self.f, self.dtype = f, dtype

    def __call__(self, x: np.ndarray) -> tuple[Any, np.ndarray]:
        t = Tensor(np.asarray(x, self.dtype))
        t.stop_gradient = False
        value = self.f(t)
        if not isinstance(value, Tensor) or int(np.prod(value.shape)) != 1:
            raise ValueError("minimize: objective_func must return a Tensor holding one value (a scalar), but it "
                             f"returned {type(value).__name__} of shape {list(getattr(value, 'shape', []))}.")
        (g,) = _grad([value], [t], allow_unused=True)
        gv = np.zeros_like(x) if g is None else np.asarray(g.numpy(), self.dtype)
        return np.asarray(value.numpy(), self.dtype).reshape(value.shape), gv


def _cubic_min(x1: Any, f1: Any, g1: Any, x2: Any, f2: Any, g2: Any) -> Any:
    """The minimiser of the cubic through two points with their slopes, kept within them (their middle when the
    cubic has no minimum)."""
    lo, hi = (x1, x2) if x1 <= x2 else (x2, x1)
    d1 = g1 + g2 - 3 * (f1 - f2) / (x1 - x2)
    d2_square = d1 ** 2 - g1 * g2
    if d2_square >= 0:
        d2 = np.sqrt(d2_square)
        if x1 <= x2:
            m = x2 - (x2 - x1) * ((g2 + d2 - d1) / (g2 - g1 + 2 * d2))
        else:
            m = x1 - (x1 - x2) * ((g1 + d2 - d1) / (g1 - g2 + 2 * d2))
        return np.minimum(np.maximum(m, lo), hi)
    return (lo + hi) / 2.0


def _strong_wolfe(obj: _Objective, xk: np.ndarray, pk: np.ndarray, max_iters: int, initial_step_length: float,
                  dt: Any) -> tuple[Any, Any, np.ndarray, int]:
    """A step length along ``pk`` meeting the strong Wolfe conditions: ``(alpha, f, gradient, calls)``, alpha 0
    when none was found. ``calls`` counts as Paddle counts (a zoom's last evaluation, when it ends the zoom, is not
    counted)."""

    def phi(a: Any) -> tuple[Any, np.ndarray, Any]:
        v, g = obj(xk + a * pk)
        return v, g, np.dot(g, pk).astype(dt)

    def zoom(lo: list, hi: list, phi_0: Any, dphi_0: Any) -> tuple[list, int]:
        # lo, hi: [a, phi, dphi, gradient]; lo is moved to the result
        j, done = 0, False
        while True:
            done = done or bool(np.abs(hi[0] - lo[0]) < _TOLERANCE_CHANGE)
            if not (j < max_iters and not done):
                return lo, j
            aj = _cubic_min(lo[0], lo[1], lo[2], hi[0], hi[1], hi[2])
            if np.minimum(np.abs(aj - lo[0]), np.abs(aj - hi[0])) < dt.type(0.1) * np.abs(hi[0] - lo[0]):
                aj = dt.type(0.5) * (lo[0] + hi[0])
            aj = dt.type(aj)
            phi_j, g_j, dphi_j = phi(aj)
            if phi_j > phi_0 + dt.type(_C1) * aj * dphi_0 or phi_j >= lo[1]:
                hi = [aj, phi_j, dphi_j, hi[3]]
            else:
                done = bool(np.abs(dphi_j) <= -dt.type(_C2) * dphi_0)
                if not done and dphi_j * (hi[0] - lo[0]) >= 0:
                    hi = list(lo)
                lo = [aj, phi_j, dphi_j, g_j]
            if not done:
                j += 1

    a1, a2 = dt.type(0.0), dt.type(initial_step_length)
    phi_1, g_1, dphi_1 = phi(a1)
    phi_0, dphi_0 = phi_1, dphi_1
    calls, i, done = 1, 0, False
    a_star, phi_star, g_star = dt.type(0.0), phi_1, g_1
    while i < max_iters and not done:
        phi_2, g_2, dphi_2 = phi(a2)
        calls += 1
        done = bool(np.any(np.isinf(phi_2)))
        if not done and (phi_2 > phi_0 + dt.type(_C1) * a2 * dphi_0 or (phi_2 >= phi_1 and i > 1)):
            done = True
            (a_star, phi_star, _, g_star), j = zoom([a1, phi_1, dphi_1, g_1], [a2, phi_2, dphi_2, g_2], phi_0,
                                                    dphi_0)
            calls += j
        if not done and np.abs(dphi_2) <= -dt.type(_C2) * dphi_0:
            done = True
            a_star, phi_star, g_star = a2, phi_2, g_2
        if not done and dphi_2 >= 0:
            done = True
            (a_star, phi_star, _, g_star), j = zoom([a2, phi_2, dphi_2, g_2], [a1, phi_1, dphi_1, g_1], phi_0,
                                                    dphi_0)
            calls += j
        if not done:
            # (as Paddle's loop: the slope at a1 stays the one at 0, which a later zoom reads)
            a1, phi_1, g_1 = a2, phi_2, g_2
            a2 = np.minimum(dt.type(2) * a2, dt.type(_ALPHA_MAX))
            i += 1
    return a_star, phi_star, g_star, calls


def _check(api: str, objective_func: Any, initial_position: Any, h0: Any, line_search_fn: Any, dtype: Any,
           ints: dict[str, Any]) -> np.dtype:
    if dtype not in ("float32", "float64"):
        raise ValueError(f"{api}: the dtype must be 'float32' or 'float64', but the specified is {dtype}.")
    if not in_dynamic_mode():
        raise NotImplementedError(f"{api}: only dynamic mode is supported here; call paddle.disable_static() first.")
    if not callable(objective_func):
        raise TypeError(f"{api}: objective_func must be callable, but received {type(objective_func).__name__}.")
    for what, t in (("initial_position", initial_position), ("initial_inverse_hessian_estimate", h0)):
        if t is not None and not isinstance(t, Tensor):
            raise ValueError(f"{api}: the input {what} must be a Tensor, but received {type(t).__name__}.")
    if len(initial_position.shape) != 1:
        raise ValueError(f"{api}: initial_position must be 1-D, but it has shape {list(initial_position.shape)}.")
    for what, t in (("initial_position", initial_position), ("initial_inverse_hessian_estimate", h0)):
        if t is not None and _dtypes.to_paddle(t.dtype).name != dtype:
            raise ValueError(f"{api}: {what} has dtype {_dtypes.to_paddle(t.dtype).name}, but dtype is {dtype!r}; "
                             "they must be the same (pass dtype=... or cast the tensor).")
    if line_search_fn != "strong_wolfe":
        raise NotImplementedError(f"{api}: currently only line_search_fn='strong_wolfe' is supported, but the "
                                  f"specified is {line_search_fn!r}.")
    for what, v in ints.items():
        if isinstance(v, bool) or not isinstance(v, int) or v < 0:
            raise ValueError(f"{api}: {what} must be a non-negative int, but received {v!r}.")
    return np.dtype(dtype)


def _initial_h(api: str, h0: Tensor | None, n: int, dt: np.dtype) -> np.ndarray:
    if h0 is None:
        return np.eye(n, dtype=dt)
    h = np.asarray(h0.numpy(), dt)
    if h.shape != (n, n):
        raise ValueError(f"{api}: initial_inverse_hessian_estimate must be [{n}, {n}], but it has shape "
                         f"{list(h.shape)}.")
    if not np.array_equal(h, h.T) or not np.all(np.linalg.eigvalsh(h.astype(np.float64)) > 0):
        raise ValueError("The initial_inverse_hessian_estimate should be symmetric and positive definite, but the "
                         "specified is not.")
    return h


def _result(dt: np.dtype, converged: bool, calls: int, *arrays: np.ndarray) -> tuple:
    return (Tensor(np.array([converged])), Tensor(np.array([calls], np.int64)),
            *(Tensor(np.asarray(a, dt)) for a in arrays))


def _rho(yk: np.ndarray, sk: np.ndarray, dt: np.dtype) -> Any:
    inv = np.dot(yk, sk).astype(dt)
    return dt.type(1000.0) if inv == 0.0 else dt.type(1.0) / inv


def minimize_bfgs(
    objective_func: Callable[[Tensor], Tensor],
    initial_position: Tensor,
    max_iters: int = 50,
    tolerance_grad: float = 1e-7,
    tolerance_change: float = 1e-9,
    initial_inverse_hessian_estimate: Tensor | None = None,
    line_search_fn: str = "strong_wolfe",
    max_line_search_iters: int = 50,
    initial_step_length: float = 1.0,
    dtype: str = "float32",
    name: str | None = None,
) -> tuple[Tensor, Tensor, Tensor, Tensor, Tensor, Tensor]:
    """Minimise ``objective_func`` (a 1-D Tensor to a scalar) from ``initial_position`` by BFGS with a strong-Wolfe
    line search (Nocedal and Wright, algorithm 6.1).

    Stops after ``max_iters`` iterations, when the gradient's largest entry is below ``tolerance_grad`` or the
    search direction's below ``tolerance_change`` (converged), or when the line search finds no step. ``dtype``
    ('float32' or 'float64') is the algorithm's and must be ``initial_position``'s. Returns ``(is_converge,
    num_func_calls, position, objective_value, objective_gradient, inverse_hessian_estimate)``: a bool ``[1]``, an
    int64 ``[1]``, and Tensors of ``dtype``. Dynamic mode only.

    >>> import pylayer_jax as paddle
    >>> f = lambda x: paddle.sum((x - 1.0) ** 2)
    >>> ok, calls, x, *_ = paddle.incubate.optimizer.functional.minimize_bfgs(f, paddle.zeros([2]))
    >>> bool(ok), x.tolist()
    (True, [1.0, 1.0])
    """
    api = "minimize_bfgs"
    dt = _check(api, objective_func, initial_position, initial_inverse_hessian_estimate, line_search_fn, dtype,
                {"max_iters": max_iters, "max_line_search_iters": max_line_search_iters})
    n = initial_position.shape[0]
    eye = np.eye(n, dtype=dt)
    h = _initial_h(api, initial_inverse_hessian_estimate, n, dt).copy()
    obj = _Objective(objective_func, dt)
    xk = np.asarray(initial_position.numpy(), dt).copy()
    value, g1 = obj(xk)
    calls, k, done, converged = 1, 0, False, False
    while k < max_iters and not done:
        pk = -(h @ g1)
        alpha, value, g2, ls_calls = _strong_wolfe(obj, xk, pk, max_line_search_iters, initial_step_length, dt)
        calls += ls_calls
        sk, yk = (alpha * pk).astype(dt), (g2 - g1).astype(dt)
        xk, g1 = (xk + sk).astype(dt), g2
        rho = _rho(yk, sk, dt)
        v_t = eye - rho * np.outer(yk, sk)
        h = ((v_t @ h) @ v_t.T + rho * np.outer(sk, sk)).astype(dt)
        k += 1
        done = bool(np.abs(g1).max() < tolerance_grad or np.abs(pk).max() < tolerance_change)
        converged = done
        done = done or bool(alpha == 0.0)
    return _result(dt, converged, calls, xk, value, g1, h)


def minimize_lbfgs(
    objective_func: Callable[[Tensor], Tensor],
    initial_position: Tensor,
    history_size: int = 100,
    max_iters: int = 50,
    tolerance_grad: float = 1e-8,
    tolerance_change: float = 1e-8,
    initial_inverse_hessian_estimate: Tensor | None = None,
    line_search_fn: str = "strong_wolfe",
    max_line_search_iters: int = 50,
    initial_step_length: float = 1.0,
    dtype: str = "float32",
    name: str | None = None,
) -> tuple[Tensor, Tensor, Tensor, Tensor, Tensor]:
    """Minimise ``objective_func`` from ``initial_position`` by L-BFGS (Nocedal and Wright, algorithm 7.5): the
    search direction from the last ``history_size`` steps and gradient changes (the two-loop recursion over
    ``initial_inverse_hessian_estimate``, the identity by default) and a strong-Wolfe line search; the stopping
    rules and ``dtype`` as ``minimize_bfgs``. Returns ``(is_converge, num_func_calls, position, objective_value,
    objective_gradient)``. Dynamic mode only.

    Paddle 3.3.1 keeps the history in a ring buffer that misbehaves once it wraps (after ``history_size - 1``
    iterations it drops two entries at a time, and later loops forever); here the history simply keeps the last
    ``history_size`` entries, which gives Paddle's results until its buffer wraps.
    """
    api = "minimize_lbfgs"
    dt = _check(api, objective_func, initial_position, initial_inverse_hessian_estimate, line_search_fn, dtype,
                {"max_iters": max_iters, "max_line_search_iters": max_line_search_iters})
    if isinstance(history_size, bool) or not isinstance(history_size, int) or history_size < 1:
        raise ValueError(f"{api}: history_size must be a positive int, but received {history_size!r}.")
    n = initial_position.shape[0]
    h0 = _initial_h(api, initial_inverse_hessian_estimate, n, dt)
    obj = _Objective(objective_func, dt)
    xk = np.asarray(initial_position.numpy(), dt).copy()
    value, g1 = obj(xk)
    calls, k, done, converged = 1, 0, False, False
    hist: list[tuple[np.ndarray, np.ndarray, Any]] = []  # (s, y, rho), oldest first
    while k < max_iters and not done:
        q = g1.copy()
        ai = [dt.type(0.0)] * len(hist)
        for i in range(len(hist) - 1, -1, -1):
            s, y, rho = hist[i]
            ai[i] = rho * np.dot(s, q).astype(dt)
            q = (q - ai[i] * y).astype(dt)
        r = (h0 @ q).astype(dt)
        for i, (s, y, rho) in enumerate(hist):
            beta = rho * np.dot(y, r).astype(dt)
            r = (r + s * (ai[i] - beta)).astype(dt)
        pk = -r
        alpha, value, g2, ls_calls = _strong_wolfe(obj, xk, pk, max_line_search_iters, initial_step_length, dt)
        calls += ls_calls
        sk, yk = (alpha * pk).astype(dt), (g2 - g1).astype(dt)
        hist.append((sk, yk, _rho(yk, sk, dt)))
        if len(hist) > history_size:
            hist.pop(0)
        xk, g1 = (xk + sk).astype(dt), g2
        k += 1
        done = bool(np.abs(g1).max() < tolerance_grad or np.abs(pk).max() < tolerance_change)
        converged = done
        done = done or bool(alpha == 0.0)
    return _result(dt, converged, calls, xk, value, g1)
