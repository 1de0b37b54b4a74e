"""``paddle.utils.run_check``: check that the package works here (layer L5).

Paddle's check trains a small network in its static and dynamic modes (and in data-parallel mode over every
device when there are several) and prints how it went. This one runs, on the device new tensors go to: an eager
forward and ``.backward()`` through a PyLayer, and the same PyLayer in a ``jax.jit``-compiled gradient step, each
checked against ``jax.grad`` of the same function written in ``jax.numpy``; with several devices of that kind, a
``jax.pmap`` step summed across them. It prints Paddle's lines with this package's name, and raises when a check
fails.
"""

from __future__ import annotations

import jax
import jax.numpy as jnp
import numpy as np

from .._api import functional as F
from .._pylayer.eager import PyLayer
from .._runtime import device as _device
from .._tensor.facade import Tensor, to_tensor

_NAME = "pylayer_jax"


class _Tanh(PyLayer):
    """tanh with its derivative written out: what the check differentiates."""

    @staticmethod
    def forward(ctx, x):  # noqa: ANN001, ANN205
        y = F.tanh(x)  # (a Tensor eagerly, a JAX array under jax.jit: paddle's functions take both)
        ctx.save_for_backward(y)
        return y

    @staticmethod
    def backward(ctx, dy):  # noqa: ANN001, ANN205
        (y,) = ctx.saved_tensor()
        return dy * (1 - y * y)


def _loss(w: jax.Array, x: jax.Array) -> jax.Array:
    return jnp.mean(jnp.tanh(x @ w) ** 2)


def _expect_close(what: str, got: np.ndarray, want: np.ndarray) -> None:
    if not np.allclose(got, want, rtol=1e-5, atol=1e-6):
        raise RuntimeError(
            f"run_check: {what} gave {got.tolist()} where jax.grad of the same function gives {want.tolist()}; the "
            f"installation does not compute correctly here (check the jax and jaxlib versions)."
        )


def _single(kind: str) -> None:
    rng = np.random.default_rng(0)
    x_np = rng.standard_normal((4, 3)).astype(np.float32)
    w_np = rng.standard_normal((3, 2)).astype(np.float32)
    want = np.asarray(jax.grad(_loss)(jnp.asarray(w_np), jnp.asarray(x_np)))

    x, w = to_tensor(x_np), to_tensor(w_np, stop_gradient=False)
    loss = (_Tanh.apply(x.matmul(w)) ** 2).mean()
    loss.backward()
    _expect_close(f"an eager backward through a PyLayer on the {kind}", w.grad.numpy(), want)

    step = jax.jit(jax.grad(lambda wv, xv: jnp.mean(_Tanh.apply(xv @ wv) ** 2)))
    _expect_close(f"a jax.jit-compiled gradient step through a PyLayer on the {kind}",
                  np.asarray(step(jnp.asarray(w_np), jnp.asarray(x_np))), want)
    if not isinstance(loss, Tensor):  # (the eager API must give Tensors)
        raise RuntimeError(f"run_check: an eager op returned {type(loss).__name__} instead of a Tensor.")


def _parallel(devices: list[jax.Device]) -> None:
    n = len(devices)
    x = jnp.arange(n * 3, dtype=jnp.float32).reshape(n, 3)
    grads = jax.pmap(lambda v: jax.lax.psum(jax.grad(lambda u: jnp.sum(jnp.tanh(u)))(v), "d"), axis_name="d",
                     devices=devices)(x)
    want = np.sum(1 - np.tanh(np.asarray(x)) ** 2, axis=0)
    got = np.asarray(grads)
    if not all(np.allclose(g, want, rtol=1e-5, atol=1e-6) for g in got):
        raise RuntimeError(f"run_check: a gradient summed across {n} devices gave {got.tolist()}, not {want.tolist()}.")


def run_check() -> None:
    """Check that pylayer_jax works on this machine and say so (Paddle's ``paddle.utils.run_check``).

    >>> import pylayer_jax as paddle
    >>> paddle.utils.run_check()  # doctest: +ELLIPSIS
    Running verify PaddlePaddle program ...
    pylayer_jax works well on 1 CPU...
    """
    print("Running verify PaddlePaddle program ... ")
    dev = _device.default_device()
    kind = "CPU" if dev.platform == "cpu" else dev.platform.upper()
    _single(kind)
    print(f"{_NAME} works well on 1 {kind} (an eager forward and backward and a jax.jit-compiled step, each "
          f"through a PyLayer, match jax.grad).")
    same = [d for d in jax.devices(dev.platform)]
    if len(same) > 1:
        _parallel(same)
        print(f"{_NAME} works well on {len(same)} {kind}s.")
    print(f"{_NAME} is installed successfully! Let's start deep learning with {_NAME} now.")
