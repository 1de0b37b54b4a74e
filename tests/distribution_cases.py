"""The deterministic cases of ``paddle.distribution``, written as Paddle code: ``record(paddle)`` runs them with the
given library and returns what they give (shapes, dtypes, means, variances, entropies, log-probabilities, KL
divergences, the type of each error). ``record_paddle_distribution.py`` runs it with Paddle 3.3.1 into
``data/paddle_distribution.json``; ``distribution/test_distribution.py`` runs it with pylayer_jax and compares.
Random draws cannot match Paddle's generator: only their shapes and dtypes are recorded here."""

from __future__ import annotations

from typing import Any

import numpy as np


def _val(t: Any) -> Any:
    a = t.numpy()
    return {"shape": list(a.shape), "dtype": str(a.dtype), "v": np.where(np.isfinite(a), a, 0).tolist(),
            "finite": np.isfinite(a).tolist()}


def _err(fn: Any) -> str:
    try:
        fn()
    except Exception as e:  # noqa: BLE001  (the type is what is recorded)
        return type(e).__name__
    return "none"


def _dist(out: dict[str, Any], key: str, d: Any, values: Any, props: tuple[str, ...] = ("mean", "variance"),
          shapes: bool = True, methods: tuple[str, ...] = ("log_prob", "prob"), entropy: bool = True,
          draws: tuple[tuple[int, ...], ...] = ((3,), ())) -> None:
    """``d``'s shapes, properties, entropy, ``methods`` at each of ``values`` and the shapes and dtypes of its
    draws of the sample shapes ``draws`` (each new shape compiles a sampler: the variants draw few)."""
    if shapes:
        out[key + "_shapes"] = [list(d.batch_shape), list(d.event_shape)]
    for p in props:
        out[f"{key}_{p}"] = _val(getattr(d, p))
    if entropy:
        out[key + "_entropy"] = _val(d.entropy())
    names = {"log_prob": "logp", "prob": "prob"}
    for i, v in enumerate(values):
        for m in methods:
            out[f"{key}_{names.get(m, m)}{i}"] = _val(getattr(d, m)(v))
    for shape in draws:
        s = d.sample(list(shape))
        out[key + ("_sample" if shape else "_sample0")] = [list(s.shape), str(s.numpy().dtype)]


