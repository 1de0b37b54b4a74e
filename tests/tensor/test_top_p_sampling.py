"""``paddle.tensor.top_p_sampling``: Paddle 3.3.1 has no CPU kernel for it (every call there is a RuntimeError,
recorded in ``data/paddle_tensor_extras.json``); pylayer_jax runs the rule of Paddle's GPU kernel anywhere. Its draws
come from pylayer_jax's generator, so they are checked as distributions (against the probabilities the rule gives,
computed here with numpy) and by the cases the rule decides without chance; every misuse raises a sentence."""

from __future__ import annotations

import json
import os

import numpy as np
import pytest

import pylayer_jax as paddle

with open(os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "data",
                       "paddle_tensor_extras.json")) as _f:
    REF = json.load(_f)["top_p"]

N = 20000  # rows drawn for a distribution: each frequency within 0.015 of its probability (over 4 standard errors)


def _freq(probs: list[float], p: float, **kw: object) -> np.ndarray:
    x = paddle.to_tensor(np.tile(np.asarray(probs, np.float32), (N, 1)))
    ids = paddle.top_p_sampling(x, paddle.full([N], p), **kw)[1].numpy().ravel()
    return np.bincount(ids, minlength=len(probs)) / N


def test_paddle_has_no_cpu_kernel_and_the_same_signature() -> None:
    assert REF["cpu_call"] == ["RuntimeError", "(NotFound) The kernel `top_p_sampling` is not registered."]
    import inspect

    assert list(inspect.signature(paddle.top_p_sampling).parameters) == REF["signature"]


@pytest.mark.parametrize("mode,threshold,want", [
    # truncated: u * p picks a token by the running sum; the last token of the prefix is cut at p
    ("truncated", None, [0.5 / 0.7, 0.2 / 0.7, 0.0, 0.0]),
    # non-truncated: every token of the prefix (the mass ranked above it < p) with its whole probability
    ("non-truncated", None, [0.5 / 0.8, 0.3 / 0.8, 0.0, 0.0]),
    # a drawn token below the threshold gives way to the least probable token at or above it
    ("truncated", 0.4, [1.0, 0.0, 0.0, 0.0]),
    ("non-truncated", 0.25, [0.5 / 0.8, 0.3 / 0.8, 0.0, 0.0]),
])
def test_distribution(mode: str, threshold: float | None, want: list[float]) -> None:
    paddle.seed(2024)
    probs = [0.3, 0.5, 0.05, 0.15]  # ranked: 1 (0.5), 0 (0.3), 3 (0.15), 2 (0.05)
    kw = {} if threshold is None else {"threshold": paddle.full([N], threshold)}
    got = _freq(probs, 0.7, mode=mode, **kw)
    order = [1, 0, 3, 2]
    np.testing.assert_allclose(got[order], want, atol=0.015)


def test_threshold_fallback_in_truncated_mode() -> None:
    paddle.seed(7)
    # ranked 0.4, 0.35, 0.25; p = 1; the 0.25 token is below 0.3: its draws (25%) go to the 0.35 token
    np.testing.assert_allclose(_freq([0.4, 0.35, 0.25], 1.0, threshold=paddle.full([N], 0.3)), [0.4, 0.6, 0.0],
                               atol=0.015)


@pytest.mark.parametrize("mode", ["truncated", "non-truncated"])
def test_decided_without_chance(mode: str) -> None:
    x = paddle.to_tensor([[0.1, 0.7, 0.2], [0.2, 0.1, 0.05], [0.3, 0.3, 0.4], [0.25, 0.5, 0.25]])
    ps = paddle.to_tensor([0.5, 0.9, 0.0, 0.0])
    # row 0: the top token alone passes 0.5; rows 2, 3: p = 0 is greedy; row 1 (non-truncated): the mass never
    # reaches 0.9, which gives the top token, as Paddle's kernels do (truncated: u * 0.9 may be reached)
    for seed in (1, 2, 3):
        v, i = paddle.top_p_sampling(x, ps, seed=seed, mode=mode)
        rows = [0, 1, 2, 3] if mode == "non-truncated" else [0, 2, 3]
        np.testing.assert_array_equal(i.numpy().ravel()[rows], np.array([1, 0, 2, 1])[rows])
        np.testing.assert_array_equal(v.numpy().ravel()[rows], np.float32([0.7, 0.2, 0.4, 0.5])[rows])


def test_unreached_truncated_target_gives_the_top_token() -> None:
    paddle.seed(3)
    # total mass 0.35 of p = 0.9: u * 0.9 > 0.35 (61% of draws) is never reached, and gives the top token
    np.testing.assert_allclose(_freq([0.2, 0.1, 0.05], 0.9),
                               [0.2 / 0.9 + (1 - 0.35 / 0.9), 0.1 / 0.9, 0.05 / 0.9], atol=0.015)


