"""What the ``paddle.vision.ops`` tests against Paddle 3.3.1 share (``tests/vision/test_vision_ops.py`` and
``test_vision_detect.py``): a case's inputs bound as tensors, and its outputs and gradients compared with the
recorded arrays."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

import numpy as np

import pylayer_jax as paddle


def bind(make: Callable[..., np.ndarray], inputs: Mapping[str, tuple], grads: Sequence[str]) -> dict[str, Any]:
    """The names a case's expression reads: ``V`` (``paddle.vision.ops``), ``paddle``, ``np`` and each input made by
    ``make(*spec)`` as a tensor (one of ``grads``: stop_gradient False)."""
    env: dict[str, Any] = {"V": paddle.vision.ops, "paddle": paddle, "np": np}
    for k, spec in inputs.items():
        env[k] = paddle.to_tensor(make(*spec), stop_gradient=k not in grads)
    return env


def assert_as_recorded(name: str, outs: Sequence[Any], arrays: Mapping[str, np.ndarray], env: Mapping[str, Any],
                       grads: Sequence[str]) -> None:
    """Each output of case ``name`` (None: an empty slot, skipped) equal to the recorded ``<name>/out<i>`` in shape,
    dtype and value (float32 rounding), stop_gradient as the case's ``grads`` say; with ``grads``, the gradients of
    ``sum(outs[0] * cos(range))`` with respect to them equal to the recorded ``<name>/grad/<input>``."""
    for i, o in enumerate(outs):
        if o is None:
            continue
        ref = arrays[f"{name}/out{i}"]
        assert o.shape == list(ref.shape) and str(o.numpy().dtype) == str(ref.dtype), (name, i, o.shape, o.dtype)
        np.testing.assert_allclose(o.numpy(), ref, rtol=2e-5, atol=2e-5, err_msg=f"{name}/out{i}")
        assert o.stop_gradient is (not grads), name
    if grads:
        o = outs[0]
        w = paddle.to_tensor(np.cos(np.arange(o.size)).reshape(o.shape).astype(o.numpy().dtype))
        for g, v in zip(grads, paddle.grad((o * w).sum(), [env[g] for g in grads])):
            np.testing.assert_allclose(v.numpy(), arrays[f"{name}/grad/{g}"], rtol=2e-5, atol=2e-5,
                                       err_msg=f"{name}/grad/{g}")