def record(paddle: Any) -> dict[str, Any]:
    D = paddle.distribution
    T = paddle.to_tensor
    out: dict[str, Any] = {}

    def dist(key: str, d: Any, values: Any, props: tuple[str, ...] = ("mean", "variance"),
             shapes: bool = True) -> None:
        _dist(out, key, d, values, props, shapes)

    # Normal: floats, lists, numpy float64, Tensors (float64), broadcast parameters
    dist("normal_f", D.Normal(0.5, 2.0), [T([0.5, -1.0, 3.0])])
    dist("normal_l", D.Normal([0.0, 1.0], [1.0, 2.0]), [T([0.5, 0.2]), T([0.5], "float64")])
    dist("normal_np", D.Normal(np.array([0.0, 1.0]), np.array([1.0, 0.5])), [T([0.5, 0.2], "float32")])
    dist("normal_t64", D.Normal(T([[0.0], [1.0]], "float64"), T([[1.0], [3.0]], "float64")),
         [T([[0.5, 0.2, 1.0], [0.1, 0.2, 0.3]], "float64")], shapes=False)
    out["normal_int_dtype"] = str(D.Normal(0, 1).loc.numpy().dtype)
    out["normal_sample_seed_shape"] = list(D.Normal(0.0, 1.0).sample([2, 3], seed=5).shape)
    out["normal_kl"] = _val(D.kl_divergence(D.Normal([0.0, 1.0], [1.0, 2.0]), D.Normal([1.0, 0.0], [2.0, 0.5])))
    out["normal_kl_method"] = _val(D.Normal(0.0, 1.0).kl_divergence(D.Normal(1.0, 2.0)))
    out["normal_err_mixed"] = _err(lambda: D.Normal(T([0.0]), 1.0))
    out["normal_err_str"] = _err(lambda: D.Normal("a", 1.0))
    out["normal_err_shape"] = _err(lambda: D.Normal(0.0, 1.0).sample(paddle.to_tensor([3])))
    # LogNormal
    dist("lognormal", D.LogNormal([0.0, 0.5], [1.0, 0.25]), [T([0.5, 2.0])])
    out["lognormal_kl"] = _val(D.kl_divergence(D.LogNormal([0.0, 0.5], [1.0, 0.25]), D.LogNormal([1.0, 1.0], [2.0, 2.0])))
    out["lognormal_err_mixed"] = _err(lambda: D.LogNormal(T([0.0]), 1.0))
    # Uniform (mean/variance: NotImplementedError in Paddle)
    dist("uniform", D.Uniform([0.0, 1.0], [2.0, 3.0]), [T([1.0, 5.0]), T([0.0, 3.0]), T([1.5, 2.5])], props=())
    dist("uniform_f", D.Uniform(-1.0, 3.0), [T([0.0, 2.9])], props=())
    out["uniform_err_mixed"] = _err(lambda: D.Uniform(T([0.0]), 1.0))
    # Laplace
    dist("laplace", D.Laplace(T([0.0, 1.0]), T([2.0, 0.5])), [T([0.5, -1.0])], props=("mean", "variance", "stddev"))
    out["laplace_cdf"] = _val(D.Laplace(T([0.0, 1.0]), T([2.0, 0.5])).cdf(T([0.5, -1.0])))
    out["laplace_icdf"] = _val(D.Laplace(T([0.0, 1.0]), T([2.0, 0.5])).icdf(T([0.2, 0.9])))
    out["laplace_kl"] = _val(D.kl_divergence(D.Laplace(T([0.0, 1.0]), T([2.0, 0.5])),
                                             D.Laplace(T([1.0, 1.0]), T([1.0, 3.0]))))
    # Gamma, Exponential, Beta
    dist("gamma", D.Gamma(T([2.0, 0.5]), T([3.0, 1.0])), [T([0.7, 1.5])])
    dist("gamma_f", D.Gamma(2.0, 3.0), [T([0.7, 1.5])])
    out["gamma_kl"] = _val(D.kl_divergence(D.Gamma(T([2.0, 0.5]), T([3.0, 1.0])), D.Gamma(T([1.0, 2.0]),
                                                                                           T([1.0, 0.5]))))
    out["gamma_err_mixed"] = _err(lambda: D.Gamma(T([1.0]), 1.0))
    dist("exponential", D.Exponential(T([2.0, 0.5])), [T([0.7, 1.5])])
    dist("exponential_f", D.Exponential(2.0), [T([0.7])])
    out["exponential_cdf"] = _val(D.Exponential(T([2.0, 0.5])).cdf(T([0.7, 1.5])))
    out["exponential_icdf"] = _val(D.Exponential(T([2.0, 0.5])).icdf(T([0.3, 0.9])))
    out["exponential_kl"] = _val(D.kl_divergence(D.Exponential(T([2.0, 0.5])), D.Exponential(T([1.0, 1.5]))))
    dist("beta", D.Beta(T([2.0, 0.5]), T([3.0, 0.7])), [T([0.3, 0.9])])
    dist("beta_f", D.Beta(2.0, 3.0), [T([0.3])])
    out["beta_kl"] = _val(D.kl_divergence(D.Beta(T([2.0, 0.5]), T([3.0, 0.7])), D.Beta(T([1.0, 2.0]),
                                                                                       T([1.0, 2.0]))))
    # Bernoulli: probs and logits are attributes
    b = D.Bernoulli(T([0.3, 0.6]))
    dist("bernoulli", b, [T([1.0, 0.0]), T([0.5, 2.0])])
    out["bernoulli_probs"] = _val(b.probs)
    out["bernoulli_logits"] = _val(b.logits)
    out["bernoulli_cdf"] = _val(b.cdf(T([0.5, 2.0])))
    out["bernoulli_cdf2"] = _val(b.cdf(T([-0.5, 0.0])))
    out["bernoulli_rsample"] = list(b.rsample([4], temperature=0.5).shape)
    dist("bernoulli_f", D.Bernoulli(0.3), [T([1.0])])
    out["bernoulli_kl"] = _val(D.kl_divergence(b, D.Bernoulli(T([0.5, 0.1]))))
    out["bernoulli_err_str"] = _err(lambda: D.Bernoulli("a"))
    # Categorical: probs normalise the logits by their sum; entropy, kl and sample use softmax
    c1 = D.Categorical(T([1.0, 2.0, 3.0]))
    out["cat1_probs"] = _val(c1.probs(T([0, 2])))
    out["cat1_probs2d"] = _val(c1.probs(T([[0, 2], [1, 1]])))
    out["cat1_probs0d"] = _val(c1.probs(T(1)))
    out["cat1_logp"] = _val(c1.log_prob(T([0, 2])))
    out["cat1_entropy"] = _val(c1.entropy())
    out["cat1_kl"] = _val(c1.kl_divergence(D.Categorical(T([1.0, 1.0, 1.0]))))
    out["cat1_sample"] = [list(c1.sample([4]).shape), str(c1.sample([4]).numpy().dtype)]
    out["cat1_sample0"] = list(c1.sample([]).shape)
    c2 = D.Categorical(T([[1.0, 2.0, 3.0], [0.5, 0.2, 0.3]]))
    out["cat2_probs1"] = _val(c2.probs(T([0, 2])))
    out["cat2_probs1b"] = _val(c2.probs(T([1])))
    out["cat2_probs2x2"] = _val(c2.probs(T([[0, 1], [2, 1]])))
    out["cat2_logp2x2"] = _val(c2.log_prob(T([[0, 1], [2, 1]])))
    out["cat2_entropy"] = _val(c2.entropy())
    out["cat2_kl"] = _val(c2.kl_divergence(D.Categorical(T([[1.0, 1.0, 1.0], [1.0, 2.0, 3.0]]))))
    out["cat2_sample"] = list(c2.sample([4, 5]).shape)
    out["cat2_sample0"] = list(c2.sample([]).shape)
    out["cat3_sample"] = list(D.Categorical(paddle.ones([2, 3, 4])).sample([5]).shape)
    out["cat3_probs1"] = list(D.Categorical(paddle.ones([2, 3, 4])).probs(T([1, 2, 3])).shape)
    out["cat_list"] = _val(D.Categorical([1.0, 2.0]).logits)
    out["cat_np"] = _val(D.Categorical(np.array([1.0, 2.0])).logits)
    out["cat_f64_entropy"] = _val(D.Categorical(paddle.ones([3], "float64")).entropy())
    out["cat_err_badvalue"] = _err(lambda: c2.probs(T([[0, 1], [2, 1], [1, 1]])))
    out["cat_err_floatvalue"] = _err(lambda: c1.probs(T([0.0, 2.0])))
    out["cat_err_mean"] = _err(lambda: c1.mean)
    out["cat_err_rsample"] = _err(lambda: c1.rsample([2]))
    # Multinomial
    m = D.Multinomial(5, T([[0.2, 0.3, 0.5], [1.0, 1.0, 2.0]]))
    dist("multinomial", m, [T([[1.0, 2.0, 2.0], [0.0, 0.0, 5.0]]), T([1.0, 1.0, 2.0])])
    out["multinomial_probs"] = _val(m.probs)
    dist("multinomial1", D.Multinomial(3, T([0.2, 0.3, 0.5])), [T([1.0, 1.0, 1.0])])
    out["multinomial_err_zero"] = _err(lambda: D.Multinomial(0, T([0.2, 0.8])))
    out["multinomial_err_float"] = _err(lambda: D.Multinomial(2.0, T([0.2, 0.8])))
    out["multinomial_err_kl"] = _err(lambda: m.kl_divergence(m))
    # Dirichlet
    d = D.Dirichlet(T([[1.0, 2.0, 3.0], [0.5, 0.5, 0.5]]))
    dist("dirichlet", d, [T([[0.2, 0.3, 0.5], [0.1, 0.1, 0.8]]), T([0.2, 0.3, 0.5])])
    dist("dirichlet1", D.Dirichlet(T([1.0, 2.0, 3.0])), [T([0.2, 0.3, 0.5])])
    out["dirichlet_kl"] = _val(D.kl_divergence(d, D.Dirichlet(T([[2.0, 2.0, 2.0], [1.0, 0.5, 3.0]]))))
    out["dirichlet_err_0d"] = _err(lambda: D.Dirichlet(T(1.0)))
    # MultivariateNormal
    cov = T([[2.0, 0.5], [0.5, 1.0]])
    mvn = D.MultivariateNormal(T([0.0, 1.0]), cov)
    dist("mvn", mvn, [T([[0.5, 0.5], [1.0, -1.0]]), T([0.5, 0.5])])
    out["mvn_cov"] = _val(mvn.covariance_matrix)
    out["mvn_kl"] = _val(mvn.kl_divergence(D.MultivariateNormal(T([1.0, 1.0]), paddle.eye(2))))
    mvb = D.MultivariateNormal(T([[0.0, 1.0], [1.0, 1.0], [2.0, 2.0]]), scale_tril=T([[2.0, 0.0], [0.5, 1.0]]))
    dist("mvn_b", mvb, [T([[0.5, 0.5], [1.0, -1.0], [0.0, 0.0]]), T([0.5, 0.5])])
    out["mvn_b_tril"] = _val(mvb.scale_tril)
    out["mvn_b_kl"] = _val(D.kl_divergence(mvb, D.MultivariateNormal(T([0.0, 0.0]), cov)))
    mvp = D.MultivariateNormal(T([0.0, 1.0]), precision_matrix=cov)
    dist("mvn_p", mvp, [T([0.5, 0.5])])
    out["mvn_p_precision"] = _val(mvp.precision_matrix)
    dist("mvn_0d", D.MultivariateNormal(T(0.0), paddle.eye(1)), [T([0.3])])
    out["mvn_err_none"] = _err(lambda: D.MultivariateNormal(T([0.0, 1.0])))
    out["mvn_err_two"] = _err(lambda: D.MultivariateNormal(T([0.0, 1.0]), paddle.eye(2), scale_tril=paddle.eye(2)))
    out["mvn_err_1dcov"] = _err(lambda: D.MultivariateNormal(paddle.zeros([2]), paddle.ones([2])))
    # the base class, kl_divergence and register_kl
    base = D.Distribution([2], [3])
    out["base_shapes"] = [list(base.batch_shape), list(base.event_shape)]
    for meth in ("sample", "entropy", "rsample"):
        out["base_err_" + meth] = _err(lambda m=meth: getattr(base, m)())
    out["base_err_mean"] = _err(lambda: base.mean)
    out["base_err_logp"] = _err(lambda: base.log_prob(T([1.0])))
    out["kl_err_unregistered"] = _err(lambda: D.kl_divergence(D.Normal(0.0, 1.0), D.Uniform(0.0, 1.0)))
    out["kl_err_register_int"] = _err(lambda: D.register_kl(int, int))

    class MyNormal(D.Normal):
        pass

    out["kl_subclass"] = _val(D.kl_divergence(MyNormal(0.0, 1.0), D.Normal(1.0, 2.0)))
    out["lognormal_is_transformed"] = isinstance(D.LogNormal(0.0, 1.0), D.TransformedDistribution)
    out["gumbel_is_transformed"] = isinstance(D.Gumbel(0.0, 1.0), D.TransformedDistribution)
    out["exp_family"] = [isinstance(c(*a), D.ExponentialFamily) for c, a in [
        (D.Bernoulli, (0.3,)), (D.Beta, (1.0, 2.0)), (D.Dirichlet, (T([1.0, 2.0]),)), (D.Exponential, (1.0,)),
        (D.Gamma, (1.0, 2.0)), (D.Chi2, (2.0,)), (D.Normal, (0.0, 1.0)), (D.Poisson, (1.0,))]]
    record_more(paddle, out)
    record_transforms(paddle, out)
    return out


