"""A known step on a new batch size runs padded to a bucket size, one program per bucket (``_autograd.row_buckets``).

Oracles: ``jax.value_and_grad`` of the same loss, with the SGD update, from the parameters the step starts from
(float32, rtol 1e-6: the padded program sums in another order); XLA compiles counted through ``jax.monitoring``;
the engine's ``STATS`` counters.
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
from pylayer_jax._replay import follow
from pylayer_jax._tensor import dispatch

LR = 0.1


@pytest.fixture(autouse=True)
def _default_policy(monkeypatch: pytest.MonkeyPatch) -> None:
    default_policy(monkeypatch, buckets=True)
    checked_shape_rule(monkeypatch, PREDICTED)  # each predicted shape is what tracing gives


PREDICTED = [0]


def _mlp(seed: int, width: int, hidden: int) -> list[np.ndarray]:
    rng = np.random.default_rng(seed)
    return [(rng.standard_normal(s) * 0.5).astype("float32") for s in [(width, hidden), (hidden,), (hidden, 3), (3,)]]


def _forward_jax(ps: list, x: jax.Array, act: str) -> jax.Array:
    w1, b1, w2, b2 = ps
    return getattr(jax.nn, act)(x @ w1 + b1) @ w2 + b2


LOSSES = {  # ours (logits, labels) and the oracle's
    "mse": (lambda out, y: F.mse_loss(out, y), lambda out, y: jnp.mean((out - y) ** 2)),
    "sum": (lambda out, y: paddle.sum(out * y) / 7.0, lambda out, y: jnp.sum(out * y) / 7.0),
    "ce": (lambda out, y: F.cross_entropy(out, y), lambda out, y: jnp.mean(
        -jnp.take_along_axis(jax.nn.log_softmax(out, -1), y, 1))),
}


class Trainer:
    """A two-layer MLP trained eagerly by SGD; each step is checked against ``jax.value_and_grad`` from the same
    parameters. Each test uses its own width, so that no test meets another's programs."""

    def __init__(self, seed: int, width: int, loss: str, act: str = "tanh") -> None:
        self.width, self.loss, self.act = width, loss, act
        self.params = [paddle.to_tensor(p, stop_gradient=False) for p in _mlp(seed, width, 6)]
        self.opt = paddle.optimizer.SGD(learning_rate=LR, parameters=self.params)
        ours, theirs = LOSSES[loss]
        self.ours = ours
        self.grad = jax.jit(jax.value_and_grad(lambda ps, x, y: theirs(_forward_jax(ps, x, act), y)))

    def data(self, b: int) -> tuple[np.ndarray, np.ndarray]:
        rng = np.random.default_rng(b)
        x = rng.standard_normal((b, self.width)).astype("float32")
        y = rng.integers(0, 3, (b, 1)) if self.loss == "ce" else rng.standard_normal((b, 3)).astype("float32")
        return x, y

    def step(self, b: int, keep_out: bool = False, check: bool = True) -> float:
        x, y = self.data(b)
        start = [p.numpy() for p in self.params]
        c0 = COMPILES[0]
        w1, b1, w2, b2 = self.params
        out = paddle.matmul(getattr(F, self.act)(paddle.matmul(paddle.to_tensor(x), w1) + b1), w2) + b2
        loss = self.ours(out, paddle.to_tensor(y))
        loss.backward()
        self.opt.step()
        self.opt.clear_grad()
        self.compiles = COMPILES[0] - c0  # XLA compiles of our step (not the oracle's)
        if not check:
            return float(loss)
        want, g = self.grad([jnp.asarray(p) for p in start], jnp.asarray(x), jnp.asarray(y))
        np.testing.assert_allclose(float(loss), float(want), rtol=1e-6, atol=2e-7)
        for p, p0, d in zip(self.params, start, g):
            np.testing.assert_allclose(p.numpy(), p0 - LR * np.asarray(d), rtol=1e-6, atol=1e-7)
        if keep_out:
            assert out.shape == [b, 3]
            np.testing.assert_allclose(out.numpy(), np.asarray(_forward_jax(start, jnp.asarray(x), self.act)),
                                       rtol=1e-6, atol=1e-6)
        return float(loss)


