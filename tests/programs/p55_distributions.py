"""Probabilistic modelling with paddle.distribution: Normal, Uniform, Categorical, Bernoulli, Beta, Dirichlet,
Gamma, Exponential, Laplace, LogNormal, Gumbel, Multinomial, MultivariateNormal (covariance, precision and
scale_tril), Independent and TransformedDistribution through ExpTransform, AffineTransform, SigmoidTransform,
TanhTransform, PowerTransform, AbsTransform and ChainTransform (forward/inverse/log-det-Jacobian, shapes);
log_prob, prob, entropy, mean, variance, cdf, icdf where they exist, batch/event shapes, kl_divergence pairs and a
rule of one's own with register_kl; gradients of log_prob and kl with respect to parameters. Then a mixture
density network trained 20 steps on the negative log-likelihood (Categorical mixing weights over Normals, by
logsumexp), and a small variational-inference model (mean-field Normal posterior, the reparameterisation
z = loc + scale * eps with noise from numpy, the KL to a Normal prior plus a Bernoulli likelihood). Sampling
(sample/rsample) is checked only by shape, dtype and stop_gradient, and the gradient of rsample's sum with
respect to loc (which does not depend on the draw): Paddle's random stream is not reproduced.

Left out: the gradient of Bernoulli.log_prob with respect to probs crashes Paddle 3.3.1 (a segmentation fault in
broadcast_tensors' backward); pylayer_jax gives the gradient, so the VI model's likelihood is written with
F.binary_cross_entropy and Bernoulli.log_prob is recorded on detached probabilities. Paddle's register_kl dispatch fails with a KeyError for
a pair of two different classes (it looks the pair up reversed); pylayer_jax finds the rule, so the registered
rule here is for a (Scaled, Scaled) pair.

Kept on purpose (not mirrored): Uniform's mean, variance and kl_divergence, and Geometric's log_prob (Paddle has only
log_pmf) raise NotImplementedError in Paddle and give their values here; StackTransform's log-det-Jacobian with an
AffineTransform of 0-D loc and scale fails in Paddle (paddle.stack of shapes [2] and []), and is broadcast here; Normal(loc, scale) with Tensors of different shapes keeps loc's shape as batch_shape and
mean in Paddle (batch_shape [] for a scalar loc and a [2] scale), and broadcasts them here."""
import json
import os

import numpy as np
import paddle
import paddle.nn as nn
import paddle.nn.functional as F
from paddle.distribution import (
    AbsTransform,
    AffineTransform,
    Bernoulli,
    Beta,
    Categorical,
    ChainTransform,
    Dirichlet,
    Exponential,
    ExpTransform,
    Gamma,
    Gumbel,
    Independent,
    Laplace,
    LogNormal,
    Multinomial,
    MultivariateNormal,
    Normal,
    PowerTransform,
    SigmoidTransform,
    TanhTransform,
    TransformedDistribution,
    Uniform,
    kl_divergence,
    register_kl,
)

rng = np.random.default_rng(0)
rec = {}


def v(t):
    a = np.asarray(t.numpy())
    return a.tolist() if a.dtype.kind in "biu" else a.astype(np.float64).tolist()


def tv(f, *args):
    try:
        return v(f(*args))
    except (NotImplementedError, ValueError) as e:
        return type(e).__name__


def T(a, grad=False):
    return paddle.to_tensor(np.asarray(a, dtype="float32"), stop_gradient=not grad)


