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
        if isinstance(a, list):  # a nested list of arrays (adaptive_log_softmax_with_loss's tail_weights)
            return [tens(x, False) for x in a]
        a = _dec(a, dt)
        return P.to_tensor(a, stop_gradient=not diff) if isinstance(a, np.ndarray) else a

    args = [tens(a, i in c["grad"]) for i, a in enumerate(c["args"])]
    kwargs = {k: tens(v, False) for k, v in c["kwargs"].items()}
    res = getattr(F, c["fn"])(*args, **kwargs)
    return args, kwargs, list(res) if isinstance(res, tuple | list) else [res]


PARAMS = [pytest.param(i, dt, id=f"{i}-{dt}") for i, c in CASES.items() for dt in c["dtypes"]]


@pytest.mark.parametrize("cid,dt", PARAMS)
def test_forward_and_grad_match_paddle(cid: str, dt: str) -> None:
    _check_against_paddle(cid, dt)


# functions that run another op form under saved-tensor hooks (the one keeping Paddle's residuals)
RESIDUAL_FORMS = {"layer_norm", "instance_norm", "group_norm", "pairwise_distance", "mse_loss", "l1_loss",
                  "smooth_l1_loss", "nll_loss", "square_error_cost", "cross_entropy",
                  "batch_norm", "rrelu", "binary_cross_entropy_with_logits", "softmax_with_cross_entropy",
                  # Paddle's 1-D convolutions and pools keep views with a unit axis; its max pools with
                  # indices keep the index mask
                  "conv1d", "conv1d_transpose", "max_pool1d", "avg_pool1d", "lp_pool1d", "adaptive_avg_pool1d",
                  "adaptive_max_pool1d", "max_unpool1d", "max_pool2d", "max_pool3d", "adaptive_max_pool2d",
                  "adaptive_max_pool3d",
                  # Paddle's chains of elementary ops, run as the same chains of table ops (nn/_chains.py)
                  "glu", "normalize", "cosine_similarity", "hinge_embedding_loss", "cosine_embedding_loss",
                  "soft_margin_loss", "multi_label_soft_margin_loss", "poisson_nll_loss", "gaussian_nll_loss",
                  "multi_margin_loss", "sigmoid_focal_loss", "dice_loss", "triplet_margin_loss",
                  "triplet_margin_with_distance_loss", "local_response_norm", "npair_loss", "scaled_dot_product_attention",
                  # training dropouts keep their masks (of single elements: the kernel's uint8 mask; of slices:
                  # Paddle's chain of scale and multiply by the broadcast mask)
                  "dropout", "dropout1d", "dropout2d", "dropout3d", "alpha_dropout", "feature_alpha_dropout"}


@pytest.mark.parametrize("cid,dt", [p for p in PARAMS if CASES[p.values[0]]["fn"] in RESIDUAL_FORMS])
def test_forward_and_grad_match_paddle_under_saved_tensor_hooks(cid: str, dt: str) -> None:
    packed = []
    with saved_tensors_hooks(lambda x: packed.append(x) or x, lambda x: x):
        _check_against_paddle(cid, dt)
    assert packed or not CASES[cid]["results"][dt]["packed"]  # (the exact packs: test_saved_tensor_packs_against_paddle)


def _check_against_paddle(cid: str, dt: str) -> None:
    c = CASES[cid]
    want = c["results"][dt]
    args, kwargs, outs = _call(c, dt)
    if c.get("random"):  # a mask drawn by Paddle's generator: the shapes and dtypes (tests/nn/test_saved_tensor_forms
        # checks the values and gradients of these forms against the plain ops under the same key)
        assert [list(o.shape) for o in outs] == want["out_shapes"]
        assert [str(o.dtype).replace("paddle.", "") for o in outs] == want["out_dtypes"]
        return
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
    random_or_python = {"sequence_mask", "one_hot", "embedding", "pad", "tanh", "sigmoid",
                        "softmax", "log_softmax", "relu", "leaky_relu", "hardtanh", "hardshrink", "softshrink",
                        "logsigmoid", "swish"}
    # the large-model kernels: recorded where Paddle 3.3.1's CPU runs them (tests/data/paddle_fused.json), else
    # checked against references of their documented formulas (both in tests/nn/test_functional_fused.py)
    fused = {"flash_attn_qkvpacked", "class_center_sample", "flash_attn_varlen_qkvpacked", "flash_attention_v3_varlen",
             "flashmask_attention", "sparse_attention", "rms_norm", "margin_cross_entropy", "moe_permute",
             "moe_unpermute"}
    missing = [n for n in names if callable(getattr(F, n, None)) and not n.endswith("_")
               and n not in recorded and n not in random_or_python | fused]
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


