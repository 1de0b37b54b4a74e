"""The distributions and transforms added after the first ones (Binomial, Poisson, Geometric, Cauchy, Gumbel,
StudentT, Chi2, ContinuousBernoulli, Independent, TransformedDistribution, LKJCholesky, ExponentialFamily and the
transforms): their values, gradients and error types against Paddle 3.3.1 are in ``test_distribution.py``'s
``test_as_paddle`` (recorded from ``tests/distribution_cases.py``'s ``record_more`` and ``record_transforms``).
Here, against oracles independent of Paddle: the law of the draws (frequencies and empirical CDFs against
scipy.stats, over the same ``DRAWS`` draws whose shapes and dtypes are recorded from Paddle), the reparameterised
gradients of ``rsample`` against their closed forms at the drawn values, densities, entropies and KL divergences
against scipy.stats and numerical integration at float64, the transforms' log-Jacobians against autograd
Jacobians, and the error messages.

Deliberate differences from Paddle 3.3.1 (none is in the recorded cases): lists and numpy arrays are accepted by
Binomial, Poisson and ContinuousBernoulli (Paddle: AttributeError); Geometric has ``log_prob``/``prob`` (its
``log_pmf``/``pmf``; Paddle: NotImplementedError) and accepts integer Tensors of counts, and its ``variance``
keeps its gradient (Paddle's is detached); StudentT and Independent have ``rsample`` (Paddle: NotImplementedError);
a float64 Tensor with a Python number for Cauchy is taken in float64 (Paddle raises on the mixed dtypes);
``ChainTransform.inverse_shape`` runs the transforms in reverse (Paddle's runs them forward); LKJCholesky's draws
follow the LKJ law (Paddle's onion and C-vine samplers do not, see ``test_lkj_draws``); Geometric's KL divergence
is the true one, where Paddle's is ``p`` times it (``test_geometric_kl_is_the_divergence_paddles_is_p_times_it``)."""

from __future__ import annotations

import json
import math
import os
import sys

import jax
import jax.numpy as jnp
import numpy as np
import pytest
from scipy import integrate, stats

import pylayer_jax as paddle
from pylayer_jax import distribution as D

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from distribution_cases import DRAWS, LKJ_DRAWS, drawn  # noqa: E402

with open(os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "data",
                       "paddle_distribution.json")) as _f:
    REF = json.load(_f)
T = paddle.to_tensor


def f64(v: object) -> paddle.Tensor:
    return T(np.asarray(v, np.float64))


def _ecdf_gap(s: np.ndarray, cdf: object) -> float:
    """The largest gap between the empirical CDF of the draws ``s`` and ``cdf``, at the draws' percentiles."""
    xs = np.quantile(s, np.linspace(0.02, 0.98, 49))
    return float(np.max(np.abs((s[:, None] <= xs).mean(0) - cdf(xs))))


def _freq_gap(s: np.ndarray, pmf: object, top: int) -> float:
    k = np.arange(top + 1)
    return float(np.max(np.abs((s[:, None] == k).mean(0) - pmf(k))))


def _cbern_cdf(p: float, x: np.ndarray) -> np.ndarray:
    """The continuous Bernoulli's CDF (uniform at p = 1/2)."""
    if abs(p - 0.5) < 1e-3:
        return x
    return (p ** x * (1 - p) ** (1 - x) + p - 1) / (2 * p - 1)


# the law of each batch element's draws: a pmf (with the largest count to compare) or a CDF
LAWS = {
    "binomial": [("pmf", stats.binom(5, 0.3).pmf, 5), ("pmf", stats.binom(3, 0.6).pmf, 3)],
    "poisson": [("pmf", stats.poisson(0.5).pmf, 6), ("pmf", stats.poisson(4.0).pmf, 14),
                ("pmf", lambda k: (k == 0).astype(float), 2)],
    "geometric": [("pmf", stats.nbinom(1, 0.3).pmf, 15), ("pmf", stats.nbinom(1, 0.8).pmf, 5)],
    "cauchy": [("cdf", stats.cauchy(0.0, 1.0).cdf), ("cdf", stats.cauchy(1.0, 2.0).cdf)],
    "gumbel": [("cdf", stats.gumbel_r(0.0, 1.0).cdf), ("cdf", stats.gumbel_r(1.0, 2.0).cdf)],
    "studentt": [("cdf", stats.t(3.0, 0.0, 1.0).cdf), ("cdf", stats.t(1.5, 1.0, 2.0).cdf),
                 ("cdf", stats.t(0.8, 2.0, 0.5).cdf)],
    "chi2": [("cdf", stats.chi2(2.0).cdf), ("cdf", stats.chi2(5.0).cdf)],
    "cbern": [("cdf", lambda x, p=p: _cbern_cdf(p, x)) for p in (0.2, 0.4995, 0.5, 0.8, 0.999)],
}


