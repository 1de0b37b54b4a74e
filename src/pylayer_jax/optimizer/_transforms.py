"""Paddle's update rules where they differ from optax's, each a small optax transformation.

Layer L5. Every transformation here works on one parameter's gradient and keeps its state
in Paddle's layout (a tuple of arrays named by ``NAMES[rule]`` in that order: the suffixes
of Paddle's accumulator names, e.g. ``moment1`` -> ``linear_0.w_0_moment1_0``), so that
``state_dict`` matches Paddle's. Rules that match optax exactly use optax (SGD's scale,
Momentum's ``optax.trace``, AdamW's ``optax.add_decayed_weights``, the L2 decay and the clips).
Transformations return a *direction*: the optimizer's chain ends in ``optax.scale(-lr)``,
except where Paddle uses the learning rate inside the rule (RMSProp's momentum, Rprop's
per-element step sizes), which take ``lr`` themselves and return the final update.
"""

from __future__ import annotations

from typing import Any

import jax.numpy as jnp
import optax

NAMES: dict[str, tuple[str, ...]] = {
    "adam": ("moment1", "moment2", "beta1_pow_acc", "beta2_pow_acc"),
    "adam_ams": ("moment1", "moment2", "moment2_max", "beta1_pow_acc", "beta2_pow_acc"),
    "adamax": ("moment", "inf_norm", "beta1_pow_acc"),
    "adagrad": ("moment",),
    "adadelta": ("_avg_squared_grad", "_avg_squared_update"),
    "rmsprop": ("momentum", "mean_square", "mean_grad"),
    "lamb": ("moment1", "moment2", "beta1_pow_acc", "beta2_pow_acc"),
    "nadam": ("momentum_decay_pow", "beta2_pow", "mu_product", "moment1", "moment2"),
    "radam": ("beta1_pow", "beta2_pow", "rho", "moment1", "moment2"),
    "asgd": ("d", "y", "m"),
    "rprop": ("prevs", "learning_rates"),
    "momentum": ("velocity",),
}


def _c(v: float, like: Any) -> Any:
    return jnp.asarray(v, like.dtype)


def _one(v: float, like: Any) -> Any:
    return jnp.full([1], v, like.dtype)


def paddle_adam(b1: float, b2: float, eps: float, amsgrad: bool = False) -> optax.GradientTransformation:
    """Adam with Paddle's bias correction folded into the step size and ``eps * sqrt(1 - b2^t)``.

    ``optax.scale_by_adam`` is the same up to rounding; this keeps Paddle's state (the beta
    powers, not a step count) and its order of operations.
    """

    def init(p: Any) -> tuple[Any, ...]:
        z = jnp.zeros_like(p)
        return (z, z, z, _one(b1, p), _one(b2, p)) if amsgrad else (z, z, _one(b1, p), _one(b2, p))

    def update(g: Any, state: tuple[Any, ...], params: Any = None) -> tuple[Any, tuple[Any, ...]]:
        if amsgrad:
            m1, m2, mmax, b1p, b2p = state
        else:
            (m1, m2, b1p, b2p), mmax = state, None
        m1 = _c(b1, g) * m1 + (1 - _c(b1, g)) * g
        m2 = _c(b2, g) * m2 + (1 - _c(b2, g)) * g * g
        denom_sq = m2
        if amsgrad:
            mmax = jnp.maximum(mmax, m2)
            denom_sq = mmax
        corr = jnp.sqrt(1 - b2p) / (1 - b1p)
        d = corr * (m1 / (jnp.sqrt(denom_sq) + _c(eps, g) * jnp.sqrt(1 - b2p)))
        b1p, b2p = b1p * _c(b1, g), b2p * _c(b2, g)
        new = (m1, m2, mmax, b1p, b2p) if amsgrad else (m1, m2, b1p, b2p)
        return d, new

    return optax.GradientTransformation(init, update)


