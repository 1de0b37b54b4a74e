"""A ``lax.while_loop`` that reverse-mode differentiation can go through (layer L6).

``lax.while_loop`` has no transpose rule: its trip count depends on data. Paddle differentiates
``while_loop`` in a static program, so ``while_loop_vjp`` gives the loop a ``jax.custom_vjp``:

- forward: the plain ``lax.while_loop``, also counting its trips ``n`` (nothing else is kept);
- backward: for ``k = n-1 ... 0`` the state before trip ``k`` is recomputed from the initial
  values (a forward-only ``fori_loop`` of ``k`` trips) and the body's VJP at that state carries
  the cotangent one trip back, summing the cotangents of the values the body reads from outside.

The backward costs ``n * (n + 1) / 2`` body evaluations and keeps no per-trip state (the trip
count is unknown when the program is built, so there is no buffer to size). Values the cond and
body close over (outer Variables, tracers) are made explicit arguments with ``jax.closure_convert``,
so they get gradients too. Integer and boolean values carry no gradient.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Sequence
from typing import Any

import jax
import jax.numpy as jnp
from jax import lax


def _inexact(x: Any) -> bool:
    return bool(jnp.issubdtype(jnp.result_type(x), jnp.inexact))


def while_loop_vjp(cond: Callable[[list[Any]], Any], body: Callable[[list[Any]], list[Any]],
                   init: Sequence[Any]) -> list[Any]:
    """``lax.while_loop(cond, body, init)`` (``cond``/``body`` take and return the list of carried arrays),
    differentiable in reverse mode."""
    init = [jnp.asarray(v) for v in init]
    cond_c, cond_consts = jax.closure_convert(cond, init)
    body_c, body_consts = jax.closure_convert(body, init)
    return list(_loop(cond_c, body_c, len(cond_consts), init, [*cond_consts, *body_consts]))


def _split(consts: Sequence[Any], n_cond: int) -> tuple[list[Any], list[Any]]:
    return list(consts[:n_cond]), list(consts[n_cond:])


@functools.partial(jax.custom_vjp, nondiff_argnums=(0, 1, 2))
def _loop(cond_c: Any, body_c: Any, n_cond: int, init: list[Any], consts: list[Any]) -> list[Any]:
    out, _ = _forward(cond_c, body_c, n_cond, init, consts)
    return out


def _forward(cond_c: Any, body_c: Any, n_cond: int, init: list[Any], consts: list[Any]) -> tuple[list[Any], Any]:
    cc, bc = _split(consts, n_cond)

    def c(carry: tuple[list[Any], Any]) -> Any:
        return cond_c(carry[0], *cc)

    def b(carry: tuple[list[Any], Any]) -> tuple[list[Any], Any]:
        return list(body_c(carry[0], *bc)), carry[1] + 1

    return lax.while_loop(c, b, (list(init), jnp.asarray(0, jnp.int32)))


def _loop_fwd(cond_c: Any, body_c: Any, n_cond: int, init: list[Any], consts: list[Any]) -> Any:
    out, n = _forward(cond_c, body_c, n_cond, init, consts)
    return out, (init, consts, n)


def _loop_bwd(cond_c: Any, body_c: Any, n_cond: int, res: Any, ct: list[Any]) -> tuple[list[Any], list[Any]]:
    init, consts, n = res
    _, bc = _split(consts, n_cond)
    fs = [i for i, v in enumerate(init) if _inexact(v)]  # carried values with gradients
    fc = [i for i, v in enumerate(bc) if _inexact(v)]  # body constants with gradients

    def state_before(k: Any) -> list[Any]:
        return lax.fori_loop(0, k, lambda _, s: list(body_c(s, *bc)), list(init))

    def trip_back(k: Any, carry: tuple[list[Any], list[Any]]) -> tuple[list[Any], list[Any]]:
        ct_s, ct_c = carry
        s = state_before(n - 1 - k)

        def f(sf: list[Any], cf: list[Any]) -> list[Any]:
            full_s, full_c = list(s), list(bc)
            for i, v in zip(fs, sf):
                full_s[i] = v
            for i, v in zip(fc, cf):
                full_c[i] = v
            out = body_c(full_s, *full_c)
            return [out[i] for i in fs]

        _, pullback = jax.vjp(f, [s[i] for i in fs], [bc[i] for i in fc])
        ds, dc = pullback(ct_s)
        return list(ds), [a + d for a, d in zip(ct_c, dc)]

    ct_s0 = [jnp.asarray(ct[i], init[i].dtype) for i in fs]
    ct_c0 = [jnp.zeros_like(bc[i]) for i in fc]
    ds, dc = lax.fori_loop(0, n, trip_back, (ct_s0, ct_c0))
    g_init: list[Any] = [None] * len(init)
    for i, g in zip(fs, ds):
        g_init[i] = g
    g_consts: list[Any] = [None] * len(consts)
    for i, g in zip(fc, dc):
        g_consts[n_cond + i] = g
    return g_init, g_consts


_loop.defvjp(_loop_fwd, _loop_bwd)