# the distributions whose draws' mean and variance are compared with ``mean``/``variance`` (the others' tails are
# too heavy for the sample moments to settle: Cauchy, StudentT)
MOMENTS = ("binomial", "poisson", "geometric", "gumbel", "chi2", "cbern")


@pytest.mark.parametrize("name", sorted(LAWS))
def test_draws_follow_the_law(name: str) -> None:
    """``DRAWS`` draws (the shape and dtype Paddle gives, as recorded) have the distribution's frequencies or
    CDF (a gap under 0.015: the 1% Kolmogorov-Smirnov bound for 20000 draws is 0.0115), and their mean and
    variance are ``mean`` and ``variance`` (to 5 standard errors, and 6%)."""
    paddle.seed(2025)
    d = drawn(paddle)[name]
    s = d.sample([DRAWS])
    assert [list(s.shape), str(s.numpy().dtype)] == REF[name + "_sample"]
    s = s.numpy().astype(np.float64)
    if name in MOMENTS:
        mean, var = d.mean.numpy().astype(np.float64), d.variance.numpy().astype(np.float64)
        np.testing.assert_allclose(s.mean(0), mean, atol=float(5 * np.sqrt(var.max() / DRAWS)))
        np.testing.assert_allclose(s.var(0), var, rtol=0.06)
    for i, law in enumerate(LAWS[name]):
        if law[0] == "pmf":
            assert (s[:, i] == np.round(s[:, i])).all() and (s[:, i] >= 0).all()
            assert _freq_gap(s[:, i], law[1], law[2]) < 0.015, (name, i)
        else:
            assert _ecdf_gap(s[:, i], law[1]) < 0.015, (name, i)


@pytest.mark.parametrize("method", ["onion", "cvine"])
def test_lkj_draws(method: str) -> None:
    """LKJ draws are Cholesky factors of correlation matrices (lower triangular, positive diagonal, rows of unit
    norm) whose off-diagonal correlations have mean 0 and variance ``1 / (2 * concentration + dim - 1)`` (to 8%:
    3.5 standard errors for 4000 draws; Paddle's samplers are 15-25% off for some pairs)."""
    paddle.seed(7)
    d = drawn(paddle)["lkj_" + method]
    s = d.sample([LKJ_DRAWS])
    assert [list(s.shape), str(s.numpy().dtype)] == REF[f"lkj_{method}_b_sample1"]
    L = s.numpy().astype(np.float64)
    dim = L.shape[-1]
    np.testing.assert_array_equal(L, np.tril(L))
    assert (np.diagonal(L, 0, -2, -1) > 0).all()
    np.testing.assert_allclose((L ** 2).sum(-1), 1.0, atol=1e-5)
    corr = L @ np.swapaxes(L, -1, -2)
    off = corr[..., np.arange(dim)[:, None] > np.arange(dim)]  # [DRAWS, batch, pairs]
    for b, eta in enumerate((1.0, 2.0)):
        np.testing.assert_allclose(off[:, b].mean(0), 0.0, atol=0.03)
        np.testing.assert_allclose(off[:, b].var(0), 1 / (2 * eta + dim - 1), rtol=0.08)


def _leaves(*vals: object) -> list[paddle.Tensor]:
    return [T(np.asarray(v, np.float32), stop_gradient=False) for v in vals]


