"""The cases of ``paddle.incubate.optimizer``, written as Paddle code: ``record(paddle)`` runs each with the given
library and returns what it computes (the parameters, accumulators, averages and state-dict keys step by step for
LookAhead and ModelAverage; the six or five results of minimize_bfgs / minimize_lbfgs), or the type of the error.
``record_paddle_incubate_optimizer.py`` runs it with Paddle 3.3.1 into ``data/paddle_incubate_optimizer.json``;
``incubate/test_optimizer.py`` runs it with pylayer_jax and compares."""

from __future__ import annotations

from typing import Any

import numpy as np


def _np(t: Any) -> Any:
    return np.asarray(t.numpy(), np.float64).tolist()


def _params(paddle: Any) -> tuple[Any, Any]:
    init = paddle.nn.initializer.Assign
    w = paddle.create_parameter([2], "float32", default_initializer=init(np.array([1.0, 2.0], np.float32)))
    v = paddle.create_parameter([1], "float32", default_initializer=init(np.array([3.0], np.float32)))
    return w, v


def _loss(paddle: Any, w: Any, v: Any, step: int) -> Any:
    loss = (w * w).sum() + (w * float(step)).sum()
    return loss + (v * v * v).sum() * 0.1 if step != 1 else loss  # (v gets no gradient at step 1)


def lookahead(paddle: Any, inner: str, alpha: float, k: int, steps: int, use_minimize: bool = False) -> dict:
    with paddle.utils.unique_name.guard():
        w, v = _params(paddle)
        opt = {"sgd": lambda: paddle.optimizer.SGD(0.1, parameters=[w, v]),
               "momentum": lambda: paddle.optimizer.Momentum(0.1, parameters=[w, v]),
               "adam": lambda: paddle.optimizer.Adam(0.05, parameters=[w, v])}[inner]()
        la = paddle.incubate.optimizer.LookAhead(opt, alpha=alpha, k=k)
        rec: list[Any] = []
        for step in range(steps):
            loss = _loss(paddle, w, v, step)
            loss.backward()
            if use_minimize:
                la.minimize(loss)
            else:
                la.step()
            la.clear_grad(set_to_zero=False)
            rec.append([_np(w), _np(v)])
        sd = la.state_dict()
        return {"steps": rec, "state": {k_: _np(t) for k_, t in sorted(sd.items())}, "lr": la.get_lr()}


def model_average(paddle: Any, rate: float, lo: int, hi: int, steps: int, restore_later: bool = False) -> dict:
    with paddle.utils.unique_name.guard():
        w, v = _params(paddle)
        sgd = paddle.optimizer.SGD(0.1, parameters=[w, v])
        ma = paddle.incubate.optimizer.ModelAverage(rate, parameters=[w, v], min_average_window=lo,
                                                    max_average_window=hi)
        rec: list[Any] = []
        for step in range(steps):
            loss = _loss(paddle, w, v, step)
            loss.backward()
            sgd.step()
            ma.step()
            sgd.clear_grad(set_to_zero=False)
            with ma.apply(need_restore=not restore_later):
                applied = [_np(w), _np(v)]
            kept = [_np(w), _np(v)]
            if restore_later:
                ma.restore()
            rec.append({"applied": applied, "kept": kept, "after": [_np(w), _np(v)]})
        sd = ma.state_dict()
        return {"steps": rec, "state": {k_: _np(t) for k_, t in sorted(sd.items())}}


def _rosen(paddle: Any) -> Any:
    return lambda x: paddle.sum(100 * (x[1:] - x[:-1] ** 2) ** 2 + (1 - x[:-1]) ** 2)


def _quad(paddle: Any) -> Any:
    def f(x: Any) -> Any:
        c = paddle.to_tensor([1.0, -2.0, 3.0], dtype=x.dtype)
        s = paddle.to_tensor([1.0, 10.0, 0.5], dtype=x.dtype)
        return paddle.sum((x - c) ** 2 * s)

    return f


