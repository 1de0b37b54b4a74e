"""Reinforcement-learning style code with paddle.distribution: an actor-critic over fixed, numpy-made episodes
(actions chosen from numpy, not sampled, so the run is deterministic). A policy network gives Categorical
distributions, both from raw logits (``Categorical(logits=...)``: entropy, kl_divergence) and from softmax
probabilities (``Categorical(probs)``: probs / log_prob of the taken actions, with a [batch, 1] index and the 1-D
index that Paddle looks up in every row); discounted returns by a Python loop and by paddle.flip / cumsum;
generalized advantage estimation; advantage normalisation (mean / std / var); REINFORCE with an entropy bonus;
log-probs of actions by index_sample / take_along_axis / one_hot / cross_entropy; PPO's clipped ratio loss (exp of
log-prob differences, paddle.clip, paddle.minimum) with a value head trained by smooth_l1_loss / SmoothL1Loss; Adam
with ClipGradByGlobalNorm. Then a Gaussian policy: Normal(loc, scale), Independent(Normal, 1 or 2),
TransformedDistribution(Normal, [TanhTransform()]) and chains of AffineTransform / TanhTransform, reparameterised
actions ``loc + scale * eps`` (eps from numpy) whose log_prob is differentiated; kl_divergence between Normals and
between Categoricals (the function and the methods) and its gradients; a few SAC-style actor steps against a
frozen critic; the shapes and dtypes of sample / rsample draws (float64 and Python-number parameters). Recorded:
losses, log-probs, entropies, KL values, gradients, shapes and dtypes.

Left out: ``Categorical.batch_shape`` raises AttributeError in Paddle 3.3.1 (pylayer_jax gives the batch shape);
kl_divergence of two Independent distributions has no rule in Paddle (NotImplementedError, recorded as such)."""
import json
import os

import numpy as np
import paddle
import paddle.nn as nn
import paddle.nn.functional as F
from paddle.distribution import (
    AffineTransform,
    Categorical,
    ChainTransform,
    Independent,
    Normal,
    TanhTransform,
    TransformedDistribution,
    kl_divergence,
)

OBS, ACT, HID, N_EP, T = 6, 4, 16, 4, 8
GAMMA = 0.9
rng = np.random.default_rng(0)
obs = rng.standard_normal((N_EP, T, OBS)).astype("float32")
actions = rng.integers(0, ACT, size=(N_EP, T)).astype("int64")
rewards = rng.standard_normal((N_EP, T)).astype("float32")
rec = {}


def v(t):
    return t.numpy().astype("float64").tolist()


def set_params(layer, seed, scale=0.4):
    r = np.random.default_rng(seed)
    layer.set_state_dict({k: (r.standard_normal(p.shape) * scale).astype("float32")
                          for k, p in layer.state_dict().items()})


class ActorCritic(nn.Layer):
    def __init__(self):
        super().__init__()
        self.body = nn.Sequential(nn.Linear(OBS, HID), nn.Tanh(), nn.Linear(HID, HID), nn.Tanh())
        self.pi = nn.Linear(HID, ACT)
        self.v = nn.Linear(HID, 1)

    def forward(self, x):
        h = self.body(x)
        return self.pi(h), self.v(h).squeeze(-1)


# ---- discounted returns: a Python loop and flip / cumsum
r_t = paddle.to_tensor(rewards)
returns = []
g = paddle.zeros([N_EP])
for t in reversed(range(T)):
    g = r_t[:, t] + GAMMA * g
    returns.insert(0, g)
returns = paddle.stack(returns, axis=1)
disc = paddle.to_tensor(GAMMA ** np.arange(T), dtype="float32")
returns2 = paddle.flip(paddle.cumsum(paddle.flip(r_t * disc, axis=[1]), axis=1), axis=[1]) / disc
rec["returns"] = v(returns)
rec["returns_flip_cumsum"] = v(returns2)
rec["returns_shape_dtype"] = [returns.shape, str(returns.dtype), returns2.shape, str(returns2.dtype)]