def test_rsample_gradients() -> None:
    """``d sum(rsample) / d param`` against the closed forms at the drawn values: ``n`` for a location, the draws'
    standardised values for a scale, ``icdf``'s derivative for ContinuousBernoulli, zero for Geometric."""
    paddle.seed(3)
    for cls in (D.Cauchy, D.Gumbel):
        loc, scale = _leaves([0.0, 1.0], [1.0, 2.0])
        s = cls(loc, scale).rsample([3])
        s.sum().backward()
        np.testing.assert_allclose(loc.grad.numpy(), [3.0, 3.0], rtol=1e-6)
        z = (s.numpy() - loc.numpy()) / scale.numpy()
        np.testing.assert_allclose(scale.grad.numpy(), z.sum(0), rtol=1e-4, atol=1e-5)
        assert cls(loc, scale).sample([3]).stop_gradient
    # StudentT: sample carries gradients to loc, scale and (through 1 / df; chi2 detached) df
    df, loc, scale = _leaves([3.0, 4.0], [0.0, 1.0], [1.0, 2.0])
    s = D.StudentT(df, loc, scale).sample([3])
    s.sum().backward()
    z = (s.numpy() - loc.numpy()) / scale.numpy()
    np.testing.assert_allclose(loc.grad.numpy(), [3.0, 3.0], rtol=1e-6)
    np.testing.assert_allclose(scale.grad.numpy(), z.sum(0), rtol=1e-4, atol=1e-5)
    np.testing.assert_allclose(df.grad.numpy(), (scale.numpy() * z / (2 * df.numpy())).sum(0), rtol=1e-4,
                               atol=1e-5)
    # StudentT.rsample (no Paddle counterpart): the location and scale parts
    df, loc, scale = _leaves([3.0, 4.0], [0.0, 1.0], [1.0, 2.0])
    s = D.StudentT(df, loc, scale).rsample([3])
    s.sum().backward()
    np.testing.assert_allclose(loc.grad.numpy(), [3.0, 3.0], rtol=1e-6)
    np.testing.assert_allclose(scale.grad.numpy(), ((s.numpy() - loc.numpy()) / scale.numpy()).sum(0), rtol=1e-4)
    assert np.isfinite(df.grad.numpy()).all() and (df.grad.numpy() != 0).all()
    # ContinuousBernoulli: rsample = icdf(u), u recovered as cdf(draw)
    (p,) = _leaves([0.2, 0.8])
    d = D.ContinuousBernoulli(p)
    s = d.rsample([3])
    s.sum().backward()
    u = d.cdf(s.detach()).numpy().astype(np.float64)

    def icdf(q: jnp.ndarray, u: jnp.ndarray) -> jnp.ndarray:
        return (jnp.log1p(-q + u * (2 * q - 1)) - jnp.log1p(-q)) / (jnp.log(q) - jnp.log1p(-q))

    want = jax.grad(lambda q: icdf(q, u).sum())(jnp.array([0.2, 0.8], jnp.float64))
    np.testing.assert_allclose(p.grad.numpy(), want, rtol=2e-3)
    # Geometric: floor gives a zero gradient; TransformedDistribution: exp(loc + scale * eps)
    (p,) = _leaves([0.3, 0.8])
    D.Geometric(p).rsample([3]).sum().backward()
    np.testing.assert_array_equal(p.grad.numpy(), [0.0, 0.0])
    loc, scale = _leaves([0.0, 0.5], [1.0, 0.5])
    s = D.TransformedDistribution(D.Normal(loc, scale), [D.ExpTransform()]).rsample([3])
    s.sum().backward()
    y = s.numpy().astype(np.float64)
    np.testing.assert_allclose(loc.grad.numpy(), y.sum(0), rtol=1e-5)
    np.testing.assert_allclose(scale.grad.numpy(), (y * (np.log(y) - [0.0, 0.5]) / [1.0, 0.5]).sum(0), rtol=1e-4)
    loc, scale = _leaves([[0.0, 1.0]], [[1.0, 2.0]])
    D.Independent(D.Normal(loc, scale), 1).rsample([3]).sum().backward()
    np.testing.assert_allclose(loc.grad.numpy(), [[3.0, 3.0]])