def test_outputs_and_top_k() -> None:
    probs = np.array([[0.1, 0.4, 0.1, 0.4], [0.25, 0.25, 0.3, 0.2]])
    for dt in ("float64", "bfloat16"):  # (float32: the other tests)
        x = paddle.to_tensor(probs).astype(dt)
        out = x.top_p_sampling(paddle.to_tensor([0.8, 0.8]).astype(dt), k=3, return_top=True)
        assert len(out) == 4
        v, i, tv, ti = out
        assert (v.shape, i.shape, tv.shape, ti.shape) == ([2, 1], [2, 1], [2, 3], [2, 3])
        assert v.dtype == tv.dtype == x.dtype and i.dtype == ti.dtype == paddle.int64
        assert all(t.stop_gradient for t in out)
        np.testing.assert_array_equal(ti.numpy(), [[1, 3, 0], [2, 0, 1]])  # (equal ones by position)
        np.testing.assert_array_equal(tv.astype("float32").numpy(), x.astype("float32").numpy()[[[0], [1]], ti.numpy()])
        np.testing.assert_array_equal(v.astype("float32").numpy(),
                                      x.astype("float32").numpy()[[0, 1], i.numpy().ravel()][:, None])
    v, i, tv, ti = paddle.top_p_sampling(x, paddle.to_tensor([[0.8], [0.8]]), return_top=True)  # ps [B, 1], k = 0
    assert tv.shape == ti.shape == [2, 0]


def test_seeds() -> None:
    x = paddle.to_tensor(np.tile(np.float32([0.25, 0.25, 0.25, 0.25]), (64, 1)))
    ps = paddle.full([64], 1.0)
    a = paddle.top_p_sampling(x, ps, seed=11)[1].numpy()
    assert (a == a[0]).all()  # a fixed seed: every row draws from the same stream, as in Paddle
    np.testing.assert_array_equal(paddle.top_p_sampling(x, ps, seed=11)[1].numpy(), a)
    paddle.seed(5)
    b = paddle.top_p_sampling(x, ps)[1].numpy()
    assert len(np.unique(b)) == 4  # the global generator: each row its own draw
    paddle.seed(5)
    np.testing.assert_array_equal(paddle.top_p_sampling(x, ps)[1].numpy(), b)
    seeds = paddle.to_tensor(np.arange(64) % 8)
    paddle.seed(9)
    c = paddle.top_p_sampling(x, ps, topp_seed=seeds)[1].numpy().ravel()
    after = paddle.rand([1]).numpy()
    paddle.seed(9)
    np.testing.assert_array_equal(paddle.rand([1]).numpy(), after)  # (the rows' seeds do not draw from it)
    np.testing.assert_array_equal(c, np.tile(c[:8], 8))  # equal seeds, equal draws


def test_misuse() -> None:
    x = paddle.to_tensor([[0.5, 0.3, 0.2], [0.1, 0.1, 0.8]])
    ps = paddle.to_tensor([0.9, 0.5])
    api = r"^paddle\.tensor\.top_p_sampling: "
    cases = [
        (TypeError, api + r"x must be a Tensor of probabilities \[batch, vocab\], but received list",
         lambda: paddle.top_p_sampling([[0.5, 0.5]], ps)),
        (TypeError, api + r"x must be a floating Tensor .* but its dtype is int64",
         lambda: paddle.top_p_sampling(paddle.to_tensor([[1, 2]]), ps)),
        (ValueError, api + r"x must be 2-D \[batch, vocab\] .* but has shape \[3\]",
         lambda: paddle.top_p_sampling(paddle.to_tensor([0.5, 0.3, 0.2]), ps)),
        (TypeError, api + r"ps must be a Tensor of the top-p values .* but received None",
         lambda: paddle.top_p_sampling(x, None)),
        (TypeError, api + r"ps must be a Tensor of floating top-p values \(one per row of x\), but received float",
         lambda: paddle.top_p_sampling(x, 0.9)),
        (ValueError, api + r"ps must hold one value per row of x, shape \[2\] or \[2, 1\], but has shape \[3\]",
         lambda: paddle.top_p_sampling(x, paddle.to_tensor([0.9, 0.9, 0.9]))),
        (TypeError, api + r"ps must be a Tensor of floating top-p values, but its dtype is int64",
         lambda: paddle.top_p_sampling(x, paddle.to_tensor([1, 1]))),
        (ValueError, api + r"threshold must hold one value per row of x, shape \[2\] or \[2, 1\], but has shape \[1\]",
         lambda: paddle.top_p_sampling(x, ps, threshold=paddle.to_tensor([0.1]))),
        (TypeError, api + r"topp_seed must be a Tensor of int64 seeds, but its dtype is float32",
         lambda: paddle.top_p_sampling(x, ps, topp_seed=paddle.to_tensor([1.0, 2.0]))),
        (ValueError, api + r"k must be in \[0, vocab\(3\)\], but received 4",
         lambda: paddle.top_p_sampling(x, ps, k=4)),
        (ValueError, api + r"k must be in \[0, vocab\(3\)\], but received -1",
         lambda: paddle.top_p_sampling(x, ps, k=-1)),
        (TypeError, api + r"k must be an int .* but received 1\.0", lambda: paddle.top_p_sampling(x, ps, k=1.0)),
        (ValueError, api + r"mode must be 'truncated' or 'non-truncated', but received 'greedy'",
         lambda: paddle.top_p_sampling(x, ps, mode="greedy")),
        (TypeError, api + r"seed must be an int \(-1: the global generator draws\), but received '1'",
         lambda: paddle.top_p_sampling(x, ps, seed="1")),
    ]
    for exc, match, call in cases:
        with pytest.raises(exc, match=match):
            call()
