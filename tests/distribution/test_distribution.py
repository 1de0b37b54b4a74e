"""``paddle.distribution`` against Paddle 3.3.1 (values recorded by ``tests/record_paddle_distribution.py`` from
the cases of ``tests/distribution_cases.py``: shapes, dtypes, means, variances, entropies, log-probabilities, KL
divergences, error types), and the draws' properties against numpy/scipy formulas (Paddle's generator cannot be
matched): moments over many draws, supports, repeatability under ``paddle.seed``, and the reparameterisation
gradients of ``rsample`` against ``jax.grad`` of the same draw.

Deliberate differences from Paddle 3.3.1 (none is in the recorded cases): ``Normal`` with broadcasting parameters
reports the broadcast ``batch_shape`` (Paddle reports loc's shape); ``log_prob`` accepts a Python number (Paddle's
Normal raises AttributeError); ``Categorical.batch_shape`` is ``logits.shape[:-1]`` (Paddle raises
AttributeError); ``Uniform`` has ``mean``, ``variance``, ``rsample`` and a Uniform/Uniform KL (Paddle raises
NotImplementedError); ``Beta`` and ``Dirichlet`` have a reparameterised ``rsample`` (Paddle: NotImplementedError)
and ``Gamma.rsample`` passes its gradient to ``concentration`` (Paddle's gives none); lists are accepted by Beta,
Dirichlet and Multinomial (Paddle: TypeError/AttributeError deep inside)."""

from __future__ import annotations

import json
import math
import os
import sys

import jax
import jax.numpy as jnp
import numpy as np
import pytest
from scipy import stats

import pylayer_jax as paddle
from pylayer_jax import distribution as D

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from distribution_cases import record  # noqa: E402
from recorded import Recorded  # noqa: E402

with open(os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "data",
                       "paddle_distribution.json")) as _f:
    REF = json.load(_f)
REF.pop("paddle")
OURS = Recorded(record, paddle)
T = paddle.to_tensor


def _same(key: str, ours: object, ref: object) -> None:
    """A recorded value (``{"shape", "dtype", "v", "finite"}``) to a tolerance, anything else exactly, through
    lists."""
    if isinstance(ref, dict):
        assert isinstance(ours, dict), (key, ours)
        assert (ours["shape"], ours["dtype"], ours["finite"]) == (ref["shape"], ref["dtype"], ref["finite"]), key
        np.testing.assert_allclose(np.asarray(ours["v"], float), np.asarray(ref["v"], float), rtol=2e-5, atol=1e-6,
                                   err_msg=key)
    elif isinstance(ref, list) and any(isinstance(r, dict) for r in ref):
        assert isinstance(ours, list) and len(ours) == len(ref), (key, ours)
        for o, r in zip(ours, ref, strict=True):
            _same(key, o, r)
    else:
        assert ours == ref, key


# not mirrored: Paddle's Geometric KL is p times the divergence (test_distribution_more.py checks ours and how the two
# relate)
NOT_MIRRORED = ("geometric_kl", "geometric_kl_kl_g0", "geometric_kl_kl_g1")


@pytest.mark.parametrize("key", sorted(k for k in REF if k not in NOT_MIRRORED))
def test_as_paddle(key: str) -> None:
    _same(key, OURS[key], REF[key])


