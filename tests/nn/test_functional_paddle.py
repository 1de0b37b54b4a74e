"""nn.functional against numbers recorded from Paddle 3.3.1 (``tests/record_paddle_functional.py``).

For each recorded case and float type: the outputs (values and dtypes), the gradients of
``sum(out * ct)`` with respect to the listed inputs, batch_norm's updated running
statistics, and the coverage of Paddle's nn.functional names.
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

import pylayer_jax as P
import pylayer_jax.nn.functional as F
from pylayer_jax.autograd import saved_tensors_hooks

FIXTURE = json.loads((Path(__file__).resolve().parents[1].joinpath("data") / "paddle_functional.json").read_text())
CASES = {c["id"]: c for c in FIXTURE["cases"]}
SPEC = Path(__file__).resolve().parents[1].joinpath("paddle_nn_functional.txt")
# Paddle computes some float64 kernels with float32 coordinates or constants (interpolate, lp_pool):
# 1e-5 relative still separates a wrong formula from rounding
TOL = {"float32": {"rtol": 2e-4, "atol": 2e-5}, "float64": {"rtol": 1e-5, "atol": 1e-7}}


def _dec(a, dt):
    if isinstance(a, dict) and "array" in a:
        arr = np.asarray(a["array"], dtype=a["dtype"]).reshape(a["shape"])
        return arr.astype(dt) if arr.dtype.kind == "f" else arr
    return a


def _call(c, dt):
    def tens(a, diff):
        a = _dec(a, dt)
        return P.to_tensor(a, stop_gradient=not diff) if isinstance(a, np.ndarray) else a

    args = [tens(a, i in c["grad"]) for i, a in enumerate(c["args"])]
    kwargs = {k: tens(v, False) for k, v in c["kwargs"].items()}
    res = getattr(F, c["fn"])(*args, **kwargs)
    return args, kwargs, list(res) if isinstance(res, tuple | list) else [res]


PARAMS = [pytest.param(i, dt, id=f"{i}-{dt}") for i, c in CASES.items() for dt in c["dtypes"]]


@pytest.mark.parametrize("cid,dt", PARAMS)
def test_forward_and_grad_match_paddle(cid: str, dt: str) -> None:
    c = CASES[cid]
    want = c["results"][dt]
    args, kwargs, outs = _call(c, dt)
    assert len(outs) == len(want["outs"])
    for o, w, wdt in zip(outs, want["outs"], want["out_dtypes"]):
        assert str(o.dtype).replace("paddle.", "") == wdt, f"{cid}: dtype {o.dtype} != Paddle's {wdt}"
        np.testing.assert_allclose(o.numpy(), np.asarray(w, dtype=o.numpy().dtype), **TOL[dt])
    if c["fn"] == "batch_norm":
        for t, w in zip(args[1:3], want["running"]):
            np.testing.assert_allclose(t.numpy(), np.asarray(w), **TOL[dt])
    if "grads" not in want:
        return
    loss = None
    for o, ct in zip(outs, want["cts"]):
        if ct is not None and not o.stop_gradient:
            term = (o * P.to_tensor(np.asarray(ct, dt))).sum()
            loss = term if loss is None else loss + term
    gs = P.grad(loss, [args[i] for i in c["grad"]], allow_unused=True)
    # where Paddle's backward is not the derivative of its forward, the fixture's central differences
    # of Paddle's float64 forward are the reference (both dtypes)
    fd = c["results"].get("float64", {}).get("fd_grads")
    wants, tol = (fd, {"rtol": 1e-4, "atol": 1e-6}) if fd is not None else (want["grads"], TOL[dt])
    if fd is not None:
        assert not np.allclose(np.asarray(want["grads"][0]), np.asarray(fd[0]), rtol=1e-3, atol=1e-4)
    for i, g, w in zip(c["grad"], gs, wants):
        if w is None:
            assert g is None or not np.any(g.numpy()), f"{cid}: input {i} has a gradient, Paddle's has none"
            continue
        assert g is not None, f"{cid}: input {i} got no gradient"
        np.testing.assert_allclose(g.numpy(), np.asarray(w), **tol, err_msg=f"gradient of input {i}")


def test_fixture_covers_every_new_function() -> None:
    recorded = {c["fn"] for c in FIXTURE["cases"]}
    names = SPEC.read_text().split()
    random_or_python = {"dropout", "dropout1d", "dropout2d", "dropout3d", "alpha_dropout", "feature_alpha_dropout",
                        "gumbel_softmax", "rrelu", "sequence_mask", "one_hot", "embedding", "pad", "tanh", "sigmoid",
                        "softmax", "log_softmax", "relu", "leaky_relu", "hardtanh", "hardshrink", "softshrink",
                        "logsigmoid", "swish"}
    missing = [n for n in names if callable(getattr(F, n, None)) and not n.endswith("_")
               and n not in recorded and n not in random_or_python]
    assert not missing, f"functions without a recorded Paddle case: {missing}"


def coverage() -> tuple[list[str], list[str]]:
    names = SPEC.read_text().split()
    have = [n for n in names if callable(getattr(F, n, None))]
    return have, [n for n in names if n not in have]


def test_nn_functional_name_coverage() -> None:
    have, missing = coverage()
    print(f"\npylayer_jax.nn.functional provides {len(have)} of {len(have) + len(missing)} Paddle names; missing: {missing}")
    assert len(have) >= 115
    for n in have:
        assert getattr(F, n).__doc__, f"nn.functional.{n} has no docstring"


# Cases whose saved tensors (the shapes saved_tensors_hooks packs) still differ from Paddle's: Paddle
# composes these functions from smaller ops and packs their intermediates (or unsqueezed 1-D views for
# the 1-D convolutions and pools); the op table saves whole inputs. Asserted to differ, so a case
# that comes to match must leave this set.
PACKS_DIFFER = {
    "conv1d", "conv1d-same-nlc", "conv1d_transpose", "conv1d_transpose-groups", "max_pool1d", "max_pool1d-mask",
    "max_pool2d", "max_pool2d-same-nhwc", "max_pool3d", "avg_pool1d", "avg_pool1d-inclusive-ceil", "avg_pool2d",
    "avg_pool2d-inclusive-ceil", "avg_pool2d-divisor", "avg_pool3d", "lp_pool1d", "lp_pool2d", "adaptive_avg_pool1d",
    "adaptive_avg_pool2d", "adaptive_avg_pool2d-nhwc", "adaptive_avg_pool3d", "adaptive_max_pool1d",
    "adaptive_max_pool2d", "adaptive_max_pool3d", "max_unpool1d", "max_unpool2d", "max_unpool3d", "instance_norm",
    "group_norm", "group_norm-nhwc", "batch_norm-train", "batch_norm-eval", "local_response_norm",
    "local_response_norm-nhwc", "layer_norm", "normalize", "interpolate-area", "affine_grid", "affine_grid-3d",
    "scaled_dot_product_attention", "scaled_dot_product_attention-causal", "scaled_dot_product_attention-mask",
    "rrelu", "maxout", "maxout-last", "square_error_cost", "hinge_embedding_loss", "cosine_embedding_loss",
    "soft_margin_loss", "multi_label_soft_margin_loss", "multi_margin_loss", "multi_margin_loss-none",
    "multi_label_margin_loss", "poisson_nll_loss", "poisson_nll_loss-full", "gaussian_nll_loss",
    "sigmoid_focal_loss", "sigmoid_focal_loss-mean", "dice_loss", "triplet_margin_loss",
    "triplet_margin_with_distance_loss", "npair_loss", "elu", "silu", "glu", "mse_loss", "l1_loss", "smooth_l1_loss",
    "cross_entropy", "cross_entropy-w-smooth", "nll_loss", "binary_cross_entropy_with_logits", "kl_div",
    "cosine_similarity", "pairwise_distance",
}


@pytest.mark.parametrize("cid", list(CASES))
def test_saved_tensor_packs_against_paddle(cid: str) -> None:
    c = CASES[cid]
    dt = c["dtypes"][0]
    want = sorted(str(s) for s in c["results"][dt]["packed"])
    got = []
    with saved_tensors_hooks(lambda x: got.append(list(x.shape)) or x, lambda x: x):
        _call(c, dt)
    same = sorted(str(s) for s in got) == want
    if cid in PACKS_DIFFER:
        assert not same, f"{cid} now packs what Paddle packs: remove it from PACKS_DIFFER"
    else:
        assert same, f"{cid}: packed {got}, Paddle packs {c['results'][dt]['packed']}"