def test_values_against_scipy() -> None:
    """Densities, masses, CDFs, entropies and moments at float64 against scipy.stats."""
    k = np.array([0.0, 2.0, 5.0])
    b = D.Binomial(5, f64([0.3, 0.3, 0.3]))
    np.testing.assert_allclose(b.log_prob(f64(k)).numpy(), stats.binom(5, 0.3).logpmf(k), rtol=1e-10)
    np.testing.assert_allclose(b.entropy().numpy(), stats.binom(5, 0.3).entropy(), rtol=1e-10)
    po = D.Poisson(f64([0.5, 4.0, 30.0]))
    np.testing.assert_allclose(po.log_prob(f64(k)).numpy(), stats.poisson([0.5, 4.0, 30.0]).logpmf(k), rtol=1e-10)
    np.testing.assert_allclose(po.entropy().numpy(), stats.poisson([0.5, 4.0, 30.0]).entropy(), rtol=1e-8)
    g = D.Geometric(f64([0.3, 0.3, 0.3]))
    geo = stats.nbinom(1, 0.3)
    np.testing.assert_allclose(g.pmf(f64(k)).numpy(), geo.pmf(k), rtol=1e-10)
    np.testing.assert_allclose(g.cdf(f64(k)).numpy(), geo.cdf(k), rtol=1e-10)
    np.testing.assert_allclose(g.entropy().numpy(), geo.entropy(), rtol=1e-10)
    np.testing.assert_allclose([g.mean.numpy()[0], g.variance.numpy()[0]], [geo.mean(), geo.var()], rtol=1e-10)
    x = np.array([-2.0, 0.3, 4.0])
    c = D.Cauchy(f64([1.0] * 3), f64([2.0] * 3))
    np.testing.assert_allclose(c.log_prob(f64(x)).numpy(), stats.cauchy(1.0, 2.0).logpdf(x), rtol=1e-10)
    np.testing.assert_allclose(c.cdf(f64(x)).numpy(), stats.cauchy(1.0, 2.0).cdf(x), rtol=1e-10)
    np.testing.assert_allclose(c.entropy().numpy(), stats.cauchy(1.0, 2.0).entropy(), rtol=1e-10)
    gu = D.Gumbel(f64([1.0] * 3), f64([2.0] * 3))
    law = stats.gumbel_r(1.0, 2.0)
    np.testing.assert_allclose(gu.log_prob(f64(x)).numpy(), law.logpdf(x), rtol=1e-10)
    np.testing.assert_allclose(gu.cdf(f64(x)).numpy(), law.cdf(x), rtol=1e-10)
    np.testing.assert_allclose([gu.entropy().numpy()[0], gu.mean.numpy()[0], gu.variance.numpy()[0]],
                               [law.entropy(), law.mean(), law.var()], rtol=1e-10)
    st = D.StudentT(f64([3.0, 5.0, 30.0]), f64([0.0, 1.0, -1.0]), f64([1.0, 2.0, 0.5]))
    law = stats.t([3.0, 5.0, 30.0], [0.0, 1.0, -1.0], [1.0, 2.0, 0.5])
    np.testing.assert_allclose(st.log_prob(f64(x)).numpy(), law.logpdf(x), rtol=1e-10)
    np.testing.assert_allclose(st.entropy().numpy(), law.entropy(), rtol=1e-10)
    np.testing.assert_allclose(st.variance.numpy(), law.var(), rtol=1e-10)
    ch = D.Chi2(f64([1.0, 3.0, 7.0]))
    np.testing.assert_allclose(ch.log_prob(f64([0.5, 2.0, 9.0])).numpy(),
                               stats.chi2([1.0, 3.0, 7.0]).logpdf([0.5, 2.0, 9.0]), rtol=1e-10)
    np.testing.assert_allclose(ch.entropy().numpy(), stats.chi2([1.0, 3.0, 7.0]).entropy(), rtol=1e-10)