@pytest.mark.parametrize("loss,width,sizes", [("mse", 11, (1, 8, 13)), ("sum", 13, (16, 5)),
                                              ("ce", 14, (1, 16, 12))])
def test_new_batch_sizes_run_padded_with_the_values_of_the_unpadded_step(loss: str, width: int,
                                                                         sizes: tuple) -> None:
    t = Trainer(0, width, loss, "relu" if loss == "ce" else "tanh")
    t.step(3)  # the step's first sighting: call by call
    before = dict(row_buckets.STATS)
    for b in sizes:  # n=1, bucket sizes (8, 16) and sizes between
        t.step(b)
    d = {k: row_buckets.STATS[k] - before[k] for k in before}
    assert d["runs"] == len(sizes) and d["declined"] == 0, d
    assert d["compiled"] <= 2, d  # buckets 8 and 16
    assert PREDICTED[0] > 0  # the new sizes' shapes came from the shape rule (checked against tracing)


def test_calls_an_earlier_test_left_unread_do_not_join_the_first_step(monkeypatch: pytest.MonkeyPatch) -> None:
    # a forward whose result was dropped (a loss under saved-tensor hooks, on an input that trains) stays in this
    # thread's buffer: the next recorded calls join it, so that a step recorded now would have a signature of its own
    # (another family), and its new batch sizes could not be told from it. The file's policy (``default_policy``)
    # runs it first: the step's first sighting is the step's, and its new sizes run padded
    with paddle.autograd.saved_tensors_hooks(lambda t: t, lambda t: t):
        F.mse_loss(paddle.to_tensor(np.ones((2, 3), "float32"), stop_gradient=False), paddle.ones([2, 3]))
    assert not deferred.idle()
    default_policy(monkeypatch, buckets=True)
    assert deferred.idle()
    t = Trainer(9, 22, "mse")
    t.step(3)
    before = dict(row_buckets.STATS)
    for b in (1, 8, 13):
        t.step(b)
    d = {k: row_buckets.STATS[k] - before[k] for k in before}
    assert d["runs"] == 3 and d["declined"] == 0 and d["compiled"] == 1, d  # all in one bucket (64 rows)


def test_forty_batch_sizes_compile_a_handful_of_programs() -> None:
    t = Trainer(1, 15, "mse")
    for b in (3, 4):
        t.step(b, check=False)
    c0, before = COMPILES[0], dict(deferred.STATS)
    for b in range(9, 49):
        t.step(b, check=False)
    assert deferred.STATS["bucketed"] - before["bucketed"] == 40
    assert deferred.STATS["compiled"] - before["compiled"] == 0 and deferred.STATS["new_shape"] == before["new_shape"]
    assert COMPILES[0] - c0 == 0, COMPILES[0] - c0  # the bucket of 64 rows that size 4 compiled serves them all
    t.step(49)  # and the values are still the unpadded step's