def test_values_against_scipy() -> None:
    """The formulas against scipy.stats at float64 (an oracle independent of Paddle)."""
    x = np.array([0.3, 1.7])
    f64 = lambda v: T(np.asarray(v, np.float64))  # noqa: E731
    np.testing.assert_allclose(D.Normal(f64([0.5, 1.0]), f64([2.0, 0.5])).log_prob(f64(x)).numpy(),
                               stats.norm([0.5, 1.0], [2.0, 0.5]).logpdf(x), rtol=1e-12)
    np.testing.assert_allclose(D.Gamma(f64([2.0, 0.5]), f64([3.0, 1.0])).entropy().numpy(),
                               stats.gamma([2.0, 0.5], scale=[1 / 3.0, 1.0]).entropy(), rtol=1e-12)
    np.testing.assert_allclose(D.Beta(f64([2.0, 0.5]), f64([3.0, 0.7])).log_prob(f64([0.3, 0.9])).numpy(),
                               stats.beta([2.0, 0.5], [3.0, 0.7]).logpdf([0.3, 0.9]), rtol=1e-12)
    np.testing.assert_allclose(D.LogNormal(f64(0.5), f64(0.7)).log_prob(f64(x)).numpy(),
                               stats.lognorm(0.7, scale=math.exp(0.5)).logpdf(x), rtol=1e-12)
    np.testing.assert_allclose(D.Laplace(f64(0.5), f64(2.0)).cdf(f64(x)).numpy(),
                               stats.laplace(0.5, 2.0).cdf(x), rtol=1e-12)
    a = np.array([1.0, 2.0, 3.0])
    np.testing.assert_allclose(D.Dirichlet(f64(a)).entropy().numpy(), stats.dirichlet(a).entropy(), rtol=1e-12)
    np.testing.assert_allclose(float(D.Multinomial(6, f64([0.2, 0.3, 0.5])).entropy().numpy()),
                               stats.multinomial(6, [0.2, 0.3, 0.5]).entropy(), rtol=1e-10)
    cov = np.array([[2.0, 0.5], [0.5, 1.0]])
    v = np.array([[0.5, 0.5], [1.0, -1.0]])
    np.testing.assert_allclose(D.MultivariateNormal(f64([0.0, 1.0]), f64(cov)).log_prob(f64(v)).numpy(),
                               stats.multivariate_normal([0.0, 1.0], cov).logpdf(v), rtol=1e-12)


# (distribution, its mean, its variance): the draws' moments over 40000 draws
MOMENTS = [
    (lambda: D.Normal(T([0.5, -1.0]), T([2.0, 0.5])), [0.5, -1.0], [4.0, 0.25]),
    (lambda: D.LogNormal(0.2, 0.3), math.exp(0.245), (math.exp(0.09) - 1) * math.exp(0.49)),
    (lambda: D.Uniform(T([0.0, 1.0]), T([2.0, 5.0])), [1.0, 3.0], [4 / 12, 16 / 12]),
    (lambda: D.Laplace(T([0.0, 1.0]), T([2.0, 0.5])), [0.0, 1.0], [8.0, 0.5]),
    (lambda: D.Gamma(T([2.0, 0.5]), T([3.0, 1.0])), [2 / 3, 0.5], [2 / 9, 0.5]),
    (lambda: D.Exponential(T([2.0, 0.5])), [0.5, 2.0], [0.25, 4.0]),
    (lambda: D.Beta(T([2.0, 0.5]), T([3.0, 0.7])), [0.4, 0.5 / 1.2], [0.04, 0.35 / (1.44 * 2.2)]),
    (lambda: D.Bernoulli(T([0.3, 0.9])), [0.3, 0.9], [0.21, 0.09]),
    (lambda: D.Dirichlet(T([1.0, 2.0, 3.0])), [1 / 6, 2 / 6, 3 / 6], [5 / 252, 8 / 252, 9 / 252]),
    (lambda: D.Multinomial(5, T([0.2, 0.3, 0.5])), [1.0, 1.5, 2.5], [0.8, 1.05, 1.25]),
    (lambda: D.MultivariateNormal(T([0.0, 1.0]), T([[2.0, 0.5], [0.5, 1.0]])), [0.0, 1.0], [2.0, 1.0]),
]


@pytest.mark.parametrize("i", range(len(MOMENTS)))
def test_draw_moments(i: int) -> None:
    make, mean, var = MOMENTS[i]
    paddle.seed(2024)
    s = make().sample([40000]).numpy().astype(np.float64)
    sd = np.sqrt(np.asarray(var))
    np.testing.assert_allclose(s.mean(0), mean, atol=float(np.max(5 * sd / 200)))
    np.testing.assert_allclose(s.var(0), var, rtol=0.06)


def test_supports_and_dtypes() -> None:
    paddle.seed(1)
    assert (D.Gamma(0.3, 1.0).sample([2000]).numpy() > 0).all()
    b = D.Beta(0.5, 0.5).sample([2000]).numpy()
    assert ((b > 0) & (b < 1)).all()
    u = D.Uniform(-2.0, -1.0).sample([2000]).numpy()
    assert ((u >= -2) & (u < -1)).all()
    d = D.Dirichlet(T([0.5, 0.5, 0.5], "float64")).sample([100])
    assert d.dtype == paddle.float64
    np.testing.assert_allclose(d.numpy().sum(-1), 1.0, rtol=1e-12)
    m = D.Multinomial(7, T([[0.2, 0.8], [0.5, 0.5]])).sample([50]).numpy()
    assert m.shape == (50, 2, 2) and (m.sum(-1) == 7).all() and m.dtype == np.float32
    bern = D.Bernoulli(T([0.3, 0.6], "float64")).sample([100]).numpy()
    assert bern.dtype == np.float64 and set(np.unique(bern)) <= {0.0, 1.0}