# Saved-tensor hooks see what each op's ``saves`` lists; those lists mirror what Paddle's kernels keep (for example
# layer_norm keeps x, weight, mean and variance; cross_entropy the label [N, 1] and the softmax; mse_loss the
# difference: under hooks nn.functional runs the ``*_residuals`` forms whose backward reads those; the 1-D
# convolutions and pools keep Paddle's views with a unit axis, its max pools with indices the index mask). The
# test compares the count, shapes, dtypes and order of the packed tensors with Paddle's. The cases below are the
# exceptions, each with its reason; each is asserted to differ, so a case that comes to match fails.
#
# Paddle writes some functions in Python as chains of elementary ops, each packing its own operands and results;
# under hooks they run here as the same chains of table ops (nn/_chains.py), and ctc_loss and hsigmoid_loss run
# forms that keep what Paddle's kernels keep (the warp-ctc gradient, the pre-activations). The one exception:
COMPOSED_IN_PYTHON: set[str] = set()
OTHER: dict[str, str] = {
    # Paddle 3.3.1's dropout1d calls dropout(axis=1): one mask [1, C, 1] for the whole batch, so a channel is dropped
    # in every sample at once; ours drops each sample's channels independently (mask [N, C, 1]), as its dropout2d
    # and dropout3d do and as "zero out entire channels" reads
    "dropout1d-train": "the channel mask is drawn per sample",
}


def _packed(c: dict, dt: str) -> list[tuple[list[int], str]]:
    """The (shape, dtype) of each tensor the pack hook receives during the call, in order."""
    got = []
    with saved_tensors_hooks(lambda x: got.append((list(x.shape), str(x.dtype).replace("paddle.", ""))) or x,
                             lambda x: x):
        _call(c, dt)
    return got


@pytest.mark.parametrize("cid,dt", PARAMS)
def test_saved_tensor_packs_against_paddle(cid: str, dt: str) -> None:
    # the same tensors as Paddle's pack hook receives: count, shapes, dtypes and order
    c = CASES[cid]
    r = c["results"][dt]
    want = [(list(s), d) for s, d in zip(r["packed"], r["packed_dtypes"])]
    got = _packed(c, dt)
    if cid in COMPOSED_IN_PYTHON or cid in OTHER:
        assert got != want, f"{cid} now packs what Paddle packs: remove it from the exceptions"
    else:
        assert got == want, f"{cid}: packed {got}, Paddle packs {want}"


def test_packs_exceptions_name_recorded_cases() -> None:
    every = [*COMPOSED_IN_PYTHON, *OTHER]
    assert len(every) == len(set(every)) and set(every) <= set(CASES), sorted(set(every) - set(CASES))


def test_residual_forms_run_only_under_saved_tensor_hooks() -> None:
    # without hooks the plain one-output ops run (the eager fast path and the step replay take them); with hooks
    # the forms whose hidden outputs are Paddle's saved residuals
    from pylayer_jax._ops.table import TABLE

    x = P.to_tensor(np.random.default_rng(0).standard_normal((3, 4)), stop_gradient=False)
    label = P.to_tensor(np.array([0, 3, 1]))
    calls = {"layer_norm": lambda: F.layer_norm(x, 4), "mse_loss": lambda: F.mse_loss(x, x * 0.5),
             "cross_entropy": lambda: F.cross_entropy(x, label)}
    hooked = {"layer_norm": "layer_norm_residuals", "mse_loss": "mse_loss_residuals",
              "cross_entropy": "cross_entropy_with_softmax"}
    for name, call in calls.items():
        assert call()._edge[0].op is TABLE[name]
        with saved_tensors_hooks(lambda t: t, lambda t: t):
            out = call()
        assert out._edge[0].op is TABLE[hooked[name]] and not isinstance(out, tuple)