# ---------- elementary distributions: moments, densities, cdf/icdf, entropy ----------
x3 = T([0.2, 0.5, 0.9])
loc, scale = T([0.0, 1.0, -0.5], True), T([1.0, 0.5, 2.0], True)
dists = {
    "normal": Normal(loc, scale),
    "uniform": Uniform(T([0.0, 0.1, -1.0]), T([1.0, 2.0, 3.0])),
    "laplace": Laplace(T([0.0, 0.3, 1.0]), T([1.0, 0.5, 2.0])),
    "lognormal": LogNormal(T([0.0, 0.2, -0.3]), T([0.5, 1.0, 0.8])),
    "gumbel": Gumbel(T([0.0, 0.5, 1.0]), T([1.0, 2.0, 0.7])),
    "exponential": Exponential(T([0.5, 1.0, 3.0])),
    "gamma": Gamma(T([2.0, 0.5, 3.0]), T([1.0, 2.0, 0.5])),
    "beta": Beta(T([2.0, 0.5, 3.0]), T([1.5, 2.0, 0.7])),
}
for name, d in dists.items():
    r = {"lp": v(d.log_prob(x3)), "prob": v(d.prob(x3)), "ent": tv(d.entropy), "batch": list(d.batch_shape),
         "event": list(d.event_shape)}
    for m in ("cdf", "icdf"):
        if hasattr(d, m):
            r[m] = tv(getattr(d, m), x3)
    if name != "uniform":
        r["mean"], r["var"] = v(d.mean), v(d.variance)
    s = d.sample([4])
    r["sample"] = [list(s.shape), str(s.dtype), s.stop_gradient]
    rec[name] = r

# gradients of log_prob and entropy of the Normal with respect to its parameters
(dists["normal"].log_prob(x3).sum() + 0.5 * dists["normal"].entropy().sum()).backward()
rec["normal_grads"] = [v(loc.grad), v(scale.grad)]
loc.clear_grad()
rs = Normal(loc, scale).rsample([5])
rs.sum().backward()
rec["normal_rsample"] = [list(rs.shape), rs.stop_gradient, v(loc.grad)]

# python-float parameters and broadcasting between loc and scale
try:
    Normal(0.5, T([1.0, 2.0]))
    rec["normal_mixed_args"] = "none"
except ValueError as e:
    rec["normal_mixed_args"] = type(e).__name__
nb = Normal(T(0.5), T([1.0, 2.0]))
rec["normal_broadcast"] = [v(nb.log_prob(T([[0.0], [1.0]]))), v(nb.variance), v(nb.entropy())]
nf = Normal(1.0, 2.0)
rec["normal_float"] = [v(nf.log_prob(T(0.3))), v(nf.entropy()), list(nf.batch_shape), v(nf.mean),
                       str(nf.loc.dtype)]

# discrete distributions
logits = T(rng.standard_normal((2, 4)), True)
cat = Categorical(logits)
lab = paddle.to_tensor([1, 3])
rec["categorical"] = {"lp": v(cat.log_prob(lab)), "probs": v(cat.probs(lab)), "ent": v(cat.entropy()),
                      "sample": [list(cat.sample([3]).shape), str(cat.sample([3]).dtype)]}
(cat.log_prob(lab).sum() - cat.entropy().sum()).backward()
rec["categorical"]["grad"] = v(logits.grad)
p = T([0.2, 0.7, 0.5], True)
bern = Bernoulli(p)
yb = T([1.0, 0.0, 1.0])
rec["bernoulli"] = {"lp": v(bern.log_prob(yb)), "prob": v(bern.prob(yb)), "ent": v(bern.entropy()),
                    "mean": v(bern.mean), "var": v(bern.variance), "cdf": v(bern.cdf(T([0.0, 0.5, 1.0]))),
                    "sample": [list(bern.sample([2]).shape), str(bern.sample([2]).dtype)]}
mprobs = T([0.1, 0.3, 0.6])
mult = Multinomial(5, mprobs)
counts = T([[1.0, 1.0, 3.0], [0.0, 2.0, 3.0]])
rec["multinomial"] = {"lp": v(mult.log_prob(counts)), "prob": v(mult.prob(counts)), "mean": v(mult.mean),
                      "var": v(mult.variance), "ent": v(mult.entropy()), "sample": list(mult.sample([2]).shape)}

# multivariate distributions
conc = T([1.5, 2.0, 0.8], True)
dir_ = Dirichlet(conc)
xs = T([[0.2, 0.5, 0.3], [0.6, 0.3, 0.1]])
rec["dirichlet"] = {"lp": v(dir_.log_prob(xs)), "mean": v(dir_.mean), "var": v(dir_.variance),
                    "ent": v(dir_.entropy()), "event": list(dir_.event_shape), "batch": list(dir_.batch_shape)}
