"""Activation, loss, dropout, padding, embedding, resampling and vision layers against Paddle 3.3.1
(fixtures from tests/record_paddle_layers_zoo_a.py): repr, state_dict keys, parameter names, outputs,
input and parameter gradients in float32 and float64; random layers by statistics; misuse errors."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest
from layer_zoo_a_cases import CASES, make_inputs, run

import pylayer_jax as paddle

nn = paddle.nn
REC = json.loads((Path(__file__).resolve().parents[1] / "data" / "paddle_layers_zoo_a.json").read_text())
TOL = {"float32": dict(rtol=2e-5, atol=2e-5), "float64": dict(rtol=1e-10, atol=1e-10)}
# Paddle keeps these layers' float arguments (slopes, thresholds, smoothing, delta, p, resampling ratios)
# as float32 attributes even in float64 kernels, so its float64 results carry float32 rounding of them
# (relative differences up to ~1e-7); ours use the exact values
F32_ATTRS = {"SELU", "SELU_args", "Hardsigmoid", "Softshrink_t", "Hardtanh_mm", "ThresholdedReLU_tv", "RReLU_eval",
             "CrossEntropyLoss_ls", "HuberLoss", "Dropout_down_eval", "Upsample_bilinear", "Upsample_bicubic",
             "UpsamplingBilinear2D", "Embedding_maxnorm"}


def _build(build, mode, dt):
    paddle.set_default_dtype(dt)
    try:
        with paddle.utils.unique_name.guard():
            layer = build(paddle, np.dtype(dt))
    finally:
        paddle.set_default_dtype("float32")
    if mode == "eval":
        layer.eval()
    return layer


@pytest.mark.parametrize("dt", ["float32", "float64"])
@pytest.mark.parametrize("case", CASES, ids=[c[0] for c in CASES])
def test_layer_matches_paddle(case, dt):
    cid, build, specs, mode = case
    rec = REC["cases"][cid][dt]
    tol = dict(rtol=1e-6, atol=1e-7) if dt == "float64" and cid in F32_ATTRS else TOL[dt]
    layer = _build(build, mode, dt)
    assert repr(layer) == rec["repr"]
    assert list(layer.state_dict().keys()) == rec["keys"]
    assert [p.name for p in layer.parameters()] == rec["param_names"]
    for k, p in layer.state_dict().items():
        assert str(p.dtype).replace("paddle.", "") == dt, k
    if rec["params"]:
        missing, unexpected = layer.set_state_dict({k: np.asarray(v, dt) for k, v in rec["params"].items()})
        assert missing == [] and unexpected == []
    r = run(paddle, layer, make_inputs(cid, specs, np.dtype(dt)), np.dtype(dt))
    assert repr(layer) == rec["repr_after"]
    assert r["out_dtype"] == rec["out_dtype"]
    np.testing.assert_allclose(r["out"], np.asarray(rec["out"]), **tol)
    assert len(r["grads"]) == len(rec["grads"])
    for got, want in zip(r["grads"], rec["grads"], strict=True):
        assert (got is None) == (want is None)
        if want is not None:
            np.testing.assert_allclose(got, np.asarray(want), **tol)
    assert set(r["param_grads"]) == set(rec["param_grads"])
    for k, want in rec["param_grads"].items():
        np.testing.assert_allclose(r["param_grads"][k], np.asarray(want), **tol, err_msg=k)


def test_default_initialisation_like_paddle():
    paddle.seed(11)
    for key, w in (("embedding", nn.Embedding(200, 300).weight.numpy()),
                   ("bilinear", nn.Bilinear(30, 40, 50).weight.numpy())):
        want = REC["inits"][key]
        # same XavierUniform bound and spread as Paddle (the random streams differ)
        assert abs(np.abs(w).max() - want["max"]) < 0.01 * want["max"], key
        assert abs(w.std() - want["std"]) < 0.02 * want["std"], key
        assert abs(w.mean()) < 0.05 * want["std"], key
    np.testing.assert_array_equal(nn.PReLU(2, init=0.3)._weight.numpy(), np.asarray(REC["inits"]["prelu"], "float32"))


def test_aliases_are_paddles():
    for alias, target in REC["aliases"].items():
        assert getattr(nn, alias) is getattr(nn, target), alias

