"""LBFGS with Paddle's closure API: ``opt.step(closure)`` re-evaluates the loss as it needs.

Layer L5. The algorithm is sequential and branches on values (convergence tests, the line
search), so it runs on the host with numpy vectors in the parameters' dtype; each closure
call is an ordinary eager step (its ops deferred and compiled like any other).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import jax.numpy as jnp
import numpy as np

from .._runtime.transfer import own
from .._tensor.facade import Tensor, before_write
from .._tensor.views import reach
from ._optimizer import Optimizer, _check_float


def _cubic_interpolate(x1: float, f1: float, g1: float, x2: float, f2: float, g2: float,
                       bounds: tuple[float, float] | None = None) -> float:
    """The minimiser of the cubic through two points with their derivatives, clipped to ``bounds``."""
    xmin_bound, xmax_bound = bounds if bounds is not None else ((x1, x2) if x1 <= x2 else (x2, x1))
    d1 = g1 + g2 - 3 * (f1 - f2) / (x1 - x2)
    d2_square = d1 ** 2 - g1 * g2
    if d2_square >= 0:
        d2 = float(np.sqrt(d2_square))
        if x1 <= x2:
            min_pos = x2 - (x2 - x1) * ((g2 + d2 - d1) / (g2 - g1 + 2 * d2))
        else:
            min_pos = x1 - (x1 - x2) * ((g1 + d2 - d1) / (g1 - g2 + 2 * d2))
        return float(min(max(min_pos, xmin_bound), xmax_bound))
    return float((xmin_bound + xmax_bound) / 2.0)


def _strong_wolfe(obj: Callable[[Any, float, Any], tuple[float, Any]], x: Any, t: float, d: Any, f: float,
                  g: Any, gtd: float, c1: float = 1e-4, c2: float = 0.9, tolerance_change: float = 1e-9,
                  max_ls: int = 25) -> tuple[float, Any, float, int]:
    """Line search satisfying the strong Wolfe conditions (Nocedal and Wright, Algorithm 3.5 and 3.6)."""
    d_norm = float(np.abs(d).max())
    g = g.copy()
    f_new, g_new = obj(x, t, d)
    ls_func_evals = 1
    gtd_new = float(g_new @ d)
    t_prev, f_prev, g_prev, gtd_prev = 0.0, f, g, gtd
    done = False
    ls_iter = 0
    while ls_iter < max_ls:
        if f_new > (f + c1 * t * gtd) or (ls_iter > 1 and f_new >= f_prev):
            bracket, bracket_f = [t_prev, t], [f_prev, f_new]
            bracket_g, bracket_gtd = [g_prev, g_new.copy()], [gtd_prev, gtd_new]
            break
        if abs(gtd_new) <= -c2 * gtd:
            bracket, bracket_f, bracket_g = [t], [f_new], [g_new]
            done = True
            break
        if gtd_new >= 0:
            bracket, bracket_f = [t_prev, t], [f_prev, f_new]
            bracket_g, bracket_gtd = [g_prev, g_new.copy()], [gtd_prev, gtd_new]
            break
        min_step = t + 0.01 * (t - t_prev)
        max_step = t * 10
        tmp = t
        t = _cubic_interpolate(t_prev, f_prev, gtd_prev, t, f_new, gtd_new, bounds=(min_step, max_step))
        t_prev, f_prev, g_prev, gtd_prev = tmp, f_new, g_new.copy(), gtd_new
        f_new, g_new = obj(x, t, d)
        ls_func_evals += 1
        gtd_new = float(g_new @ d)
        ls_iter += 1
    if ls_iter == max_ls:
        bracket, bracket_f, bracket_g = [0.0, t], [f, f_new], [g, g_new]
        bracket_gtd = [gtd, gtd_new]
    insuf_progress = False
    low_pos, high_pos = (0, 1) if bracket_f[0] <= bracket_f[-1] else (1, 0)
    while not done and ls_iter < max_ls:
        if abs(bracket[1] - bracket[0]) * d_norm < tolerance_change:
            break
        t = _cubic_interpolate(bracket[0], bracket_f[0], bracket_gtd[0], bracket[1], bracket_f[1], bracket_gtd[1])
        eps = 0.1 * (max(bracket) - min(bracket))
        if min(max(bracket) - t, t - min(bracket)) < eps:
            if insuf_progress or t >= max(bracket) or t <= min(bracket):
                t = max(bracket) - eps if abs(t - max(bracket)) < abs(t - min(bracket)) else min(bracket) + eps
                insuf_progress = False
            else:
                insuf_progress = True
        else:
            insuf_progress = False
        f_new, g_new = obj(x, t, d)
        ls_func_evals += 1
        gtd_new = float(g_new @ d)
        ls_iter += 1
        if f_new > (f + c1 * t * gtd) or f_new >= bracket_f[low_pos]:
            bracket[high_pos], bracket_f[high_pos] = t, f_new
            bracket_g[high_pos], bracket_gtd[high_pos] = g_new.copy(), gtd_new
            low_pos, high_pos = (0, 1) if bracket_f[0] <= bracket_f[1] else (1, 0)
        else:
            if abs(gtd_new) <= -c2 * gtd:
                done = True
            elif gtd_new * (bracket[high_pos] - bracket[low_pos]) >= 0:
                bracket[high_pos], bracket_f[high_pos] = bracket[low_pos], bracket_f[low_pos]
                bracket_g[high_pos], bracket_gtd[high_pos] = bracket_g[low_pos], bracket_gtd[low_pos]
            bracket[low_pos], bracket_f[low_pos] = t, f_new
            bracket_g[low_pos], bracket_gtd[low_pos] = g_new.copy(), gtd_new
    t = bracket[low_pos]
    return bracket_f[low_pos], bracket_g[low_pos], t, ls_func_evals


class LBFGS(Optimizer):
    """Limited-memory BFGS; ``step(closure)`` where ``closure`` clears gradients, computes the loss,
    calls ``backward()`` and returns the loss.

    Example::

        opt = pylayer_jax.optimizer.LBFGS(learning_rate=1.0, parameters=[w], line_search_fn="strong_wolfe")
        def closure():
            opt.clear_grad()
            loss = ((x @ w - y) ** 2).mean()
            loss.backward()
            return loss
        opt.step(closure)
    """

    def __init__(self, learning_rate: float = 1.0, max_iter: int = 20, max_eval: int | None = None,
                 tolerance_grad: float = 1e-7, tolerance_change: float = 1e-9, history_size: int = 100,
                 line_search_fn: str | None = None, parameters: Any = None, weight_decay: Any = None,
                 grad_clip: Any = None, name: str | None = None) -> None:
        api = "LBFGS"
        for n, v in (("max_iter", max_iter), ("history_size", history_size)) + (
                (("max_eval", max_eval),) if max_eval is not None else ()):
            if isinstance(v, bool) or not isinstance(v, int) or v < 1:
                raise ValueError(f"{api}: {n} must be a positive int, but received {v!r}.")
        if line_search_fn not in (None, "strong_wolfe"):
            raise ValueError(f"{api}: line_search_fn must be None or 'strong_wolfe', but received {line_search_fn!r}.")
        # Paddle's LBFGS reads the raw gradients: a decay or clip given here would not be applied there
        if weight_decay is not None:
            raise NotImplementedError(f"{api}: weight_decay is not supported (Paddle's LBFGS does not apply it).")
        if grad_clip is not None:
            raise NotImplementedError(f"{api}: grad_clip is not supported (Paddle's LBFGS does not apply it).")
        super().__init__(learning_rate, parameters, None, None, name)
        if not isinstance(self._learning_rate, float):
            raise TypeError(f"{api}: learning_rate must be a float, but received {type(learning_rate).__name__}.")
        self.max_iter, self.max_eval = max_iter, max_eval if max_eval is not None else max_iter * 5 // 4
        self.tolerance_grad = _check_float(api, "tolerance_grad", tolerance_grad)
        self.tolerance_change = _check_float(api, "tolerance_change", tolerance_change)
        self.history_size, self.line_search_fn = history_size, line_search_fn
        self.state: dict[str, Any] = {"func_evals": 0, "n_iter": 0}

    # ---- flat views of the parameters -----------------------------------------------------
    def _params(self) -> list[Tensor]:
        return self._eager_params("step")

    def _flat_grad(self) -> Any:
        views = []
        for p in self._params():
            g = p.grad
            views.append(np.zeros(int(np.prod(p.shape)), p._v.dtype) if g is None else np.asarray(g.numpy()).ravel())
        return np.concatenate(views)

    def _get_flat(self) -> list[Any]:
        return [np.asarray(p.numpy()).copy() for p in self._params()]

    def _set_flat(self, values: list[Any]) -> None:
        before_write()
        for p, v in zip(self._params(), values):
            p._v = own(v, p._v.dtype)  # (a copy: the search goes on writing its arrays)
        reach(self._params())

    def _add_grad(self, t: float, d: Any) -> None:
        before_write()
        off = 0
        for p in self._params():
            n = int(np.prod(p.shape))
            cur = np.asarray(p.numpy())
            p._v = jnp.asarray(cur + (d[off:off + n] * t).reshape(cur.shape).astype(cur.dtype))
            off += n
        reach(self._params())

    def step(self, closure: Callable[[], Any] | None = None) -> Any:  # type: ignore[override]
        """Run up to ``max_iter`` LBFGS iterations; returns the loss of the first closure call."""
        if closure is None or not callable(closure):
            raise TypeError("LBFGS.step: a closure (which clears gradients, computes the loss, calls backward() "
                            f"and returns the loss) is required, but received {type(closure).__name__}.")
        lr, st = self._learning_rate, self.state
        orig_loss = closure()
        loss = float(orig_loss)
        current_evals = 1
        st["func_evals"] += 1
        flat_grad = self._flat_grad()
        if np.abs(flat_grad).max() <= self.tolerance_grad:
            return orig_loss
        d, t = st.get("d"), st.get("alpha")
        old_dirs, old_stps, ro = st.get("old_yk", []), st.get("old_sk", []), st.get("ro", [])
        h_diag, prev_flat_grad, prev_loss = st.get("H_diag", 1.0), st.get("prev_flat_grad"), st.get("prev_loss")
        n_iter = 0
        while n_iter < self.max_iter:
            n_iter += 1
            st["n_iter"] += 1
            if st["n_iter"] == 1:
                d = -flat_grad
                old_dirs, old_stps, ro, h_diag = [], [], [], 1.0
            else:
                y = flat_grad - prev_flat_grad
                s = d * t
                ys = float(y @ s)
                if ys > 1e-10:
                    if len(old_dirs) == self.history_size:
                        old_dirs.pop(0)
                        old_stps.pop(0)
                        ro.pop(0)
                    old_dirs.append(y)
                    old_stps.append(s)
                    ro.append(1.0 / ys)
                    h_diag = ys / float(y @ y)
                al = st.setdefault("al", [None] * self.history_size)  # (Paddle keeps it, its last values too)
                q = -flat_grad
                for i in range(len(old_dirs) - 1, -1, -1):
                    al[i] = float(old_stps[i] @ q) * ro[i]
                    q = q - al[i] * old_dirs[i]
                r = q * h_diag
                for i in range(len(old_dirs)):
                    be_i = float(old_dirs[i] @ r) * ro[i]
                    r = r + (al[i] - be_i) * old_stps[i]
                d = r
            prev_flat_grad, prev_loss = flat_grad.copy(), loss
            t = min(1.0, 1.0 / float(np.abs(flat_grad).sum())) * lr if st["n_iter"] == 1 else lr
            gtd = float(flat_grad @ d)
            if gtd > -self.tolerance_change:
                break
            ls_func_evals = 0
            if self.line_search_fn is not None:
                x_init = self._get_flat()

                def obj(x: Any, step: float, direction: Any) -> tuple[float, Any]:
                    self._add_grad(step, direction)
                    value = float(closure())
                    g = self._flat_grad()
                    self._set_flat(x)
                    return value, g

                loss, flat_grad, t, ls_func_evals = _strong_wolfe(obj, x_init, t, d, loss, flat_grad, gtd)
                self._add_grad(t, d)
                opt_cond = np.abs(flat_grad).max() <= self.tolerance_grad
            else:
                self._add_grad(t, d)
                opt_cond = False
                if n_iter != self.max_iter:
                    loss = float(closure())
                    flat_grad = self._flat_grad()
                    opt_cond = np.abs(flat_grad).max() <= self.tolerance_grad
                    ls_func_evals = 1
            current_evals += ls_func_evals
            st["func_evals"] += ls_func_evals
            if n_iter == self.max_iter or current_evals >= self.max_eval or opt_cond:
                break
            if np.abs(d * t).max() <= self.tolerance_change or abs(loss - prev_loss) < self.tolerance_change:
                break
        st.update(d=d, alpha=t, old_yk=old_dirs, old_sk=old_stps, ro=ro, H_diag=h_diag,
                  prev_flat_grad=prev_flat_grad, prev_loss=prev_loss)
        return orig_loss

    def minimize(self, loss: Any, startup_program: Any = None, parameters: Any = None, no_grad_set: Any = None) -> Any:
        raise NotImplementedError("LBFGS.minimize: LBFGS needs a closure; call opt.step(closure) instead.")

    def state_dict(self) -> dict[str, Any]:
        """The LBFGS state as Paddle's ``{'state': {...}}``, with its keys and kinds of values: ``func_evals`` and
        ``n_iter`` (ints), ``al`` (``history_size`` 0-D Tensors or None), ``d`` (the last direction),
        ``alpha`` (the last step size, a float), ``old_yk`` and ``old_sk`` (the gradient and parameter
        differences kept, Tensors), ``ro`` (0-D Tensors), ``H_diag`` (a 0-D Tensor), ``prev_flat_grad`` (a
        Tensor) and ``prev_loss`` (a float)."""
        dt = self.state["d"].dtype if "d" in self.state else np.float32

        def out(key: str, v: Any) -> Any:
            if isinstance(v, list):
                return [out(key, u) for u in v]
            if v is None or key in ("func_evals", "n_iter", "alpha", "prev_loss"):
                return v
            return Tensor(jnp.asarray(np.asarray(v, dt)))

        return {"state": {k: out(k, v) for k, v in self.state.items()}}

    def set_state_dict(self, state_dict: dict[str, Any]) -> None:
        """Restore what ``state_dict`` returned. (Paddle's LBFGS has no ``set_state_dict`` of its own, and its
        Optimizer's ignores the ``'state'`` entry: there a loaded state dict changes nothing; here the run goes on
        from it.)"""
        if not isinstance(state_dict, dict) or "state" not in state_dict:
            raise TypeError("LBFGS.set_state_dict: expected the dict state_dict() returned, with a 'state' entry.")

        def back(key: str, v: Any) -> Any:
            if isinstance(v, list):
                return [back(key, u) for u in v]
            if isinstance(v, Tensor):
                a = np.asarray(v.numpy())
                return float(a) if a.ndim == 0 else a.copy()
            if isinstance(v, np.ndarray):
                return float(v) if v.ndim == 0 else v.copy()
            return v

        self.state = {k: back(k, v) for k, v in state_dict["state"].items()}