def test_categorical_draws_follow_softmax() -> None:
    """Paddle samples from ``softmax(logits)`` (its ``probs`` normalise by the sum instead): frequencies of 1, 2, 3
    over 40000 draws are softmax([1, 2, 3]) = [0.090, 0.245, 0.665]."""
    paddle.seed(3)
    s = D.Categorical(T([1.0, 2.0, 3.0])).sample([40000]).numpy()
    assert s.dtype == np.int64
    np.testing.assert_allclose(np.bincount(s, minlength=3) / 40000, jax.nn.softmax(jnp.array([1.0, 2.0, 3.0])),
                               atol=0.01)
    s2 = D.Categorical(T([[0.0, 10.0, 0.0], [10.0, 0.0, 0.0]])).sample([100]).numpy()
    assert (s2[:, 0] == 1).mean() > 0.99 and (s2[:, 1] == 0).mean() > 0.99


def test_repeatable_under_seed() -> None:
    out = []
    for _ in range(2):
        paddle.seed(11)
        out.append([D.Normal(0.0, 1.0).sample([3]).numpy(), D.Gamma(2.0, 1.0).sample([3]).numpy(),
                    D.Categorical(T([1.0, 1.0])).sample([8]).numpy(), D.Dirichlet(T([1.0, 1.0])).sample([2]).numpy()])
    for a, b in zip(*out, strict=True):
        np.testing.assert_array_equal(a, b)
    paddle.seed(12)
    assert not np.array_equal(D.Normal(0.0, 1.0).sample([3]).numpy(), out[0][0])
    # sample(shape, seed): a fixed draw whatever the generator's state (Paddle's Normal and Uniform)
    a = D.Normal(0.0, 1.0).sample([4], seed=5).numpy()
    paddle.seed(99)
    np.testing.assert_array_equal(D.Normal(0.0, 1.0).sample([4], seed=5).numpy(), a)
    assert not np.array_equal(D.Normal(0.0, 1.0).sample([4]).numpy(), a)


def _grads(make, shape, seed):  # noqa: ANN001, ANN202
    params = [T(np.asarray(p, np.float32), stop_gradient=False) for p in make.params]
    paddle.seed(seed)
    s = make.dist(*params).rsample(shape)
    (s ** 2).sum().backward()
    return s.numpy(), [p.grad.numpy() for p in params]


def test_rsample_gradients_match_jax() -> None:
    """The gradient of ``sum(rsample() ** 2)`` reaching the parameters equals ``jax.grad`` of the same draw
    written in jax (the noise recovered from the draw itself), for the location-scale families; for Gamma the
    implicit reparameterisation gradient equals jax's own ``jax.random.gamma`` gradient."""
    loc, scale = T([0.5, -1.0], stop_gradient=False), T([2.0, 0.5], stop_gradient=False)
    paddle.seed(5)
    s = D.Normal(loc, scale).rsample([6])
    (s ** 2).sum().backward()
    eps = (s.numpy() - loc.numpy()) / scale.numpy()
    gl, gs = jax.grad(lambda m, sd: jnp.sum((m + sd * eps) ** 2), (0, 1))(jnp.array([0.5, -1.0]),
                                                                          jnp.array([2.0, 0.5]))
    np.testing.assert_allclose(loc.grad.numpy(), gl, rtol=1e-5)
    np.testing.assert_allclose(scale.grad.numpy(), gs, rtol=1e-5)
    # Laplace
    loc, scale = T([0.5], stop_gradient=False), T([2.0], stop_gradient=False)
    s = D.Laplace(loc, scale).rsample([5])
    (s ** 2).sum().backward()
    z = (s.numpy() - 0.5) / 2.0
    np.testing.assert_allclose(loc.grad.numpy(), [np.sum(2 * s.numpy())], rtol=1e-5)
    np.testing.assert_allclose(scale.grad.numpy(), [np.sum(2 * s.numpy() * z)], rtol=1e-4)
    # MultivariateNormal: d/dloc sum(s^2) = 2 * sum(s)
    mloc = T([0.0, 1.0], stop_gradient=False)
    s = D.MultivariateNormal(mloc, scale_tril=T([[1.0, 0.0], [0.5, 2.0]])).rsample([4])
    (s ** 2).sum().backward()
    np.testing.assert_allclose(mloc.grad.numpy(), 2 * s.numpy().sum(0), rtol=1e-5)
    # Gamma: jax's own implicit gradient for the same key
    conc = T([2.0, 0.7], stop_gradient=False)
    rate = T([1.5, 1.0], stop_gradient=False)
    paddle.seed(7)
    key = paddle.get_rng_state()[0].numpy()
    s = D.Gamma(conc, rate).rsample([3])
    (s ** 2).sum().backward()
    paddle.set_rng_state([T(key)])
    from pylayer_jax._runtime.rng import generator

    k = jnp.asarray(generator.next_key()).astype(jnp.uint32)

    def f(a, r):  # noqa: ANN001, ANN202
        return jnp.sum((jax.random.gamma(k, jnp.broadcast_to(a, (3, 2)), (3, 2), jnp.float32) / r) ** 2)

    ga, gr = jax.grad(f, (0, 1))(jnp.array([2.0, 0.7]), jnp.array([1.5, 1.0]))
    np.testing.assert_allclose(conc.grad.numpy(), ga, rtol=1e-4)
    np.testing.assert_allclose(rate.grad.numpy(), gr, rtol=1e-4)


