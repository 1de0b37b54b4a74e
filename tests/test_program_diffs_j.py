"""The programs ``tests/programs/p45_memory_tricks.py`` and ``p46_spectral.py`` against Paddle 3.3.1: the differences
and failures they showed, as focused cases (``tests/program_diff_cases_j.py``, recorded by
``tests/record_paddle_program_diffs_j.py``), and the errors of what was added for them."""

from __future__ import annotations

import os
import sys

import numpy as np
import pytest

import pylayer_jax as paddle

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from program_diff_cases_j import record  # noqa: E402
from recorded import recorded_tests  # noqa: E402

FIXTURE = "paddle_program_diffs_j.json"
REF, OURS, test_as_paddle, test_every_case_recorded = recorded_tests(record, FIXTURE, paddle)


def test_recompute_errors_say_what_to_do() -> None:
    from pylayer_jax.distributed.fleet.utils import recompute

    a = paddle.ones([2, 2])
    a.stop_gradient = False

    def kwonly(x, *, k=1.0):  # noqa: ANN001, ANN202
        return x * k

    with pytest.raises(ValueError, match=r"recompute: with use_reentrant=True the block's keyword-only argument 'k' "
                                         r"cannot be passed"):
        recompute(kwonly, a, k=2.0)
    with pytest.raises(ValueError, match=r"recompute: a tuple of Tensors .* holds both"):
        recompute(lambda p: p[0] + p[1], (a, paddle.ones([2, 2])))
    with pytest.raises(ValueError, match=r"recompute: a tuple .* holds Tensors and other values at once"):
        recompute(lambda p: p[0] * p[1], (a, 2.0))
    with pytest.raises(TypeError, match=r"recompute: function must be a Layer or a callable, but received int"):
        recompute(3, a)


def test_recompute_without_reentrant_keeps_no_values_until_backward() -> None:
    """use_reentrant=False: forward keeps placeholders (the block runs once), backward runs it once more."""
    from pylayer_jax.distributed.fleet.utils import recompute

    calls = []
    w = paddle.to_tensor(np.arange(4.0, dtype="float32").reshape(2, 2), stop_gradient=False)

    def block(x):  # noqa: ANN001, ANN202
        calls.append(1)
        return paddle.tanh(x @ w) * x

    x = paddle.to_tensor([[0.5, -1.0]], stop_gradient=False)
    y = recompute(block, x, use_reentrant=False)
    assert len(calls) == 1
    y.sum().backward()
    assert len(calls) == 2
    xj, wj = np.array([[0.5, -1.0]], "float32"), np.arange(4.0, dtype="float32").reshape(2, 2)
    import jax
    import jax.numpy as jnp

    gx, gw = jax.grad(lambda a, b: (jnp.tanh(a @ b) * a).sum(), argnums=(0, 1))(xj, wj)
    np.testing.assert_allclose(x.grad.numpy(), gx, rtol=1e-6)
    np.testing.assert_allclose(w.grad.numpy(), gw, rtol=1e-6)


def test_complex_parameter_optimizer_error_says_what_to_do() -> None:
    c = paddle.create_parameter([2], "complex64", default_initializer=paddle.nn.initializer.Constant(0.5))
    opt = paddle.optimizer.Adam(learning_rate=0.1, parameters=[c])
    (paddle.abs(c) ** 2).sum().backward()
    with pytest.raises(RuntimeError, match=r"Adam.step: the parameter .* is complex64, and this optimizer updates "
                                           r"real parameters only .* paddle.complex, use SGD or Momentum"):
        opt.step()


@pytest.mark.parametrize("name", ["SGD", "Momentum"])
def test_linear_rules_descend_on_a_complex_parameter(name: str) -> None:
    """SGD and Momentum (linear in the gradient) update a complex parameter as its two real parts (oracle: the same
    optimizer on the real and imaginary parts as float parameters)."""
    c = paddle.to_tensor(np.array([0.5 + 0.5j, -1 + 2j], "complex64"), stop_gradient=False)
    re = paddle.to_tensor([0.5, -1.0], stop_gradient=False)
    im = paddle.to_tensor([0.5, 2.0], stop_gradient=False)
    t = np.array([1 - 1j, 0.5j], "complex64")
    oc = getattr(paddle.optimizer, name)(learning_rate=0.1, parameters=[c])
    orr = getattr(paddle.optimizer, name)(learning_rate=0.1, parameters=[re, im])
    for _ in range(3):
        (paddle.abs(c - paddle.to_tensor(t)) ** 2).sum().backward()
        ((re - paddle.to_tensor(t.real)) ** 2 + (im - paddle.to_tensor(t.imag)) ** 2).sum().backward()
        oc.step()
        orr.step()
        oc.clear_grad()
        orr.clear_grad()
    np.testing.assert_allclose(c.numpy().real, re.numpy(), rtol=1e-5)
    np.testing.assert_allclose(c.numpy().imag, im.numpy(), rtol=1e-5)
