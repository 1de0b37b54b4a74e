"""Derivatives at kinks, thresholds and ties against Paddle 3.3.1 (``tests/record_paddle_ties.py`` records them into
``tests/data/paddle_ties.json``): relu, relu6, leaky_relu, hardtanh, clip, maximum/minimum, abs, hardsigmoid,
hardswish, elu/celu/selu, the shrinks, thresholded_relu, sign, floor and round, and ``scale``'s zeros. Each case
checks the output (with the sign of each zero), the tensors saved-tensor hooks pack and the gradients.

relu and relu6 at their kinks: the derivative Paddle gives (0 at relu's 0, 0 at relu6's 0 and 6).

Oracle: Paddle 3.3.1, run by hand with ``/tmp/paddle/bin/python``:
``x = paddle.to_tensor([0.0, 1.0, -1.0], stop_gradient=False); F.relu(x).sum().backward()`` gives ``x.grad``
[0, 1, 0], and ``F.relu6`` on [0.0, 6.0, -1.0] gives [0, 0, 0]. Between the kinks the derivative is the plain one.
(jnp.maximum and jnp.clip split a tie, so a derivative taken from them gives 0.5 there.)
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

import pylayer_jax as paddle
import pylayer_jax.nn.functional as F

FIXTURE = json.loads((Path(__file__).resolve().parents[1] / "data" / "paddle_ties.json").read_text())
TIES = {c["id"]: c for c in FIXTURE["cases"]}


def _resolve(path: str):  # noqa: ANN202
    fn = paddle
    for part in path.split("."):
        fn = getattr(fn, part)
    return fn


@pytest.mark.parametrize("cid", list(TIES))
def test_values_packs_and_gradients_at_ties_match_paddle(cid: str) -> None:
    c = TIES[cid]
    floating = c["dtype"] == "float64"
    xs = [paddle.to_tensor(np.array(v, c["dtype"]), stop_gradient=not floating) for v in c["inputs"]]
    packed: list = []
    with paddle.autograd.saved_tensors_hooks(lambda t: packed.append(t.numpy()) or t, lambda t: t):
        y = _resolve(c["fn"])(*xs, *c["extra"], **c["kwargs"])
    assert str(y.dtype).replace("paddle.", "") == c["dtype"]
    np.testing.assert_allclose(y.numpy(), np.array(c["out"]), rtol=1e-14, atol=0)
    assert np.signbit(y.numpy()).tolist() == c["signbit"], f"{cid}: the signs of the zeros differ from Paddle's"
    assert len(packed) == len(c["packed"]), f"{cid}: {len(packed)} tensors packed, Paddle packs {len(c['packed'])}"
    for got, want in zip(packed, c["packed"]):
        np.testing.assert_allclose(got, np.array(want), rtol=1e-14, atol=0)
    if not floating:
        return
    ct = np.arange(1, y.size + 1, dtype=np.float64).reshape(y.shape)
    gs = paddle.grad((y * paddle.to_tensor(ct)).sum(), xs, allow_unused=True)
    for i, (g, want) in enumerate(zip(gs, c["grads"])):
        assert g is not None, f"{cid}: input {i} got no gradient"
        # (1e-7: Paddle's selu_grad adds scale * alpha rounded to float32, 2e-8 from its forward's derivative)
        np.testing.assert_allclose(g.numpy(), np.array(want), rtol=1e-7, atol=0, err_msg=f"{cid}: input {i}")


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