def test_continuous_bernoulli_integrals() -> None:
    """ContinuousBernoulli at float64 against numerical integration over [0, 1]: the density integrates to 1 and
    gives the mean, variance, entropy and CDF (to the Taylor expansions' accuracy within ``lims``)."""
    xs = np.linspace(0.0, 1.0, 20001)
    probs = [0.2, 0.4995, 0.8]
    d = D.ContinuousBernoulli(f64(probs))
    dens = d.prob(f64(np.repeat(xs[:, None], 3, 1))).numpy()  # [x, batch]
    trap = lambda v: integrate.trapezoid(v, xs, axis=0)  # noqa: E731
    np.testing.assert_allclose(trap(dens), 1.0, rtol=1e-6)
    np.testing.assert_allclose(d.mean.numpy(), trap(xs[:, None] * dens), rtol=1e-6)
    m = d.mean.numpy()
    np.testing.assert_allclose(d.variance.numpy(), trap((xs[:, None] - m) ** 2 * dens), rtol=1e-5)
    np.testing.assert_allclose(d.entropy().numpy(), -trap(dens * np.log(dens)), atol=1e-6)
    cdf = d.cdf(f64(np.full((1, 3), 0.3))).numpy()[0]
    # (within lims the CDF is Paddle's uniform approximation: 2e-4 off at probs = 0.4995)
    want = np.array([integrate.trapezoid(dens[:6001, i], xs[:6001]) for i in range(3)])
    np.testing.assert_allclose(cdf[[0, 2]], want[[0, 2]], rtol=1e-5)
    np.testing.assert_allclose(cdf[1], want[1], atol=3e-4)
    np.testing.assert_allclose(d.icdf(f64(cdf)).numpy(), 0.3, rtol=1e-6)


def test_lkj_density_integrates_to_one() -> None:
    """For dim 2 the Cholesky factor is ``[[1, 0], [r, sqrt(1 - r^2)]]`` and its density in ``r`` integrates to 1
    over ``(-1, 1)``, for each concentration of a batch."""
    r = np.linspace(-1.0, 1.0, 200001)[1:-1]
    L = np.zeros((r.size, 1, 2, 2))
    L[:, 0, 0, 0], L[:, 0, 1, 0], L[:, 0, 1, 1] = 1.0, r, np.sqrt(1 - r ** 2)
    p = D.LKJCholesky(2, f64([1.5, 3.0])).log_prob(f64(L)).exp().numpy()
    np.testing.assert_allclose(integrate.trapezoid(p, r, axis=0), 1.0, rtol=1e-4)


def test_kl_against_numerical_sums() -> None:
    """The KL rules at float64 against ``sum p (log p - log q)`` over the support (numerical integration for
    Cauchy and ContinuousBernoulli)."""
    k = np.arange(200.0)
    pairs = [(D.Binomial(6, f64([0.3])), D.Binomial(6, f64([0.6])), stats.binom(6, 0.3), stats.binom(6, 0.6), 1.0),
             (D.Poisson(f64([4.0])), D.Poisson(f64([2.5])), stats.poisson(4.0), stats.poisson(2.5), 1.0),
             (D.Geometric(f64([0.3])), D.Geometric(f64([0.6])), stats.nbinom(1, 0.3), stats.nbinom(1, 0.6), 1.0)]
    for p, q, sp, sq, factor in pairs:
        kk = k[sp.pmf(k) > 0]
        want = np.sum(sp.pmf(kk) * (sp.logpmf(kk) - sq.logpmf(kk)))
        np.testing.assert_allclose(D.kl_divergence(p, q).numpy(), [factor * want], rtol=1e-8,
                                   err_msg=type(p).__name__)
    a, b = stats.cauchy(0.5, 1.0), stats.cauchy(-1.0, 3.0)
    want = integrate.quad(lambda v: a.pdf(v) * (a.logpdf(v) - b.logpdf(v)), -np.inf, np.inf)[0]
    got = D.kl_divergence(D.Cauchy(f64(0.5), f64(1.0)), D.Cauchy(f64(-1.0), f64(3.0))).numpy()
    np.testing.assert_allclose(got, want, rtol=1e-7)
    p, q = D.ContinuousBernoulli(f64([0.2])), D.ContinuousBernoulli(f64([0.7]))
    xs = np.linspace(0.0, 1.0, 20001)[:, None]
    lp, lq = p.log_prob(f64(xs)).numpy()[:, 0], q.log_prob(f64(xs)).numpy()[:, 0]
    want = integrate.trapezoid(np.exp(lp) * (lp - lq), xs[:, 0])
    np.testing.assert_allclose(D.kl_divergence(p, q).numpy(), [want], rtol=1e-7)
    # the exponential-family (Bregman) rule for a user's class equals the closed form of its family
    ex = D.kl_divergence(D.Exponential(f64([0.5, 2.0])), D.Exponential(f64([1.0, 3.0]))).numpy()
    np.testing.assert_allclose(_MyExp(f64([0.5, 2.0])).entropy().numpy(), 1 - np.log([0.5, 2.0]), rtol=1e-12)
    np.testing.assert_allclose(D.kl_divergence(_MyExp(f64([0.5, 2.0])), _MyExp(f64([1.0, 3.0]))).numpy(), ex,
                               rtol=1e-12)


