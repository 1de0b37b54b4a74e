"""``paddle.nn.functional``: one line per function over the op table (layer L5).

A few need a hand-written signature because Paddle puts an attribute before a tensor
(layer_norm, binary_cross_entropy_with_logits) or because they draw a random key (dropout).
Activations shared with ``paddle.*`` (tanh, sigmoid, softmax, relu) are the same table entries.
"""

from __future__ import annotations

from collections.abc import Sequence

import jax.numpy as jnp

from .._op_table import TABLE
from .._rng import generator
from .._tensor import Tensor, apply_op
from .._tensor_methods import public

_NO_KEY = jnp.zeros((2,), jnp.int64)

relu = public(TABLE["relu"])
relu6 = public(TABLE["relu6"])
leaky_relu = public(TABLE["leaky_relu"])
elu = public(TABLE["elu"])
selu = public(TABLE["selu"])
celu = public(TABLE["celu"])
gelu = public(TABLE["gelu"])
silu = public(TABLE["silu"])
swish = public(TABLE["swish"])
mish = public(TABLE["mish"])
softplus = public(TABLE["softplus"])
softsign = public(TABLE["softsign"])
tanhshrink = public(TABLE["tanhshrink"])
hardtanh = public(TABLE["hardtanh"])
hardsigmoid = public(TABLE["hardsigmoid"])
hardswish = public(TABLE["hardswish"])
hardshrink = public(TABLE["hardshrink"])
softshrink = public(TABLE["softshrink"])
log_sigmoid = public(TABLE["log_sigmoid"])
logsigmoid = log_sigmoid
sigmoid = public(TABLE["sigmoid"])
tanh = public(TABLE["tanh"])
softmax = public(TABLE["softmax"])
log_softmax = public(TABLE["log_softmax"])
glu = public(TABLE["glu"])
linear = public(TABLE["linear"])
batch_norm = public(TABLE["batch_norm"])
normalize = public(TABLE["normalize"])
cosine_similarity = public(TABLE["cosine_similarity"])
pairwise_distance = public(TABLE["pairwise_distance"])
pad = public(TABLE["pad"])
one_hot = public(TABLE["one_hot"])
embedding = public(TABLE["embedding"])
conv2d = public(TABLE["conv2d"])
mse_loss = public(TABLE["mse_loss"])
l1_loss = public(TABLE["l1_loss"])
smooth_l1_loss = public(TABLE["smooth_l1_loss"])
cross_entropy = public(TABLE["cross_entropy"])
nll_loss = public(TABLE["nll_loss"])
binary_cross_entropy = public(TABLE["binary_cross_entropy"])
kl_div = public(TABLE["kl_div"])


def dropout(
    x: Tensor,
    p: float = 0.5,
    axis: int | Sequence[int] | None = None,
    training: bool = True,
    inplace: bool = False,
    mode: str = "upscale_in_train",
    name: str | None = None,
) -> Tensor:
    """Zero each element with probability ``p`` (whole slices when ``axis`` is given).

    mode='upscale_in_train' scales the kept values by ``1 / (1 - p)`` while training and is
    the identity otherwise; 'downscale_in_infer' keeps values unscaled in training and
    multiplies by ``1 - p`` at inference.
    """
    if isinstance(p, bool) or not isinstance(p, int | float) or not 0 <= p <= 1:
        raise ValueError(f"dropout: p must be a number in [0, 1], but received {p!r}.")
    if mode not in ("upscale_in_train", "downscale_in_infer"):
        raise ValueError(f"dropout: mode must be 'upscale_in_train' or 'downscale_in_infer', but received {mode!r}.")
    if p == 0 or (not training and mode == "upscale_in_train"):
        return x
    # inference needs no randomness: a constant key keeps the generator untouched
    key = generator.next_key() if training else _NO_KEY
    return apply_op(TABLE["dropout"], (x, key), {"p": float(p), "axis": axis, "training": bool(training), "mode": mode})


def layer_norm(
    x: Tensor,
    normalized_shape: int | Sequence[int],
    weight: Tensor | None = None,
    bias: Tensor | None = None,
    epsilon: float = 1e-05,
    name: str | None = None,
) -> Tensor:
    """Normalise over the trailing ``normalized_shape`` axes, then scale by weight and shift by bias."""
    return apply_op(TABLE["layer_norm"], (x, weight, bias), {"normalized_shape": normalized_shape, "epsilon": epsilon})


def binary_cross_entropy_with_logits(
    logit: Tensor,
    label: Tensor,
    weight: Tensor | None = None,
    reduction: str = "mean",
    pos_weight: Tensor | None = None,
    name: str | None = None,
) -> Tensor:
    """Sigmoid of ``logit`` with binary cross entropy against ``label``, computed stably."""
    return apply_op(
        TABLE["binary_cross_entropy_with_logits"], (logit, label, weight, pos_weight), {"reduction": reduction}
    )
