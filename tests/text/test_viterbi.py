"""``paddle.text.viterbi_decode`` / ``ViterbiDecoder`` against Paddle 3.3.1's outputs recorded by
``tests/record_paddle_text.py`` (tests/data/paddle_text.json): with and without the start/stop tags, float32 and
float64, several lengths (0 included), and the exception type of each misuse."""

from __future__ import annotations

import json
import pathlib

import numpy as np
import pytest

import pylayer_jax as paddle
from pylayer_jax.text import ViterbiDecoder, viterbi_decode

REC = json.loads((pathlib.Path(__file__).resolve().parents[1] / "data" / "paddle_text.json").read_text())["viterbi"]
EXC = {"ValueError": ValueError, "TypeError": TypeError, "RuntimeError": RuntimeError, "IndexError": IndexError}


def _inputs(c):
    return (paddle.to_tensor(np.array(c["potentials"], c["dtype"])), paddle.to_tensor(np.array(c["transitions"],
            c["dtype"])), paddle.to_tensor(np.array(c["lengths"], "int64")))


@pytest.mark.parametrize("case", REC["cases"], ids=lambda c: f"{c['lengths']}-{c['dtype']}-tags{c['include']}")
def test_viterbi_decode_matches_paddle(case):
    scores, paths = viterbi_decode(*_inputs(case), case["include"])
    assert scores.dtype.name == case["scores_dtype"] and paths.dtype.name == case["paths_dtype"]
    np.testing.assert_allclose(scores.numpy(), case["scores"], rtol=1e-6 if case["dtype"] == "float32" else 1e-12)
    np.testing.assert_array_equal(paths.numpy(), case["paths"])


def test_viterbi_decoder_layer_and_no_gradient():
    c = REC["cases"][0]
    pot, trans, lens = _inputs(c)
    dec = ViterbiDecoder(trans, include_bos_eos_tag=False)
    scores, paths = dec(pot, lens)
    np.testing.assert_allclose(scores.numpy(), REC["layer"]["scores"], rtol=1e-6)
    np.testing.assert_array_equal(paths.numpy(), REC["layer"]["paths"])
    assert [len(dec.parameters()), len(dec.buffers()), list(dec.state_dict())] == [
        REC["layer"]["n_parameters"], REC["layer"]["n_buffers"], REC["layer"]["state_dict"]]
    assert dec.transitions is trans and dec.include_bos_eos_tag is False
    pot.stop_gradient = False
    s, p = viterbi_decode(pot, trans, lens, False)
    assert [s.stop_gradient, p.stop_gradient] == REC["stop_gradient"]


def test_viterbi_decode_misuse():
    rng = np.random.default_rng(0)
    pot = paddle.to_tensor(rng.standard_normal((2, 4, 3)).astype("float32"))
    tr = paddle.to_tensor(rng.standard_normal((3, 3)).astype("float32"))
    e = REC["errors"]
    cases = [
        ("lengths_too_long", lambda: viterbi_decode(pot, tr, paddle.to_tensor([6, 2]), False),
         r"every length must be in \[0, seq_len\] = \[0, 4\], but received \[6, 2\]"),
        ("lengths_int32", lambda: viterbi_decode(pot, tr, paddle.to_tensor([3, 2], "int32"), False),
         r"lengths must be int64, but received int32"),
        ("mixed_dtypes", lambda: viterbi_decode(pot.astype("float64"), tr, paddle.to_tensor([3, 2]), False),
         r"transition_params must have the dtype of potentials \(float64\), but received float32"),
        ("rank2", lambda: viterbi_decode(pot[0], tr, paddle.to_tensor([3]), False),
         r"potentials must be 3-D .*received shape \[4, 3\]"),
        ("transition_shape", lambda: viterbi_decode(pot, tr[:2], paddle.to_tensor([3, 2]), False),
         r"transition_params must have shape \[num_tags, num_tags\] = \[3, 3\].*received \[2, 3\]"),
        ("lengths_shape", lambda: viterbi_decode(pot, tr, paddle.to_tensor([3]), False),
         r"lengths must have shape \[batch_size\] = \[2\], but received \[1\]"),
        ("int_potentials", lambda: viterbi_decode(pot.astype("int64"), tr, paddle.to_tensor([3, 2]), False),
         r"potentials must be float32 or float64.*received int64"),
        ("include_int", lambda: viterbi_decode(pot, tr, paddle.to_tensor([3, 2]), 1),
         r"include_bos_eos_tag must be a bool, but received int"),
    ]
    for key, call, match in cases:
        with pytest.raises(EXC[e[key]], match=match):
            call()
    with pytest.raises(TypeError, match=r"potentials must be a Tensor, but received ndarray"):
        viterbi_decode(np.zeros((2, 4, 3)), tr, paddle.to_tensor([3, 2]))