def test_sample_gradients_as_paddle() -> None:
    """As in Paddle 3.3.1, Normal's ``sample`` carries gradients (``loc + scale * eps``): ``log_prob`` of its own
    draw has zero gradient in loc and ``-n / scale`` in scale (Paddle: [0.], [-1.5] for 3 draws, scale 2);
    Gamma's, Laplace's, Dirichlet's ``sample`` are detached."""
    loc, scale = T([0.5], stop_gradient=False), T([2.0], stop_gradient=False)
    d = D.Normal(loc, scale)
    d.log_prob(d.sample([3])).sum().backward()
    np.testing.assert_allclose(loc.grad.numpy(), [0.0], atol=1e-6)
    np.testing.assert_allclose(scale.grad.numpy(), [-1.5], rtol=1e-6)
    assert D.Gamma(T([1.0], stop_gradient=False), T([1.0])).sample([2]).stop_gradient
    assert D.Laplace(T([1.0], stop_gradient=False), T([1.0])).sample([2]).stop_gradient
    assert not D.Laplace(T([1.0], stop_gradient=False), T([1.0])).rsample([2]).stop_gradient


def test_kl_matches_monte_carlo_and_register_kl() -> None:
    """KL(p||q) against the mean of ``log p - log q`` over draws of p; a registered rule for a new pair is used,
    the most specific registered pair wins."""
    paddle.seed(0)
    for p, q in [(D.Gamma(2.0, 3.0), D.Gamma(1.0, 1.0)), (D.Beta(2.0, 3.0), D.Beta(1.0, 2.0)),
                 (D.Laplace(0.0, 1.0), D.Laplace(0.5, 2.0)), (D.Uniform(0.0, 1.0), D.Uniform(-1.0, 2.0))]:
        x = p.sample([40000])
        mc = float((p.log_prob(x) - q.log_prob(x)).mean())
        assert abs(float(D.kl_divergence(p, q)) - mc) < 0.02, type(p).__name__
    assert math.isinf(float(D.kl_divergence(D.Uniform(0.0, 3.0), D.Uniform(-1.0, 2.0))))

    class A(D.Normal):
        pass

    @D.register_kl(A, D.Normal)
    def _kl(p, q):  # noqa: ANN001, ANN202
        return paddle.full([], 42.0)

    assert float(D.kl_divergence(A(0.0, 1.0), D.Normal(0.0, 1.0))) == 42.0
    assert float(D.kl_divergence(D.Normal(0.0, 1.0), A(0.0, 1.0))) == 0.0