def paddle_sparse_adam(b1: float, b2: float, eps: float, amsgrad: bool, lr: Any, p: Any, g: Any,
                       state: tuple[Any, ...], looked: Any, lazy_mode: bool) -> tuple[Any, tuple[Any, ...]]:
    """Paddle's (CPU) Adam update of a sparse gradient ``g`` (zeros off the rows looked up: ``looked``, a boolean
    broadcasting against ``p``): the new parameter (the whole update, ``lr`` included) and state.

    Its kernel advances the beta powers before the update reads them, so step ``t`` is corrected by
    ``beta ** (t + 1)``. A row looked up is updated as by the dense rule; one not looked up keeps its moments and
    value with ``lazy_mode``, and else decays its moments and moves by ``lr_t * m1 / (sqrt(m2) + eps)`` (epsilon not
    scaled by ``sqrt(1 - b2^t)`` there). The powers advance in both modes."""
    if amsgrad:
        m1, m2, mmax, b1p, b2p = state
    else:
        (m1, m2, b1p, b2p), mmax = state, None
    b1p, b2p = b1p * _c(b1, g), b2p * _c(b2, g)
    lr_t = lr * (jnp.sqrt(1 - b2p) / (1 - b1p))
    m1_r = _c(b1, g) * m1 + (1 - _c(b1, g)) * g
    m2_r = _c(b2, g) * m2 + (1 - _c(b2, g)) * g * g
    den_r = m2_r if mmax is None else jnp.maximum(m2_r, mmax)
    p_r = p - lr_t * (m1_r / (jnp.sqrt(den_r) + _c(eps, g) * jnp.sqrt(1 - b2p)))
    if lazy_mode:
        m1_o, m2_o, max_o, p_o = m1, m2, mmax, p
    else:
        m1_o, m2_o = _c(b1, g) * m1, _c(b2, g) * m2
        max_o = None if mmax is None else jnp.maximum(m2_o, mmax)
        p_o = p - lr_t * (m1_o / (jnp.sqrt(m2_o if max_o is None else max_o) + _c(eps, g)))
    m1, m2, new_p = jnp.where(looked, m1_r, m1_o), jnp.where(looked, m2_r, m2_o), jnp.where(looked, p_r, p_o)
    if mmax is None:
        return new_p, (m1, m2, b1p, b2p)
    return new_p, (m1, m2, jnp.where(looked, den_r, max_o), b1p, b2p)


def paddle_adamax(b1: float, b2: float, eps: float) -> optax.GradientTransformation:
    """Adamax: ``inf_norm = max(b2 * inf_norm + eps, |g|)``, step ``moment / inf_norm / (1 - b1^t)``."""

    def init(p: Any) -> tuple[Any, ...]:
        return (jnp.zeros_like(p), jnp.zeros_like(p), _one(b1, p))

    def update(g: Any, state: tuple[Any, ...], params: Any = None) -> tuple[Any, tuple[Any, ...]]:
        m, u, b1p = state
        m = _c(b1, g) * m + (1 - _c(b1, g)) * g
        u = jnp.maximum(_c(b2, g) * u + _c(eps, g), jnp.abs(g))
        d = (m / u) / (1 - b1p)
        return d, (m, u, b1p * _c(b1, g))

    return optax.GradientTransformation(init, update)


def paddle_adagrad(eps: float, initial: float) -> optax.GradientTransformation:
    """Adagrad with ``eps`` outside the square root (``optax.scale_by_rss`` puts it inside)."""

    def init(p: Any) -> tuple[Any, ...]:
        return (jnp.full_like(p, initial),)

    def update(g: Any, state: tuple[Any, ...], params: Any = None) -> tuple[Any, tuple[Any, ...]]:
        (acc,) = state
        acc = acc + g * g
        return g / (jnp.sqrt(acc) + _c(eps, g)), (acc,)

    return optax.GradientTransformation(init, update)


