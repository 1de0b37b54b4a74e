"""``paddle.nn.utils.weight_norm`` / ``remove_weight_norm`` / ``spectral_norm`` against Paddle 3.3.1: the
parameters and buffers they make, the forward's values, the gradients reaching the new parameters, the power
iteration's estimates in training and evaluation mode, and the errors (cases: ``tests/weight_hook_cases.py``,
recorded by ``tests/record_paddle_weight_hooks.py``)."""

from __future__ import annotations

import json
import os
import sys

import numpy as np
import pytest

import pylayer_jax as paddle

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from recorded import Recorded  # noqa: E402
from weight_hook_cases import record  # noqa: E402

with open(os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "data",
                       "paddle_weight_hooks.json")) as _f:
    REF = json.load(_f)
REF.pop("paddle")
# a dim outside the weight's axes: Paddle's is an assert (AssertionError), ours a ValueError naming the range
DIFFERENT = {"baddim": "ValueError"}
OURS = Recorded(record, paddle)


@pytest.mark.parametrize("key", sorted(REF))
def test_as_paddle(key: str) -> None:
    ref, ours = REF[key], OURS[key]
    if key in DIFFERENT:
        assert ours == DIFFERENT[key]
    elif isinstance(ref, float) or (isinstance(ref, list) and ref and not isinstance(ref[0], str)):
        # (numbers to float32 rounding: a sum of float32 products rounds by the order XLA's program sums in)
        np.testing.assert_allclose(np.asarray(ours, float), np.asarray(ref, float), rtol=2e-6, atol=1e-7, err_msg=key)
    else:
        assert ours == ref


def test_weight_norm_trains_its_new_parameters() -> None:
    """An optimizer over ``parameters()`` after ``weight_norm`` updates ``weight_g`` and ``weight_v``, and the next
    forward uses the weight they give (oracle: ``g * v / ||v||`` per output row in numpy)."""
    lin = paddle.nn.Linear(3, 2)
    paddle.nn.utils.weight_norm(lin, dim=1)
    opt = paddle.optimizer.SGD(0.1, parameters=lin.parameters())
    x = paddle.ones([4, 3])
    for _ in range(3):
        (lin(x) ** 2).mean().backward()
        opt.step()
        opt.clear_grad()
    v, g = lin.weight_v.numpy(), lin.weight_g.numpy()
    w = v / np.sqrt((v ** 2).sum(0, keepdims=True)) * g
    np.testing.assert_allclose(lin(x).numpy(), x.numpy() @ w + lin.bias.numpy(), rtol=1e-5)


def test_misuse() -> None:
    with pytest.raises(ValueError, match="weight_norm: Linear has no parameter named 'w'"):
        paddle.nn.utils.weight_norm(paddle.nn.Linear(2, 2), name="w")
    with pytest.raises(ValueError, match=r"weight_norm: dim must be in \[-2, 2\)"):
        paddle.nn.utils.weight_norm(paddle.nn.Linear(2, 2), dim=2)
    with pytest.raises(RuntimeError, match="weight_norm: Linear has a weight_norm hook on 'weight' already"):
        paddle.nn.utils.weight_norm(paddle.nn.utils.weight_norm(paddle.nn.Linear(2, 2)))
    with pytest.raises(ValueError, match="remove_weight_norm: no weight_norm of 'weight'"):
        paddle.nn.utils.remove_weight_norm(paddle.nn.Linear(2, 2))
    with pytest.raises(ValueError, match="spectral_norm: n_power_iterations must be a positive int, but received 0"):
        paddle.nn.utils.spectral_norm(paddle.nn.Linear(2, 2), n_power_iterations=0)
    with pytest.raises(TypeError, match="spectral_norm: layer must be a paddle.nn.Layer"):
        paddle.nn.utils.spectral_norm(paddle.ones([2, 2]))


@pytest.mark.parametrize("hook", ["weight_norm", "spectral_norm"])
def test_a_compiled_training_step_through_the_hook_trains_as_eagerly(hook: str) -> None:
    """A ``to_static`` training step of a layer with the hook (the pre-hook sets the weight inside the trace) gives
    the parameters the eager steps give (oracle: the same steps run eagerly on a twin layer), and leaves no Tensor of
    the trace on the layer: ``layer.weight`` is readable after the compiled calls."""
    rng = np.random.default_rng(0)
    x = paddle.to_tensor(rng.standard_normal((4, 3)).astype("float32"))
    layers = []
    for _ in range(2):
        paddle.seed(3)
        lin = paddle.nn.Linear(3, 2)
        getattr(paddle.nn.utils, hook)(lin)
        layers.append(lin)
    layers[1].set_state_dict(layers[0].state_dict())

    def make_step(lin):
        opt = paddle.optimizer.SGD(0.1, parameters=lin.parameters())

        def step(x):
            loss = (lin(x) ** 2).mean()
            loss.backward()
            opt.step()
            opt.clear_grad()
            return loss

        return step

    compiled, eager = paddle.jit.to_static(make_step(layers[0])), make_step(layers[1])
    for _ in range(3):
        np.testing.assert_allclose(float(compiled(x)), float(eager(x)), rtol=1e-5)
    for (n, a), (_, b) in zip(layers[0].named_parameters(), layers[1].named_parameters(), strict=True):
        np.testing.assert_allclose(a.numpy(), b.numpy(), rtol=1e-5, atol=1e-7, err_msg=n)
    assert np.isfinite(layers[0].weight.numpy()).all()
