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


def record(paddle: Any) -> dict[str, Any]:
    D = paddle.distribution
    T = paddle.to_tensor
    out: dict[str, Any] = {}

    def dist(key: str, d: Any, values: Any, props: tuple[str, ...] = ("mean", "variance"),
             shapes: bool = True) -> None:
        if shapes:
            out[key + "_shapes"] = [list(d.batch_shape), list(d.event_shape)]
        for p in props:
            out[f"{key}_{p}"] = _val(getattr(d, p))
        out[key + "_entropy"] = _val(d.entropy())
        for i, v in enumerate(values):
            out[f"{key}_logp{i}"] = _val(d.log_prob(v))
            out[f"{key}_prob{i}"] = _val(d.prob(v))
        s = d.sample([3])
        out[key + "_sample"] = [list(s.shape), str(s.numpy().dtype)]
        s = d.sample([])
        out[key + "_sample0"] = [list(s.shape), str(s.numpy().dtype)]

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
    return out