class _MyExp(D.ExponentialFamily):
    """The exponential distribution through its natural parameter ``-rate`` and log normaliser ``-log(-x)``."""

    def __init__(self, rate: paddle.Tensor) -> None:
        self.rate = rate
        super().__init__(rate.shape)

    @property
    def _natural_parameters(self) -> tuple[paddle.Tensor]:
        return (-self.rate,)

    def _log_normalizer(self, x: paddle.Tensor) -> paddle.Tensor:
        return -(-x).log()

    @property
    def _mean_carrier_measure(self) -> float:
        return 0.0


def _jacobian(fn: object, x: np.ndarray, m: int) -> np.ndarray:
    """The Jacobian of the first ``m`` outputs of ``fn`` (last axis) at ``x`` (one vector), by autograd."""
    rows = []
    for i in range(m):
        xt = f64(x)
        xt.stop_gradient = False
        (g,) = paddle.grad(fn(xt)[i], [xt])
        rows.append(g.numpy())
    return np.stack(rows)


def test_log_det_jacobians_against_autograd() -> None:
    """Each transform's ``forward_log_det_jacobian`` is ``log|det J|`` of its forward map, with ``J`` from
    autograd; ``inverse`` undoes ``forward`` and ``inverse_log_det_jacobian(y) = -fldj(inverse(y))``."""
    x = np.array([-0.7, 0.2, 1.3])
    elementwise = [D.ExpTransform(), D.SigmoidTransform(), D.TanhTransform(),
                   D.AffineTransform(f64([0.5, 1.0, -1.0]), f64([2.0, -3.0, 0.5]))]
    for t in elementwise:
        J = _jacobian(t.forward, x, 3)
        np.testing.assert_allclose(t.forward_log_det_jacobian(f64(x)).numpy(), np.log(np.abs(np.diag(J))),
                                   rtol=1e-10, err_msg=type(t).__name__)
        y = t.forward(f64(x))
        np.testing.assert_allclose(t.inverse(y).numpy(), x, rtol=1e-10)
        np.testing.assert_allclose(t.inverse_log_det_jacobian(y).numpy(),
                                   -t.forward_log_det_jacobian(f64(x)).numpy(), rtol=1e-10)
    t = D.PowerTransform(f64([2.0, 0.5, 3.0]))
    xp = np.abs(x) + 0.1
    np.testing.assert_allclose(t.forward_log_det_jacobian(f64(xp)).numpy(),
                               np.log(np.abs(np.diag(_jacobian(t.forward, xp, 3)))), rtol=1e-10)
    np.testing.assert_allclose(t.inverse(t.forward(f64(xp))).numpy(), xp, rtol=1e-10)
    sb = D.StickBreakingTransform()
    J = _jacobian(sb.forward, x, 3)  # the simplex's first K coordinates determine it
    np.testing.assert_allclose(sb.forward_log_det_jacobian(f64(x)).numpy(), np.linalg.slogdet(J)[1], rtol=1e-10)
    y = sb.forward(f64(x))
    np.testing.assert_allclose(y.numpy().sum(), 1.0, rtol=1e-12)
    np.testing.assert_allclose(sb.inverse(y).numpy(), x, rtol=1e-10)
    chain = D.ChainTransform([D.AffineTransform(f64(1.0), f64(2.0)), D.TanhTransform()])
    np.testing.assert_allclose(chain.forward_log_det_jacobian(f64(x)).numpy(),
                               np.log(np.abs(np.diag(_jacobian(chain.forward, x, 3)))), rtol=1e-10)
    assert tuple(chain.inverse_shape([4, 3])) == (4, 3)
    assert D.ChainTransform([D.ReshapeTransform((6,), (2, 3)), D.StickBreakingTransform()]).inverse_shape(
        (5, 2, 4)) == (5, 6)
    # a TransformedDistribution's density is the base's pushed forward: LogNormal's
    td = D.TransformedDistribution(D.Normal(f64([0.3]), f64([0.7])), [D.ExpTransform()])
    np.testing.assert_allclose(td.log_prob(f64([0.5, 2.0])).numpy(),
                               stats.lognorm(0.7, scale=math.exp(0.3)).logpdf([0.5, 2.0]), rtol=1e-10)