def test_a_reused_plan_gives_the_unpadded_values_when_what_the_step_is_given_changes() -> None:
    # steps of one family and one bucket (64 rows) reuse the padding plan of the first padded one; what may differ
    # between them: a Python scalar's value and a new parameter (inputs of the program: the plan holds no values),
    # and an input that has the batch in one step and a fixed shape in another (its plan is its own)
    rng = np.random.default_rng(8)
    width = 21
    params = [paddle.to_tensor(p, stop_gradient=False) for p in _mlp(8, width, 6)]
    opt = paddle.optimizer.SGD(learning_rate=LR, parameters=params)

    def loss_jax(ps: list, x: jax.Array, y: jax.Array, z: jax.Array, s: float) -> jax.Array:
        return jnp.mean((_forward_jax(ps, x, "tanh") - y) ** 2) * s + jnp.sum(z * ps[3]) * 0.01

    grad = jax.jit(jax.value_and_grad(loss_jax))

    def step(b: int, z_rows: int, s: float) -> None:
        x = rng.standard_normal((b, width)).astype("float32")
        y = rng.standard_normal((b, 3)).astype("float32")
        z = rng.standard_normal((z_rows, 3)).astype("float32")
        start = [p.numpy() for p in params]
        w1, b1, w2, b2 = params
        out = paddle.matmul(paddle.tanh(paddle.matmul(paddle.to_tensor(x), w1) + b1), w2) + b2
        loss = F.mse_loss(out, paddle.to_tensor(y)) * s + paddle.sum(paddle.to_tensor(z) * b2) * 0.01
        loss.backward()
        opt.step()
        opt.clear_grad()
        want, g = grad([jnp.asarray(p) for p in start], jnp.asarray(x), jnp.asarray(y), jnp.asarray(z), s)
        np.testing.assert_allclose(float(loss), float(want), rtol=1e-6, atol=2e-7)
        for p, p0, d in zip(params, start, g):
            np.testing.assert_allclose(p.numpy(), p0 - LR * np.asarray(d), rtol=1e-6, atol=1e-7)

    step(3, 3, 1.0)  # the family's first step: z has the batch (3 rows) or a fixed shape (3 rows), as later told
    before = dict(row_buckets.STATS)
    step(10, 10, 1.0)  # padded: z has the batch
    step(11, 11, 0.5)  # the same plan, another scalar
    assert row_buckets.STATS["reused"] - before["reused"] == 1
    params[0].set_value(rng.standard_normal((width, 6)).astype("float32"))
    step(12, 12, 2.0)  # the same plan, a parameter set anew
    step(13, 3, 1.0)  # z of a fixed shape (the first step's): a plan of its own
    step(14, 3, 1.5)  # (and reused)
    step(15, 15, 1.0)  # z with the batch again: the first plan
    step(3 + 10, 10, 1.0)  # z's rows neither the batch nor the first step's: its rows mix, it runs unpadded
    d = {k: row_buckets.STATS[k] - before[k] for k in before}
    assert d == {"runs": 6, "compiled": 2, "declined": 1, "reused": 4}, d


def test_a_batch_shaped_output_that_is_read_has_its_true_rows() -> None:
    t = Trainer(2, 16, "mse")
    for b in (3, 19):
        t.step(b, keep_out=True)
    assert row_buckets.STATS["runs"] > 0


def test_the_gradient_of_a_batch_input_has_its_true_rows() -> None:
    rng = np.random.default_rng(6)
    w = paddle.to_tensor(rng.standard_normal((3, 2)).astype("float32"), stop_gradient=False)

    grad = jax.jit(jax.grad(lambda x, w: jnp.mean(jnp.tanh(x @ w) ** 2)))
    runs = row_buckets.STATS["runs"]
    for b in (3, 4, 11):
        x = paddle.to_tensor(rng.standard_normal((b, 3)).astype("float32"), stop_gradient=False)
        loss = (paddle.tanh(paddle.matmul(x, w)) ** 2).mean()
        loss.backward()
        assert x.grad.shape == [b, 3]
        np.testing.assert_allclose(x.grad.numpy(), np.asarray(grad(jnp.asarray(x.numpy()), jnp.asarray(w.numpy()))),
                                   rtol=1e-6, atol=1e-6)  # (values near 0: float32 rounding of their sums)
        w.clear_grad()
    assert row_buckets.STATS["runs"] > runs


def test_a_step_whose_rows_mix_runs_unpadded_with_its_values() -> None:
    rng = np.random.default_rng(3)
    w = paddle.to_tensor(rng.standard_normal((4, 2)).astype("float32"), stop_gradient=False)
    opt = paddle.optimizer.SGD(learning_rate=LR, parameters=[w])

    def loss_jax(w: jax.Array, x: jax.Array) -> jax.Array:  # a softmax along the batch axis mixes the rows
        return jnp.mean(jax.nn.softmax(x @ w, axis=0) * jnp.arange(2.0))

    g = jax.jit(jax.value_and_grad(loss_jax))
    for b in (3, 4, 9):
        x = rng.standard_normal((b, 4)).astype("float32")
        start = w.numpy()
        before = dict(row_buckets.STATS)
        loss = (F.softmax(paddle.matmul(paddle.to_tensor(x), w), axis=0) * paddle.to_tensor(np.arange(2.0, dtype="float32"))).mean()
        loss.backward()
        opt.step()
        opt.clear_grad()
        want, d = g(jnp.asarray(start), jnp.asarray(x))
        np.testing.assert_allclose(float(loss), float(want), rtol=1e-6)
        np.testing.assert_allclose(w.numpy(), start - LR * np.asarray(d), rtol=1e-6, atol=1e-7)
        assert row_buckets.STATS["runs"] == before["runs"]  # never padded
    assert row_buckets.STATS["declined"] > 0