def test_rl_and_vae_usage() -> None:
    """A policy-gradient loop through Categorical (sample, log_prob of the softmax, entropy bonus) learns the
    rewarded action; a VAE-style loss ``E[(z - 3)^2] + KL(N(mu, 1) || N(0, 1))`` through ``rsample`` reaches its
    optimum ``mu = 2`` (``2 (mu - 3) + mu = 0``), which needs the gradient through the draw."""
    logits = T([0.0, 0.0, 0.0], stop_gradient=False)
    opt = paddle.optimizer.SGD(0.5, parameters=[logits])
    paddle.seed(0)
    for _ in range(30):
        dist = D.Categorical(logits)
        a = dist.sample([16])
        reward = (a == 2).astype("float32")
        logp = paddle.nn.functional.log_softmax(logits)[a]
        loss = -(logp * reward).mean() - 0.01 * dist.entropy()
        loss.backward()
        opt.step()
        opt.clear_grad()
    assert int(np.argmax(logits.numpy())) == 2
    mu = T([0.0], stop_gradient=False)
    opt = paddle.optimizer.SGD(0.1, parameters=[mu])
    for _ in range(80):
        q = D.Normal(mu, T([1.0]))
        z = q.rsample([16])
        loss = ((z - 3) ** 2).mean() + D.kl_divergence(q, D.Normal(T([0.0]), T([1.0]))).sum()
        loss.backward()
        opt.step()
        opt.clear_grad()
    assert abs(mu.item() - 2.0) < 0.15  # (a shape-[1] Tensor: float() of it raises, as in Paddle)


def test_misuse() -> None:
    with pytest.raises(ValueError, match=r"Normal: if one parameter is a Tensor, all must be Tensors, but received "
                                         r"loc \(Tensor\), scale \(float\)"):
        D.Normal(T([0.0]), 1.0)
    with pytest.raises(TypeError, match=r"Normal: loc must be a float, a list, a numpy.ndarray or a Tensor, but "
                                        r"received str 'a'"):
        D.Normal("a", 1.0)
    with pytest.raises(TypeError, match=r"Normal.sample: shape must be a list or tuple of ints, but received "
                                        r"Tensor"):
        D.Normal(0.0, 1.0).sample(T([3]))
    with pytest.raises(ValueError, match=r"Normal.rsample: shape must hold non-negative ints, but received \[-1\]"):
        D.Normal(0.0, 1.0).rsample([-1])
    with pytest.raises(ValueError, match=r"Multinomial: total_count must be an int greater than zero, but "
                                         r"received int 0"):
        D.Multinomial(0, T([0.5, 0.5]))
    with pytest.raises(ValueError, match=r"Dirichlet: concentration must be at least one-dimensional"):
        D.Dirichlet(T(1.0))
    with pytest.raises(ValueError, match=r"Categorical.probs: value must hold category indices \(int32 or "
                                         r"int64\), but received dtype float32"):
        D.Categorical(T([1.0, 2.0])).probs(T([0.0]))
    with pytest.raises(ValueError, match=r"Categorical.probs: value must be 1-D or have the batch shape \[2\]"):
        D.Categorical(T([[1.0, 2.0], [1.0, 1.0]])).probs(T([[0], [1], [0]]))
    with pytest.raises(ValueError, match=r"MultivariateNormal: exactly one of covariance_matrix, "
                                         r"precision_matrix or scale_tril must be given, but received 2"):
        D.MultivariateNormal(T([0.0, 1.0]), paddle.eye(2), scale_tril=paddle.eye(2))
    with pytest.raises(ValueError, match=r"MultivariateNormal: covariance_matrix must be a square matrix"):
        D.MultivariateNormal(T([0.0, 1.0]), T([1.0, 1.0]))
    with pytest.raises(ValueError, match=r"MultivariateNormal: covariance_matrix is 3x3 but loc has 2 elements"):
        D.MultivariateNormal(T([0.0, 1.0]), paddle.eye(3))
    with pytest.raises(NotImplementedError, match=r"kl_divergence: no rule is registered for \(Normal, Uniform\)"):
        D.kl_divergence(D.Normal(0.0, 1.0), D.Uniform(0.0, 1.0))
    with pytest.raises(TypeError, match=r"register_kl: cls_p and cls_q must be subclasses of Distribution"):
        D.register_kl(int, D.Normal)
    with pytest.raises(NotImplementedError, match=r"Categorical.mean is not defined"):
        _ = D.Categorical(T([1.0])).mean
    with pytest.raises(NotImplementedError, match=r"Categorical.rsample is not defined"):
        D.Categorical(T([1.0])).rsample([1])
    with pytest.raises(TypeError, match=r"Normal.log_prob: value must be a Tensor \(or numbers\), but received str"):
        D.Normal(0.0, 1.0).log_prob("x")
