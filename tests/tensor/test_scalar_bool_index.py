"""Scalar-bool indices (``v[True]``) and comparisons with None, against Paddle 3.3.1
(``tests/record_paddle_scalar_bool_index.py``)."""

from __future__ import annotations

import json
import os

import numpy as np
import pytest
import scalar_bool_index_cases as cases
from scalar_bool_index_cases import INDICES

import pylayer_jax as paddle

with open(os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "data",
                       "paddle_scalar_bool_index.json")) as _f:
    REF = json.load(_f)


def index(key):
    return cases.index(paddle, key)


def tensor():
    return cases.tensor(paddle)


@pytest.mark.parametrize("key", list(INDICES))
def test_getitem_with_a_scalar_bool_matches_paddle(key):
    r = tensor()[index(key)]
    assert r.shape == REF["getitem"][key]["shape"]
    np.testing.assert_array_equal(r.numpy().reshape(-1), np.asarray(REF["getitem"][key]["values"]).reshape(-1))


@pytest.mark.parametrize("key", [k for k in INDICES if not isinstance(REF["setitem"][k], dict)])
def test_setitem_with_a_scalar_bool_matches_paddle(key):
    w = tensor()
    w[index(key)] = -1.0
    np.testing.assert_array_equal(w.numpy(), np.asarray(REF["setitem"][key]))


def test_scalar_bool_index_is_differentiable_and_distinct_from_one():
    v = paddle.to_tensor([1.0, 2.0, 3.0], stop_gradient=False)
    (v[True] * paddle.to_tensor([[1.0, 2.0, 3.0]])).sum().backward()
    np.testing.assert_array_equal(v.grad.numpy(), [1.0, 2.0, 3.0])
    m = tensor()
    assert m[1].shape == [4] and m[True].shape == [1, 2, 4]  # the kernels for 1 and True are not shared


def test_comparison_with_none_is_a_python_bool():
    x = paddle.to_tensor([1.0, 2.0])
    ref = REF["compare_none"]
    assert (x == None) is ref["eq"] and (x != None) is ref["ne"]  # noqa: E711
    assert (None == x) is ref["req"] and (None != x) is ref["rne"]  # noqa: E711