def test_misuse() -> None:
    cases = [
        (ValueError, r"Binomial: total_count must be an int or a Tensor, but received float 2.5",
         lambda: D.Binomial(2.5, 0.3)),
        (ValueError, r"Poisson.kl_divergence: the two distributions must have the same batch_shape, but received "
                     r"\[2\] and \[1\]", lambda: D.kl_divergence(D.Poisson(T([1.0, 2.0])), D.Poisson(1.0))),
        (TypeError, r"Geometric: probs must be a real number or a Tensor, but received list \[0.3\]",
         lambda: D.Geometric([0.3])),
        (TypeError, r"Geometric.pmf: k must be an int or a Tensor, but received float 2.0",
         lambda: D.Geometric(0.3).pmf(2.0)),
        (TypeError, r"Geometric.kl_divergence: other must be a Geometric, but received Normal",
         lambda: D.Geometric(0.3).kl_divergence(D.Normal(0.0, 1.0))),
        (ValueError, r"Cauchy.mean: the Cauchy distribution has no mean", lambda: D.Cauchy(0.0, 1.0).mean),
        (TypeError, r"Cauchy.log_prob: value must be a Tensor, but received float",
         lambda: D.Cauchy(0.0, 1.0).log_prob(0.5)),
        (TypeError, r"Cauchy.sample: shape must be a list or tuple of ints, but received int 3; pass \[3\]",
         lambda: D.Cauchy(0.0, 1.0).sample(3)),
        (TypeError, r"Gumbel: loc must be a real number or a Tensor, but received list",
         lambda: D.Gumbel([0.0], 1.0)),
        (TypeError, r"StudentT: df must be a float, a list, a tuple, a numpy.ndarray or a Tensor, but received "
                    r"int 3; write df=3.0", lambda: D.StudentT(3, 0.0, 1.0)),
        (ValueError, r"StudentT: every element of scale must be non-negative, but received -1.0",
         lambda: D.StudentT(3.0, 0.0, -1.0)),
        (TypeError, r"Chi2: df must be a float, .* but received int 3", lambda: D.Chi2(3)),
        (ValueError, r"Chi2: df must be positive, but received \[1.0, 0.0\]", lambda: D.Chi2(T([1.0, 0.0]))),
        (ValueError, r"ContinuousBernoulli.kl_divergence: the two distributions must have the same batch_shape",
         lambda: D.kl_divergence(D.ContinuousBernoulli(T([0.2, 0.7])), D.ContinuousBernoulli(0.3))),
        (TypeError, r"Independent: base must be a Distribution, but received Tensor",
         lambda: D.Independent(T([1.0]), 1)),
        (ValueError, r"Independent: reinterpreted_batch_rank must satisfy 0 < reinterpreted_batch_rank <= 1 \(the "
                     r"base's batch rank\), but received 2", lambda: D.Independent(D.Normal(T([0.0]), T([1.0])), 2)),
        (TypeError, r"TransformedDistribution: transforms must be a sequence of Transforms, but received "
                    r"ExpTransform; wrap one transform in a list",
         lambda: D.TransformedDistribution(D.Normal(0.0, 1.0), D.ExpTransform())),
        (ValueError, r"TransformedDistribution: the transforms need values of at least 1 axes, but the base's draws "
                     r"have shape \[\]",
         lambda: D.TransformedDistribution(D.Normal(0.0, 1.0), [D.StickBreakingTransform()])),
        (ValueError, r"LKJCholesky: dim must be an int of at least 2, but received 1", lambda: D.LKJCholesky(1)),
        (ValueError, r"LKJCholesky: sample_method must be 'onion' or 'cvine', but received 'x'",
         lambda: D.LKJCholesky(3, 1.0, "x")),
        (ValueError, r"LKJCholesky: concentration must be positive, but received -1.0",
         lambda: D.LKJCholesky(3, -1.0)),
        (NotImplementedError, r"kl_divergence: no rule is registered for \(Beta, Gamma\) and the exponential-family "
                              r"rule needs two distributions of the same class",
         lambda: D.kl_divergence(D.Beta(1.0, 2.0), D.Gamma(1.0, 2.0))),
        (NotImplementedError, r"Beta._mean_carrier_measure is not defined",
         lambda: D.ExponentialFamily.entropy(D.Beta(1.0, 2.0))),
        (TypeError, r"ExpTransform.forward: x must be a Tensor, but received float",
         lambda: D.ExpTransform().forward(1.0)),
        (ValueError, r"SoftmaxTransform.forward: x must have at least 1 axes \(the event rank of the transform\), "
                     r"but received a Tensor of shape \[\]", lambda: D.SoftmaxTransform().forward(T(1.0))),
        (NotImplementedError, r"AbsTransform.forward_log_det_jacobian is not defined: the transform is not "
                              r"injective \(surjection\)", lambda: D.AbsTransform().forward_log_det_jacobian(T(1.0))),
        (TypeError, r"AffineTransform: loc must be a Tensor, but received float 0.0",
         lambda: D.AffineTransform(0.0, T(1.0))),
        (ValueError, r"IndependentTransform: reinterpreted_batch_rank must be greater than zero, but received 0",
         lambda: D.IndependentTransform(D.ExpTransform(), 0)),
        (ValueError, r"ReshapeTransform: in_event_shape \[2, 3\] and out_event_shape \[4, 2\] must hold the same "
                     r"number of elements, but hold 6 and 8", lambda: D.ReshapeTransform((2, 3), (4, 2))),
        (ValueError, r"ReshapeTransform.forward_shape: shape must end with the event shape \[2, 3\], but received "
                     r"\[4, 3, 3\]", lambda: D.ReshapeTransform((2, 3), (3, 2)).forward_shape((4, 3, 3))),
        (ValueError, r"StackTransform.forward: the input has 3 slices along axis 1 but there are 2 transforms",
         lambda: D.StackTransform([D.ExpTransform(), D.ExpTransform()], 1).forward(paddle.ones([2, 3]))),
        (TypeError, r"ChainTransform: every element of transforms must be a Transform, but received int",
         lambda: D.ChainTransform([D.ExpTransform(), 1])),
    ]
    for exc, match, fn in cases:
        with pytest.raises(exc, match=match):
            fn()