# ---- REINFORCE with an entropy bonus
model = ActorCritic()
set_params(model, 1)
opt = paddle.optimizer.Adam(learning_rate=0.01, parameters=model.parameters(),
                            grad_clip=nn.ClipGradByGlobalNorm(0.5))
x_all = paddle.to_tensor(obs.reshape(-1, OBS))
a_all = paddle.to_tensor(actions.reshape(-1))
ret_all = returns.reshape([-1])
rec["reinforce"] = {"loss": [], "logp_mean": [], "entropy": [], "gnorm": []}
for _ in range(12):
    logits, value = model(x_all)
    probs = F.softmax(logits, axis=-1)
    dist = Categorical(probs)
    logp = dist.log_prob(a_all.unsqueeze(-1)).squeeze(-1)
    ent = Categorical(logits=logits).entropy()
    adv = ret_all - value.detach()
    adv = (adv - adv.mean()) / (adv.std() + 1e-8)
    loss = -(logp * adv).mean() - 0.01 * ent.mean()
    loss.backward()
    rec["reinforce"]["gnorm"].append(float(sum((p.grad ** 2).sum() for p in model.parameters() if p.grad is not None)))
    opt.step()
    opt.clear_grad()
    rec["reinforce"]["loss"].append(loss.item())
    rec["reinforce"]["logp_mean"].append(logp.mean().item())
    rec["reinforce"]["entropy"].append(ent.mean().item())
rec["reinforce"]["value_grad_none"] = model.v.weight.grad is None

# ---- distribution details users look at
logits, _ = model(x_all[:3])
probs = F.softmax(logits, -1)
d_p = Categorical(probs)
d_l = Categorical(logits=logits)
rec["cat_probs"] = v(d_p.probs(a_all[:3].unsqueeze(-1)))
rec["cat_log_prob_1d"] = [d_p.log_prob(a_all[:3]).shape, v(d_p.log_prob(a_all[:3]))]
rec["cat_entropy"] = [v(d_l.entropy()), v(d_p.entropy()), d_l.entropy().shape]
rec["cat_kl"] = [v(kl_divergence(d_l, Categorical(logits=logits * 0.5))),
                 v(d_l.kl_divergence(Categorical(logits=logits.flip([0])))),
                 kl_divergence(d_l, Categorical(logits=logits * 0.5)).shape]
rec["cat_attrs"] = [str(d_l.logits.dtype), d_l.name]
single = Categorical(paddle.to_tensor([0.1, 0.2, 0.3, 0.4]))
rec["cat_single"] = [v(single.probs(paddle.to_tensor([3, 0, 2]))), v(single.log_prob(paddle.to_tensor([[1, 1], [0, 3]]))),
                     v(single.entropy()), single.entropy().shape]

# ---- PPO: clipped ratio with a value head
old_model = ActorCritic()
old_model.set_state_dict(model.state_dict())
with paddle.no_grad():
    old_logits, _ = old_model(x_all)
    old_logp = Categorical(F.softmax(old_logits, -1)).log_prob(a_all.unsqueeze(-1)).squeeze(-1)
adv_fixed = ret_all - ret_all.mean()
adv_fixed = adv_fixed / (adv_fixed.std(unbiased=False) + 1e-8)
clip_eps = 0.2
ppo_opt = paddle.optimizer.Adam(learning_rate=0.02, parameters=model.parameters(),
                                grad_clip=nn.ClipGradByGlobalNorm(1.0))