def _grads(paddle: Any, out: dict[str, Any], key: str, params: list[Any], make: Any, fn: Any,
           dtype: str = "float32") -> None:
    """The gradients of ``sum(fn(make(*params)))`` with respect to ``params`` (Tensors made from the values,
    with stop_gradient=False): ``{key}_g{i}``, "none" where a parameter gets no gradient, and ``{key}_g`` is
    "nograd" where the output carries none."""
    ts = [paddle.to_tensor(np.asarray(p, dtype), stop_gradient=False) for p in params]
    y = fn(make(*ts))
    if y.stop_gradient:
        out[key + "_g"] = "nograd"
        return
    for i, g in enumerate(paddle.grad(y.sum(), ts, allow_unused=True)):
        out[f"{key}_g{i}"] = "none" if g is None else _val(g)


def _draw_grads(paddle: Any, out: dict[str, Any], key: str, params: list[Any], make: Any, meth: str) -> None:
    """Which parameters a draw (``meth``: sample or rsample, 3 draws) passes gradients to: "nograd" where the
    draw carries none, else "none" or the gradient's shape for each parameter."""
    ts = [paddle.to_tensor(np.asarray(p, "float32"), stop_gradient=False) for p in params]
    s = getattr(make(*ts), meth)([3])
    if s.stop_gradient:
        out[f"{key}_{meth}_g"] = "nograd"
        return
    gs = paddle.grad(s.sum(), ts, allow_unused=True)
    out[f"{key}_{meth}_g"] = ["none" if g is None else list(g.shape) for g in gs]


# the draws of the distributions in ``drawn``: recorded here (shape, dtype) and tested for their distribution in
# tests/distribution/test_distribution_more.py with the same shape (so the samplers compile once)
DRAWS = 20000
LKJ_DRAWS = 4000  # (LKJ draws beta variates for each row of each matrix: fewer draws keep that quick)


def drawn(paddle: Any) -> dict[str, Any]:
    """The distributions whose draws are recorded with ``DRAWS`` draws (``LKJ_DRAWS`` for LKJCholesky) and tested
    for their distribution."""
    D = paddle.distribution
    T = paddle.to_tensor
    return {
        "binomial": D.Binomial(T([5, 3]), T([0.3, 0.6])),
        "poisson": D.Poisson(T([0.5, 4.0, 0.0])),
        "geometric": D.Geometric(T([0.3, 0.8])),
        "cauchy": D.Cauchy(T([0.0, 1.0]), T([1.0, 2.0])),
        "gumbel": D.Gumbel(T([0.0, 1.0]), T([1.0, 2.0])),
        "studentt": D.StudentT(T([3.0, 1.5, 0.8]), T([0.0, 1.0, 2.0]), T([1.0, 2.0, 0.5])),
        "chi2": D.Chi2(T([2.0, 5.0])),
        "cbern": D.ContinuousBernoulli(T([0.2, 0.4995, 0.5, 0.8, 0.999])),
        "lkj_onion": D.LKJCholesky(4, T([1.0, 2.0])),
        "lkj_cvine": D.LKJCholesky(3, T([1.0, 2.0]), "cvine"),
    }