def test_geometric_kl_is_the_divergence_paddles_is_p_times_it() -> None:
    """Paddle 3.3.1's Geometric KL is ``p log(p / q) + (1 - p) log((1 - p) / (1 - q))``, the Bernoulli divergence:
    ``p`` times the Geometric one (``test_kl_against_numerical_sums`` checks ours against the sum over the support).
    Its recorded values are ``p`` times ours, and our gradients are the closed form's (oracle: ``jax.grad``)."""
    ref = json.load(open(os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "data",
                                      "paddle_distribution.json")))
    p, q = np.array([0.3, 0.8], np.float32), np.array([0.5, 0.5], np.float32)
    ours = D.kl_divergence(D.Geometric(paddle.to_tensor(p)), D.Geometric(paddle.to_tensor(q))).numpy()
    np.testing.assert_allclose(ref["geometric_kl"]["v"], p * ours, rtol=1e-5)

    def kl(a, b):
        return jnp.sum(jnp.log(a / b) + (1 - a) / a * jnp.log((1 - a) / (1 - b)))

    pt, qt = paddle.to_tensor(p, stop_gradient=False), paddle.to_tensor(q, stop_gradient=False)
    D.kl_divergence(D.Geometric(pt), D.Geometric(qt)).sum().backward()
    ga, gb = jax.grad(kl, argnums=(0, 1))(jnp.asarray(p), jnp.asarray(q))
    np.testing.assert_allclose(pt.grad.numpy(), ga, rtol=1e-5)
    np.testing.assert_allclose(qt.grad.numpy(), gb, rtol=1e-5)