dir_.log_prob(xs).sum().backward()
rec["dirichlet"]["grad"] = v(conc.grad)
A = rng.standard_normal((3, 3)).astype("float32")
cov = A @ A.T + np.eye(3, dtype="float32")
mvn_loc = T([0.1, -0.2, 0.3], True)
mvn = MultivariateNormal(mvn_loc, covariance_matrix=T(cov))
mvn_p = MultivariateNormal(T([0.0, 0.0, 0.0]), precision_matrix=T(np.linalg.inv(cov)))
mvn_s = MultivariateNormal(T([0.0, 0.5, 0.0]), scale_tril=T(np.linalg.cholesky(cov)))
xm = T(rng.standard_normal((2, 3)))
rec["mvn"] = {"lp": v(mvn.log_prob(xm)), "lp_prec": v(mvn_p.log_prob(xm)), "lp_tril": v(mvn_s.log_prob(xm)),
              "ent": v(mvn.entropy()), "mean": v(mvn.mean), "var": v(mvn.variance),
              "kl": v(kl_divergence(mvn, mvn_s)), "event": list(mvn.event_shape),
              "rsample": list(mvn.rsample([4]).shape)}
mvn.log_prob(xm).sum().backward()
rec["mvn"]["grad"] = v(mvn_loc.grad)

# Independent reinterprets batch dimensions as event dimensions
base = Normal(T(rng.standard_normal((2, 3))), T(np.abs(rng.standard_normal((2, 3))) + 0.5))
ind = Independent(base, 1)
xi = T(rng.standard_normal((2, 3)))
rec["independent"] = {"lp": v(ind.log_prob(xi)), "ent": v(ind.entropy()), "batch": list(ind.batch_shape),
                      "event": list(ind.event_shape), "mean": v(ind.mean), "var": v(ind.variance)}

# transforms and transformed distributions
xt = T([0.3, -0.4, 1.2])
trs = {"exp": ExpTransform(), "affine": AffineTransform(T(1.0), T(2.0)), "sigmoid": SigmoidTransform(),
       "tanh": TanhTransform(), "power": PowerTransform(T(2.0)), "abs": AbsTransform(),
       "chain": ChainTransform([AffineTransform(T(0.5), T(3.0)), TanhTransform()])}
for name, tr in trs.items():
    y = tr.forward(xt)
    r = {"fwd": v(y), "fwd_shape": tr.forward_shape([3])}
    if name != "abs":
        r["inv"] = v(tr.inverse(y))
    if name not in ("abs", "power"):
        r["fldj"] = v(tr.forward_log_det_jacobian(xt))
        r["ildj"] = v(tr.inverse_log_det_jacobian(y))
    rec["tr_" + name] = r
rec["tr_power_pos"] = v(trs["power"].forward_log_det_jacobian(T([0.5, 1.5])))
rec["tr_abs_inv"] = [v(t) for t in trs["abs"].inverse(T([0.5, 1.5]))]
tloc, tscale = T([0.0, 0.5], True), T([1.0, 0.7], True)
lognorm_t = TransformedDistribution(Normal(tloc, tscale), [ExpTransform()])
ln = LogNormal(T([0.0, 0.5]), T([1.0, 0.7]))
pos = T([0.5, 2.0])
rec["transformed_exp"] = [v(lognorm_t.log_prob(pos)), v(ln.log_prob(pos)), list(lognorm_t.sample([3]).shape)]
lognorm_t.log_prob(pos).sum().backward()
rec["transformed_grad"] = [v(tloc.grad), v(tscale.grad)]
squash = TransformedDistribution(Normal(T([0.0, 0.3]), T([1.0, 0.5])),
                                 [AffineTransform(T(0.2), T(1.5)), TanhTransform()])
rec["transformed_tanh"] = v(squash.log_prob(T([0.1, -0.6])))
logit_n = TransformedDistribution(Normal(T(0.0), T(1.0)), [SigmoidTransform()])
rec["transformed_sigmoid"] = v(logit_n.log_prob(T([0.2, 0.5, 0.9])))

