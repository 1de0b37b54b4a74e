"""Views share their base's data, as in Paddle 3.3.1: basic indexing, reshape/view/flatten, squeeze/unsqueeze,
transpose/t/T/moveaxis, detach, unbind, diagonal, narrow/slice/strided_slice. A write through a view reaches the
base and its other views, a write to the base reaches its views; copies (advanced indexing, split, expand,
clone, a reshape of a non-contiguous view) share nothing. Every case of ``tests/view_cases.py`` is checked
against Paddle's recorded values, version counters, stop_gradient flags and gradients
(``tests/record_paddle_views.py``), including Paddle's rule that a write through a view moves values only: the
other tensors keep their autograd history (``ag_base_loss``: the gradient of ``h.sum()`` after ``h[0].mul_(2)``
is Paddle's ones, not the twos of the written history)."""

from __future__ import annotations

import json
import os

import numpy as np
import pytest
from view_cases import CASES, run

import pylayer_jax as paddle

with open(os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "data",
                       "paddle_views.json")) as _f:
    REF = json.load(_f)


def _same(ours, ref, where):
    if isinstance(ref, dict):
        assert isinstance(ours, dict), f"{where}: ours {ours!r}, Paddle {ref!r}"
        assert ours["dtype"] == ref["dtype"] and ours["shape"] == ref["shape"], f"{where}: {ours} vs {ref}"
        np.testing.assert_allclose(np.asarray(ours["value"], float), np.asarray(ref["value"], float), rtol=1e-6,
                                   err_msg=where)
    else:
        assert ours == ref, f"{where}: ours {ours!r}, Paddle {ref!r}"


@pytest.mark.parametrize("name", sorted(CASES))
def test_view_case_matches_paddle(name):
    ref = REF[name]
    ours = run(paddle, CASES[name])
    if "error" in ref:
        assert "error" in ours, f"Paddle raised {ref['error']}, ours gave {ours}"
        assert ours["error"][0] == ref["error"][0], ours
        return
    assert "out" in ours, f"ours raised {ours['error']}"
    assert len(ours["out"]) == len(ref["out"])
    for i, (o, r) in enumerate(zip(ours["out"], ref["out"], strict=True)):
        _same(o, r, f"{name} out[{i}]")


def test_the_recorded_version_is_paddles():
    assert REF["paddle"] == "3.3.1"
