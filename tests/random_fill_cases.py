"""The cases of the in-place random fills (``normal_``, ``log_normal_``, ``bernoulli_``, ``cauchy_``, ``exponential_``,
``geometric_``, ``random_``), written as Paddle code: ``record(paddle)`` runs them with the given library and returns
what does not depend on the generator: the dtype and shape written, that the tensor itself is returned, the set of
values of a discrete draw, the statistics of 20000 draws (compared with a tolerance), and the type of each error.
``record_paddle_random_fills.py`` runs it with Paddle 3.3.1 into ``data/paddle_random_fills.json``;
``tensor/test_random_fills.py`` runs it with pylayer_jax and compares."""

from __future__ import annotations

from typing import Any

import numpy as np

N = 20000

# (key, method, dtype, args, kwargs): a draw of N values whose dtype, statistics and support are recorded
DRAWS: list[tuple[str, str, str, tuple, dict]] = [
    ("normal_default", "normal_", "float32", (), {}),
    ("normal_2_3", "normal_", "float64", (2.0, 3.0), {}),
    ("normal_int_args", "normal_", "float32", (2, 3), {}),
    ("normal_std0", "normal_", "float32", (2.0, 0.0), {}),
    ("normal_complex", "normal_", "complex64", (3.0, 2.0), {}),
    ("normal_complex_mean", "normal_", "complex128", (1 + 1j, 2.0), {}),
    ("log_normal_default", "log_normal_", "float64", (), {}),
    ("log_normal_0_half", "log_normal_", "float32", (0.0, 0.5), {}),
    ("bernoulli_default", "bernoulli_", "float32", (), {}),
    ("bernoulli_02", "bernoulli_", "float64", (0.2,), {}),
    ("bernoulli_below0", "bernoulli_", "float32", (-0.5,), {}),
    ("bernoulli_above1", "bernoulli_", "float32", (1.5,), {}),
    ("cauchy_default", "cauchy_", "float32", (), {}),
    ("cauchy_1_2", "cauchy_", "float64", (1.0, 2.0), {}),
    ("exponential_default", "exponential_", "float32", (), {}),
    ("exponential_2", "exponential_", "float64", (2.0,), {}),
    ("exponential_lambd", "exponential_", "float32", (), {"lambd": 4.0}),
    ("random_0_10", "random_", "int64", (0, 10), {}),
    ("random_5", "random_", "int32", (5,), {}),
    ("random_from_only", "random_", "int64", (), {"from_": 3}),
    ("random_to_only", "random_", "int32", (), {"to": 4}),
    ("random_neg", "random_", "int64", (), {"from_": -3, "to": 2}),
    ("random_float", "random_", "float32", (-5, 5), {}),
    ("random_full_int32", "random_", "int32", (), {}),
    ("random_full_int64", "random_", "int64", (), {}),
    ("random_full_float32", "random_", "float32", (), {}),
    ("random_full_float64", "random_", "float64", (), {}),
]

# (key, code): code run with ``paddle`` and ``x`` (a float32 [3] zeros tensor) whose exception type is recorded
ERRORS: list[tuple[str, str]] = [
    ("normal_complex_mean_real_x", "x.normal_(1+2j)"),
    ("normal_unequal_complex_mean", "paddle.zeros([3], 'complex64').normal_(1+2j)"),
    ("normal_str_mean", "x.normal_('a')"),
    ("normal_list_x", "paddle.normal_([1.0])"),
    ("log_normal_complex_mean_real_x", "x.log_normal_(1j)"),
    ("bernoulli_list_p", "x.bernoulli_([0.5, 0.5, 0.5])"),
    ("bernoulli_none_p", "x.bernoulli_(None)"),
    ("bernoulli_int_tensor_p", "x.bernoulli_(paddle.to_tensor([0, 1, 1]))"),
    ("exponential_str", "x.exponential_('a')"),
    ("exponential_both_names", "x.exponential_(lam=1.0, lambd=2.0)"),
    ("geometric_no_probs", "x.geometric_()"),
    ("random_equal_bounds", "paddle.zeros([3], 'int32').random_(3, 3)"),
    ("random_reversed", "paddle.zeros([3], 'int32').random_(3, 1)"),
    ("random_negative_to", "paddle.zeros([3], 'int32').random_(-5)"),
    ("random_float_bound", "paddle.zeros([3], 'int32').random_(0.5, 3)"),
    ("random_bool_bound", "paddle.zeros([3], 'int64').random_(True, 3)"),
    ("random_from_keyword", "paddle.zeros([3], 'int32').random_(**{'from': -3, 'to': 2})"),
    ("leaf_normal", "leaf.normal_()"),
    ("leaf_bernoulli", "leaf.bernoulli_()"),
    ("leaf_cauchy", "leaf.cauchy_()"),
]


def _stats(a: np.ndarray) -> dict[str, Any]:
    if np.iscomplexobj(a):
        return {"mean_re": float(a.real.mean()), "mean_im": float(a.imag.mean()), "var_re": float(a.real.var()),
                "var_im": float(a.imag.var())}
    a = a.astype(np.float64)
    out: dict[str, Any] = {"min": float(a.min()), "max": float(a.max()), "median": float(np.median(a))}
    if np.isfinite(a).all() and a.var() < 1e30:
        out.update(mean=float(a.mean()), var=float(a.var()))
    u = np.unique(a)
    if len(u) <= 16:
        out["values"] = u.tolist()
    return out


def record(paddle: Any) -> dict[str, Any]:
    out: dict[str, Any] = {}
    paddle.seed(2024)
    for key, method, dtype, args, kwargs in DRAWS:
        x = paddle.zeros([N], dtype)
        r = getattr(x, method)(*args, **kwargs)
        a = np.asarray(x.numpy()) if dtype != "bfloat16" else x.astype("float32").numpy()
        out[key] = {"same": r is x, "dtype": str(x.dtype).replace("paddle.", ""), "shape": list(x.shape),
                    **_stats(a)}
    # the module-level functions and a per-element probability
    out["paddle_normal_"] = list(paddle.normal_(paddle.zeros([2, 3]), 1.0, 2.0).shape)
    p = paddle.to_tensor([[0.0], [1.0]])
    out["bernoulli_tensor_p"] = paddle.zeros([2, 3]).bernoulli_(p).numpy().tolist()
    for key, code in ERRORS:
        leaf = paddle.zeros([3])
        leaf.stop_gradient = False
        try:
            eval(code, {"paddle": paddle, "x": paddle.zeros([3]), "leaf": leaf})  # noqa: S307
            out["error_" + key] = None
        except Exception as e:  # noqa: BLE001
            out["error_" + key] = type(e).__name__
    return out