def paddle_adadelta(rho: float, eps: float) -> optax.GradientTransformation:
    """Adadelta; the direction is ``-update`` so that the chain's ``scale(-lr)`` gives ``p + lr * update``."""

    def init(p: Any) -> tuple[Any, ...]:
        return (jnp.zeros_like(p), jnp.zeros_like(p))

    def update(g: Any, state: tuple[Any, ...], params: Any = None) -> tuple[Any, tuple[Any, ...]]:
        sg, su = state
        sg = _c(rho, g) * sg + (1 - _c(rho, g)) * g * g
        upd = -jnp.sqrt((su + _c(eps, g)) / (sg + _c(eps, g))) * g
        su = _c(rho, g) * su + (1 - _c(rho, g)) * upd * upd
        return -upd, (sg, su)

    return optax.GradientTransformation(init, update)


def paddle_rmsprop(rho: float, eps: float, momentum: float, centered: bool, lr: Any) -> optax.GradientTransformation:
    """RMSProp with the learning rate inside the momentum buffer (Paddle's ``mom = m*mom + lr*g/rms``)."""

    def init(p: Any) -> tuple[Any, ...]:
        return (jnp.zeros_like(p), jnp.zeros_like(p), jnp.zeros_like(p))

    def update(g: Any, state: tuple[Any, ...], params: Any = None) -> tuple[Any, tuple[Any, ...]]:
        mom, ms, mg = state
        ms = _c(rho, g) * ms + (1 - _c(rho, g)) * g * g
        if centered:
            mg = _c(rho, g) * mg + (1 - _c(rho, g)) * g
            denom = jnp.sqrt(ms - mg * mg + _c(eps, g))
        else:
            denom = jnp.sqrt(ms + _c(eps, g))
        mom = _c(momentum, g) * mom + lr.astype(g.dtype) * g / denom
        return -mom, (mom, ms, mg)

    return optax.GradientTransformation(init, update)


def paddle_lamb(b1: float, b2: float, eps: float, wd: float, always_adapt: bool) -> optax.GradientTransformation:
    """Lamb: Adam's direction plus ``wd * p``, scaled by the trust ratio ``||p|| / ||r||``."""

    def init(p: Any) -> tuple[Any, ...]:
        return (jnp.zeros_like(p), jnp.zeros_like(p), _one(b1, p), _one(b2, p))

    def update(g: Any, state: tuple[Any, ...], params: Any = None) -> tuple[Any, tuple[Any, ...]]:
        m1, m2, b1p, b2p = state
        m1 = _c(b1, g) * m1 + (1 - _c(b1, g)) * g
        m2 = _c(b2, g) * m2 + (1 - _c(b2, g)) * g * g
        r = (m1 / (1 - b1p)) / (jnp.sqrt(m2 / (1 - b2p)) + _c(eps, g)) + _c(wd, g) * params
        if wd > 0 or always_adapt:
            pn = jnp.sqrt(jnp.sum(params * params))
            rn = jnp.sqrt(jnp.sum(r * r))
            trust = jnp.where((pn > 0) & (rn > 0), pn / rn, jnp.ones_like(pn))
            r = trust * r
        return r, (m1, m2, b1p * _c(b1, g), b2p * _c(b2, g))

    return optax.GradientTransformation(init, update)


def paddle_nadam(b1: float, b2: float, eps: float, momentum_decay: float) -> optax.GradientTransformation:
    """NAdam with Paddle's state, element-wise of the parameter's shape as Paddle keeps it: ``0.96 ** t``
    (raised to ``momentum_decay`` where it is used), ``b2 ** t`` and the product of the mu's."""

    def init(p: Any) -> tuple[Any, ...]:
        o = jnp.ones_like(p)
        return (o, o, o, jnp.zeros_like(p), jnp.zeros_like(p))

    def update(g: Any, state: tuple[Any, ...], params: Any = None) -> tuple[Any, tuple[Any, ...]]:
        mdp, b2p, mup, m1, m2 = state
        mdp = mdp * _c(0.96, g)
        b2p = b2p * _c(b2, g)
        pw = mdp ** _c(momentum_decay, g)
        mu_t = _c(b1, g) * (1 - 0.5 * pw)
        mu_t1 = _c(b1, g) * (1 - 0.5 * pw * _c(0.96, g) ** _c(momentum_decay, g))
        mup = mup * mu_t
        m1 = _c(b1, g) * m1 + (1 - _c(b1, g)) * g
        m2 = _c(b2, g) * m2 + (1 - _c(b2, g)) * g * g
        denom = jnp.sqrt(m2 / (1 - b2p)) + _c(eps, g)
        d = (mu_t1 * m1 / (1 - mup * mu_t1) + (1 - mu_t) * g / (1 - mup)) / denom
        return d, (mdp, b2p, mup, m1, m2)

    return optax.GradientTransformation(init, update)