def test_batch_norm_statistics_run_unpadded_with_the_values_of_bucketing_off(monkeypatch: pytest.MonkeyPatch) -> None:
    def train(sizes: list[int]) -> list[np.ndarray]:
        paddle.seed(5)
        net = paddle.nn.Sequential(paddle.nn.Linear(5, 4), paddle.nn.BatchNorm1D(4), paddle.nn.Linear(4, 1))
        opt = paddle.optimizer.SGD(learning_rate=LR, parameters=net.parameters())
        rng = np.random.default_rng(4)
        for b in sizes:
            loss = net(paddle.to_tensor(rng.standard_normal((b, 5)).astype("float32"))).square().mean()
            loss.backward()
            opt.step()
            opt.clear_grad()
        return [p.numpy() for p in net.parameters()] + [float(loss)]

    sizes = [3, 4, 9]
    runs = row_buckets.STATS["runs"]
    got = train(sizes)
    assert row_buckets.STATS["runs"] == runs
    monkeypatch.setattr(deferred, "BUCKETS", False)
    follow.reset()
    for a, b in zip(got, train(sizes)):
        np.testing.assert_allclose(a, b, rtol=1e-6, atol=1e-7)


def test_bucket_sizes() -> None:
    assert [row_buckets.bucket_of(n) for n in (1, 7, 8, 9, 16, 17, 500)] == [8, 8, 8, 16, 16, 32, 512]
    # a small step (400 bytes per row): 64 rows, then fourfold while 256 KiB hold them, then powers of two
    assert [row_buckets.bucket_of(n, 400) for n in (1, 64, 65, 256, 257, 600)] == [64, 64, 256, 256, 512, 1024]
    # a big one (100 kB per row): the next power of two, at least 8
    assert [row_buckets.bucket_of(n, 100_000) for n in (1, 9, 100)] == [8, 16, 128]


def test_a_compiled_bucket_serves_a_smaller_batch_only_within_the_padding_bound() -> None:
    ref = ("a step's first signature, not a real one",)
    row_buckets._SIZES.put(ref, (512,))
    assert row_buckets._choose(ref, 3, 400) == 512  # cheap rows: the compiled 512 serves 3
    assert row_buckets._choose(ref, 3, 100_000) == 8  # 512 rows of 100 kB for 3: a bucket of its own
    assert row_buckets._choose(ref, 200, 100_000) == 512  # at most twice its own bucket (256)
    assert row_buckets._choose(ref, 600, 400) == 1024  # too small for 600 rows
    row_buckets._SIZES.pop(ref)


def test_a_smaller_new_batch_runs_in_a_larger_compiled_bucket_with_the_unpadded_values() -> None:
    t = Trainer(4, 17, "ce", "relu")
    t.step(3)  # the step's first sighting
    before = dict(row_buckets.STATS)
    t.step(40, check=False)  # the bucket of 64 rows: one compile
    assert row_buckets.STATS["compiled"] - before["compiled"] == 1 and t.compiles == 1
    for b in (9, 1):  # served by that bucket: nothing compiled (nor the labels' check), values and gradients the
        t.step(b, keep_out=b == 9)  # unpadded step's
        assert t.compiles == 0, (b, t.compiles)
    assert row_buckets.STATS["runs"] - before["runs"] == 3 and row_buckets.STATS["compiled"] - before["compiled"] == 1