def record_more(paddle: Any, out: dict[str, Any]) -> None:
    """Binomial, Poisson, Geometric, Cauchy, Gumbel, StudentT, Chi2, ContinuousBernoulli, Independent,
    TransformedDistribution, LKJCholesky and ExponentialFamily: values, gradients and error types."""
    D = paddle.distribution
    T = paddle.to_tensor

    def dist(key: str, d: Any, values: Any, props: tuple[str, ...] = ("mean", "variance"),
             methods: tuple[str, ...] = ("log_prob", "prob"), **kw: Any) -> None:
        _dist(out, key, d, values, props, methods=methods, **kw)

    def grads(key: str, params: list[Any], make: Any, fns: dict[str, Any], dtype: str = "float32") -> None:
        for name, fn in fns.items():
            _grads(paddle, out, f"{key}_{name}", params, make, fn, dtype)

    def err(key: str, fn: Any) -> None:
        out[key] = _err(fn)

    many = drawn(paddle)
    n = ((DRAWS,),)

    # Binomial: counts as a Tensor (cast to probs' dtype) or an int; values past total_count give -eps
    b = many["binomial"]
    dist("binomial", b, [T([2.0, 1.0]), T([0.0, 3.0]), T([6.0, 4.0]), T([7.0, 5.0])], draws=n)
    out["binomial_counts"] = _val(b.total_count)
    dist("binomial_f", D.Binomial(10, 0.25), [T([0.0, 2.0, 10.0])], draws=((),))
    out["binomial_kl"] = _val(D.kl_divergence(b, D.Binomial(T([5, 3]), T([0.5, 0.2]))))
    # (the counts require gradients too: Paddle's broadcast_tensors backward crashes when one input does not)
    grads("binomial", [[5.0, 3.0], [0.3, 0.6]], D.Binomial,
          {"logp": lambda d: d.log_prob(T([2.0, 1.0])), "entropy": lambda d: d.entropy(), "mean": lambda d: d.mean,
           "variance": lambda d: d.variance})
    grads("binomial_kl", [[5.0, 3.0], [0.3, 0.6], [5.0, 3.0], [0.5, 0.2]],
          lambda n, p, m, q: (D.Binomial(n, p), D.Binomial(m, q)), {"kl": lambda pq: D.kl_divergence(*pq)})
    err("binomial_err_float_count", lambda: D.Binomial(2.5, 0.3))
    # Poisson: a number becomes a [1] Tensor; the entropy and KL sum over a bounded support
    dist("poisson", many["poisson"], [T([0.0, 1.0, 3.0]), T([2.0, 2.0, 0.0])], draws=n)
    dist("poisson_f", D.Poisson(2.0), [T([1.0])], draws=((),))
    out["poisson_int"] = _val(D.Poisson(3).rate)
    out["poisson_big_entropy"] = _val(D.Poisson(T([20.0, 0.3])).entropy())
    out["poisson_kl"] = _val(D.kl_divergence(D.Poisson(T([0.5, 4.0])), D.Poisson(T([1.0, 2.0]))))
    err("poisson_err_kl_shape", lambda: D.kl_divergence(D.Poisson(T([0.5, 4.0])), D.Poisson(T([1.0]))))
    grads("poisson", [[0.5, 4.0]], D.Poisson, {"logp": lambda d: d.log_prob(T([0.0, 3.0])),
                                               "entropy": lambda d: d.entropy()})
    grads("poisson_kl", [[0.5, 4.0], [1.0, 2.0]], lambda p, q: (D.Poisson(p), D.Poisson(q)),
          {"kl": lambda pq: D.kl_divergence(*pq)})
    # Geometric: failures before the first success
    g = many["geometric"]
    dist("geometric", g, [2, T([1.0, 3.0])], props=("mean", "variance", "stddev"),
         methods=("pmf", "log_pmf", "cdf"), draws=n)
    dist("geometric_f", D.Geometric(0.4), [0, 3], methods=("pmf", "cdf"), draws=((),))
    out["geometric_kl"] = _val(D.kl_divergence(g, D.Geometric(T([0.5, 0.5]))))
    err("geometric_err_list", lambda: D.Geometric([0.3]))
    err("geometric_err_float_k", lambda: g.pmf(2.0))
    err("geometric_err_cdf_float_k", lambda: g.cdf(1.5))
    err("geometric_err_kl_type", lambda: g.kl_divergence(D.Normal(0.0, 1.0)))
    err("geometric_err_kl_pair", lambda: D.kl_divergence(g, D.Normal(0.0, 1.0)))
    grads("geometric", [[0.3, 0.8]], D.Geometric, {"pmf": lambda d: d.pmf(T([1.0, 3.0])),
                                                   "logpmf": lambda d: d.log_pmf(2), "cdf": lambda d: d.cdf(2),
                                                   "entropy": lambda d: d.entropy(), "mean": lambda d: d.mean})
    grads("geometric_kl", [[0.3, 0.8], [0.5, 0.5]], lambda p, q: (D.Geometric(p), D.Geometric(q)),
          {"kl": lambda pq: D.kl_divergence(*pq)})
    _draw_grads(paddle, out, "geometric", [[0.3, 0.8]], D.Geometric, "sample")
    _draw_grads(paddle, out, "geometric", [[0.3, 0.8]], D.Geometric, "rsample")
    # Cauchy
    c = many["cauchy"]
    dist("cauchy", c, [T([0.5, -1.0]), T([[0.0], [3.0]])], props=(), methods=("log_prob", "prob", "cdf"), draws=n)
    dist("cauchy_f", D.Cauchy(0.5, 2), [T([0.0, 1.5])], props=(), methods=("log_prob", "cdf"), draws=((),))
    dist("cauchy_b", D.Cauchy(T([0.0, 1.0]), T(2.0)), [T([0.5, 0.5])], props=(), methods=("log_prob",), draws=())
    dist("cauchy_64", D.Cauchy(T([0.0], "float64"), T([2.0], "float64")), [T([0.5], "float32")], props=(),
         methods=("log_prob",), draws=())
    out["cauchy_kl"] = _val(D.kl_divergence(c, D.Cauchy(T([1.0, 1.0]), T([0.5, 3.0]))))
    out["cauchy_kl_method"] = _val(c.kl_divergence(D.Cauchy(T([1.0, 1.0]), T([0.5, 3.0]))))
    for prop in ("mean", "variance", "stddev"):
        err("cauchy_err_" + prop, lambda p=prop: getattr(c, p))
    err("cauchy_err_list", lambda: D.Cauchy([0.0], 1.0))
    err("cauchy_err_str_scale", lambda: D.Cauchy(0.0, "1"))
    err("cauchy_err_float_value", lambda: c.log_prob(0.5))
    err("cauchy_err_float_cdf", lambda: c.cdf(0.5))
    err("cauchy_err_kl_type", lambda: c.kl_divergence(D.Normal(0.0, 1.0)))
    err("cauchy_err_shape", lambda: c.sample("3"))
    # (the value requires a gradient too: Paddle's broadcast_tensors backward crashes when one input does not)
    grads("cauchy", [[0.0, 1.0], [1.0, 2.0], [0.5, -1.0]], lambda m, s, v: (D.Cauchy(m, s), v),
          {"logp": lambda dv: dv[0].log_prob(dv[1]), "cdf": lambda dv: dv[0].cdf(dv[1]),
           "entropy": lambda dv: dv[0].entropy()})
    grads("cauchy_kl", [[0.0, 1.0], [1.0, 2.0], [1.0, 1.0], [0.5, 3.0]],
          lambda a, b, x, y: (D.Cauchy(a, b), D.Cauchy(x, y)), {"kl": lambda pq: D.kl_divergence(*pq)})
    _draw_grads(paddle, out, "cauchy", [[0.0, 1.0], [1.0, 2.0]], D.Cauchy, "sample")
    _draw_grads(paddle, out, "cauchy", [[0.0, 1.0], [1.0, 2.0]], D.Cauchy, "rsample")
    # Gumbel: log_prob is log(prob), so it underflows to -inf far in the left tail
    gu = many["gumbel"]
    dist("gumbel", gu, [T([0.5, -1.0]), T([-5.0, 30.0])], props=("mean", "variance", "stddev"),
         methods=("log_prob", "prob", "cdf"), draws=n)
    dist("gumbel_f", D.Gumbel(0.5, 2.0), [T([0.0, 1.5])], draws=((),))
    out["gumbel_cdf64"] = _val(gu.cdf(T([0.5, -1.0], "float64")))
    out["gumbel_logp64"] = _val(gu.log_prob(T([0.5, -1.0], "float64")))
    err("gumbel_err_list", lambda: D.Gumbel([0.0], 1.0))
    grads("gumbel", [[0.0, 1.0], [1.0, 2.0]], D.Gumbel,
          {"logp": lambda d: d.log_prob(T([0.5, -1.0])), "cdf": lambda d: d.cdf(T([0.5, -1.0])),
           "entropy": lambda d: d.entropy(), "mean": lambda d: d.mean, "variance": lambda d: d.variance})
    _draw_grads(paddle, out, "gumbel", [[0.0, 1.0], [1.0, 2.0]], D.Gumbel, "sample")
    _draw_grads(paddle, out, "gumbel", [[0.0, 1.0], [1.0, 2.0]], D.Gumbel, "rsample")
    # StudentT: NaN mean for df <= 1; inf variance for 1 < df <= 2, NaN for df <= 1
    st = many["studentt"]
    dist("studentt", st, [T([0.5, -1.0, 2.0])], draws=n)
    dist("studentt_f", D.StudentT(5.0, 1.0, 2.0), [T([0.0, 1.5])], draws=())
    dist("studentt_64", D.StudentT(T([4.0], "float64"), 1.0, [2.0]), [T([0.3])], draws=())
    err("studentt_err_int", lambda: D.StudentT(3, 0.0, 1.0))
    err("studentt_err_neg_df", lambda: D.StudentT(-3.0, 0.0, 1.0))
    err("studentt_err_neg_scale", lambda: D.StudentT(3.0, 0.0, T(-1.0)))
    err("studentt_err_shape", lambda: st.sample(3))
    # (``+ 0 * all``: every broadcast parameter reaches the output, or Paddle's broadcast_tensors backward crashes)
    grads("studentt", [[3.0, 1.5], [0.0, 1.0], [1.0, 2.0]], D.StudentT,
          {"logp": lambda d: d.log_prob(T([0.5, -1.0])), "entropy": lambda d: d.entropy() + 0 * (d.loc + d.df),
           "mean": lambda d: d.mean + 0 * (d.df + d.scale), "variance": lambda d: d.variance + 0 * (d.df + d.loc)})
    _draw_grads(paddle, out, "studentt", [[0.0, 1.0], [1.0, 2.0], [3.0, 4.0]],
                lambda loc, scale, df: D.StudentT(df, loc, scale), "sample")
    # Chi2: a Gamma(df / 2, 1 / 2)
    ch = many["chi2"]
    dist("chi2", ch, [T([0.5, 4.0])], draws=n)
    out["chi2_rate"] = _val(ch.rate)
    dist("chi2_f", D.Chi2(3.0), [T([1.0])], draws=())
    out["chi2_kl"] = _val(D.kl_divergence(ch, D.Chi2(T([3.0, 3.0]))))
    out["chi2_gamma_kl"] = _val(D.kl_divergence(ch, D.Gamma(T([1.0, 2.0]), T([1.0, 1.0]))))
    err("chi2_err_int", lambda: D.Chi2(3))
    err("chi2_err_nonpositive", lambda: D.Chi2(T([1.0, 0.0])))
    grads("chi2", [[2.0, 5.0]], D.Chi2, {"logp": lambda d: d.log_prob(T([0.5, 4.0])), "entropy": lambda d: d.entropy(),
                                         "mean": lambda d: d.mean})
    # ContinuousBernoulli: Taylor expansions near probs = 1/2
    cb = many["cbern"]
    dist("cbern", cb, [T([0.3, 0.1, 0.5, 0.9, 1.0]), T([0.0, 1.0, 0.2, -0.5, 1.5])],
         methods=("log_prob", "prob", "cdf"), draws=n)
    out["cbern_icdf"] = _val(cb.icdf(T([0.3, 0.1, 0.5, 0.9, 0.99])))
    out["cbern_probs"] = _val(cb.probs)
    dist("cbern_f", D.ContinuousBernoulli(0.3), [T([0.25])], methods=("log_prob", "cdf"), draws=((),))
    dist("cbern_lims", D.ContinuousBernoulli(T([0.45, 0.7, 0.2, 0.5, 0.61]), lims=(0.4, 0.6)),
         [T([0.25, 0.5, 0.3, 0.5, 0.9])], draws=())
    out["cbern_kl"] = _val(D.kl_divergence(D.ContinuousBernoulli(T([0.2, 0.7])),
                                           D.ContinuousBernoulli(T([0.6, 0.5]))))
    err("cbern_err_kl_shape", lambda: D.kl_divergence(D.ContinuousBernoulli(T([0.2, 0.7])),
                                                      D.ContinuousBernoulli(T([0.6]))))
    err("cbern_err_shape", lambda: cb.rsample(3))
    grads("cbern", [[0.2, 0.4995, 0.8]], D.ContinuousBernoulli,
          {"logp": lambda d: d.log_prob(T([0.3, 0.1, 0.9])), "cdf": lambda d: d.cdf(T([0.3, 0.1, 0.9])),
           "icdf": lambda d: d.icdf(T([0.3, 0.1, 0.9])), "entropy": lambda d: d.entropy(),
           "mean": lambda d: d.mean, "variance": lambda d: d.variance})
    grads("cbern_kl", [[0.2, 0.7], [0.6, 0.5]],
          lambda p, q: (D.ContinuousBernoulli(p), D.ContinuousBernoulli(q)), {"kl": lambda pq: D.kl_divergence(*pq)})
    _draw_grads(paddle, out, "cbern", [[0.2, 0.8]], D.ContinuousBernoulli, "sample")
    _draw_grads(paddle, out, "cbern", [[0.2, 0.8]], D.ContinuousBernoulli, "rsample")
    # Independent
    normal2 = D.Normal(T([[0.0, 1.0], [2.0, 3.0]]), T([[1.0, 2.0], [1.0, 1.0]]))
    ind = D.Independent(normal2, 1)
    dist("independent", ind, [T([[0.5, 0.5], [1.0, 2.0]]), T([0.5, 0.5])])
    dist("independent2", D.Independent(normal2, 2), [T([[0.5, 0.5], [1.0, 2.0]])], props=(), draws=())
    dist("independent_beta", D.Independent(D.Beta(T([[1.0, 2.0]]), T([[2.0, 3.0]])), 1), [T([[0.3, 0.6]])], draws=())
    err("independent_err_base", lambda: D.Independent(T([1.0]), 1))
    err("independent_err_rank0", lambda: D.Independent(normal2, 0))
    err("independent_err_rank3", lambda: D.Independent(normal2, 3))
    grads("independent", [[[0.0, 1.0], [2.0, 3.0]], [[1.0, 2.0], [1.0, 1.0]]],
          lambda m, s: D.Independent(D.Normal(m, s), 1),
          {"logp": lambda d: d.log_prob(T([[0.5, 0.5], [1.0, 2.0]])), "entropy": lambda d: d.entropy()})
    # TransformedDistribution
    base = D.Normal(T([0.0, 1.0]), T([1.0, 2.0]))
    td = D.TransformedDistribution(base, [D.AffineTransform(T(1.0), T(2.0)), D.ExpTransform()])
    dist("td", td, [T([0.5, 3.0]), T([[2.0, 5.0], [1.0, 1.5]])], props=(), entropy=False)
    sb = D.TransformedDistribution(D.Normal(paddle.zeros([3]), paddle.ones([3])), [D.StickBreakingTransform()])
    dist("td_sb", sb, [T([0.1, 0.2, 0.3, 0.4]), T([[0.25, 0.25, 0.25, 0.25], [0.7, 0.1, 0.1, 0.1]])], props=(),
         entropy=False, draws=((3,),))
    rs = D.TransformedDistribution(D.Normal(paddle.zeros([2, 6]), paddle.ones([2, 6])),
                                   [D.ReshapeTransform((6,), (2, 3))])
    dist("td_reshape", rs, [paddle.ones([2, 2, 3]) * 0.5], props=(), entropy=False, draws=((3,),))
    th = D.TransformedDistribution(D.Normal(T([0.0, 0.5]), T([1.0, 1.0])), [D.TanhTransform()])
    dist("td_tanh", th, [T([0.3, -0.9])], props=(), entropy=False, draws=())
    empty = D.TransformedDistribution(base, [])
    dist("td_empty", empty, [T([0.5, 3.0])], props=(), entropy=False, draws=())
    called = D.ExpTransform()(base)
    out["td_called"] = [type(called).__name__, _val(called.log_prob(T([0.5, 3.0])))]
    ind_t = D.TransformedDistribution(D.Normal(paddle.zeros([2, 3]), paddle.ones([2, 3])),
                                      [D.IndependentTransform(D.ExpTransform(), 1)])
    dist("td_indt", ind_t, [T([[0.5, 1.0, 2.0], [1.0, 1.0, 1.0]])], props=(), entropy=False, draws=((3,),))
    err("td_err_base", lambda: D.TransformedDistribution(T([1.0]), [D.ExpTransform()]))
    err("td_err_seq", lambda: D.TransformedDistribution(base, D.ExpTransform()))
    err("td_err_elem", lambda: D.TransformedDistribution(base, [D.ExpTransform(), 1]))
    err("td_err_rank", lambda: D.TransformedDistribution(D.Normal(0.0, 1.0), [D.StickBreakingTransform()]))
    err("td_err_entropy", lambda: td.entropy())
    err("td_err_mean", lambda: td.mean)
    grads("td", [[0.0, 1.0], [1.0, 2.0]],
          lambda m, s: D.TransformedDistribution(D.Normal(m, s), [D.AffineTransform(T(1.0), T(2.0)),
                                                                  D.ExpTransform()]),
          {"logp": lambda d: d.log_prob(T([0.5, 3.0]))})
    grads("td_affine", [[1.0], [2.0]],
          lambda a, b: D.TransformedDistribution(D.Normal(T([0.0]), T([1.0])), [D.AffineTransform(a, b)]),
          {"logp": lambda d: d.log_prob(T([0.5, 3.0]))})
    _draw_grads(paddle, out, "td", [[0.0, 1.0], [1.0, 2.0]],
                lambda m, s: D.TransformedDistribution(D.Normal(m, s), [D.ExpTransform()]), "rsample")
    # LKJCholesky
    lk = D.LKJCholesky(3, 2.0)
    chol = T([[1.0, 0.0, 0.0], [0.6, 0.8, 0.0], [0.3, 0.4, 0.8660254]])
    out["lkj_shapes"] = [list(lk.batch_shape), list(lk.event_shape)]
    out["lkj_logp"] = _val(lk.log_prob(chol))
    out["lkj_logp_b"] = _val(D.LKJCholesky(3, T([0.5, 1.0, 3.0])).log_prob(chol))
    out["lkj_logp2"] = _val(D.LKJCholesky(2, T([0.5, 1.5])).log_prob(T([[[1.0, 0.0], [0.6, 0.8]],
                                                                          [[1.0, 0.0], [-0.28, 0.96]]])))
    for key, d, shape in (("onion_b", many["lkj_onion"], [LKJ_DRAWS]), ("cvine_b", many["lkj_cvine"], [LKJ_DRAWS])):
        s = d.sample(shape)
        out[f"lkj_{key}_sample{len(shape)}"] = [list(s.shape), str(s.numpy().dtype)]
    err("lkj_err_dim", lambda: D.LKJCholesky(1, 1.0))
    err("lkj_err_dim_float", lambda: D.LKJCholesky(2.5, 1.0))
    err("lkj_err_conc", lambda: D.LKJCholesky(3, -1.0))
    err("lkj_err_conc_int", lambda: D.LKJCholesky(3, 1))
    err("lkj_err_method", lambda: D.LKJCholesky(3, 1.0, "x"))
    err("lkj_err_shape", lambda: lk.sample(3))
    grads("lkj", [[0.5, 2.0]], lambda c: D.LKJCholesky(3, c), {"logp": lambda d: d.log_prob(chol)})

    # ExponentialFamily: a subclass given its natural parameters gets the Bregman entropy and KL
    class MyExponential(D.ExponentialFamily):
        def __init__(self, rate: Any) -> None:
            self.rate = rate
            super().__init__(rate.shape)

        @property
        def _natural_parameters(self) -> Any:
            return (-self.rate,)

        def _log_normalizer(self, x: Any) -> Any:
            return -paddle.log(-x)

        @property
        def _mean_carrier_measure(self) -> Any:
            return 0

    out["ef_entropy"] = _val(MyExponential(T([0.5, 2.0])).entropy())
    out["ef_kl"] = _val(D.kl_divergence(MyExponential(T([0.5, 2.0])), MyExponential(T([1.0, 3.0]))))
    grads("ef", [[0.5, 2.0]], MyExponential, {"entropy": lambda d: d.entropy()})
    grads("ef_kl", [[0.5, 2.0], [1.0, 3.0]], lambda p, q: (MyExponential(p), MyExponential(q)),
          {"kl": lambda pq: D.kl_divergence(*pq)})
    # (Paddle's own families define no _mean_carrier_measure: their Bregman entropy is NotImplementedError)
    err("ef_err_beta_entropy", lambda: D.ExponentialFamily.entropy(D.Beta(T([2.0, 0.5]), T([3.0, 0.7]))))
    err("ef_err_exponential_entropy", lambda: D.ExponentialFamily.entropy(D.Exponential(T([2.0, 0.5]))))
    err("ef_err_kl_types", lambda: D.kl_divergence(D.Beta(1.0, 2.0), D.Gamma(1.0, 2.0)))
    err("ef_err_entropy_base", lambda: D.ExponentialFamily([2]).entropy())
    # the pairs kl_divergence has rules for, and some it has none for
    out["kl_pairs"] = [_err(lambda p=p, q=q: D.kl_divergence(p, q)) for p, q in [
        (D.Cauchy(0.0, 1.0), D.Normal(0.0, 1.0)), (D.Gumbel(0.0, 1.0), D.Gumbel(0.0, 2.0)),
        (D.StudentT(3.0, 0.0, 1.0), D.StudentT(4.0, 0.0, 1.0)), (D.Poisson(1.0), D.Geometric(0.5)),
        (D.Binomial(3, 0.5), D.Binomial(4, 0.2))]]


