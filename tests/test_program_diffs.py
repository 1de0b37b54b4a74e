"""Whole Paddle training programs against Paddle 3.3.1: the differences they showed, as focused cases
(``tests/program_diff_cases.py``, recorded by ``tests/record_paddle_program_diffs.py``), and the setting that keeps
XLA's unoptimised programs from rounding one expression two ways."""

from __future__ import annotations

import json
import os
import sys

import jax
import jax.numpy as jnp
import numpy as np
import pytest
from jax import lax

import pylayer_jax as paddle

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from program_diff_cases import record  # noqa: E402
from recorded import Recorded, assert_close  # noqa: E402

with open(os.path.join(os.path.dirname(os.path.abspath(__file__)), "data", "paddle_program_diffs.json")) as _f:
    REF = json.load(_f)
REF.pop("paddle")
OURS = Recorded(record, paddle)


def _close(ours: object, ref: object, key: str) -> None:
    """Equal structure, numbers within float32 rounding over a few training steps."""
    assert_close(ours, ref, key, rtol=2e-5)


@pytest.mark.parametrize("key", sorted(REF))
def test_as_paddle(key: str) -> None:
    _close(OURS[key], REF[key], key)


def test_every_case_recorded() -> None:
    assert sorted(OURS) == sorted(REF)


def test_scalar_conversion_errors_say_what_to_do() -> None:
    with pytest.raises(TypeError, match=r"int\(\) of a Tensor: only a 0-D Tensor .* shape \[1\]\. Take x\.item\(\)"):
        int(paddle.to_tensor([3]))
    with pytest.raises(AssertionError, match=r"bool\(\) of a Tensor needs exactly one element, .* shape \[2\]"):
        bool(paddle.to_tensor([True, False]))


def _bn_max_grad(x: jax.Array, k: jax.Array, w: jax.Array, b: jax.Array) -> tuple[jax.Array, jax.Array]:
    c = lax.conv_general_dilated(x, k, (1, 1), [(1, 1), (1, 1)], dimension_numbers=("NCHW", "OIHW", "NCHW"))
    shape = (1, k.shape[0], 1, 1)
    mean = jnp.mean(c, axis=(0, 2, 3))
    inv = lax.rsqrt(jnp.mean(jnp.square(c - jnp.reshape(mean, shape)), axis=(0, 2, 3)) + 1e-5)
    h = (c - jnp.reshape(mean, shape)) * jnp.reshape(inv, shape) * jnp.reshape(w, shape) + jnp.reshape(b, shape)
    m, pullback = jax.vjp(lambda v: jnp.max(v, axis=(2, 3)), h)
    return m, pullback(jnp.ones_like(m))[0]


def test_unoptimised_xla_programs_round_one_expression_one_way() -> None:
    # importing pylayer_jax turned LLVM's FastISel off (XLA_FLAGS): without that, XLA's CPU backend at optimisation
    # level 0 rounds the normalised values of this program one way where it takes the maximum and another where
    # JAX's derivative compares with it, and a third of the rows got no gradient (or 0 / 0)
    assert "-fast-isel=false" in os.environ["XLA_FLAGS"]
    rng = np.random.default_rng(0)
    args = [jnp.asarray(rng.standard_normal(s).astype("float32")) for s in ((16, 1, 12, 12), (8, 1, 3, 3), (8,), (8,))]
    for options in (None, {"xla_backend_optimization_level": 0}):
        _, g = jax.jit(_bn_max_grad, compiler_options=options)(*args)
        np.testing.assert_array_equal(np.asarray(jnp.sum(g, axis=(2, 3))), np.ones((16, 8)))


def test_an_interrupt_while_a_name_is_taken_leaves_the_generator_usable() -> None:
    # (it held a lock: an interrupt at the exit of ``with lock:`` left it held, and the next Layer waited forever)
    from interrupt_support import LineInterrupt

    from pylayer_jax.utils import unique_name

    with unique_name.guard():
        for k in range(1, 8):
            LineInterrupt(k, lambda f: f.endswith("unique_name.py")).run(lambda: unique_name.generate("fc"))
        taken = unique_name.generate("fc")
        assert paddle.nn.Linear(2, 2).weight.name == "linear_0.w_0"
    assert taken.startswith("fc_") and 1 <= int(taken[3:]) <= 8


def test_names_from_threads_are_unique() -> None:
    import threading

    from pylayer_jax.utils import unique_name

    got: list[str] = []

    def take() -> None:
        got.extend(unique_name.generate("t") for _ in range(2000))

    with unique_name.guard():
        threads = [threading.Thread(target=take) for _ in range(4)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        assert unique_name.generate("t") == "t_8000"
    assert len(set(got)) == 8000
