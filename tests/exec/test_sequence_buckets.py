"""A known step on a new sequence length (an axis other than the batch's) runs padded to a bucket size, as a new
batch size does (``_autograd.row_buckets``, the ``axes`` declarations of ``_ops.rows``).

Oracles: ``jax.value_and_grad`` of the same loss written with ``jax.numpy``, with the SGD update, from the
parameters the step starts from (float32, rtol 1e-5: the padded program sums in another order); the engine's
``STATS`` counters; XLA compiles counted through ``jax.monitoring``.
"""

from __future__ import annotations

import jax
import jax.numpy as jnp
import numpy as np
import pytest
from deferred_policy import checked_shape_rule, default_policy
from xla_compiles import COMPILES

import pylayer_jax as paddle
import pylayer_jax.nn.functional as F
from pylayer_jax._autograd import row_buckets
from pylayer_jax._exec import deferred
from pylayer_jax._ops.table import TABLE

LR = 0.1
VOCAB, DIM, CLASSES, BATCH = 50, 6, 3, 4


@pytest.fixture(autouse=True)
def _default_policy(monkeypatch: pytest.MonkeyPatch) -> None:
    default_policy(monkeypatch, buckets=True)
    checked_shape_rule(monkeypatch, PREDICTED)  # each predicted shape is what tracing gives


PREDICTED = [0]


def _ce(logits: jax.Array, y: jax.Array) -> jax.Array:
    return jnp.mean(-jnp.take_along_axis(jax.nn.log_softmax(logits, -1), y[..., None], -1))


# each model: ours (embedding weight, linear weight, linear bias, ids, labels) -> (loss, a kept output) and the
# oracle's loss of the same arguments as jax arrays
def _pooled_ours(e, w, b, ids, y):  # noqa: ANN001, ANN202
    h = F.embedding(ids, e).mean(axis=1)
    out = paddle.matmul(h, w) + b
    return F.cross_entropy(out, y), out


def _pooled_jax(e, w, b, ids, y):  # noqa: ANN001, ANN202
    return _ce(e[ids].mean(axis=1) @ w + b, y)


def _tokens_ours(e, w, b, ids, y):  # noqa: ANN001, ANN202 (a tagger: a loss per token, over [B, T, C])
    h = F.layer_norm(paddle.tanh(F.embedding(ids, e)) * 2.0 + 1.0, [DIM])
    out = F.linear(h, w, b)
    return F.cross_entropy(out, y), out


def _tokens_jax(e, w, b, ids, y):  # noqa: ANN001, ANN202
    h = jnp.tanh(e[ids]) * 2.0 + 1.0
    mu = h.mean(-1, keepdims=True)
    h = (h - mu) / jnp.sqrt(((h - mu) ** 2).mean(-1, keepdims=True) + 1e-5)
    return _ce(h @ w + b, y)


def _summed_ours(e, w, b, ids, y):  # noqa: ANN001, ANN202 (features on axis 1: the length moves to axis 2)
    h = paddle.transpose(F.softmax(F.embedding(ids, e), axis=-1), [0, 2, 1])
    out = paddle.matmul(paddle.sum(h, axis=2), w) + b
    return F.mse_loss(out, paddle.cast(paddle.unsqueeze(y, 1), "float32")), out


def _summed_jax(e, w, b, ids, y):  # noqa: ANN001, ANN202
    h = jnp.transpose(jax.nn.softmax(e[ids], -1), (0, 2, 1))
    return jnp.mean((h.sum(2) @ w + b - y[:, None].astype(jnp.float32)) ** 2)


def _attention_ours(e, w, b, ids, y):  # noqa: ANN001, ANN202 (attention pooling: a softmax along the length)
    h = F.embedding(ids, e)
    a = F.softmax(paddle.sum(h, axis=-1), axis=1)
    out = paddle.matmul(paddle.sum(h * paddle.unsqueeze(a, -1), axis=1), w) + b
    return F.cross_entropy(out, y), out


def _attention_jax(e, w, b, ids, y):  # noqa: ANN001, ANN202
    h = e[ids]
    a = jax.nn.softmax(h.sum(-1), 1)
    return _ce((h * a[..., None]).sum(1) @ w + b, y)


def _running_ours(e, w, b, ids, y):  # noqa: ANN001, ANN202 (a running sum along the length: declines)
    out = paddle.matmul(paddle.cumsum(F.embedding(ids, e), axis=1).mean(axis=1), w) + b
    return F.cross_entropy(out, y), out


def _running_jax(e, w, b, ids, y):  # noqa: ANN001, ANN202
    return _ce(jnp.cumsum(e[ids], 1).mean(1) @ w + b, y)