def record_transforms(paddle: Any, out: dict[str, Any]) -> None:
    """The transforms: forward, inverse, both log-Jacobians, shapes, event ranks, gradients and error types."""
    D = paddle.distribution
    T = paddle.to_tensor

    def tr(key: str, t: Any, x: Any, y: Any = None, shape: Any = None) -> None:
        out[key + "_fwd"] = _val(t.forward(x))
        fy = t.forward(x) if y is None else y
        inv = t.inverse(fy)
        out[key + "_inv"] = [_val(v) for v in inv] if isinstance(inv, tuple) else _val(inv)
        out[key + "_fldj"] = _err(lambda: t.forward_log_det_jacobian(x))
        if out[key + "_fldj"] == "none":
            out[key + "_fldj"] = _val(t.forward_log_det_jacobian(x))
        out[key + "_ildj"] = _err(lambda: t.inverse_log_det_jacobian(fy))
        if out[key + "_ildj"] == "none":
            ildj = t.inverse_log_det_jacobian(fy)
            out[key + "_ildj"] = [_val(v) for v in ildj] if isinstance(ildj, tuple) else _val(ildj)
        out[key + "_ranks"] = [t._domain.event_rank, t._codomain.event_rank]
        if shape is not None:
            out[key + "_shapes"] = [list(t.forward_shape(shape)), list(t.inverse_shape(t.forward_shape(shape)))]
        out[key + "_call"] = _val(t(x))

    def g(key: str, make: Any, params: list[Any], x: Any, fns: tuple[str, ...] = ("forward",
                                                                                 "forward_log_det_jacobian")) -> None:
        for fn in fns:
            _grads(paddle, out, f"{key}_{fn}", [x, *params], lambda xx, *ps: (make(*ps), xx),
                   lambda tx, fn=fn: getattr(tx[0], fn)(tx[1]))

    x = T([[-1.0, 0.5, 2.0], [0.3, -0.2, 1.0]])
    xv = [[-1.0, 0.5, 2.0], [0.3, -0.2, 1.0]]
    tr("abs", D.AbsTransform(), x, y=T([1.0, 2.0]), shape=[2, 3])
    aff = D.AffineTransform(T([0.0, 1.0, 2.0]), T([2.0, -3.0, 0.5]))
    tr("affine", aff, x, shape=[2, 3])
    out["affine_shape_b"] = list(D.AffineTransform(T([0.0]), T([[1.0], [2.0]])).forward_shape([3]))
    out["affine_params"] = [_val(aff.loc), _val(aff.scale)]
    g("affine", D.AffineTransform, [[0.0, 1.0, 2.0], [2.0, -3.0, 0.5]], xv)
    chain = D.ChainTransform([D.AffineTransform(T(1.0), T(2.0)), D.ExpTransform()])
    tr("chain", chain, x, shape=[2, 3])
    g("chain", lambda a, b: D.ChainTransform([D.AffineTransform(a, b), D.ExpTransform()]), [1.0, 2.0], xv)
    chain_sb = D.ChainTransform([D.ExpTransform(), D.StickBreakingTransform()])
    tr("chain_sb", chain_sb, x, shape=[2, 3])
    _grads(paddle, out, "chain_sb_fldj", [xv], lambda xx: xx,
           lambda xx: D.ChainTransform([D.ExpTransform(), D.StickBreakingTransform()]).forward_log_det_jacobian(xx))
    tr("exp", D.ExpTransform(), x, shape=[2, 3])
    tr("indep", D.IndependentTransform(D.ExpTransform(), 1), x, shape=[2, 3])
    tr("indep_sig", D.IndependentTransform(D.SigmoidTransform(), 2), x)
    pos = T([[1.0, 0.5, 2.0], [0.3, 0.2, 1.0]])
    tr("power", D.PowerTransform(T([2.0, 0.5, 3.0])), pos, shape=[2, 3])
    g("power", D.PowerTransform, [[2.0, 0.5, 3.0]], [[1.0, 0.5, 2.0], [0.3, 0.2, 1.0]])
    rs = D.ReshapeTransform((2, 3), (3, 2))
    tr("reshape", rs, paddle.arange(24, dtype="float32").reshape([4, 2, 3]), shape=[4, 2, 3])
    out["reshape_event"] = [list(rs.in_event_shape), list(rs.out_event_shape)]
    tr("sigmoid", D.SigmoidTransform(), x, shape=[2, 3])
    tr("tanh", D.TanhTransform(), x, shape=[2, 3])
    tr("softmax", D.SoftmaxTransform(), x, shape=[2, 3])
    tr("stick", D.StickBreakingTransform(), x, shape=[2, 3])
    st = D.StackTransform([D.ExpTransform(), D.AffineTransform(T(1.0), T(2.0)), D.TanhTransform()], axis=1)
    tr("stack", st, x)
    tr("stack0", D.StackTransform([D.ExpTransform(), D.SigmoidTransform()], axis=0), x)
    out["stack_axis"] = st.axis
    for name in ("sigmoid", "tanh", "stick", "exp"):
        cls = {"sigmoid": D.SigmoidTransform, "tanh": D.TanhTransform, "stick": D.StickBreakingTransform,
               "exp": D.ExpTransform}[name]
        _grads(paddle, out, f"{name}_fwd", [xv], lambda xx: xx, lambda xx, c=cls: c().forward(xx))
        _grads(paddle, out, f"{name}_fldj", [xv], lambda xx: xx, lambda xx, c=cls: c().forward_log_det_jacobian(xx))
    _grads(paddle, out, "softmax_fwd", [xv], lambda xx: xx, lambda xx: D.SoftmaxTransform().forward(xx) * T([1.0, 2.0, 3.0]))
    _grads(paddle, out, "stick_inv", [[[0.2, 0.3, 0.1, 0.4]]], lambda y: y,
           lambda y: D.StickBreakingTransform().inverse(y))
    out["chain_of_call"] = type(D.ExpTransform()(D.TanhTransform())).__name__
    out["chain_call_value"] = _val(D.ExpTransform()(D.TanhTransform())(x))
    out["chain_empty_fwd"] = _err(lambda: D.ChainTransform([]).forward(x))
    # the errors
    out.update({"tr_err_" + k: _err(f) for k, f in {
        "forward_float": lambda: D.ExpTransform().forward(1.0),
        "inverse_list": lambda: D.ExpTransform().inverse([1.0]),
        "fldj_float": lambda: D.ExpTransform().forward_log_det_jacobian(1.0),
        "ildj_float": lambda: D.ExpTransform().inverse_log_det_jacobian(1.0),
        "forward_rank": lambda: D.SoftmaxTransform().forward(T(1.0)),
        "inverse_rank": lambda: D.StickBreakingTransform().inverse(T(1.0)),
        "abs_fldj": lambda: D.AbsTransform().forward_log_det_jacobian(x),
        "softmax_fldj": lambda: D.SoftmaxTransform().forward_log_det_jacobian(x),
        "affine_float": lambda: D.AffineTransform(0.0, 1.0),
        "affine_scale": lambda: D.AffineTransform(T(0.0), 1.0),
        "power_float": lambda: D.PowerTransform(2.0),
        "chain_type": lambda: D.ChainTransform(D.ExpTransform()),
        "chain_elem": lambda: D.ChainTransform([D.ExpTransform(), 1]),
        "indep_base": lambda: D.IndependentTransform(1, 1),
        "indep_rank": lambda: D.IndependentTransform(D.ExpTransform(), 0),
        "reshape_numel": lambda: D.ReshapeTransform((2, 3), (4, 2)),
        "reshape_type": lambda: D.ReshapeTransform(6, (6,)),
        "reshape_fshape": lambda: D.ReshapeTransform((2, 3), (3, 2)).forward_shape((4, 3, 3)),
        "reshape_ishape": lambda: D.ReshapeTransform((2, 3), (3, 2)).inverse_shape((2,)),
        "softmax_shape": lambda: D.SoftmaxTransform().forward_shape([]),
        "stick_shape": lambda: D.StickBreakingTransform().forward_shape([]),
        "stack_empty": lambda: D.StackTransform([]),
        "stack_elem": lambda: D.StackTransform([D.ExpTransform(), 1]),
        "stack_axis": lambda: D.StackTransform([D.ExpTransform()], axis=1.0),
        "stack_size": lambda: D.StackTransform([D.ExpTransform(), D.ExpTransform()], axis=1).forward(x),
        "stack_dim": lambda: D.StackTransform([D.ExpTransform(), D.ExpTransform()], axis=3).forward(x),
        "shape_type": lambda: D.ExpTransform().forward_shape(3),
        "ishape_type": lambda: D.ExpTransform().inverse_shape(3),
        "base_forward": lambda: D.Transform().forward(x),
        "base_inverse": lambda: D.Transform().inverse(x),
        "base_fldj": lambda: D.Transform().forward_log_det_jacobian(x),
    }.items()})
