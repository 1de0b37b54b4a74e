"""``kl_divergence(p, q)`` and ``register_kl``: a table of rules keyed by the pair of classes, looked up by the
most specific registered pair (over both classes' bases), with the rules for the pairs Paddle 3.3.1 registers
among this package's distributions."""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any, TypeVar

from .._api import functional as F
from .._api import linalg as L
from .._api.irregular import broadcast_shape
from .._tensor.facade import Tensor
from ._base import Distribution, ExponentialFamily, sum_rightmost
from ._continuous import Beta, Exponential, Gamma, Laplace, LogNormal, Normal, Uniform
from ._continuous_extra import Cauchy, ContinuousBernoulli, _kl_cauchy, _kl_continuous_bernoulli
from ._counts import Binomial, Geometric, Poisson, _kl_binomial, _kl_geometric, _kl_poisson
from ._discrete import Bernoulli, Categorical, _log_softmax
from ._multivariate import Dirichlet, MultivariateNormal

_T = TypeVar("_T", bound=Callable[..., Any])
_RULES: dict[tuple[type, type], Callable[[Any, Any], Tensor]] = {}


def register_kl(cls_p: type, cls_q: type) -> Callable[[_T], _T]:
    """Decorator: ``fn(p, q)`` computes ``KL(p || q)`` for ``p`` an instance of ``cls_p`` and ``q`` of ``cls_q``
    (a later registration of the same pair replaces the earlier one)."""
    for c in (cls_p, cls_q):
        if not (isinstance(c, type) and issubclass(c, Distribution)):
            raise TypeError(f"register_kl: cls_p and cls_q must be subclasses of Distribution, but received "
                            f"{c!r}.")

    def deco(fn: _T) -> _T:
        _RULES[cls_p, cls_q] = fn
        return fn

    return deco


def _rule(tp: type, tq: type) -> Callable[[Any, Any], Tensor] | None:
    best, rank = None, None
    for (cp, cq), fn in _RULES.items():
        if issubclass(tp, cp) and issubclass(tq, cq):
            r = (tp.__mro__.index(cp), tq.__mro__.index(cq))
            if rank is None or r < rank:
                best, rank = fn, r
    return best


def kl_divergence(p: Distribution, q: Distribution) -> Tensor:
    """``KL(p || q)``, by the rule registered for the pair of classes (NotImplementedError where none is, as in
    Paddle)."""
    fn = _rule(type(p), type(q))
    if fn is None:
        raise NotImplementedError(f"kl_divergence: no rule is registered for ({type(p).__name__}, "
                                  f"{type(q).__name__}); register one with @register_kl({type(p).__name__}, "
                                  f"{type(q).__name__}).")
    return fn(p, q)


@register_kl(Normal, Normal)
def _kl_normal(p: Normal, q: Normal) -> Tensor:
    ratio = (p.scale / q.scale) ** 2
    return 0.5 * (ratio + ((p.loc - q.loc) / q.scale) ** 2 - 1 - ratio.log())


@register_kl(LogNormal, LogNormal)
def _kl_lognormal(p: LogNormal, q: LogNormal) -> Tensor:
    return _kl_normal(p._base, q._base)


@register_kl(Uniform, Uniform)
def _kl_uniform(p: Uniform, q: Uniform) -> Tensor:
    """``log((q.high - q.low) / (p.high - p.low))`` where p's interval lies in q's, ``inf`` otherwise (Paddle
    registers the pair but raises NotImplementedError)."""
    kl = ((q.high - q.low) / (p.high - p.low)).log()
    inside = (q.low <= p.low) & (p.high <= q.high)
    return F.where(inside, kl, F.full_like(kl, math.inf))


@register_kl(Categorical, Categorical)
def _kl_categorical(p: Categorical, q: Categorical) -> Tensor:
    lp, lq = _log_softmax(p.logits), _log_softmax(q.logits)
    return (lp.exp() * (lp - lq)).sum(-1, keepdim=True)


@register_kl(Bernoulli, Bernoulli)
def _kl_bernoulli(p: Bernoulli, q: Bernoulli) -> Tensor:
    a, b = p.probs, q.probs
    return a * (a.log() - b.log()) + (1 - a) * ((-a).log1p() - (-b).log1p())


