"""``as_complex`` / ``view_as_complex`` / ``as_real`` / ``view_as_real`` (functions and Tensor methods) against
Paddle 3.3.1 (cases: ``tests/complex_view_cases.py``, recorded by ``tests/record_paddle_complex_views.py``): values,
dtypes, shapes, the gradients reaching a real input, and the errors; gradients also against ``jax.grad``.

Deliberate differences from Paddle 3.3.1:
- Paddle's results share the input's memory (the fixture records that a write to either side reaches the other).
  Here the result is a new array (the same memory read as another dtype cannot be mirrored by the positions
  machinery of ``_tensor/views.py``), linked so that such a write raises a RuntimeError instead of silently not
  reaching the other side, as a write near ``Tensor.view(dtype)`` does; once the result is gone the input is
  written freely;
- a dtype with no complex reading (an integer or complex tensor to ``as_complex``, a real one to ``as_real``) is a
  TypeError naming the dtypes (Paddle: a RuntimeError from its kernel lookup);
- Paddle refuses ``as_complex`` of a tensor whose last axis is not contiguous (``x.t()``); here it is computed.
The gradient of a complex input is Paddle's, as every complex gradient here is (``tests/autograd/test_complex_grads.py``):
the conjugate of ``jax.grad``'s; the gradients reaching a real input are the same in both conventions.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import jax
import jax.numpy as jnp
import numpy as np
import pytest

import pylayer_jax as paddle

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from complex_view_cases import record  # noqa: E402
from recorded import Recorded  # noqa: E402

REF = json.loads(Path(__file__).resolve().parents[1].joinpath("data", "paddle_complex_views.json").read_text())
OURS = Recorded(record, paddle)


def test_the_fixture_is_paddles() -> None:
    assert REF["paddle"] == "3.3.1"
    assert {k: set(v) for k, v in REF.items() if k != "paddle"} == {k: set(v) for k, v in OURS.items()}


@pytest.mark.parametrize("key", sorted(REF["values"]))
def test_values_match_paddle(key: str) -> None:
    assert OURS["values"][key] == REF["values"][key]


@pytest.mark.parametrize("key", sorted(REF["errors"]))
def test_errors_match_paddle(key: str) -> None:
    assert OURS["errors"][key] == REF["errors"][key]


def test_dtype_errors_are_type_errors() -> None:
    assert set(REF["dtype_errors"].values()) == {"RuntimeError"}
    assert set(OURS["dtype_errors"].values()) == {"TypeError"}


@pytest.mark.parametrize("key", sorted(REF["grads"]))
def test_gradients_match_paddle(key: str) -> None:
    np.testing.assert_allclose(OURS["grads"][key], REF["grads"][key], rtol=1e-6)


def test_paddle_shares_memory_and_we_refuse_the_write_loudly() -> None:
    assert set(REF["shares"].values()) == {True}
    assert set(OURS["shares"].values()) == {"RuntimeError"}
    x = paddle.to_tensor(np.arange(4, dtype="float32").reshape(2, 2))
    c = paddle.as_complex(x)
    with pytest.raises(RuntimeError, match=r"Tensor.__setitem__: this Tensor shares its data with a result of "
                                           r"Tensor.view\(dtype\) or of as_complex.*clone\(\) that result"):
        x[0] = x[0] * 0 + 9
    with pytest.raises(RuntimeError, match=r"Tensor.add_: this Tensor shares its data .*view_as_real"):
        c.add_(c)
    np.testing.assert_array_equal(c.numpy(), [1j, 2 + 3j])  # nothing was written
    del c
    x[0] = x[0] * 0 + 9  # no result alive: a plain write
    np.testing.assert_array_equal(x.numpy(), [[9, 9], [2, 3]])
    z = paddle.to_tensor(np.array([1 + 2j], np.complex64))
    r = paddle.view_as_real(z).clone()  # a clone shares nothing: written freely
    r[0, 0] = 5.0
    assert z.numpy()[0] == 1 + 2j and r.numpy().tolist() == [[5.0, 2.0]]


def test_gradients_match_jax_grad() -> None:
    xr = np.array([[0.5, 1.0], [2.0, -3.0], [0.25, 4.0]])
    w = np.array([1 - 2j, 3 + 1j, -0.5j])

    def ours(fn_c, fn_r):  # noqa: ANN001, ANN202
        x = paddle.to_tensor(xr, stop_gradient=False)
        c = fn_c(x)
        loss = (fn_r(c * c * paddle.to_tensor(w)) * paddle.to_tensor(np.array([[1.0, -2.0]] * 3))).sum()
        loss.backward()
        return x.grad.numpy()

    def ref(x):  # noqa: ANN001, ANN202
        c = x[:, 0] + 1j * x[:, 1]
        y = c * c * w
        return (jnp.stack([y.real, y.imag], -1) * jnp.array([[1.0, -2.0]] * 3)).sum()

    want = np.asarray(jax.grad(ref)(jnp.asarray(xr)))
    np.testing.assert_allclose(ours(paddle.as_complex, paddle.as_real), want, rtol=1e-12)
    np.testing.assert_allclose(ours(paddle.view_as_complex, paddle.view_as_real), want, rtol=1e-12)
    np.testing.assert_allclose(ours(lambda t: t.as_complex(), lambda t: t.view_as_real()), want, rtol=1e-12)
    # a complex input: Paddle's gradient, the conjugate of jax.grad's
    zv = np.array([1 + 2j, -3 + 0.5j])
    z = paddle.to_tensor(zv, stop_gradient=False)
    (paddle.as_real(z) ** 2 * paddle.to_tensor(np.array([[1.0, 2.0], [3.0, 4.0]]))).sum().backward()
    g = jax.grad(lambda z: (jnp.stack([z.real, z.imag], -1) ** 2 * jnp.array([[1.0, 2.0], [3.0, 4.0]])).sum())(
        jnp.asarray(zv))
    np.testing.assert_allclose(z.grad.numpy(), np.conj(np.asarray(g)), rtol=1e-12)


def test_a_transposed_input_is_read_as_its_values() -> None:
    """Paddle refuses ``as_complex(x.t())`` (its last axis is strided); here it reads x.t()'s values."""
    x = paddle.to_tensor(np.arange(4, dtype="float32").reshape(2, 2))
    np.testing.assert_array_equal(paddle.as_complex(x.t()).numpy(), [0 + 2j, 1 + 3j])


def test_errors_name_the_api_the_rule_and_the_fix() -> None:
    with pytest.raises(ValueError, match=r"as_complex: the last axis of x must have size 2 .*shape \[2, 3\]. Reshape"):
        paddle.as_complex(paddle.ones([2, 3]))
    with pytest.raises(ValueError, match=r"view_as_complex: the last axis of x must have size 2 .*shape \[\]"):
        paddle.view_as_complex(paddle.ones([]))
    with pytest.raises(TypeError, match=r"as_complex: x must be float32 or float64 .*but it is int32. Cast it"):
        paddle.as_complex(paddle.ones([2, 2], "int32"))
    with pytest.raises(TypeError, match=r"view_as_real: x must be complex64 or complex128, but it is float32"):
        paddle.view_as_real(paddle.ones([2]))
    with pytest.raises(ValueError, match=r"as_complex: the argument 'x' must be a Tensor .*received a list"):
        paddle.as_complex([[1.0, 2.0]])
