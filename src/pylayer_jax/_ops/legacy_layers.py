"""Ops behind ``paddle.static.nn``'s legacy layers (layer L1): ``cvm`` (``static.nn.deform_conv2d`` runs the
``deformable_conv`` op of ``paddle.vision.ops``, ``_ops/detection.py``).

``cvm``: the continuous-value model of CTR embeddings, whose first two columns are show and click
counts; its backward hands the ``cvm`` input (show, click) to those two columns, as Paddle's kernel
does, so a sparse table can accumulate them.
"""

from __future__ import annotations

import functools

import jax
import jax.numpy as jnp

from .table import defop


@functools.partial(jax.custom_vjp, nondiff_argnums=(2,))
def _cvm_core(x, cvm, use_cvm):  # noqa: ANN001, ANN202
    if use_cvm:
        show = jnp.log(x[:, 0:1] + 1)
        click = jnp.log(x[:, 1:2] + 1) - show
        return jnp.concatenate([show, click, x[:, 2:]], axis=1)
    return x[:, 2:]


def _cvm_fwd(x, cvm, use_cvm):  # noqa: ANN001, ANN202
    return _cvm_core(x, cvm, use_cvm), (cvm, x.shape[1])


def _cvm_bwd(use_cvm, res, g):  # noqa: ANN001, ANN202
    cvm, _ = res
    rest = g[:, 2:] if use_cvm else g
    return jnp.concatenate([cvm[:, :2].astype(g.dtype), rest], axis=1), jnp.zeros_like(cvm)


_cvm_core.defvjp(_cvm_fwd, _cvm_bwd)


@defop(("x", "cvm"), saves=("cvm",), nondiff=("cvm",), method=False)
def cvm(x, cvm, use_cvm=True):
    """``x`` [N, D] with show/click in its first two columns: with ``use_cvm``, ``[log(show + 1),
    log(click + 1) - log(show + 1), x[:, 2:]]``; without, ``x[:, 2:]``. The gradient of the first two
    columns of ``x`` is ``cvm[:, :2]`` (the batch's show and click), the rest passes ``dy`` through."""
    return _cvm_core(x, cvm, bool(use_cvm))