@register_kl(Beta, Beta)
def _kl_beta(p: Beta, q: Beta) -> Tensor:
    a1, b1, a2, b2 = p.alpha, p.beta, q.alpha, q.beta
    s1 = a1 + b1
    return ((a2.lgamma() + b2.lgamma() - (a2 + b2).lgamma()) - (a1.lgamma() + b1.lgamma() - s1.lgamma())
            + (a1 - a2) * a1.digamma() + (b1 - b2) * b1.digamma() + (a2 - a1 + b2 - b1) * s1.digamma())


@register_kl(Gamma, Gamma)
def _kl_gamma(p: Gamma, q: Gamma) -> Tensor:
    a1, r1, a2, r2 = p.concentration, p.rate, q.concentration, q.rate
    return ((a1 - a2) * a1.digamma() - a1.lgamma() + a2.lgamma() + a2 * (r1.log() - r2.log())
            + a1 * (r2 - r1) / r1)


@register_kl(Exponential, Exponential)
def _kl_exponential(p: Exponential, q: Exponential) -> Tensor:
    ratio = q.rate / p.rate
    return ratio - ratio.log() - 1


@register_kl(Laplace, Laplace)
def _kl_laplace(p: Laplace, q: Laplace) -> Tensor:
    d = (p.loc - q.loc).abs()
    return (q.scale / p.scale).log() + d / q.scale + p.scale / q.scale * (-d / p.scale).exp() - 1


@register_kl(Dirichlet, Dirichlet)
def _kl_dirichlet(p: Dirichlet, q: Dirichlet) -> Tensor:
    a, b = p.concentration, q.concentration
    a0 = a.sum(-1, keepdim=True)
    return (-p._log_normaliser() + q._log_normaliser()
            + ((a - b) * (a.digamma() - a0.digamma())).sum(-1))


@register_kl(MultivariateNormal, MultivariateNormal)
def _kl_mvn(p: MultivariateNormal, q: MultivariateNormal) -> Tensor:
    k = p.event_shape[0]
    lp, lq = p.scale_tril, q.scale_tril
    lead = list(broadcast_shape(list(lp.shape[:-2]), list(lq.shape[:-2])))
    lp, lq = lp.expand([*lead, k, k]), lq.expand([*lead, k, k])
    m = L.triangular_solve(lq, lp, upper=False)  # Lq^-1 Lp: its squared norm is tr(Sq^-1 Sp)
    trace = (m ** 2).sum([-2, -1])
    maha = q._mahalanobis(p.loc - q.loc)
    return 0.5 * (trace + maha - k) + q._half_log_det() - p._half_log_det()


register_kl(Binomial, Binomial)(_kl_binomial)
register_kl(Poisson, Poisson)(_kl_poisson)
register_kl(Geometric, Geometric)(_kl_geometric)
register_kl(Cauchy, Cauchy)(_kl_cauchy)
register_kl(ContinuousBernoulli, ContinuousBernoulli)(_kl_continuous_bernoulli)


@register_kl(ExponentialFamily, ExponentialFamily)
def _kl_exponential_family(p: ExponentialFamily, q: ExponentialFamily) -> Tensor:
    """Two distributions of the same exponential-family class: the Bregman divergence of the log normaliser
    ``F`` between the natural parameters, ``F(q) - F(p) - <q - p, grad F(p)>`` (over the event axes). As in
    Paddle, p's side is taken at detached parameters (no gradient reaches p's parameters)."""
    if type(p) is not type(q):
        raise NotImplementedError(f"kl_divergence: no rule is registered for ({type(p).__name__}, "
                                  f"{type(q).__name__}) and the exponential-family rule needs two distributions "
                                  f"of the same class; register one with @register_kl.")
    p_params, p_log_norm, p_grads = p._log_normalizer_and_grads()
    q_params = q._natural_parameters
    kl = q._log_normalizer(*q_params) - p_log_norm
    for pp, qp, g in zip(p_params, q_params, p_grads, strict=True):
        kl = kl - sum_rightmost((qp - pp) * g, len(q.event_shape))
    return kl