def paddle_radam(b1: float, b2: float, eps: float) -> optax.GradientTransformation:
    """RAdam: the rectified Adam step when ``rho_t > 5``, else the bias-corrected momentum."""
    def init(p: Any) -> tuple[Any, ...]:
        o = jnp.ones_like(p)  # Paddle keeps these element-wise, of the parameter's shape
        return (o, o, o, jnp.zeros_like(p), jnp.zeros_like(p))

    def update(g: Any, state: tuple[Any, ...], params: Any = None) -> tuple[Any, tuple[Any, ...]]:
        b1p, b2p, rho_s, m1, m2 = state
        # Paddle's rho accumulator holds t * b2^t / (1 - b2^t) (1 before the first step): t is read back from it
        t = rho_s * (1 - b2p) / b2p + 1
        b1p, b2p = b1p * _c(b1, g), b2p * _c(b2, g)
        rho_s = t * b2p / (1 - b2p)
        rho_inf_t = 2 / (1 - _c(b2, g)) - 1  # in the parameter's dtype, as Paddle
        rho = rho_inf_t - 2 * rho_s
        m1 = _c(b1, g) * m1 + (1 - _c(b1, g)) * g
        m2 = _c(b2, g) * m2 + (1 - _c(b2, g)) * g * g
        mhat = m1 / (1 - b1p)
        r = jnp.sqrt(
            jnp.maximum((rho - 4) * (rho - 2) * rho_inf_t, 0.0) / ((rho_inf_t - 4) * (rho_inf_t - 2) * rho)
        )
        adaptive = jnp.sqrt(1 - b2p) / (jnp.sqrt(m2) + _c(eps, g))
        d = jnp.where(rho > 5, mhat * r * adaptive, mhat)
        return d, (b1p, b2p, rho_s, m1, m2)

    return optax.GradientTransformation(init, update)


def paddle_asgd(n: int) -> optax.GradientTransformation:
    """ASGD: ``d += g - y[i]``, ``y[i] = g`` (``i = m mod n``), step ``d / min(m + 1, n)``."""

    def init(p: Any) -> tuple[Any, ...]:
        return (jnp.zeros_like(p), jnp.zeros((n, *p.shape), p.dtype), jnp.zeros([1], jnp.int64))

    def update(g: Any, state: tuple[Any, ...], params: Any = None) -> tuple[Any, tuple[Any, ...]]:
        d, y, m = state
        i = m[0] % n
        d = d - y[i] + g
        y = y.at[i].set(g)
        m = m + 1
        return d / jnp.minimum(m[0], n).astype(g.dtype), (d, y, m)

    return optax.GradientTransformation(init, update)


def paddle_rprop(lr0: float, lo: float, hi: float, eta_neg: float, eta_pos: float) -> optax.GradientTransformation:
    """Rprop: per-element step sizes grown by ``eta_pos`` / shrunk by ``eta_neg`` with the gradient's sign."""

    def init(p: Any) -> tuple[Any, ...]:
        return (jnp.zeros_like(p), jnp.full_like(p, lr0))

    def update(g: Any, state: tuple[Any, ...], params: Any = None) -> tuple[Any, tuple[Any, ...]]:
        prev, lrs = state
        s = g * prev
        lrs = jnp.where(s > 0, jnp.minimum(lrs * _c(eta_pos, g), _c(hi, g)),
                        jnp.where(s < 0, jnp.maximum(lrs * _c(eta_neg, g), _c(lo, g)), lrs))
        g = jnp.where(s < 0, jnp.zeros_like(g), g)
        return -jnp.sign(g) * lrs, (g, lrs)

    return optax.GradientTransformation(init, update)