# more distributions: heavy tails, counts, continuous Bernoulli, LKJ
more = {
    "cauchy": (paddle.distribution.Cauchy(T([0.0, 1.0]), T([1.0, 0.5])), T([0.3, 2.0])),
    "studentt": (paddle.distribution.StudentT(T([3.0, 5.0]), T([0.0, 1.0]), T([1.0, 2.0])), T([0.3, 2.0])),
    "chi2": (paddle.distribution.Chi2(T([2.0, 3.5])), T([0.7, 2.0])),
    "poisson": (paddle.distribution.Poisson(T([1.5, 4.0])), T([2.0, 3.0])),
    "binomial": (paddle.distribution.Binomial(paddle.to_tensor([5, 8]), T([0.3, 0.6])), T([2.0, 5.0])),
    "geometric": (paddle.distribution.Geometric(T([0.3, 0.6])), T([2.0, 0.0])),
    "cbern": (paddle.distribution.ContinuousBernoulli(T([0.3, 0.8])), T([0.2, 0.9])),
}
for name, (d, x) in more.items():
    r = {"lp": tv(d.log_prob, x) if name != "geometric" else None, "mean": tv(lambda d=d: d.mean), "var": tv(lambda d=d: d.variance),
         "ent": tv(d.entropy),
         "batch": list(d.batch_shape), "sample": [list(d.sample([3]).shape), str(d.sample([3]).dtype)]}
    if hasattr(d, "cdf"):
        r["cdf"] = tv(d.cdf, x)
    if hasattr(d, "icdf"):
        r["icdf"] = tv(d.icdf, T([0.2, 0.7]))
    if hasattr(d, "log_pmf"):
        r["pmf"] = [v(d.log_pmf(x)), v(d.pmf(x))]
    rec["more_" + name] = r
rec["kl_more"] = [v(kl_divergence(more["cauchy"][0], paddle.distribution.Cauchy(T([0.5, 0.0]), T([2.0, 1.0])))),
                  v(kl_divergence(more["poisson"][0], paddle.distribution.Poisson(T([1.0, 2.0])))),
                  v(kl_divergence(more["binomial"][0], paddle.distribution.Binomial(paddle.to_tensor([5, 8]),
                                                                                     T([0.5, 0.5])))),
                  v(kl_divergence(more["cbern"][0], paddle.distribution.ContinuousBernoulli(T([0.5, 0.6]))))]
lkj = paddle.distribution.LKJCholesky(3, 2.0)
Lc = np.linalg.cholesky(np.array([[1.0, 0.3, 0.1], [0.3, 1.0, -0.2], [0.1, -0.2, 1.0]])).astype("float32")
rec["lkj"] = [v(lkj.log_prob(T(Lc))), list(lkj.sample([2]).shape)]

# more transforms: stick-breaking, softmax, reshape, stack, independent
sb = paddle.distribution.StickBreakingTransform()
xs3 = T([0.2, -0.3, 0.5])
ys = sb.forward(xs3)
rec["tr_stick"] = [v(ys), v(sb.inverse(ys)), v(sb.forward_log_det_jacobian(xs3)), sb.forward_shape([3]),
                   sb.inverse_shape([4])]
sm = paddle.distribution.SoftmaxTransform()
rec["tr_softmax"] = [v(sm.forward(xs3)), v(sm.inverse(sm.forward(xs3))), sm.forward_shape([2, 3])]
rs_ = paddle.distribution.ReshapeTransform((2, 3), (3, 2))
x23 = T(np.arange(6).reshape(2, 3) * 0.1)
rec["tr_reshape"] = [v(rs_.forward(x23)), v(rs_.inverse(rs_.forward(x23))), rs_.forward_shape([4, 2, 3]),
                     v(rs_.forward_log_det_jacobian(x23))]
