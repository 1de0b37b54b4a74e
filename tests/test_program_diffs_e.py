"""The whole programs ``tests/programs/p35_amp_o2.py`` and ``p36_static_adv.py`` against Paddle 3.3.1: the
differences they showed, as focused cases (``tests/program_diff_cases_e.py``, recorded by
``tests/record_paddle_program_diffs_e.py``), and the errors of what was added for them."""

from __future__ import annotations

import os
import sys
import warnings

import pytest

import pylayer_jax as paddle

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from program_diff_cases_e import record  # noqa: E402
from recorded import recorded_tests  # noqa: E402

FIXTURE = "paddle_program_diffs_e.json"
REF, OURS, test_as_paddle, test_every_case_recorded = recorded_tests(record, FIXTURE, paddle)


def test_layer_cast_errors_say_what_to_do() -> None:
    seq = paddle.nn.Sequential(paddle.nn.Linear(2, 2))
    with pytest.raises(TypeError, match=r"Sequential.bfloat16: excluded_layers must be a Layer class or a list of "
                                        r"Layer classes .* received str \('Linear'\)"):
        seq.bfloat16(excluded_layers="Linear")
    with pytest.raises(TypeError, match=r"Sequential.float16: excluded_layers must be .* received int"):
        seq.float16(excluded_layers=3)
    with pytest.warns(UserWarning, match=r"Sequential.float16: float16 is not supported here .* keeps its original"):
        seq.float16()


def test_clipped_softmax_differentiates_forward_and_backward() -> None:
    """The clip's derivative rule is a JVP: forward-mode (jacfwd) and reverse-mode agree with the unclipped
    softmax's Jacobian read from the output."""
    import jax
    import jax.numpy as jnp
    import numpy as np

    from pylayer_jax._ops._util import paddle_log_softmax, paddle_softmax

    x = jnp.array([-100.0, 0.0, 1.0])
    for f in (paddle_softmax, paddle_log_softmax):
        fwd, rev = jax.jacfwd(f)(x, 0), jax.jacrev(f)(x, 0)
        np.testing.assert_allclose(fwd, rev, rtol=1e-6, atol=1e-30)
    y = paddle_softmax(x, 0)
    np.testing.assert_allclose(jax.jacrev(lambda v: paddle_log_softmax(v, 0))(x),
                               jnp.eye(3) - y[None, :], rtol=1e-6)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert float(paddle_softmax(x, 0)[0]) > 0.0  # exp(-64) / sum, not 0