rec["ppo"] = {"loss": [], "pi_loss": [], "v_loss": [], "ratio_range": [], "approx_kl": [], "clip_frac": []}
for _ in range(10):
    logits, value = model(x_all)
    logp = Categorical(F.softmax(logits, -1)).log_prob(a_all.unsqueeze(-1)).squeeze(-1)
    ratio = paddle.exp(logp - old_logp)
    surr1 = ratio * adv_fixed
    surr2 = paddle.clip(ratio, 1.0 - clip_eps, 1.0 + clip_eps) * adv_fixed
    pi_loss = -paddle.minimum(surr1, surr2).mean()
    v_loss = F.smooth_l1_loss(value, ret_all, delta=1.0)
    ent = Categorical(logits=logits).entropy().mean()
    loss = pi_loss + 0.5 * v_loss - 0.01 * ent
    loss.backward()
    ppo_opt.step()
    ppo_opt.clear_grad()
    rec["ppo"]["loss"].append(loss.item())
    rec["ppo"]["pi_loss"].append(pi_loss.item())
    rec["ppo"]["v_loss"].append(v_loss.item())
    rec["ppo"]["ratio_range"].append([ratio.min().item(), ratio.max().item()])
    rec["ppo"]["approx_kl"].append((old_logp - logp).mean().item())
    rec["ppo"]["clip_frac"].append(((ratio - 1.0).abs() > clip_eps).astype("float32").mean().item())
rec["ppo"]["final_kl"] = v(kl_divergence(Categorical(logits=old_logits), Categorical(logits=model(x_all)[0]))[:5])
rec["ppo"]["smooth_l1_variants"] = [F.smooth_l1_loss(value, ret_all, reduction="sum", delta=0.5).item(),
                                    v(F.smooth_l1_loss(value[:4], ret_all[:4], reduction="none")),
                                    nn.SmoothL1Loss(delta=2.0)(value, ret_all).item()]


# ---- Gaussian policy: Normal, Independent, tanh-squashed TransformedDistribution
class Gaussian(nn.Layer):
    def __init__(self, act_dim=2):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(OBS, HID), nn.ReLU(), nn.Linear(HID, act_dim))
        self.log_std = self.create_parameter([act_dim], default_initializer=nn.initializer.Constant(-0.5))

    def forward(self, x):
        return self.net(x), self.log_std.exp().expand([x.shape[0], self.log_std.shape[0]])


pol = Gaussian()
set_params(pol.net, 2)
x8 = paddle.to_tensor(obs[0])
eps = paddle.to_tensor(rng.standard_normal((T, 2)).astype("float32"))
loc, scale = pol(x8)
base = Normal(loc, scale)
rec["normal_attrs"] = [base.batch_shape, base.event_shape, v(base.mean), v(base.variance), v(base.entropy())]
ind = Independent(Normal(loc, scale), 1)
rec["independent_attrs"] = [ind.batch_shape, ind.event_shape, v(ind.entropy()), v(ind.mean)]
raw = loc + scale * eps
lp_normal = base.log_prob(raw)
lp_ind = ind.log_prob(raw)
rec["normal_log_prob"] = [v(lp_normal), v(lp_ind), lp_ind.shape]
squashed = TransformedDistribution(Normal(loc, scale), [TanhTransform()])
act = paddle.tanh(raw)
lp_sq = squashed.log_prob(act)
manual = (lp_normal - paddle.log(1 - act.pow(2) + 1e-6))
rec["tanh_log_prob"] = [v(lp_sq), v(manual), lp_sq.shape]
chain = TransformedDistribution(Normal(loc, scale), [ChainTransform([TanhTransform(), AffineTransform(
    paddle.to_tensor(0.5), paddle.to_tensor(2.0))])])
rec["chain_log_prob"] = v(chain.log_prob(0.5 + 2.0 * act))
tr = TanhTransform()
rec["tanh_transform"] = [v(tr.forward(raw)), v(tr.inverse(act * 0.99)), v(tr.forward_log_det_jacobian(raw)),
                         v(tr.inverse_log_det_jacobian(act * 0.99))]
(lp_sq.sum() + lp_ind.sum()).backward()
rec["gauss_grads"] = [v(pol.log_std.grad), v(pol.net[0].weight.grad[:2]), v(pol.net[2].bias.grad)]
pol.clear_gradients()

# kl between Normals, in both argument orders, and the method
n1 = Normal(paddle.to_tensor([0.0, 1.0, -0.5]), paddle.to_tensor([1.0, 0.5, 2.0]))
n2 = Normal(paddle.to_tensor([0.3, 0.8, 0.0]), paddle.to_tensor([1.2, 0.4, 1.0]))
rec["normal_kl"] = [v(kl_divergence(n1, n2)), v(kl_divergence(n2, n1)), v(n1.kl_divergence(n2)),
                    v(n2.kl_divergence(n1))]