st = paddle.distribution.StackTransform([ExpTransform(), AffineTransform(T([1.0, 1.0]), T([3.0, 3.0]))], axis=1)
x22 = T([[0.1, 0.2], [0.3, -0.4]])
rec["tr_stack"] = [v(st.forward(x22)), v(st.inverse(st.forward(x22))), v(st.forward_log_det_jacobian(x22))]
it = paddle.distribution.IndependentTransform(ExpTransform(), 1)
rec["tr_independent"] = [v(it.forward(x22)), v(it.forward_log_det_jacobian(x22)), v(it.inverse_log_det_jacobian(
    it.forward(x22)))]
ch = ChainTransform([ExpTransform(), AffineTransform(T(-1.0), T(0.5)), PowerTransform(T(3.0))])
rec["tr_chain3"] = [v(ch.forward(xs3)), v(ch.inverse(ch.forward(xs3))), v(ch.forward_log_det_jacobian(xs3))]
td_ind = Independent(TransformedDistribution(Normal(T([[0.0, 0.1], [0.2, 0.3]]), T([[1.0, 0.5], [0.7, 1.2]])),
                                             [ExpTransform()]), 1)
rec["td_independent"] = [v(td_ind.log_prob(T([[0.5, 1.5], [2.0, 0.3]]))), list(td_ind.batch_shape),
                         list(td_ind.event_shape)]
cat3 = Categorical(T(rng.standard_normal((2, 3, 4))))
rec["cat_nd"] = [v(cat3.log_prob(paddle.to_tensor([[[1], [0], [3]], [[2], [2], [0]]]))),
                 tv(cat3.log_prob, paddle.to_tensor([[1, 0, 3], [2, 2, 0]])), v(cat3.entropy())]
rec["mult_batch"] = v(Multinomial(4, T([[0.2, 0.3, 0.5], [0.6, 0.2, 0.2]])).log_prob(T([[1.0, 1.0, 2.0],
                                                                                        [4.0, 0.0, 0.0]])))

# kl_divergence pairs, their gradients, and a registered rule
kp, kq = Normal(loc, scale), Normal(T([0.5, 0.0, 0.0]), T([1.0, 1.0, 1.0]))
loc.clear_grad()
scale.clear_grad()
kl = kl_divergence(kp, kq)
kl.sum().backward()
rec["kl_normal"] = [v(kl), v(loc.grad), v(scale.grad)]
pairs = {
    "categorical": (Categorical(T([[0.1, 0.5, -0.3]])), Categorical(T([[0.0, 0.2, 0.1]]))),
    "bernoulli": (Bernoulli(T([0.3, 0.8])), Bernoulli(T([0.5, 0.6]))),
    "beta": (Beta(T([2.0]), T([3.0])), Beta(T([1.0]), T([1.5]))),
    "dirichlet": (Dirichlet(T([1.0, 2.0, 3.0])), Dirichlet(T([2.0, 2.0, 2.0]))),
    "gamma": (Gamma(T([2.0]), T([1.0])), Gamma(T([3.0]), T([2.0]))),
    "exponential": (Exponential(T([1.0, 2.0])), Exponential(T([0.5, 0.5]))),
    "laplace": (Laplace(T([0.0]), T([1.0])), Laplace(T([1.0]), T([2.0]))),
    "lognormal": (LogNormal(T([0.0]), T([1.0])), LogNormal(T([0.5]), T([0.5]))),
}
rec["kl"] = {k: v(kl_divergence(a, b)) for k, (a, b) in pairs.items()}
rec["kl_method"] = v(pairs["laplace"][0].kl_divergence(pairs["laplace"][1]))


class Scaled(Normal):
    pass


@register_kl(Scaled, Scaled)
def _kl_scaled(p, q):
    return (p.loc - q.loc).abs() + p.scale / q.scale


rec["kl_registered"] = v(kl_divergence(Scaled(T([0.5]), T([2.0])), Scaled(T([0.0]), T([1.0]))))
rec["kl_inherited"] = v(kl_divergence(Scaled(T([0.5]), T([2.0])), Normal(T([0.0]), T([1.0]))))
try:
    kl_divergence(Gumbel(T([0.0]), T([1.0])), Beta(T([1.0]), T([1.0])))
    rec["kl_missing"] = "none"
