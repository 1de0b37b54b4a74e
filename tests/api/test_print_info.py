"""``set_printoptions``, ``finfo``/``iinfo``, ``paddle.version``, the CUDA generator state and
``disable_signal_handler`` against Paddle 3.3.1: the reprs and numbers recorded by
``tests/record_paddle_print_info.py`` (cases in ``tests/print_info_cases.py``), compared exactly."""

from __future__ import annotations

import json
import os

import numpy as np
import pytest
from print_info_cases import DEFAULTS, record

import pylayer_jax as paddle

with open(os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "data",
                       "paddle_print_info.json")) as _fh:
    PADDLE = json.load(_fh)
OURS = record(paddle)  # (restores the default print options)
KEYS = sorted(k for k in PADDLE if k != "paddle")


@pytest.mark.parametrize("key", KEYS)
def test_matches_paddle(key: str) -> None:
    assert OURS[key] == PADDLE[key]


def test_options_persist_until_changed_and_none_keeps_a_value() -> None:
    t = paddle.to_tensor(np.array([1.123456789, 2.0], np.float32))
    try:
        paddle.set_printoptions(precision=2)
        paddle.set_printoptions(linewidth=60)  # precision stays 2
        assert repr(t).endswith("[1.12, 2.  ])")
    finally:
        paddle.set_printoptions(**DEFAULTS)
    assert repr(t).endswith("[1.12345684, 2.        ])")


@pytest.mark.parametrize("kw, err, match", [
    ({"precision": 2.5}, TypeError, r"set_printoptions: precision must be an int, but received float \(2.5\)"),
    ({"threshold": "a"}, TypeError, r"set_printoptions: threshold must be an int, but received str"),
    ({"linewidth": 1.0}, TypeError, r"set_printoptions: linewidth must be an int"),
    ({"edgeitems": -1}, ValueError, r"set_printoptions: edgeitems must not be negative, but received -1"),
    ({"sci_mode": "yes"}, TypeError, r"set_printoptions: sci_mode must be a bool, but received str"),
])
def test_bad_print_options_raise_and_change_nothing(kw, err, match) -> None:
    # (Paddle: a pybind cast RuntimeError for the wrong types; a negative count is accepted and prints oddly)
    t = paddle.to_tensor(np.array([1.5], np.float32))
    before = repr(t)
    with pytest.raises(err, match=match):
        paddle.set_printoptions(**kw)
    assert repr(t) == before


def test_finfo_and_iinfo_refuse_the_other_kind() -> None:
    with pytest.raises(ValueError, match=r"finfo: the argument must be one of paddle.float32.*received paddle.int64; "
                                         r"use paddle.iinfo"):
        paddle.finfo(paddle.int64)
    with pytest.raises(ValueError, match=r"iinfo: the argument must be one of paddle.int8.*received paddle.float32; "
                                         r"use paddle.finfo"):
        paddle.iinfo(paddle.float32)
    assert paddle.finfo("float16").max == 65504.0 and paddle.iinfo(np.int8).min == -128


def test_version_fields_are_the_packages() -> None:
    v = paddle.version
    assert v.full_version == paddle.__version__
    assert [v.major, v.minor, v.patch] == paddle.__version__.split("+")[0].split(".")[:3]
    assert (v.cuda(), v.cudnn(), v.nccl()) == ("False", "False", "0")  # as Paddle's CPU build reports


def test_cuda_rng_state_round_trips_the_generator() -> None:
    states = paddle.get_cuda_rng_state()
    assert len(states) == paddle.device.cuda.device_count()
    paddle.set_cuda_rng_state([])  # what a CPU machine returns: nothing to restore, as in Paddle
    # where there are GPUs, restoring the state repeats the draws that followed it (one generator serves all)
    saved = paddle.get_rng_state()
    a = paddle.rand([3]).numpy()
    paddle.set_cuda_rng_state(saved)
    np.testing.assert_array_equal(paddle.rand([3]).numpy(), a)
    with pytest.raises(TypeError, match=r"set_cuda_rng_state: expected the list get_cuda_rng_state returned, but "
                                        r"received int"):
        paddle.set_cuda_rng_state(5)
    assert paddle.disable_signal_handler() is None