MINIMIZE: dict[str, tuple[str, str, list[float], dict[str, Any]]] = {
    # name: (method, objective, x0, keyword arguments)
    "bfgs_quad64": ("bfgs", "quad", [0.0, 0.0, 0.0], {"dtype": "float64"}),
    "lbfgs_quad64": ("lbfgs", "quad", [0.0, 0.0, 0.0], {"dtype": "float64"}),
    "bfgs_rosen64": ("bfgs", "rosen", [-1.2, 1.0], {"dtype": "float64"}),
    "lbfgs_rosen64": ("lbfgs", "rosen", [-1.2, 1.0], {"dtype": "float64"}),
    "bfgs_rosen32_5": ("bfgs", "rosen", [-1.2, 1.0, 0.5], {"max_iters": 5}),
    "lbfgs_rosen32_8": ("lbfgs", "rosen", [-1.2, 1.0, 0.5], {"max_iters": 8, "history_size": 10}),
    "bfgs_h0": ("bfgs", "rosen", [-1.2, 1.0], {"dtype": "float64", "max_iters": 20,
                                                "initial_inverse_hessian_estimate": [[0.5, 0.1], [0.1, 0.2]]}),
    "lbfgs_h0": ("lbfgs", "rosen", [-1.2, 1.0], {"dtype": "float64", "max_iters": 20,
                                                  "initial_inverse_hessian_estimate": [[0.5, 0.1], [0.1, 0.2]]}),
    "bfgs_short_search": ("bfgs", "rosen", [-1.2, 1.0], {"dtype": "float64", "max_iters": 10,
                                                          "max_line_search_iters": 2, "initial_step_length": 0.5}),
    "lbfgs_tolerances": ("lbfgs", "quad", [0.0, 0.0, 0.0], {"dtype": "float64", "tolerance_grad": 1e-2,
                                                             "tolerance_change": 1e-3}),
    "err_h0_not_spd": ("bfgs", "quad", [0.0, 0.0, 0.0], {"initial_inverse_hessian_estimate": [
        [1.0, 2.0, 0.0], [2.0, 1.0, 0.0], [0.0, 0.0, 1.0]]}),
    "err_h0_not_symmetric": ("lbfgs", "quad", [0.0, 0.0, 0.0], {"initial_inverse_hessian_estimate": [
        [1.0, 0.5, 0.0], [0.0, 1.0, 0.0], [0.0, 0.0, 1.0]]}),
    "err_dtype": ("bfgs", "quad", [0.0, 0.0, 0.0], {"dtype": "int32"}),
    "err_line_search": ("lbfgs", "quad", [0.0, 0.0, 0.0], {"line_search_fn": "hager_zhang"}),
}


def minimize(paddle: Any, name: str) -> dict[str, Any]:
    method, objective, x0, kw = MINIMIZE[name]
    kw = dict(kw)
    dtype = kw.get("dtype", "float32") if kw.get("dtype") in ("float32", "float64") else "float32"
    if "initial_inverse_hessian_estimate" in kw:
        kw["initial_inverse_hessian_estimate"] = paddle.to_tensor(kw["initial_inverse_hessian_estimate"], dtype=dtype)
    fn = getattr(paddle.incubate.optimizer.functional, f"minimize_{method}")
    f = _rosen(paddle) if objective == "rosen" else _quad(paddle)
    try:
        out = fn(f, paddle.to_tensor(x0, dtype=dtype), **kw)
    except Exception as e:  # noqa: BLE001
        return {"error": type(e).__name__}
    return {"out": [_np(t) for t in out], "dtypes": [str(t.dtype).replace("paddle.", "") for t in out],
            "shapes": [list(t.shape) for t in out]}


RUNS: dict[str, Any] = {
    "lookahead_sgd": lambda P: lookahead(P, "sgd", 0.5, 2, 5),
    "lookahead_momentum": lambda P: lookahead(P, "momentum", 0.3, 3, 7),
    "lookahead_adam_k1": lambda P: lookahead(P, "adam", 0.8, 1, 3),
    "lookahead_minimize": lambda P: lookahead(P, "sgd", 0.4, 2, 4, use_minimize=True),
    "model_average": lambda P: model_average(P, 0.5, 2, 3, 8),
    "model_average_restore_later": lambda P: model_average(P, 0.3, 1, 4, 5, restore_later=True),
    "model_average_wide": lambda P: model_average(P, 1.0, 3, 10, 6),
}


def record(paddle: Any) -> dict[str, Any]:
    return {"runs": {k: f(paddle) for k, f in RUNS.items()},
            "minimize": {k: minimize(paddle, k) for k in MINIMIZE}}