except NotImplementedError as e:
    rec["kl_missing"] = type(e).__name__

# ---------- a mixture density network on 1-d data ----------
N = 64
xd = rng.uniform(-1, 1, (N, 1)).astype("float32")
yd = np.where(rng.random((N, 1)) < 0.5, np.sin(3 * xd), -np.sin(3 * xd) + 0.5) + 0.1 * rng.standard_normal((N, 1))
yd = yd.astype("float32")
K = 3


class MDN(nn.Layer):
    def __init__(self):
        super().__init__()
        self.body = nn.Sequential(nn.Linear(1, 16), nn.Tanh())
        self.pi = nn.Linear(16, K)
        self.mu = nn.Linear(16, K)
        self.ls = nn.Linear(16, K)

    def forward(self, x):
        h = self.body(x)
        return self.pi(h), self.mu(h), self.ls(h).clip(-3.0, 3.0)


mdn = MDN()
r = np.random.default_rng(1)
mdn.set_state_dict({k: (r.standard_normal(p_.shape) * 0.5).astype("float32") for k, p_ in mdn.state_dict().items()})
opt = paddle.optimizer.Adam(learning_rate=0.02, parameters=mdn.parameters())
rec["mdn_loss"] = []
for step in range(20):
    i = (step % 4) * 16
    x, y = paddle.to_tensor(xd[i:i + 16]), paddle.to_tensor(yd[i:i + 16])
    pl, mu, ls = mdn(x)
    comp = Normal(mu, paddle.exp(ls))
    mix = Categorical(pl)
    log_w = F.log_softmax(pl, axis=-1)
    lp = paddle.logsumexp(log_w + comp.log_prob(y.expand([16, K])), axis=-1)
    loss = -lp.mean() + 0.01 * mix.entropy().mean()
    loss.backward()
    opt.step()
    opt.clear_grad()
    rec["mdn_loss"].append(loss.item())
with paddle.no_grad():
    pl, mu, ls = mdn(paddle.to_tensor(xd[:5]))
    rec["mdn_eval"] = [v(F.softmax(pl, -1)), v(mu), v(ls)]

# ---------- variational inference: Bernoulli likelihood with a latent Normal ----------
D, Z = 6, 2
Xb = (rng.random((32, D)) < 0.3).astype("float32")


class VI(nn.Layer):
    def __init__(self):
        super().__init__()
        self.enc = nn.Linear(D, 2 * Z)
        self.dec = nn.Linear(Z, D)

    def forward(self, x, eps):
        h = self.enc(x)
        q = Normal(h[:, :Z], F.softplus(h[:, Z:]) + 1e-3)
        z = q.loc + q.scale * eps
        probs = F.sigmoid(self.dec(z))
        like = Bernoulli(probs.detach())
        prior = Normal(paddle.zeros([Z]), paddle.ones([Z]))
        kl = kl_divergence(q, prior).sum(-1)
        ll = -F.binary_cross_entropy(probs, x, reduction="none").sum(-1)
        lqz = q.log_prob(z).sum(-1)
        return (kl - ll).mean(), like.log_prob(x).sum(-1).mean(), lqz.mean()


vi = VI()
vi.set_state_dict({k: (r.standard_normal(p_.shape) * 0.3).astype("float32") for k, p_ in vi.state_dict().items()})
opt = paddle.optimizer.SGD(learning_rate=0.1, parameters=vi.parameters())
rec["vi"] = []
for step in range(20):
    i = (step % 4) * 8
    eps = paddle.to_tensor(rng.standard_normal((8, Z)).astype("float32"))
    loss, ll, lqz = vi(paddle.to_tensor(Xb[i:i + 8]), eps)
    loss.backward()
    if step == 0:
        rec["vi_grads0"] = {n: v(p_.grad) for n, p_ in vi.named_parameters()}
    opt.step()
    opt.clear_grad()
    rec["vi"].append([loss.item(), ll.item(), lqz.item()])
rec["vi_params"] = {k: v(t) for k, t in vi.state_dict().items()}

with open(os.environ["PROGRAM_OUT"], "w") as f:
    json.dump(rec, f)