def _log_attention_ours(e, w, b, ids, y):  # noqa: ANN001, ANN202 (a log-softmax along the length, kept per token)
    h = F.embedding(ids, e)
    lp = F.log_softmax(paddle.sum(h, axis=-1), axis=-1)
    out = paddle.matmul(paddle.sum(h * paddle.unsqueeze(paddle.exp(lp) * lp, -1), axis=1), w) + b
    return F.cross_entropy(out, y), out


def _log_attention_jax(e, w, b, ids, y):  # noqa: ANN001, ANN202
    h = e[ids]
    lp = jax.nn.log_softmax(h.sum(-1), -1)
    return _ce((h * (jnp.exp(lp) * lp)[..., None]).sum(1) @ w + b, y)


MODELS = {"pooled": (_pooled_ours, _pooled_jax, False), "tokens": (_tokens_ours, _tokens_jax, True),
          "summed": (_summed_ours, _summed_jax, False), "attention": (_attention_ours, _attention_jax, False),
          "log_attention": (_log_attention_ours, _log_attention_jax, False),
          "running": (_running_ours, _running_jax, False)}


class SeqTrainer:
    """An embedding and a linear layer trained eagerly by SGD on token ids ``[BATCH, T]``; each step is checked
    against ``jax.value_and_grad`` from the same parameters. Each test uses its own seed for the parameters (the
    shapes are shared: programs may be met across tests, as in a notebook)."""

    def __init__(self, seed: int, model: str) -> None:
        rng = np.random.default_rng(seed)
        self.out_dim = out_dim = 1 if model == "summed" else CLASSES
        self.params = [paddle.to_tensor((rng.standard_normal(s) * 0.5).astype("float32"), stop_gradient=False)
                       for s in [(VOCAB, DIM), (DIM, out_dim), (out_dim,)]]
        self.opt = paddle.optimizer.SGD(learning_rate=LR, parameters=self.params)
        self.ours, theirs, self.per_token = MODELS[model]
        self.grad = jax.jit(jax.value_and_grad(lambda ps, ids, y: theirs(*ps, ids, y)))
        self.model = model

    def step(self, t: int, keep_out: bool = False) -> None:
        rng = np.random.default_rng(t)
        ids = rng.integers(0, VOCAB, (BATCH, t))
        y = rng.integers(0, CLASSES, (BATCH, t) if self.per_token else (BATCH,))
        start = [p.numpy() for p in self.params]
        c0 = COMPILES[0]
        loss, out = self.ours(*self.params, paddle.to_tensor(ids), paddle.to_tensor(y))
        loss.backward()
        self.opt.step()
        self.opt.clear_grad()
        self.compiles = COMPILES[0] - c0
        want, g = self.grad([jnp.asarray(p) for p in start], jnp.asarray(ids), jnp.asarray(y))
        np.testing.assert_allclose(float(loss), float(want), rtol=1e-6, atol=2e-7)
        for p, p0, d in zip(self.params, start, g):  # (the embedding's gradient sums up to 30 tokens' terms that
            # cancel: there the float32 oracle itself is ~8e-6 from float64's, and the padded order ~1e-6 from it)
            np.testing.assert_allclose(p.numpy(), p0 - LR * np.asarray(d), rtol=1e-5, atol=3e-6)
        if keep_out:
            assert out.shape == ([BATCH, t, self.out_dim] if self.per_token else [BATCH, self.out_dim])


@pytest.mark.parametrize("model,seed", [("pooled", 0), ("tokens", 1), ("summed", 2), ("attention", 6),
                                        ("log_attention", 7)])
def test_new_sequence_lengths_run_padded_with_the_values_of_the_unpadded_step(model: str, seed: int) -> None:
    t = SeqTrainer(seed, model)
    t.step(3)  # the step's first sighting: call by call
    before, predicted = dict(row_buckets.STATS), PREDICTED[0]
    lengths = (5, 1, 9, BATCH, 17, 30, 2)  # a length of 1, one equal to the batch size, beyond the first bucket
    for n in lengths:
        t.step(n, keep_out=n == 9)
    d = {k: row_buckets.STATS[k] - before[k] for k in before}
    assert d["runs"] == len(lengths) and d["declined"] == 0, d
    assert d["compiled"] <= 2, d
    assert PREDICTED[0] > predicted  # the new lengths' shapes came from the shape rule (checked against tracing)


def test_a_sequence_loop_compiles_its_buckets_once() -> None:
    t = SeqTrainer(3, "pooled")
    t.step(3)
    for n in (5, 40):  # the small buckets (64 positions, then 256): one compile each
        t.step(n)
    before = dict(deferred.STATS)
    for n in (6, 7, 11, 13, 21, 33, 63, 64, 2):  # every further length runs without a compile
        t.step(n)
        assert t.compiles == 0, (n, t.compiles)
    assert deferred.STATS["compiled"] == before["compiled"]


