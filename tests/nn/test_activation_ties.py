"""relu and relu6 at their kinks: the derivative Paddle gives (0 at relu's 0, 0 at relu6's 0 and 6).

Oracle: Paddle 3.3.1, run by hand with ``/tmp/paddle/bin/python``:
``x = paddle.to_tensor([0.0, 1.0, -1.0], stop_gradient=False); F.relu(x).sum().backward()`` gives ``x.grad``
[0, 1, 0], and ``F.relu6`` on [0.0, 6.0, -1.0] gives [0, 0, 0]. Between the kinks the derivative is the plain one.
(jnp.maximum and jnp.clip split a tie, so a derivative taken from them gives 0.5 there.)
"""

from __future__ import annotations

import numpy as np
import pytest

import pylayer_jax as paddle
import pylayer_jax.nn.functional as F

CASES = [
    (F.relu, [0.0, 1.0, -1.0], [0.0, 1.0, 0.0]),
    (F.relu6, [0.0, 6.0, -1.0], [0.0, 0.0, 0.0]),
    (F.relu6, [3.0, 7.0, 0.5], [1.0, 0.0, 1.0]),
    (paddle.Tensor.relu, [0.0, 2.0], [0.0, 1.0]),
]


@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("fn,x,want", CASES)
def test_derivative_at_the_kinks_is_paddles(fn, x, want, dtype: str) -> None:
    for _ in range(4):  # the first runs, then a repeated (replayed) step
        t = paddle.to_tensor(np.array(x, dtype), stop_gradient=False)
        (fn(t) * 3.0).sum().backward()
        np.testing.assert_array_equal(t.grad.numpy(), 3.0 * np.array(want, dtype))


def test_relu_keeps_its_output_for_the_backward() -> None:
    # as Paddle's kernel: the pack hook receives relu's output, not its input
    x = paddle.to_tensor(np.array([-1.0, 2.0]), stop_gradient=False)
    packed = []
    with paddle.autograd.saved_tensors_hooks(lambda t: packed.append(t.numpy()) or t, lambda t: t):
        F.relu(x)
    assert len(packed) == 1
    np.testing.assert_array_equal(packed[0], [0.0, 2.0])
