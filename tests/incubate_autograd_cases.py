"""The cases of ``paddle.incubate.autograd``, written as Paddle code: ``record(paddle)`` runs each with the given
library and returns its results (values, shapes, ``stop_gradient``), or the type and message of the error it raises.
``record_paddle_incubate_autograd.py`` runs it with Paddle 3.3.1 into ``data/paddle_incubate_autograd.json``;
``incubate/test_autograd.py`` runs it with pylayer_jax and compares."""

from __future__ import annotations

from typing import Any

import numpy as np

X3 = np.array([0.5, -1.0, 2.0], np.float32)
M22 = np.array([[1.0, 2.0], [3.0, 4.0]], np.float32)
B23 = np.array([[0.5, 1.0, -1.5], [2.0, -0.5, 1.0]], np.float32)
V3 = np.array([1.0, -2.0, 0.5], np.float32)

CASES: dict[str, str] = {
    # vjp
    "vjp_single": "A.vjp(lambda x: P.tanh(x) * 2, T(X3))",
    "vjp_v": "A.vjp(lambda x: P.matmul(x, x), T(M22), T(M22))",
    "vjp_two_inputs": "A.vjp(lambda x, y: x * y + P.sin(x), [T(X3), T(V3)])",
    "vjp_two_outputs": "A.vjp(lambda x: (x * x, P.exp(x)), T(X3), [T(V3), T(X3)])",
    "vjp_unused_input": "A.vjp(lambda x, y: x * 3.0, [T(X3), T(V3)])",
    "vjp_training_input": "A.vjp(lambda x: x * x, train(X3) * 2)",
    # jvp
    "jvp_single": "A.jvp(lambda x: P.tanh(x) * 2, T(X3))",
    "jvp_v": "A.jvp(lambda x: P.matmul(x, x), T(M22), T(M22))",
    "jvp_two_inputs": "A.jvp(lambda x, y: x * y + P.sin(x), [T(X3), T(V3)], [T(V3), T(X3)])",
    "jvp_two_outputs": "A.jvp(lambda x: (x * x, P.exp(x)), T(X3))",
    # Jacobian
    "jac_full": "A.Jacobian(lambda x: P.matmul(x, x), T(M22))[:]",
    "jac_row": "A.Jacobian(lambda x: P.matmul(x, x), T(M22))[1]",
    "jac_column": "A.Jacobian(lambda x: P.matmul(x, x), T(M22))[:, 2]",
    "jac_element": "A.Jacobian(lambda x: P.matmul(x, x), T(M22))[-1, -2]",
    "jac_slices": "A.Jacobian(lambda x: P.matmul(x, x), T(M22))[1:3, ::2]",
    "jac_shape": "list(A.Jacobian(lambda x, y: (x * y, x + y, y), [T(X3), T(V3)]).shape)",
    "jac_multi": "A.Jacobian(lambda x, y: (x * y, P.sum(x * x)), [T(X3), T(V3)])[:]",
    "jac_batched": "A.Jacobian(lambda x: x * x * P.sum(x, axis=1, keepdim=True), T(B23), is_batched=True)[:]",
    "jac_batched_index": "A.Jacobian(lambda x: P.tanh(x), T(B23), is_batched=True)[:, 1, :]",
    "jac_batched_shape": "list(A.Jacobian(lambda x, y: x * y, [T(B23), T(B23)], is_batched=True).shape)",
    # Hessian
    "hess_full": "A.Hessian(lambda x: P.sum(x * x * x), T(X3))[:]",
    "hess_two_inputs": "A.Hessian(lambda x, y: P.sum(x * x * y), [T(X3), T(V3)])[:]",
    "hess_row": "A.Hessian(lambda x: P.sum(P.exp(x) * x), T(X3))[1]",
    "hess_batched": "A.Hessian(lambda x: P.sum(x * x * x, axis=1, keepdim=True), T(B23), is_batched=True)[:]",
    "hess_shape": "list(A.Hessian(lambda x: P.sum(x * x), T(M22)).shape)",
    # second order: a vjp's result differentiated again
    "vjp_then_grad": "second_order()",
    # errors
    "err_func": "A.vjp(3, T(X3))",
    "err_xs": "A.vjp(lambda x: x, 3.0)",
    "err_xs_elements": "A.vjp(lambda x: x, [T(X3), 1.0])",
    "err_v_type": "A.vjp(lambda x: x, T(X3), 2.0)",
    "err_v_shape": "A.vjp(lambda x: x, T(X3), T(M22))",
    "err_v_length": "A.vjp(lambda x: (x, x), T(X3), [T(X3)])",
    "err_jvp_v_shape": "A.jvp(lambda x: x, T(X3), T(M22))",
    "err_hessian_not_scalar": "A.Hessian(lambda x: x * x, T(X3))[:]",
    "err_ellipsis": "A.Jacobian(lambda x: x * x, T(X3))[..., 0]",
    "err_index_type": "A.Jacobian(lambda x: x * x, T(X3))[0.5]",
    "err_prim_dynamic": "A.prim_enabled()",
    "err_enable_prim_dynamic": "A.enable_prim()",
}


def run(paddle: Any, code: str) -> dict[str, Any]:
    def train(a: np.ndarray) -> Any:
        return paddle.to_tensor(a, stop_gradient=False)

    def second_order() -> Any:
        x = train(X3)
        _, g = A.vjp(lambda t: t * t * t, x)
        (gg,) = paddle.grad(g.sum(), x)
        return g, gg

    A = paddle.incubate.autograd
    env = {"P": paddle, "A": A, "T": paddle.to_tensor, "train": train, "second_order": second_order,
           "X3": X3, "M22": M22, "B23": B23, "V3": V3}
    try:
        res = eval(code, env)  # noqa: S307
    except Exception as e:  # noqa: BLE001
        return {"error": type(e).__name__, "message": str(e).splitlines()[0] if str(e) else ""}
    return {"result": _plain(res)}


def _plain(r: Any) -> Any:
    if isinstance(r, tuple | list):
        return [_plain(e) for e in r]
    if hasattr(r, "numpy"):
        return {"shape": list(r.shape), "values": np.asarray(r.numpy(), np.float64).tolist(),
                "stop_gradient": bool(r.stop_gradient)}
    return r


def record_static(paddle: Any) -> dict[str, Any]:
    """vjp and Jacobian in a static program, and the prim switches there."""
    paddle.enable_static()
    try:
        A = paddle.incubate.autograd
        flags = [A.prim_enabled()]
        A.enable_prim()
        flags.append(A.prim_enabled())
        A.disable_prim()
        flags.append(A.prim_enabled())
        main, start = paddle.static.Program(), paddle.static.Program()
        with paddle.static.program_guard(main, start):
            x = paddle.static.data("x", [3], "float32")
            x.stop_gradient = False
            ys, g = A.vjp(lambda t: paddle.tanh(t) * 2, x)
            j = A.Jacobian(lambda t: t * paddle.sum(t), x)[:]
            jb = A.Jacobian(lambda t: t * t, paddle.reshape(x, [1, 3]), is_batched=True)[:, 1]
        exe = paddle.static.Executor()
        exe.run(start)
        outs = exe.run(main, feed={"x": X3}, fetch_list=[ys, g, j, jb])
        return {"flags": flags, "outs": [np.asarray(o, np.float64).tolist() for o in outs]}
    finally:
        paddle.disable_static()


def record(paddle: Any) -> dict[str, Any]:
    return {"cases": {k: run(paddle, c) for k, c in CASES.items()}, "static": record_static(paddle)}