def test_a_running_sum_along_the_length_declines_and_runs_unpadded() -> None:
    t = SeqTrainer(4, "running")
    t.step(3)
    before = dict(row_buckets.STATS)
    for n in (5, 9):
        t.step(n)  # (the values are the unpadded step's all the same)
    d = {k: row_buckets.STATS[k] - before[k] for k in before}
    assert d["runs"] == 0 and d["declined"] == 2, d


def test_a_length_that_also_changes_another_axis_declines() -> None:
    """Token ids ``[T, T]`` (the batch is the length too): two axes change together, which no bucket pads."""
    rng = np.random.default_rng(5)
    e = paddle.to_tensor(rng.standard_normal((VOCAB, DIM)).astype("float32"), stop_gradient=False)
    before = dict(row_buckets.STATS)
    for n in (3, 5, 7):
        ids = rng.integers(0, VOCAB, (n, n))
        loss = F.embedding(paddle.to_tensor(ids), e).mean()
        loss.backward()
        np.testing.assert_allclose(e.grad.numpy(), np.asarray(jax.grad(lambda w, i=ids: w[i].mean())(e.numpy())),
                                   rtol=1e-6)
        e.clear_grad()
    assert row_buckets.STATS["runs"] == before["runs"]


@pytest.mark.parametrize("name,tensors,attrs,axes,plan", [
    ("softmax", (3,), {"axis": -1}, {"x": 1}, "map"),
    ("softmax", (3,), {"axis": 1}, {"x": 1}, ("along", "", 1)),  # along the length: masked to its true positions
    ("log_softmax", (2,), {"axis": -1}, {"x": 1}, ("along", "", 1)),
    ("softmax", (3,), {"axis": 1}, {"x": None}, None),
    ("linear", (3, 2, 1), {}, {"x": 1, "weight": None, "bias": None}, "map"),
    ("linear", (3, 2, 1), {}, {"x": 2, "weight": None, "bias": None}, None),  # the contracted axis
    ("matmul", (3, 2), {"transpose_x": False}, {"x": 1, "y": None}, "map"),
    ("matmul", (3, 2), {"transpose_x": True}, {"x": 1, "y": None}, None),  # transposed, axis 1 is contracted
    ("matmul", (3, 3), {"transpose_x": False}, {"x": 1, "y": 2}, None),  # both have it
    ("layer_norm", (3, None, None), {"normalized_shape": [4]}, {"x": 1, "weight": None, "bias": None}, "map"),
    ("layer_norm", (3, None, None), {"normalized_shape": [5, 4]}, {"x": 1, "weight": None, "bias": None}, None),
    ("embedding", (2, 2), {"scale_grad_by_freq": False}, {"x": 1, "weight": None}, "map"),
    ("embedding", (2, 2), {"scale_grad_by_freq": True}, {"x": 1, "weight": None}, None),  # counts over all ids
    ("mean", (3,), {"axis": 1}, {"x": 1}, ("reduce", "mean", 1)),
    ("mean", (3,), {"axis": None}, {"x": 2}, ("reduce", "mean", 2)),
    ("sum", (3,), {"axis": [0, 2]}, {"x": 1}, "map"),  # the length kept
    ("cross_entropy_with_softmax", (3, 2), {"reduction": "mean", "axis": -1, "ignore_index": -100},
     {"input": 1, "label": 1}, ("loss", "mean", 1)),
    ("cross_entropy_with_softmax", (3, 2), {"reduction": "none", "axis": -1, "ignore_index": -100},
     {"input": 1, "label": 1}, "map"),
    ("cross_entropy_with_softmax", (2, 2), {"reduction": "mean", "axis": -1, "ignore_index": -100},
     {"input": 1, "label": 1}, None),  # the length is the class axis
    ("cross_entropy_with_softmax", (3, 2), {"reduction": "mean", "axis": -1, "ignore_index": 0},
     {"input": 1, "label": 1}, None),  # a mean over the labels kept: not the mean over the positions
    ("cross_entropy_with_softmax", (3, 1), {"reduction": "mean", "axis": -1, "ignore_index": -100},
     {"input": 1, "label": None}, None),  # a label without the length would broadcast
    ("mse_loss", (2, 2), {"reduction": "sum"}, {"input": 1, "label": 1}, ("loss", "sum", 1)),
    ("transpose", (3,), {"perm": (0, 2, 1)}, {"x": 1}, "map"),
])
def test_axes_rules_decline_what_mixes_along_the_length(name: str, tensors: tuple, attrs: dict, axes: dict,
                                                         plan: object) -> None:
    op = TABLE[name]
    assert op.axes(op.bind(tensors, tuple(attrs.items())), axes) == plan


@pytest.mark.parametrize("name", ["conv1d", "max_pool1d", "dropout", "reshape", "getitem", "concat", "cumsum",
                                  "logsumexp"])
def test_ops_that_mix_or_regroup_positions_declare_no_axes(name: str) -> None:
    assert TABLE[name].axes is None
