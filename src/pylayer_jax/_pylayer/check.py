"""``check_pylayer``: test a PyLayer's backward against JAX autodiff and finite differences (layer L5).

For random output cotangents ``c`` the PyLayer's input gradients (eager tape) are compared
with (a) ``jax.vjp`` of forward, when forward can be traced, and (b) central finite
differences of ``sum(c * forward(x))`` along a random direction per input.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import jax
import jax.numpy as jnp
import numpy as np

from .._ops.table import conj_complex
from .._runtime.state import grad_mode
from .._tensor.backward_entry import grad
from .._tensor.facade import Tensor
from .ctx import PyLayerContext
from .slots import input_slots, output_slots


def _inexact(a: Any) -> bool:
    return bool(jnp.issubdtype(a.dtype, jnp.inexact))


def _fresh_args(args: Sequence[Any], kwargs: dict[str, Any], values: dict[int, Any] | None = None) -> tuple:
    """Copies of the call's arguments; floating Tensors need grad (and may get new values by position)."""
    counter = iter(range(1 << 30))

    def fresh(v: Any) -> Any:
        if not isinstance(v, Tensor):
            return v
        k = next(counter)
        arr = values[k] if values is not None and k in values else v._value
        return Tensor(arr, not _inexact(v._value))

    a, kw = jax.tree_util.tree_map(fresh, (tuple(args), dict(kwargs)), is_leaf=lambda v: isinstance(v, Tensor))
    return a, kw


def _forward_arrays(layer: type, args: Sequence[Any], kwargs: dict[str, Any]) -> list[Any]:
    ctx = PyLayerContext()
    ctx._in_forward = True
    with grad_mode(False):
        out = layer.forward(ctx, *args, **kwargs)
    _, flat, _ = output_slots(out, f"PyLayer {layer.__name__}")
    return [o._value if isinstance(o, Tensor) else o for o in flat]


def check_pylayer(layer: type, *args: Any, atol: float | None = None, seed: int = 0, **kwargs: Any) -> dict[str, list]:
    """Check ``layer.backward`` against autodiff of ``layer.forward`` and finite differences.

    Returns ``{"autodiff": [...], "finite_difference": [...]}``: per gradient slot, the largest
    error (relative to the size of the reference; ``None`` where a check does not apply).
    Raises ``AssertionError`` with a readable report when an error exceeds ``atol`` (default
    1e-5 for float64 inputs, 2e-2 otherwise).

    Example::

        >>> import pylayer_jax as paddle
        >>> from pylayer_jax.autograd import check_pylayer
        >>> errs = check_pylayer(MyLayer, paddle.randn([3], dtype="float64"))
    """
    rng = np.random.default_rng(seed)
    a, kw = _fresh_args(args, kwargs)
    slots, flat = input_slots(a, kw)
    if not slots:
        raise ValueError(f"check_pylayer: {layer.__name__} was given no Tensor argument, so there is nothing to check.")
    all_f64 = all(t._value.dtype == jnp.float64 for t in flat if _inexact(t._value))
    tol = atol if atol is not None else (1e-5 if all_f64 else 2e-2)
    eps = 1e-6 if all_f64 else 1e-3

    out = layer.apply(*a, **kw)
    _, outs, _ = output_slots(out, f"PyLayer {layer.__name__}")
    diff_outs = [o for o in outs if isinstance(o, Tensor) and not o.stop_gradient]
    cts = [Tensor(jnp.asarray(rng.standard_normal(o.shape), o._value.dtype)) for o in diff_outs]
    wanted = [t for t in flat if not t.stop_gradient]
    got = grad(diff_outs, wanted, cts, allow_unused=True) if diff_outs and wanted else [None] * len(wanted)
    by_id = {id(t): g for t, g in zip(wanted, got)}
    pl = [np.asarray(by_id[id(t)]._value) if by_id.get(id(t)) is not None else np.zeros(t.shape) for t in flat]
    ct_of = {id(o): np.asarray(c._value) for o, c in zip(diff_outs, cts)}
    out_cts = [ct_of.get(id(o)) for o in outs]

    # (a) JAX autodiff of forward
    ad: list[Any] | None
    try:

        def f(*arrays: Any) -> Any:
            fa, fkw = _fresh_args(args, kwargs, dict(enumerate(arrays)))
            return [o for o, c in zip(_forward_arrays(layer, fa, fkw), out_cts) if c is not None]

        _, pullback = jax.vjp(f, *[t._value for t in flat])
        # (in Paddle's convention, as the tape's: complex cotangents and gradients conjugated, ``vjp_call``)
        ad = [np.asarray(conj_complex(g)) for g in pullback([conj_complex(jnp.asarray(c)) for c in out_cts
                                                             if c is not None])]
    except Exception:  # noqa: BLE001 - forward not traceable (uses .numpy(), Python control flow on values...)
        ad = None

    # (b) central finite differences along a random direction per input
    def loss(values: dict[int, Any]) -> float:
        fa, fkw = _fresh_args(args, kwargs, values)
        return sum(
            float(np.sum(np.asarray(o, np.float64) * c))
            for o, c in zip(_forward_arrays(layer, fa, fkw), out_cts)
            if c is not None
        )

    fd_err: list[Any] = []
    ad_err: list[Any] = []
    report = []
    pos = 0
    for i, s in enumerate(slots):
        fd_e: float | None = None
        ad_e: float | None = None
        for k in range(pos, pos + s.n):
            x = flat[k]._value
            if not _inexact(x):
                continue
            d = rng.standard_normal(x.shape)
            plus = loss({k: (x + eps * d).astype(x.dtype)})
            minus = loss({k: (x - eps * d).astype(x.dtype)})
            fd = (plus - minus) / (2 * eps)
            dot = float(np.sum(pl[k].astype(np.float64) * d))
            e = abs(fd - dot) / max(1.0, abs(fd))
            fd_e = e if fd_e is None else max(fd_e, e)
            if ad is not None:
                ref = ad[k].astype(np.float64)
                e2 = float(np.max(np.abs(pl[k] - ref), initial=0.0)) / max(1.0, float(np.max(np.abs(ref), initial=0.0)))
                ad_e = e2 if ad_e is None else max(ad_e, e2)
                if e2 > tol:
                    report.append(
                        f"  slot {i} (input Tensor {k}): backward gives {pl[k].ravel()[:6]} but autodiff of "
                        f"forward gives {ref.ravel()[:6]} (error {e2:.3g})"
                    )
            if e > tol:
                report.append(
                    f"  slot {i} (input Tensor {k}): directional derivative from backward {dot:.6g} vs "
                    f"finite differences {fd:.6g} (error {e:.3g})"
                )
        pos += s.n
        fd_err.append(fd_e)
        ad_err.append(ad_e)
    if report:
        raise AssertionError(
            f"check_pylayer: the backward of {layer.__name__} disagrees with its forward (tolerance {tol:g}):\n"
            + "\n".join(report)
        )
    return {"autodiff": ad_err if ad is not None else [None] * len(slots), "finite_difference": fd_err}