def test_a_batch_size_that_repeats_runs_as_its_own_program_from_its_third_sighting() -> None:
    t = Trainer(5, 18, "mse")
    t.step(3)
    for k in range(5):  # a last batch of 5 rows, every epoch
        before, runs = dict(deferred.STATS), row_buckets.STATS["runs"]
        t.step(5)
        padded = row_buckets.STATS["runs"] - runs
        compiled = deferred.STATS["compiled"] - before["compiled"]
        assert (padded, compiled) == ((1, 0) if k < 2 else (0, 1) if k == 2 else (0, 0)), (k, padded, compiled)


def test_batch_sizes_that_repeat_among_many_others_stay_padded() -> None:
    """Sizes that come back soon but among several others (a boolean mask's count, which moves with the data) stay
    padded: a program of their own at each one's third sighting would compile once per size."""
    t = Trainer(7, 20, "mse")
    t.step(3)
    before = dict(deferred.STATS)
    for b in (4, 5, 6, 7) * 4:
        t.step(b, check=b == 6)
    assert deferred.STATS["bucketed"] - before["bucketed"] == 16 and deferred.STATS["compiled"] == before["compiled"]


def test_batch_sizes_that_come_back_only_after_many_others_stay_padded(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(deferred, "REPEAT_WINDOW", 1)  # (a loop over hundreds of sizes, in small)
    t = Trainer(6, 19, "mse")
    t.step(3)
    before = dict(deferred.STATS)
    for b in (5, 6, 7) * 3:  # each size back after two others, three times
        t.step(b, check=b == 7)
    assert deferred.STATS["bucketed"] - before["bucketed"] == 9 and deferred.STATS["compiled"] == before["compiled"]


def test_a_loss_with_its_own_derivative_runs_padded_under_saved_tensor_hooks(monkeypatch: pytest.MonkeyPatch) -> None:
    # under hooks, cross_entropy runs its fused form (an explicit VJP from the saved softmax and label, hidden
    # outputs; mse_loss's residual form is alike): padded, that VJP gets the 'none' loss's cotangent of the true rows
    loss = "ce"
    def train(sizes: list[int]) -> list[np.ndarray]:
        paddle.seed(7)
        net = paddle.nn.Sequential(paddle.nn.Linear(9, 5), paddle.nn.Tanh(), paddle.nn.Linear(5, 4))
        opt = paddle.optimizer.SGD(learning_rate=LR, parameters=net.parameters())
        rng = np.random.default_rng(8)
        for b in sizes:
            x = paddle.to_tensor(rng.standard_normal((b, 9)).astype("float32"))
            with paddle.autograd.saved_tensors_hooks(lambda t: t, lambda t: t):
                if loss == "mse":
                    out = F.mse_loss(net(x), paddle.to_tensor(rng.standard_normal((b, 4)).astype("float32")))
                else:
                    out = F.cross_entropy(net(x), paddle.to_tensor(rng.integers(0, 4, (b,))))
                out.backward()
            opt.step()
            opt.clear_grad()
        return [p.numpy() for p in net.parameters()] + [float(out)]

    sizes = [3, 4, 1, 11]
    runs = row_buckets.STATS["runs"]
    got = train(sizes)
    assert row_buckets.STATS["runs"] - runs == 2
    monkeypatch.setattr(deferred, "BUCKETS", False)
    follow.reset()
    for a, b in zip(got, train(sizes)):
        np.testing.assert_allclose(a, b, rtol=1e-6, atol=1e-7)


# ---- ops that declare their rows: a step with them on a new batch size runs padded with the unpadded values ----
def _unpadded_and_padded(monkeypatch: pytest.MonkeyPatch, make: object, sizes: tuple, padded: int) -> None:
    """The steps of ``make()`` (a model's training step on a batch of ``b`` rows, returning the values to compare)
    over ``sizes``, bucketed and with bucketing off (the unpadded run: the oracle): ``padded`` of them ran padded,
    and every value (loss, gradients, outputs) is the unpadded run's."""
    def train() -> list:
        paddle.seed(11)
        step = make()
        return [v for b in sizes for v in step(b)]

    before = dict(row_buckets.STATS)
    got = train()
    d = {k: row_buckets.STATS[k] - before[k] for k in before}
    assert d["runs"] == padded and d["declined"] == 0, d
    monkeypatch.setattr(deferred, "BUCKETS", False)
    follow.reset()
    want = train()
    assert len(got) == len(want)
    for a, b in zip(got, want):
        np.testing.assert_allclose(a, b, rtol=2e-6, atol=2e-7)


def _finish(net: object, opt: object, loss: object, *outs: object) -> list:
    """A step's end: backward, the SGD update; the loss, the gradients, the updated parameters and ``outs`` (Tensors)
    as numbers (read after the update: the step is one buffer)."""
    loss.backward()
    opt.step()
    params = [p for p in net.parameters() if not p.stop_gradient]
    vals = [float(loss)] + [p.grad.numpy() for p in params] + [p.numpy() for p in params] + [o.numpy() for o in outs]
    vals += [o.grad.numpy() for o in outs if not o.stop_gradient and o.is_leaf]
    opt.clear_grad()
    return vals


def _conv_pool_net() -> object:
    # conv1d/2d/3d and their transposes; max, avg and adaptive pools; reshape, flatten and transpose keeping axis 0
    nn = paddle.nn
    c2 = nn.Sequential(nn.Conv2D(2, 3, 3, padding=1), nn.MaxPool2D(2), nn.Conv2DTranspose(3, 2, 2, stride=2),
                       nn.AvgPool2D(2), nn.AdaptiveAvgPool2D(2), nn.AdaptiveMaxPool2D(1),
                       nn.Flatten())
    c1 = nn.Sequential(nn.Conv1D(2, 3, 3), nn.MaxPool1D(2), nn.Conv1DTranspose(3, 2, 2), nn.AvgPool1D(2),
                       nn.AdaptiveAvgPool1D(2), nn.AdaptiveMaxPool1D(1), nn.Flatten())
    c3 = nn.Sequential(nn.Conv3D(2, 2, 1), nn.MaxPool3D(1), nn.Conv3DTranspose(2, 2, 1), nn.AvgPool3D(1),
                       nn.AdaptiveAvgPool3D(1), nn.AdaptiveMaxPool3D(1), nn.Flatten())
    head = nn.Linear(6, 1)
    net = nn.LayerList([c1, c2, c3, head])
    opt = paddle.optimizer.SGD(learning_rate=LR, parameters=net.parameters())

    def step(b: int) -> list:
        rng = np.random.default_rng(b)
        x = paddle.to_tensor(rng.standard_normal((b, 2, 4, 4)).astype("float32"), stop_gradient=False)
        x3 = paddle.to_tensor(rng.standard_normal((b, 2, 2, 1, 2)).astype("float32"))
        s = paddle.transpose(x.reshape([-1, 2, 8, 2]), [0, 3, 2, 1])  # [b, 2, 8, 2]
        h = paddle.concat([c1(paddle.flatten(s, 2)), c2(x), c3(x3)], axis=1)
        out = head(h)
        return _finish(net, opt, (out * out).mean(), out, x)

    return step


def test_conv_and_pool_layers_run_padded(monkeypatch: pytest.MonkeyPatch) -> None:
    _unpadded_and_padded(monkeypatch, _conv_pool_net, (3, 5), 1)


def _sequence_net() -> object:
    # embedding, layer_norm, dropout (plain, along an axis, alpha, feature alpha), comparisons, logical_and, where,
    # clip, concat and stack off axis 0, index_select and gather along axis 1, unsqueeze/squeeze, reshape with 0
    # and -1, view, BatchNorm on its running statistics (eval), softmax cross entropy
    nn = paddle.nn
    emb, norm, bn, head = nn.Embedding(10, 4), nn.LayerNorm(4), nn.BatchNorm1D(4), nn.Linear(32, 3)
    bn.eval()
    net = nn.LayerList([emb, norm, bn, head])
    opt = paddle.optimizer.SGD(learning_rate=LR, parameters=net.parameters())
    pick = paddle.to_tensor(np.array([2, 0]))

    def step(b: int) -> list:
        rng = np.random.default_rng(b)
        ids = paddle.to_tensor(rng.integers(0, 10, (b, 3)))
        label = paddle.to_tensor(rng.integers(0, 3, (b,)))
        h = F.dropout(norm(emb(ids)), 0.3)  # [b, 3, 4]
        h = paddle.where(paddle.logical_and(h > 0, h < 0.8), h, 0.1 * h).clip(-1.0, 1.0)
        h = paddle.concat([h, F.dropout(h, 0.5, axis=1)], axis=-1)  # [b, 3, 8]
        h = paddle.index_select(h, pick, axis=1) + paddle.gather(h, pick, axis=1)  # [b, 2, 8]
        h = F.alpha_dropout(paddle.unsqueeze(h, 1), 0.2).squeeze(1)
        h = F.feature_alpha_dropout(paddle.stack([h, 0.5 * h], axis=1), 0.3)  # [b, 2, 2, 8]
        h = bn(paddle.reshape(h, [0, 4, -1]))  # [b, 4, 8]
        out = head(h.view([-1, 32]))
        return _finish(net, opt, F.cross_entropy(out, label), out)

    return step


def test_sequence_ops_dropout_and_eval_batch_norm_run_padded(monkeypatch: pytest.MonkeyPatch) -> None:
    _unpadded_and_padded(monkeypatch, _sequence_net, (3, 5), 1)


@pytest.mark.parametrize("name,tensors,attrs,plan", [
    ("batch_norm", (3, 1, 1, 1, 1), {"training": True}, None),  # the batch's statistics mix the rows
    ("batch_norm", (3, 1, 1, 1, 1), {"training": True, "use_global_stats": True}, "map"),
    ("batch_norm", (3, 1, 1, 1, 1), {"training": False}, "map"),
    ("layer_norm", (2, 1, 1), {"normalized_shape": (4, 5)}, None),  # normalised over the batch axis too
    ("layer_norm", (3, 1, 1), {"normalized_shape": (4, 5)}, "keep"),
    ("embedding", (2, 2), {"scale_grad_by_freq": True}, None),  # counts ids over the whole batch
    ("embedding", (2, 2), {}, "keep"),
    ("concat", ([2, 2],), {"axis": 0}, None),
    ("concat", ([2, 2],), {"axis": -1}, "map"),
    ("stack", ([2, 2],), {"axis": -3}, None),
    ("stack", ([2, 2],), {"axis": -1}, "keep"),
    ("gather", (2, 1), {}, None),  # axis 0 (the default): rows move
    ("index_select", (2, 1), {"axis": -2}, None),
    ("index_select", (2, 1), {"axis": 1}, "keep"),
    ("reshape", (3,), {"shape": (5, -1)}, None),  # a literal first dimension: a batch size, or rows regrouped
    ("reshape", (3,), {"shape": (0, -1)}, "keep"),
    ("flatten", (3,), {"start_axis": 0}, None),
    ("flatten", (3,), {"start_axis": -2}, "keep"),
    ("transpose", (3,), {"perm": (1, 0, 2)}, None),
    ("transpose", (3,), {"perm": (-3, 2, 1)}, "keep"),
    ("squeeze", (3,), {"axis": None}, None),  # a batch of one row would lose its axis
    ("squeeze", (3,), {"axis": (-3, 1)}, None),
    ("unsqueeze", (2,), {"axis": (1, 0)}, None),
    ("unsqueeze", (2,), {"axis": (-1, 1)}, "keep"),
    ("getitem", (2, [1]), {"spec": ("T",)}, "index"),  # x[idx]: rows picked by idx (x must have no batch axis)
    ("getitem", (2, [1, 1]), {"spec": ("T", "T")}, None),
    ("getitem", (2, [1]), {"spec": (("slice", None, None, None), "T")}, None),
    ("getitem", (2, [2]), {"spec": ("T",)}, None),
])
def test_rows_rules_decline_what_mixes_or_moves_rows(name: str, tensors: tuple, attrs: dict, plan: object) -> None:
    op = TABLE[name]
    assert op.rows(op.bind(tensors, tuple(attrs.items()))) == plan


def _norm_net_under_hooks() -> object:
    # under saved-tensor hooks layer_norm runs its residual form (mean and variance as hidden outputs, one per row)
    nn = paddle.nn
    net = nn.Sequential(nn.Linear(5, 4), nn.LayerNorm(4), nn.Linear(4, 2))
    opt = paddle.optimizer.SGD(learning_rate=LR, parameters=net.parameters())

    def step(b: int) -> list:
        x = paddle.to_tensor(np.random.default_rng(b).standard_normal((b, 5)).astype("float32"))
        with paddle.autograd.saved_tensors_hooks(lambda t: t, lambda t: t):
            out = net(x)
            vals = _finish(net, opt, (out * out).mean(), out)
        return vals

    return step


def test_layer_norm_residual_form_runs_padded_under_saved_tensor_hooks(monkeypatch: pytest.MonkeyPatch) -> None:
    _unpadded_and_padded(monkeypatch, _norm_net_under_hooks, (3, 5), 1)


def _number_input_net() -> object:
    # leaky_relu and hardtanh with numbers passed as kernel inputs (their attributes took more values than the key
    # keeps): a scalar input beside the batch, which the padded program takes as it is
    nn = paddle.nn
    lin, head = nn.Linear(5, 4), nn.Linear(4, 2)
    net = nn.LayerList([lin, head])
    opt = paddle.optimizer.SGD(learning_rate=LR, parameters=net.parameters())
    for k in range(dispatch.NUMBER_VALUES_KEPT + 1):
        F.leaky_relu(paddle.ones([1]), 0.01 * (k + 1))
        F.hardtanh(paddle.ones([1]), -1.0, 1.0 + k)

    def step(b: int) -> list:
        x = paddle.to_tensor(np.random.default_rng(b).standard_normal((b, 5)).astype("float32"))
        h = F.hardtanh(F.leaky_relu(lin(x), 0.05 + 0.01 * b), -1.0, 1.0 + 0.1 * b)
        out = head(h)
        return _finish(net, opt, (out ** 2).mean(), out)

    return step


def test_number_inputs_run_padded(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(dispatch, "_NUMBER_VALUES", {})
    _unpadded_and_padded(monkeypatch, _number_input_net, (3, 5), 1)


def _masked_selection_net() -> object:
    # a boolean mask's selection of a batch-free tensor (``out[mask]``: its count is the step's batch, which changes
    # with the mask), then a mean, a sum and a 2-D selection: the padded rows pick the last true row's element again
    nn = paddle.nn
    lin, head = nn.Linear(5, 4), nn.Linear(4, 1)
    net = nn.LayerList([lin, head])
    opt = paddle.optimizer.SGD(learning_rate=LR, parameters=net.parameters())
    rng = np.random.default_rng(3)
    x = paddle.to_tensor(rng.standard_normal((16, 5)).astype("float32"))
    order = rng.permutation(16)

    def step(b: int) -> list:
        mask = paddle.to_tensor(order < b)
        h = paddle.tanh(lin(x))
        out = head(h).squeeze(-1)
        sel, rows = out[mask], h[mask]
        loss = (sel ** 2).mean() + 0.1 * sel.sum() + (rows * rows).mean()
        return _finish(net, opt, loss, sel, rows)

    return step


def test_a_masked_selection_runs_padded(monkeypatch: pytest.MonkeyPatch) -> None:
    _unpadded_and_padded(monkeypatch, _masked_selection_net, (3, 5, 7), 2)


def test_a_masked_loss_compiles_nothing_for_a_new_count() -> None:
    """Once a step with a masked selection ran padded, a new count of selected elements (every step has its own)
    compiles no XLA program: not its bucket's, nor one to stage the index on the device."""
    step = _masked_selection_net()
    for b in (3, 5):
        step(b)
    before = COMPILES[0]
    for b in (7, 4, 6, 9, 2, 11, 8, 10):
        step(b)
    assert COMPILES[0] == before
