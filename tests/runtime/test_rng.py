"""The global generator's seeding (``_runtime/rng.py``), whose key is made on the host. Oracle: ``jax.random.PRNGKey``
(that no program compiles for it: ``tests/api/test_import_paths.py``, the import compiles nothing)."""

from __future__ import annotations

import jax
import jax.numpy as jnp
import numpy as np
import pytest

import pylayer_jax as paddle


@pytest.mark.parametrize("seed", [0, 1, 42, 2**31, 2**32 + 5, 2**63 - 1, -1, -7, -(2**63)])
def test_seed_state_is_jaxs_key(seed: int) -> None:
    paddle.seed(seed)
    (state,) = paddle.get_rng_state()
    want = np.asarray(jax.random.PRNGKey(seed).astype(jnp.int64))
    assert state.dtype == paddle.int64 and np.array_equal(state.numpy(), want)


def test_draws_after_seed_repeat() -> None:
    paddle.seed(5)
    a = paddle.rand([4]).numpy()
    paddle.seed(5)
    assert np.array_equal(paddle.rand([4]).numpy(), a)
    assert not np.array_equal(paddle.rand([4]).numpy(), a)
