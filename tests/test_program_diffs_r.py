"""The programs ``tests/programs/p59_functional_zoo.py`` and ``p60_jit_save_deploy.py`` against Paddle 3.3.1: the
differences they showed, as focused cases (``tests/program_diff_cases_r.py``, recorded by
``tests/record_paddle_program_diffs_r.py``), the errors of what was added for them, and the one gradient where
Paddle is wrong and pylayer_jax is not (checked against ``jax.grad``)."""

from __future__ import annotations

import os
import sys

import jax
import jax.numpy as jnp
import numpy as np
import pytest

import pylayer_jax as paddle

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from program_diff_cases_r import record  # noqa: E402
from recorded import recorded_tests  # noqa: E402

REF, OURS, test_as_paddle, test_every_case_recorded = recorded_tests(record, "paddle_program_diffs_r.json", paddle)


def test_group_norm_without_weight_has_the_exact_gradient() -> None:
    # Paddle 3.3.1's CPU kernel gives a wrong input gradient when weight is None (not mirrored, see p59)
    x = np.random.default_rng(0).standard_normal((2, 4, 9))
    w = np.cos(np.arange(72)).reshape(2, 4, 9)

    def ref(a):
        g = a.reshape(2, 2, -1)
        n = (g - g.mean(-1, keepdims=True)) / jnp.sqrt(g.var(-1, keepdims=True) + 1e-3)
        return (n.reshape(2, 4, 9) * w).sum()

    t = paddle.to_tensor(x.astype("float32"), stop_gradient=False)
    (paddle.nn.functional.group_norm(t, 2, epsilon=1e-3) * paddle.to_tensor(w.astype("float32"))).sum().backward()
    np.testing.assert_allclose(t.grad.numpy(), jax.grad(ref)(x), rtol=1e-4, atol=1e-5)


def test_pad_mode_errors_say_what_to_do() -> None:
    with pytest.raises(AssertionError, match=r"pad: mode must be one of constant, reflect, replicate, circular, but "
                                             r"received 'edge'"):
        paddle.nn.functional.pad(paddle.ones([1, 1, 2, 2]), [1, 1, 1, 1], mode="edge")
    with pytest.raises(AssertionError, match=r"Pad2D: mode must be one of .*'circular', but received 'edge'"):
        paddle.nn.Pad2D(1, mode="edge")


def test_static_load_of_a_jit_artifact_that_draws_says_what_to_do(tmp_path) -> None:
    class Noisy(paddle.nn.Layer):
        def forward(self, x):
            return x + paddle.rand([2])

    paddle.jit.save(Noisy(), str(tmp_path / "noisy"), [paddle.static.InputSpec([None, 2], "float32", "x")])
    paddle.enable_static()
    try:
        with pytest.raises(NotImplementedError, match=r"load_inference_model: .*noisy' was saved by paddle.jit.save "
                                                      r"from a forward that draws random numbers.*paddle.jit.load"):
            paddle.static.load_inference_model(str(tmp_path / "noisy"), paddle.static.Executor())
    finally:
        paddle.disable_static()