try:
    kl_divergence(Independent(n1, 1), Independent(n2, 1))
    rec["independent_kl"] = "ok"
except NotImplementedError as e:
    rec["independent_kl"] = type(e).__name__
rec["normal_probs"] = [v(n1.prob(paddle.to_tensor([0.1, 0.9, 0.0]))), v(n1.log_prob(paddle.to_tensor(0.5)))]

# ---- SAC-style actor steps: reparameterised tanh actions, a fixed critic, alpha * log_prob
critic = nn.Sequential(nn.Linear(OBS + 2, HID), nn.ReLU(), nn.Linear(HID, 1))
set_params(critic, 3)
for p in critic.parameters():
    p.stop_gradient = True
sac_opt = paddle.optimizer.Adam(learning_rate=0.01, parameters=pol.parameters(),
                                grad_clip=nn.ClipGradByGlobalNorm(1.0))
noise = rng.standard_normal((10, T, 2)).astype("float32")
rec["sac"] = {"loss": [], "logp": [], "kl_to_prior": [], "std": []}
alpha = 0.2
for step in range(10):
    loc, scale = pol(x8)
    dist = Normal(loc, scale)
    u = loc + scale * paddle.to_tensor(noise[step])
    a = paddle.tanh(u)
    logp = (dist.log_prob(u) - paddle.log(1 - a.pow(2) + 1e-6)).sum(-1)
    q = critic(paddle.concat([x8, a], axis=-1)).squeeze(-1)
    loss = (alpha * logp - q).mean()
    loss.backward()
    sac_opt.step()
    sac_opt.clear_grad()
    prior = Normal(paddle.zeros_like(loc), paddle.ones_like(scale))
    rec["sac"]["loss"].append(loss.item())
    rec["sac"]["logp"].append(logp.mean().item())
    rec["sac"]["kl_to_prior"].append(kl_divergence(dist, prior).sum(-1).mean().item())
    rec["sac"]["std"].append(v(pol.log_std.exp()))
rec["sac"]["critic_grad_none"] = all(p.grad is None for p in critic.parameters())

# ---- other ways RL code writes the same things
logits, value = model(x_all)
logp_all = F.log_softmax(logits, axis=-1)
rec["logp_ways"] = [v(paddle.index_sample(logp_all, a_all.unsqueeze(-1))[:6]),
                    v(paddle.take_along_axis(logp_all, a_all.unsqueeze(-1), axis=-1)[:6]),
                    v((F.one_hot(a_all, ACT) * logp_all).sum(-1)[:6]),
                    v(-F.cross_entropy(logits, a_all, reduction="none")[:6])]
# generalized advantage estimation with a Python loop over time
vals = value.detach().reshape([N_EP, T])
next_vals = paddle.concat([vals[:, 1:], paddle.zeros([N_EP, 1])], axis=1)
deltas = r_t + GAMMA * next_vals - vals
gae, advs = paddle.zeros([N_EP]), []
for t in range(T - 1, -1, -1):
    gae = deltas[:, t] + GAMMA * 0.95 * gae
    advs.append(gae)
advs = paddle.stack(advs[::-1], axis=1)
rec["gae"] = [v(advs), v(advs.std(axis=1)), v(advs.var(axis=0, unbiased=False)), v(paddle.std(advs))]
# gradients of kl and entropy with respect to the parameters of the distributions
la = paddle.to_tensor([[0.5, -0.2, 0.1], [1.0, 0.0, -1.0]], stop_gradient=False)
lb = paddle.to_tensor([[0.0, 0.3, 0.2], [0.5, 0.5, 0.0]], stop_gradient=False)
(kl_divergence(Categorical(logits=la), Categorical(logits=lb)).sum() + Categorical(la).entropy().sum()).backward()
rec["cat_kl_grads"] = [v(la.grad), v(lb.grad)]
mu = paddle.to_tensor([0.2, -0.4], stop_gradient=False)
sg = paddle.to_tensor([0.8, 1.5], stop_gradient=False)
(kl_divergence(Normal(mu, sg), Normal(paddle.zeros([2]), paddle.ones([2]))).sum()
 + Normal(mu, sg).entropy().sum() + Normal(mu, sg).log_prob(paddle.to_tensor([0.0, 1.0])).sum()).backward()
rec["normal_kl_grads"] = [v(mu.grad), v(sg.grad)]
p_counts = Categorical(np.array([1.0, 3.0, 4.0], dtype="float64"))
rec["cat_counts"] = [v(p_counts.probs(paddle.to_tensor([0, 1, 2]))), str(p_counts.logits.dtype),
                     v(Categorical([2.0, 2.0]).entropy())]
ind2 = Independent(Normal(paddle.zeros([2, 3, 4]), paddle.ones([2, 3, 4]) * 0.5), 2)
rec["ind2"] = [ind2.batch_shape, ind2.event_shape, v(ind2.log_prob(paddle.full([2, 3, 4], 0.1))), v(ind2.entropy())]
exp_d = TransformedDistribution(Normal(paddle.to_tensor([0.0, 0.5]), paddle.to_tensor([1.0, 0.3])),
                                [AffineTransform(paddle.to_tensor(1.0), paddle.to_tensor(2.0)), TanhTransform()])
rec["affine_tanh"] = [v(exp_d.log_prob(paddle.to_tensor([0.5, 0.9]))), exp_d.batch_shape, exp_d.event_shape]

# ---- shapes and dtypes of draws (values are random), float64 parameters, python-number parameters
paddle.seed(7)
n64 = Normal(paddle.to_tensor([0.0, 1.0], dtype="float64"), paddle.to_tensor([1.0, 2.0], dtype="float64"))
nf = Normal(0.5, 2.0)
nl = Normal([0.0, 1.0, 2.0], [1.0, 1.0, 3.0])
cat = Categorical(paddle.to_tensor([[0.2, 0.8], [0.5, 0.5], [0.9, 0.1]]))
draws = {
    "n64_sample": n64.sample([3]), "n64_rsample": n64.rsample([2, 4]), "nf_sample": nf.sample([5]),
    "nl_sample": nl.sample(), "cat_sample": cat.sample([4]), "cat_sample0": cat.sample(),
    "ind_sample": Independent(nl, 1).sample([2]), "tanh_rsample": TransformedDistribution(nl, [TanhTransform()]).rsample([3]),
}
rec["draw_shapes"] = {k: [d.shape, str(d.dtype)] for k, d in draws.items()}
rec["draw_bounds"] = [bool((draws["tanh_rsample"].abs() < 1).all()), bool((draws["cat_sample"] >= 0).all())]
rec["n64"] = [v(n64.log_prob(paddle.to_tensor([0.5, 0.5], dtype="float64"))), str(n64.entropy().dtype),
              v(kl_divergence(n64, Normal(paddle.zeros([2], "float64"), paddle.ones([2], "float64"))))]
rec["nf"] = [v(nf.log_prob(paddle.to_tensor([0.0, 1.0]))), v(nf.entropy()), nf.entropy().shape, v(nf.mean),
             str(nf.loc.dtype), nf.batch_shape]
rec["nl"] = [v(nl.log_prob(paddle.to_tensor([0.0, 0.0, 0.0]))), nl.batch_shape, str(nl.scale.dtype)]
rs = Normal(paddle.to_tensor([0.0, 1.0], stop_gradient=False), paddle.to_tensor([1.0, 2.0], stop_gradient=False))
rsd = rs.rsample([64])
rsd.pow(2).mean().backward()
rec["rsample_grad_finite"] = [rs.loc.grad.shape, bool(paddle.isfinite(rs.scale.grad).all())]
rec["sd_keys"] = sorted(pol.state_dict().keys())

with open(os.environ["PROGRAM_OUT"], "w") as f:
    json.dump(rec, f)
