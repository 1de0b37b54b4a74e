"""``paddle.nn.functional``: one line per function over the op table (layer L5).

A few need a hand-written signature because Paddle puts an attribute before a tensor
(layer_norm, binary_cross_entropy_with_logits) or because they draw a random key (dropout).
Activations shared with ``paddle.*`` (tanh, sigmoid, softmax, relu) are the same table entries.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import jax
import numpy as np

from .._api.random import random_key
from .._autograd.grad_mode import no_grad
from .._ops.loss import _check_reduction
from .._ops.table import TABLE
from .._runtime.state import modes
from .._tensor.dispatch import apply_op
from .._tensor.facade import Tensor, _Tracer
from .._tensor.methods import check_inplace_leaf, public, write_result
from . import _chains
from ._chains import run_chain, with_chain
from ._sparse_rows import looked_up_leaf

_NO_KEY = jax.device_put(np.zeros((2,), np.int64))  # (a transfer: it compiles nothing, unlike jnp.zeros)

def with_residuals(name: str) -> Callable[..., Any]:
    """The public function of an op that has a ``<name>_residuals`` form: that form (whose hidden outputs are the
    tensors Paddle's kernel keeps, and what its backward reads) while saved-tensor hooks are active, the plain
    op otherwise."""
    plain, full = TABLE[name], TABLE[f"{name}_residuals"]

    def fn(*args: Any, **kwargs: Any) -> Any:
        if modes.saved_hooks:
            return full.visible(apply_op(full, args, kwargs))
        return apply_op(plain, args, kwargs)

    fn.__name__ = fn.__qualname__ = name
    fn.__doc__ = plain.doc
    fn.__signature__ = plain.signature  # type: ignore[attr-defined]
    return fn


relu = public(TABLE["relu"])
diag_embed = public(TABLE["diag_embed"])  # (paddle.diag_embed; Paddle keeps this deprecated alias in nn.functional)
relu6 = public(TABLE["relu6"])
leaky_relu = public(TABLE["leaky_relu"])
elu = public(TABLE["elu"])
selu = public(TABLE["selu"])
celu = public(TABLE["celu"])
gelu = public(TABLE["gelu"])
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
glu = with_chain("glu", _chains.glu)
linear = public(TABLE["linear"])
normalize = with_chain("normalize", _chains.normalize)
cosine_similarity = with_chain("cosine_similarity", _chains.cosine_similarity)
pairwise_distance = with_residuals("pairwise_distance")
pad = public(TABLE["pad"])


def one_hot(x: Any, num_classes: Any = -1, name: str | None = None) -> Tensor:
    """One-hot float32 vectors of length ``num_classes`` for the integer labels ``x``. As Paddle, the default
    ``num_classes=-1`` means ``x.max() + 1`` (read from the values, so only eagerly), and ``num_classes`` may be a
    one-element integer Tensor."""
    if isinstance(num_classes, Tensor):
        if num_classes.size != 1 or isinstance(num_classes._value, _Tracer) or num_classes._symbolic:
            raise ValueError("one_hot: a Tensor num_classes must hold one concrete integer (here it is "
                             f"{'traced' if num_classes.size == 1 else 'of shape ' + str(list(num_classes.shape))}); "
                             "pass a Python int instead.")
        num_classes = int(num_classes.item())
    elif isinstance(num_classes, float):  # (Paddle takes a float, truncated)
        num_classes = int(num_classes)
    elif isinstance(num_classes, bool) or not isinstance(num_classes, int | np.integer):
        raise TypeError(f"one_hot: num_classes must be an int or a one-element Tensor, but received "
                        f"{type(num_classes).__name__}.")
    if num_classes == -1 and isinstance(x, Tensor):
        if isinstance(x._value, _Tracer) or x._symbolic:
            raise RuntimeError("one_hot: num_classes=-1 takes the class count from x.max() + 1, which needs x's "
                               "values, so it cannot run on a traced or static tensor; pass num_classes explicitly.")
        if x.size == 0:
            raise ValueError("one_hot: num_classes=-1 takes the class count from x.max() + 1, but x is empty "
                             f"(shape {list(x.shape)}); pass num_classes explicitly.")
        num_classes = int(x.max().item()) + 1
    return apply_op(TABLE["one_hot"], (x, int(num_classes)), {})

conv2d = public(TABLE["conv2d"])
mse_loss = with_residuals("mse_loss")
l1_loss = with_residuals("l1_loss")
smooth_l1_loss = with_residuals("smooth_l1_loss")
nll_loss = with_residuals("nll_loss")
binary_cross_entropy = public(TABLE["binary_cross_entropy"])
kl_div = public(TABLE["kl_div"])


def _check_dropout_axis(axis: Any, ndim: int) -> None:
    """Paddle's rule for dropout's ``axis``: ints (or a list of them, no longer than the rank), each in [0, ndim)."""
    items = list(axis) if isinstance(axis, list | tuple) else [axis]
    if not all(isinstance(a, int) for a in items):
        raise TypeError(f"dropout: axis must be an int or a list of ints, but received {axis!r}.")
    if len(items) > ndim:
        raise ValueError(f"dropout: axis may name at most {ndim} axes of the {ndim}-D input, but received {axis!r} "
                         f"({len(items)} axes).")
    bad = [a for a in items if not 0 <= a < ndim]
    if bad:
        hint = f" Count from the front instead: {bad[0] + ndim}." if -ndim <= bad[0] < 0 else ""
        raise ValueError(f"dropout: each axis must lie in [0, {ndim}) for a {ndim}-D input (Paddle takes no "
                         f"negative axes here), but received axis={axis!r}.{hint}")


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
    if training and p < 1 and axis is not None:  # (Paddle checks the axes only when it draws a mask)
        _check_dropout_axis(axis, x.ndim)
        if isinstance(axis, list | tuple):
            axis = list(dict.fromkeys(axis))  # Paddle takes an axis named twice as named once
    # inference needs no randomness: a constant key keeps the generator untouched
    key = random_key() if training else _NO_KEY
    if training and modes.saved_hooks:  # the forms that keep what Paddle's keep (its mask)
        out = _chains.dropout(x, key, float(p), axis, mode)
    else:
        out = apply_op(TABLE["dropout"], (x, key), {"p": float(p), "axis": axis, "training": bool(training),
                                                    "mode": mode})
    return _inplace("dropout", x, out) if inplace else out


def embedding(
    x: Tensor,
    weight: Tensor,
    padding_idx: int | None = None,
    max_norm: float | None = None,
    norm_type: float = 2.0,
    sparse: bool = False,
    scale_grad_by_freq: bool = False,
    name: str | None = None,
) -> Tensor:
    """Rows of ``weight`` picked by the integer ids ``x`` (zeros for ``padding_idx``, which gets no gradient).

    ``max_norm``: as in Paddle, the looked-up rows of ``weight`` whose ``norm_type``-norm exceeds it are
    rescaled in place first. ``scale_grad_by_freq`` divides each id's gradient by its count in ``x``.

    ``sparse=True`` gives ``weight`` Paddle's sparse gradient (a SelectedRows there), kept dense here: its values are
    Paddle's merged ones on the rows looked up, the ``padding_idx`` row included (Paddle's sparse kernel gives it the
    gradient of its lookups, though their output is zeros), and zeros on the other rows; the rows looked up travel
    with it (``nn._sparse_rows``), so that the optimizers update it as Paddle's do (``Adam(lazy_mode=True)`` only the
    rows looked up; see ``optimizer.Adam``). After ``clear_grad()`` it is None, as in Paddle. Deliberately not
    mirrored: ``weight.grad`` is ``[num_embeddings, embedding_dim]`` (Paddle's holds one row per lookup of the
    first backward, with ``rows()``), and so is what a hook on ``weight`` sees. In a static program the gradient
    is dense.
    """
    if padding_idx is not None and isinstance(weight, Tensor) and weight.ndim >= 1:
        rows = int(weight.shape[0])
        if isinstance(padding_idx, bool) or not isinstance(padding_idx, int | np.integer):
            raise TypeError(f"embedding: padding_idx must be an int or None, but received "
                            f"{type(padding_idx).__name__} {padding_idx!r}.")
        if not -rows <= padding_idx < rows:
            raise ValueError(f"embedding: padding_idx must be within [-{rows}, {rows}) (the rows of weight), but "
                             f"received {padding_idx}.")
    # (as Paddle: ``if max_norm``, so 0 renorms nothing, nor does an empty table)
    if max_norm and not (isinstance(weight, Tensor) and weight.size == 0):
        with no_grad():
            renormed = apply_op(TABLE["embedding_renorm"], (x, weight), {"max_norm": float(max_norm),
                                                                        "norm_type": float(norm_type)})
        weight._set_value(renormed)
    if sparse:
        if scale_grad_by_freq:
            raise AttributeError(
                "embedding: scale_grad_by_freq=True is not supported with sparse=True (Paddle's sparse gradient is "
                "not scaled by frequency); pass sparse=False to scale the gradient, or scale_grad_by_freq=False."
            )
        if (isinstance(weight, Tensor) and not weight._symbolic and not weight.stop_gradient
                and modes.grad_enabled):
            pid = None if padding_idx is None else int(padding_idx)
            return apply_op(TABLE["embedding_sparse"], (x, weight, looked_up_leaf(weight)),
                            {"padding_idx": pid, "height": int(weight.shape[0])})
    return apply_op(TABLE["embedding"], (x, weight), {"padding_idx": padding_idx,
                                                       "scale_grad_by_freq": scale_grad_by_freq})


def layer_norm(
    x: Tensor,
    normalized_shape: int | Sequence[int],
    weight: Tensor | None = None,
    bias: Tensor | None = None,
    epsilon: float = 1e-05,
    name: str | None = None,
) -> Tensor:
    """Normalise over the trailing ``normalized_shape`` axes, then scale by weight and shift by bias."""
    op = TABLE["layer_norm_residuals" if modes.saved_hooks else "layer_norm"]
    return op.visible(apply_op(op, (x, weight, bias), {"normalized_shape": normalized_shape, "epsilon": epsilon}))


_CE_DEFAULTS = {"ignore_index": -100, "reduction": "mean", "soft_label": False, "axis": -1, "use_softmax": True,
                "label_smoothing": 0.0}


def cross_entropy(
    input: Tensor,
    label: Tensor,
    weight: Tensor | None = None,
    ignore_index: int = -100,
    reduction: str = "mean",
    soft_label: bool = False,
    axis: int = -1,
    use_softmax: bool = True,
    label_smoothing: float = 0.0,
    name: str | None = None,
) -> Tensor:
    """Softmax cross entropy with Paddle's label forms, class weights, ignore_index, smoothing and reductions.

    Hard labels have the input's shape without the class axis (or with size 1 there); soft
    labels have the input's shape. ``reduction='mean'`` divides by the count (or the summed
    weights) of the non-ignored labels when ``ignore_index >= 0`` or a weight is given. Under
    saved-tensor hooks, hard labels without weights or smoothing run Paddle's fused kernel form,
    which keeps the softmax and the label for the backward (``cross_entropy_with_softmax``).
    """
    if (modes.saved_hooks and weight is None and soft_label is False and isinstance(label_smoothing, int | float)
            and label_smoothing == 0):
        op = TABLE["cross_entropy_with_softmax"]
        return op.visible(apply_op(op, (input, label), {"ignore_index": ignore_index, "reduction": reduction,
                                                        "axis": axis, "use_softmax": use_softmax}))
    attrs = {"ignore_index": ignore_index, "reduction": reduction, "soft_label": soft_label, "axis": axis,
             "use_softmax": use_softmax, "label_smoothing": label_smoothing}
    if (modes.saved_hooks and use_softmax is True and reduction in ("mean", "sum") and input.ndim >= 1
            and axis in (-1, input.ndim - 1) and isinstance(label_smoothing, int | float)
            and (label_smoothing > 0 and (soft_label or label.ndim == input.ndim - 1) or soft_label is True)):
        # Paddle's chain for soft labels (see _chains), after the fused op's checks
        with no_grad():
            apply_op(TABLE["cross_entropy"], (input, label) if weight is None else (input, label, weight), attrs)
        return _chains.cross_entropy_soft(input, label, weight, reduction, bool(soft_label), float(label_smoothing),
                                          ignore_index)
    # only the attributes that differ from the defaults, and no weight of None: the call then has the same
    # kernel key as a bare ``cross_entropy(input, label)``, which the step replay takes
    attrs = {k: v for k, v in attrs.items() if not (type(v) is type(_CE_DEFAULTS[k]) and v == _CE_DEFAULTS[k])}
    return apply_op(TABLE["cross_entropy"], (input, label) if weight is None else (input, label, weight), attrs)


def interpolate(x: Tensor, size: Any = None, scale_factor: Any = None, mode: str = "nearest",
                align_corners: bool = False, align_mode: int = 0, data_format: str | None = None,
                recompute_scale_factor: bool | None = None, name: str | None = None, antialias: bool = False) -> Tensor:
    """Resize the spatial dims (nearest, linear, bilinear, trilinear, bicubic, area) with Paddle's coordinate rules."""
    op = TABLE["interpolate_area" if mode == "area" else "interpolate"]
    return apply_op(op, (x,), {"size": size, "scale_factor": scale_factor, "mode": mode, "align_corners": align_corners,
                               "align_mode": align_mode, "data_format": data_format,
                               "recompute_scale_factor": recompute_scale_factor, "antialias": antialias})


def binary_cross_entropy_with_logits(
    logit: Tensor,
    label: Tensor,
    weight: Tensor | None = None,
    reduction: str = "mean",
    pos_weight: Tensor | None = None,
    name: str | None = None,
) -> Tensor:
    """Sigmoid of ``logit`` with binary cross entropy against ``label``, computed stably."""
    if (modes.saved_hooks and pos_weight is not None and weight is None and getattr(label, "stop_gradient", True)
            and getattr(pos_weight, "stop_gradient", True)):
        # the form that keeps pos_weight broadcast to the logit's shape, as Paddle's kernel does
        op = TABLE["binary_cross_entropy_with_logits_pos_weight"]
        return op.visible(apply_op(op, (logit, label, pos_weight), {"reduction": reduction}))
    return apply_op(
        TABLE["binary_cross_entropy_with_logits"], (logit, label, weight, pos_weight), {"reduction": reduction}
    )


# ---- convolutions, pools, normalisation, resampling, activations, losses (op-table entries) ----
def with_hook_forms(name: str, pick: Callable[[dict[str, Any]], str | None]) -> Callable[..., Any]:
    """The public function of op ``name``; while saved-tensor hooks are active, the op form that
    ``pick(arguments by parameter name)`` names (None: the plain op), whose saved tensors are Paddle's."""
    plain = TABLE[name]

    def fn(*args: Any, **kwargs: Any) -> Any:
        if modes.saved_hooks:
            form = pick(plain.bind(args, tuple((k, v) for k, v in kwargs.items() if k != "name")))
            if form is not None:
                return TABLE[form].visible(apply_op(TABLE[form], args, kwargs))
        return apply_op(plain, args, kwargs)

    fn.__name__ = fn.__qualname__ = name
    fn.__doc__ = plain.doc
    fn.__signature__ = plain.signature  # type: ignore[attr-defined]
    return fn


def _unit_axis_form(name: str) -> Callable[..., Any]:  # Paddle's 2-D kernel on a view with a unit axis
    return with_hook_forms(name, lambda a: f"{name}_residuals")


def _max_pool_form(name: str, one_d: bool) -> Callable[..., Any]:  # Paddle keeps the index mask
    def pick(a: dict[str, Any]) -> str | None:
        if a["return_mask"]:
            return f"{name}_mask_residuals" if a.get("data_format", "NC")[1] == "C" else None
        return f"{name}_residuals" if one_d or name.startswith("adaptive") else None

    return with_hook_forms(name, pick)


conv1d = _unit_axis_form("conv1d")
conv3d = public(TABLE["conv3d"])
conv1d_transpose = _unit_axis_form("conv1d_transpose")
conv2d_transpose = public(TABLE["conv2d_transpose"])
conv3d_transpose = public(TABLE["conv3d_transpose"])
unfold = public(TABLE["unfold"])
fold = public(TABLE["fold"])
max_pool1d = _max_pool_form("max_pool1d", True)
max_pool2d = _max_pool_form("max_pool2d", False)
max_pool3d = _max_pool_form("max_pool3d", False)
avg_pool1d = _unit_axis_form("avg_pool1d")
avg_pool2d = public(TABLE["avg_pool2d"])
avg_pool3d = public(TABLE["avg_pool3d"])
lp_pool1d = _unit_axis_form("lp_pool1d")
lp_pool2d = public(TABLE["lp_pool2d"])
adaptive_avg_pool1d = _unit_axis_form("adaptive_avg_pool1d")
adaptive_avg_pool2d = public(TABLE["adaptive_avg_pool2d"])
adaptive_avg_pool3d = public(TABLE["adaptive_avg_pool3d"])
adaptive_max_pool1d = _max_pool_form("adaptive_max_pool1d", True)
adaptive_max_pool2d = _max_pool_form("adaptive_max_pool2d", False)
adaptive_max_pool3d = _max_pool_form("adaptive_max_pool3d", False)
max_unpool1d = _unit_axis_form("max_unpool1d")
max_unpool2d = public(TABLE["max_unpool2d"])
max_unpool3d = public(TABLE["max_unpool3d"])
instance_norm = with_residuals("instance_norm")
local_response_norm = with_chain("local_response_norm", _chains.local_response_norm)
upsample = public(TABLE["upsample"])
affine_grid = public(TABLE["affine_grid"])
grid_sample = public(TABLE["grid_sample"])
bilinear = public(TABLE["bilinear"])
thresholded_relu = public(TABLE["thresholded_relu"])
prelu = public(TABLE["prelu"])
maxout = public(TABLE["maxout"])
swiglu = public(TABLE["swiglu"])
channel_shuffle = public(TABLE["channel_shuffle"])
pixel_shuffle = public(TABLE["pixel_shuffle"])
pixel_unshuffle = public(TABLE["pixel_unshuffle"])
temporal_shift = public(TABLE["temporal_shift"])
label_smooth = public(TABLE["label_smooth"])
zeropad2d = public(TABLE["zeropad2d"])
square_error_cost = with_residuals("square_error_cost")
log_loss = public(TABLE["log_loss"])
margin_ranking_loss = public(TABLE["margin_ranking_loss"])
hinge_embedding_loss = with_chain("hinge_embedding_loss", _chains.hinge_embedding_loss)
cosine_embedding_loss = with_chain("cosine_embedding_loss", _chains.cosine_embedding_loss)
soft_margin_loss = with_chain("soft_margin_loss", _chains.soft_margin_loss)
multi_label_soft_margin_loss = with_chain("multi_label_soft_margin_loss", _chains.multi_label_soft_margin_loss)
multi_label_margin_loss = with_chain("multi_label_margin_loss", _chains.multi_label_margin_loss)
poisson_nll_loss = with_chain("poisson_nll_loss", _chains.poisson_nll_loss)
gaussian_nll_loss = with_chain("gaussian_nll_loss", _chains.gaussian_nll_loss)
sigmoid_focal_loss = with_chain("sigmoid_focal_loss", _chains.sigmoid_focal_loss)
dice_loss = with_chain("dice_loss", _chains.dice_loss)
triplet_margin_loss = with_chain("triplet_margin_loss", _chains.triplet_margin_loss)
npair_loss = with_chain("npair_loss", _chains.npair_loss)


def ctc_loss(*args: Any, **kwargs: Any) -> Any:
    """ctc_loss; under saved-tensor hooks, as Paddle runs it: the warp-ctc form per sequence (which keeps the input
    lengths and the logits' gradient), then ``where(isinf)`` for ``zero_infinity`` and ``mean(loss / label_lengths)``
    or ``sum`` as separate ops."""
    plain = TABLE["ctc_loss"]
    if not modes.saved_hooks:
        return apply_op(plain, args, kwargs)
    a = plain.bind(args, tuple((k, v) for k, v in kwargs.items() if k != "name"))
    if a["reduction"] not in ("none", "mean", "sum"):  # (the plain op raises the error)
        return apply_op(plain, args, kwargs)
    form = TABLE["ctc_loss_residuals"]
    tensors = (a["log_probs"], a["labels"], a["input_lengths"], a["label_lengths"])
    loss = form.visible(apply_op(form, tensors, {"blank": a["blank"], "norm_by_times": a["norm_by_times"]}))
    if a["zero_infinity"]:
        loss = apply_op(TABLE["where"], (apply_op(TABLE["isinf"], (loss,), {}),
                                         apply_op(TABLE["zeros_like"], (loss,), {}), loss), {})
    if a["reduction"] == "mean":
        lengths = apply_op(TABLE["cast"], (a["label_lengths"],), {"dtype": loss.dtype})
        return apply_op(TABLE["mean"], (apply_op(TABLE["divide"], (loss, lengths), {}),), {})
    if a["reduction"] == "sum":
        return apply_op(TABLE["sum"], (loss,), {})
    return loss


ctc_loss.__doc__ = TABLE["ctc_loss"].doc
ctc_loss.__signature__ = TABLE["ctc_loss"].signature  # type: ignore[attr-defined]

def rnnt_loss(input: Tensor, label: Tensor, input_lengths: Tensor, label_lengths: Tensor, blank: int = 0,
              fastemit_lambda: float = 0.001, reduction: str = "mean", name: str | None = None) -> Tensor:
    """RNN-T (transducer) loss of padded ``[B, T, U + 1, D]`` log-probabilities against padded ``[B, U]`` labels.

    As Paddle's CPU kernel (warp-transducer), ``input`` is taken as log-probabilities as it is (apply
    ``F.log_softmax(x, -1)`` first for logits). Per sequence: ``-log p(label | input)`` over its first
    ``input_lengths`` frames (at least 1) and ``label_lengths`` labels. ``fastemit_lambda`` (FastEmit) scales the
    gradient of each label emission by ``1 + fastemit_lambda`` and leaves the loss unchanged.
    ``reduction='mean'`` divides the summed loss by the batch size; ``'sum'`` sums; ``'none'`` gives ``[B]``.
    Labels and lengths are int32 (as Paddle requires) or int64.

    >>> import numpy as np, pylayer_jax as paddle
    >>> import pylayer_jax.nn.functional as F
    >>> x = paddle.to_tensor(np.log(np.full((1, 2, 2, 3), 1 / 3)), stop_gradient=False)
    >>> loss = F.rnnt_loss(x, paddle.to_tensor([[1]], 'int32'), paddle.to_tensor([2], 'int32'),
    ...                    paddle.to_tensor([1], 'int32'), reduction='sum')
    >>> round(float(loss), 4)   # -log(2 / 27): two paths, each of three 1/3 steps
    2.6027
    """
    _check_reduction("rnnt_loss", reduction)
    # (one form, with or without saved-tensor hooks: it keeps what Paddle's kernel keeps, and its backward only
    # scales the gradient the forward computed)
    op = TABLE["warprnnt"]
    loss = op.visible(apply_op(op, (input, label, input_lengths, label_lengths),
                               {"blank": blank, "fastemit_lambda": fastemit_lambda}))
    if reduction == "none":
        return loss
    # as Paddle: sum, then for 'mean' a scale by 1 / batch_size (ops that keep nothing for the backward)
    total = apply_op(TABLE["sum"], (loss,), {})
    return apply_op(TABLE["scale"], (total,), {"scale": 1.0 / loss.shape[0]}) if reduction == "mean" else total


def _fractional_max_pool(api: str, x: Tensor, output_size: Any, kernel_size: Any, random_u: float | None,
                         return_mask: bool) -> Any:
    if random_u is None:  # a draw from the global generator (paddle.seed repeats it)
        u = apply_op(TABLE["random_uniform"], (random_key(),), {"shape": [], "dtype": "float32"})
    elif isinstance(random_u, bool) or not isinstance(random_u, int | float) or not 0 < random_u < 1:
        raise ValueError(f"{api}: random_u must be a float in (0, 1) (or None for a random draw), but received "
                         f"{random_u!r}.")
    else:
        u = float(random_u)
    if not isinstance(return_mask, bool):
        raise TypeError(f"{api}: return_mask must be a bool, but received {type(return_mask).__name__}.")
    out, mask = apply_op(TABLE[api], (x, u), {"output_size": output_size, "kernel_size": kernel_size})
    return (out, mask) if return_mask else out


def fractional_max_pool2d(x: Tensor, output_size: Any, kernel_size: Any = None, random_u: float | None = None,
                          return_mask: bool = False, name: str | None = None) -> Any:
    """Fractional max pooling of ``[N, C, H, W]`` to ``output_size`` (an int or ``[H, W]``; None keeps that size).

    Each spatial dim is cut into pooling regions from ``u = random_u`` with Paddle's CPU formula (see
    ``_ops/pool_fractional.py``): without ``kernel_size`` disjoint regions of ``in / out`` entries on average
    (Graham's fractional max pooling), with it overlapping regions of ``kernel_size`` entries. For a given
    ``random_u`` the values, the ``return_mask`` indices (flat into each channel's ``H * W``, int32) and the
    gradients are Paddle's. Without ``random_u``, ``u`` is drawn from this package's generator (``paddle.seed``
    repeats it); the draw differs from Paddle's, so the regions do too.

    >>> import numpy as np, pylayer_jax as paddle
    >>> import pylayer_jax.nn.functional as F
    >>> x = paddle.to_tensor(np.array([2., 4, 3, 1, 5, 2, 3]).reshape(1, 1, 1, 7))
    >>> F.fractional_max_pool2d(x, [1, 5], random_u=0.3).numpy().ravel().tolist()
    [2.0, 4.0, 1.0, 5.0, 3.0]
    """
    return _fractional_max_pool("fractional_max_pool2d", x, output_size, kernel_size, random_u, return_mask)


def fractional_max_pool3d(x: Tensor, output_size: Any, kernel_size: Any = None, random_u: float | None = None,
                          return_mask: bool = False, name: str | None = None) -> Any:
    """Fractional max pooling of ``[N, C, D, H, W]`` to ``output_size`` (an int or ``[D, H, W]``; None keeps
    that size), as ``fractional_max_pool2d`` per spatial dim; the mask indexes each channel's ``D * H * W``.
    Without ``random_u`` the regions come from this package's generator (not Paddle's draw).

    >>> import pylayer_jax as paddle
    >>> import pylayer_jax.nn.functional as F
    >>> F.fractional_max_pool3d(paddle.rand([1, 2, 5, 5, 5]), 3, kernel_size=2, random_u=0.5).shape
    [1, 2, 3, 3, 3]
    """
    return _fractional_max_pool("fractional_max_pool3d", x, output_size, kernel_size, random_u, return_mask)


gather_tree = public(TABLE["gather_tree"])
# (paddle.static.nn.spectral_norm in Paddle; nn.SpectralNorm calls it)
spectral_norm = public(TABLE["spectral_norm"])


def softmax_with_cross_entropy(logits: Tensor, label: Tensor, soft_label: bool = False, ignore_index: int = -100,
                               numeric_stable_mode: bool = True, return_softmax: bool = False,
                               axis: int = -1) -> Tensor | tuple[Tensor, Tensor]:
    """Unreduced softmax cross entropy (label keeps a size-1 class dim); ``return_softmax`` also gives the softmax.

    Under saved-tensor hooks it runs the form that keeps the label and the softmax, as Paddle's kernel does.
    """
    attrs = {"soft_label": soft_label, "ignore_index": ignore_index, "numeric_stable_mode": numeric_stable_mode,
             "return_softmax": return_softmax, "axis": axis}
    if modes.saved_hooks:
        op = TABLE["softmax_with_cross_entropy_softmax_residuals" if return_softmax
                   else "softmax_with_cross_entropy_residuals"]
        return op.visible(apply_op(op, (logits, label), attrs))
    return apply_op(TABLE["softmax_with_cross_entropy"], (logits, label), attrs)


def batch_norm(
    x: Tensor,
    running_mean: Tensor,
    running_var: Tensor,
    weight: Tensor | None = None,
    bias: Tensor | None = None,
    training: bool = False,
    momentum: float = 0.9,
    epsilon: float = 1e-05,
    data_format: str = "NCHW",
    use_global_stats: bool | None = None,
    name: str | None = None,
) -> Tensor:
    """Batch normalisation: batch statistics when training (and then, as Paddle does, the running
    statistics are updated in place: ``momentum * running + (1 - momentum) * batch``, biased
    variance), running statistics otherwise. ``use_global_stats`` True always uses the running statistics,
    False always the batch's (updating the running ones, in evaluation too), None follows ``training``."""
    if use_global_stats is False:  # as Paddle's: the batch's statistics (and their update), in evaluation too
        training = True
    use_batch = training and not use_global_stats
    attrs = {"training": training, "epsilon": epsilon, "data_format": data_format, "use_global_stats": use_global_stats}
    if modes.saved_hooks and not running_mean._symbolic:
        # the form that keeps what Paddle's kernel keeps; its hidden outputs hold the new running statistics
        res = apply_op(TABLE["batch_norm_residuals"], (x, running_mean, running_var, weight, bias),
                       {**attrs, "momentum": momentum})
        if use_batch:
            with no_grad():
                running_mean._set_value(res[1])
                running_var._set_value(res[2])
        return res[0]
    # batch statistics do not read the running ones: not passing them keeps their update below from
    # invalidating what the backward saved; a static program keeps them, so that its test clone
    # (``clone(for_test=True)``, training=False) reads them
    stats = (None, None) if use_batch and not running_mean._symbolic else (running_mean, running_var)
    out = apply_op(TABLE["batch_norm"], (x, *stats, weight, bias), attrs)
    if use_batch:
        with no_grad():
            mean, var = apply_op(TABLE["batch_norm_stats"], (x, running_mean, running_var),
                                 {"momentum": momentum, "data_format": data_format})
        running_mean._set_value(mean)
        running_var._set_value(var)
    return out


def adaptive_log_softmax_with_loss(
    input: Tensor,
    label: Tensor,
    head_weight: Tensor,
    tail_weights: Sequence[Sequence[Tensor]],
    cutoffs: Sequence[int],
    head_bias: Tensor | None = None,
    name: str | None = None,
) -> tuple[Tensor, Tensor]:
    """Adaptive softmax: ``(output, loss)``, the log-probability of each row's label and ``mean(-output)``.

    Labels below ``cutoffs[0]`` are scored by the head (``input @ head_weight + head_bias``, log-softmax over the
    shortlist and one entry per cluster); a label in cluster ``i`` (``[cutoffs[i], cutoffs[i + 1])``) adds the
    log-softmax of ``input @ tail_weights[i][0] @ tail_weights[i][1]``. ``cutoffs`` ends with the class count.
    """
    pairs = list(tail_weights)
    if not all(isinstance(p, list | tuple) and len(p) == 2 for p in pairs):
        raise TypeError("adaptive_log_softmax_with_loss: tail_weights must be a list of [weight, weight] pairs "
                        f"(one per cluster), but received {[type(p).__name__ for p in pairs]}.")
    cut = tuple(int(c.item()) if isinstance(c, Tensor) else c for c in cutoffs)
    out = _adaptive_log_softmax_with_loss(input, label, head_weight, [w for p in pairs for w in p], head_bias,
                                          cutoffs=cut)
    return out[0], out[1]


_adaptive_log_softmax_with_loss = with_chain("adaptive_log_softmax_with_loss", _chains.adaptive_log_softmax_with_loss)


def hsigmoid_loss(
    input: Tensor,
    label: Tensor,
    num_classes: int,
    weight: Tensor,
    bias: Tensor | None = None,
    path_table: Tensor | None = None,
    path_code: Tensor | None = None,
    is_sparse: bool = False,
    name: str | None = None,
) -> Tensor:
    """Hierarchical sigmoid loss ``[N, 1]`` over Paddle's default binary tree of ``num_classes`` classes
    (``weight`` ``[num_classes - 1, D]``, ``bias`` ``[num_classes - 1, 1]``), or over a custom tree given by
    ``path_table`` (node ids, -1 padded) and ``path_code`` (bits). ``is_sparse`` gives the same (dense) gradient.
    """
    if not isinstance(is_sparse, bool):
        raise TypeError(f"hsigmoid_loss: is_sparse must be a bool, but received {type(is_sparse).__name__}.")
    if modes.saved_hooks:  # the form that keeps the pre-activations, as Paddle's kernel does
        form = TABLE["hsigmoid_loss_residuals"]
        return form.visible(apply_op(form, (input, weight, label, path_table, path_code, bias),
                                     {"num_classes": num_classes}))
    return apply_op(TABLE["hsigmoid_loss"], (input, label, weight, bias, path_table, path_code),
                    {"num_classes": num_classes})


def group_norm(
    x: Tensor,
    num_groups: int,
    epsilon: float = 1e-05,
    weight: Tensor | None = None,
    bias: Tensor | None = None,
    data_format: str = "NCHW",
    name: str | None = None,
) -> Tensor:
    """Normalise over groups of channels (and the spatial dims), then scale and shift per channel."""
    op = TABLE["group_norm_residuals" if modes.saved_hooks else "group_norm"]
    return op.visible(apply_op(op, (x, weight, bias),
                               {"num_groups": num_groups, "epsilon": epsilon, "data_format": data_format}))


def multi_margin_loss(
    input: Tensor,
    label: Tensor,
    p: int = 1,
    margin: float = 1.0,
    weight: Tensor | None = None,
    reduction: str = "mean",
    name: str | None = None,
) -> Tensor:
    """Multi-class hinge loss per row of ``[N, C]`` (``p`` 1 or 2, optional class weights), reduced."""
    return run_chain(TABLE["multi_margin_loss"], (input, label, weight),
                     {"p": p, "margin": margin, "reduction": reduction}, _chains.multi_margin_loss)


def triplet_margin_with_distance_loss(
    input: Tensor,
    positive: Tensor,
    negative: Tensor,
    distance_function: Callable[[Tensor, Tensor], Tensor] | None = None,
    margin: float = 1.0,
    swap: bool = False,
    reduction: str = "mean",
    name: str | None = None,
) -> Tensor:
    """``max(d(a, p) - d(a, n) + margin, 0)``; ``distance_function`` defaults to pairwise_distance."""
    if distance_function is None:
        return run_chain(TABLE["triplet_margin_with_distance_loss"], (input, positive, negative),
                         {"margin": margin, "swap": swap, "reduction": reduction},
                         _chains.triplet_margin_with_distance_loss)
    if reduction not in ("mean", "sum", "none"):
        raise ValueError(
            f"triplet_margin_with_distance_loss: reduction must be 'mean', 'sum' or 'none', but received {reduction!r}."
        )
    dp = distance_function(input, positive)
    dn = distance_function(input, negative)
    if swap:
        dn = apply_op(TABLE["minimum"], (dn, distance_function(positive, negative)))
    loss = relu(dp - dn + margin)
    return loss.mean() if reduction == "mean" else loss.sum() if reduction == "sum" else loss


def sequence_mask(x: Tensor, maxlen: int | Tensor | None = None, dtype: Any = "int64", name: str | None = None) -> Tensor:
    """``mask[..., j] = j < x[...]``; ``maxlen`` None (or negative, as in Paddle) is the largest length in ``x``."""
    if isinstance(maxlen, Tensor):
        maxlen = int(maxlen.item())
    if maxlen is None or maxlen < 0:  # (as Paddle: a negative maxlen, as None, is the largest length; 0 when empty)
        maxlen = int(x.max().item()) if isinstance(x, Tensor) and x.size else 0
    return apply_op(TABLE["sequence_mask"], (x,), {"maxlen": maxlen, "dtype": dtype})


def _check_p(api: str, p: Any) -> float:
    if isinstance(p, bool) or not isinstance(p, int | float) or not 0 <= p <= 1:
        raise ValueError(f"{api}: p must be a number in [0, 1], but received {p!r}.")
    return float(p)


def _feature_dropout(api: str, x: Tensor, p: float, training: bool, nd: int, channel_last: bool) -> Tensor:
    if x.ndim not in (nd + 1, nd + 2):
        raise ValueError(f"{api}: the input must be {nd + 1}-D or {nd + 2}-D, but it has shape {x.shape}.")
    batched = x.ndim == nd + 2
    c = (x.ndim - 1) if channel_last else (1 if batched else 0)
    axis = [0, c] if batched else [c]
    return dropout(x, p, axis=axis, training=training)


def dropout1d(input: Tensor, p: float = 0.5, training: bool = True, inplace: bool = False) -> Tensor:
    """Zero whole channels of ``[N, C, L]`` (or ``[C, L]``) with probability ``p``, scaling the rest by ``1 / (1 - p)``."""
    if inplace:
        raise NotImplementedError("dropout1d: inplace=True is not supported; received inplace=True.")
    return _feature_dropout("dropout1d", input, _check_p("dropout1d", p), training, 1, False)


def dropout2d(x: Tensor, p: float = 0.5, training: bool = True, data_format: str = "NCHW", name: str | None = None) -> Tensor:
    """Zero whole channels of ``[N, C, H, W]`` with probability ``p``, scaling the rest by ``1 / (1 - p)``."""
    if data_format not in ("NCHW", "NHWC"):
        raise ValueError(f"dropout2d: data_format must be 'NCHW' or 'NHWC', but received {data_format!r}.")
    if x.ndim != 4:
        raise ValueError(f"dropout2d: the input must be 4-D, but it has shape {x.shape}.")
    return _feature_dropout("dropout2d", x, _check_p("dropout2d", p), training, 2, data_format == "NHWC")


def dropout3d(x: Tensor, p: float = 0.5, training: bool = True, data_format: str = "NCDHW", name: str | None = None) -> Tensor:
    """Zero whole channels of ``[N, C, D, H, W]`` with probability ``p``, scaling the rest by ``1 / (1 - p)``."""
    if data_format not in ("NCDHW", "NDHWC"):
        raise ValueError(f"dropout3d: data_format must be 'NCDHW' or 'NDHWC', but received {data_format!r}.")
    if x.ndim != 5:
        raise ValueError(f"dropout3d: the input must be 5-D, but it has shape {x.shape}.")
    return _feature_dropout("dropout3d", x, _check_p("dropout3d", p), training, 3, data_format == "NDHWC")


def alpha_dropout(x: Tensor, p: float = 0.5, training: bool = True, name: str | None = None) -> Tensor:
    """Dropout for SELU networks: keeps the activations' mean and variance."""
    p = _check_p("alpha_dropout", p)
    key = random_key() if training and 0 < p < 1 else _NO_KEY
    if training and modes.saved_hooks:  # Paddle's chain, which keeps x and the mask (also for p=0)
        return _chains.alpha_dropout(x, key, p, False)
    return apply_op(TABLE["alpha_dropout"], (x, key), {"p": p, "training": bool(training)})


def feature_alpha_dropout(x: Tensor, p: float = 0.5, training: bool = True, name: str | None = None) -> Tensor:
    """alpha_dropout of whole channels of ``[N, C, ...]``."""
    p = _check_p("feature_alpha_dropout", p)
    key = random_key() if training and 0 < p < 1 else _NO_KEY
    if training and modes.saved_hooks:
        if x.ndim < 2:  # (the plain op's check)
            apply_op(TABLE["feature_alpha_dropout"], (x, key), {"p": p, "training": True})
        return _chains.alpha_dropout(x, key, p, True)
    return apply_op(TABLE["feature_alpha_dropout"], (x, key), {"p": p, "training": bool(training)})


def rrelu(x: Tensor, lower: float = 0.125, upper: float = 0.3333333333333333, training: bool = True,
          name: str | None = None) -> Tensor:
    """Randomized leaky relu: slopes drawn from U[lower, upper] in training, their mean otherwise."""
    if not 0 <= lower <= upper <= 1:
        raise ValueError(f"rrelu: lower and upper must satisfy 0 <= lower <= upper <= 1, but received {lower} and {upper}.")
    key = random_key() if training else _NO_KEY
    attrs = {"lower": lower, "upper": upper, "training": bool(training)}
    if modes.saved_hooks:  # the form that keeps the noise, as Paddle's kernel does
        return apply_op(TABLE["rrelu_residuals"], (x, key), attrs)[0]
    return apply_op(TABLE["rrelu"], (x, key), attrs)


def gumbel_softmax(x: Tensor, temperature: float = 1.0, hard: bool = False, axis: int = -1,
                   name: str | None = None) -> Tensor:
    """Softmax of ``(x + Gumbel noise) / temperature``; ``hard=True`` gives one-hot values with the soft gradient."""
    return apply_op(TABLE["gumbel_softmax"], (x, random_key()),
                    {"temperature": temperature, "hard": hard, "axis": axis})


def scaled_dot_product_attention(
    query: Tensor,
    key: Tensor,
    value: Tensor,
    attn_mask: Tensor | None = None,
    dropout_p: float = 0.0,
    is_causal: bool = False,
    training: bool = True,
    backend: str | None = None,
    scale: float | None = None,
    enable_gqa: bool = True,
    name: str | None = None,
) -> Tensor:
    """``softmax(q k^T * scale + mask) v`` over ``[batch, seq, heads, dim]`` inputs (or unbatched
    ``[seq, heads, dim]`` ones, giving an unbatched result).

    ``attn_mask`` (a bool mask keeps its True positions, a float mask is added) and ``is_causal=True`` (the future
    masked) exclude each other: given both, Paddle 3.3.1 applies the causal mask only and silently drops
    ``attn_mask``, so here that call raises a ValueError. To apply both, fold the causal mask into ``attn_mask``.
    """
    if backend not in (None, "math"):
        raise NotImplementedError(f"scaled_dot_product_attention: backend must be None or 'math', but received {backend!r}.")
    _check_p("scaled_dot_product_attention", dropout_p)
    if is_causal and attn_mask is not None:
        raise ValueError(
            f"scaled_dot_product_attention: pass attn_mask or is_causal=True, not both (Paddle would apply the causal "
            f"mask only and silently drop attn_mask), but received an attn_mask of shape {list(attn_mask.shape)} with "
            f"is_causal=True. To apply both, fold the causal mask into attn_mask (e.g. attn_mask & paddle.tril of "
            f"ones) and set is_causal=False.")
    if not enable_gqa and query.shape[2] != key.shape[2]:
        raise AssertionError(
            f"scaled_dot_product_attention: with enable_gqa=False query and key must have the same number of heads, "
            f"but received query {list(query.shape)} and key {list(key.shape)}. Pass enable_gqa=True for "
            f"grouped-query attention.")
    rng = random_key() if dropout_p > 0 and training else _NO_KEY
    batched = query.ndim != 3
    if not batched:  # unbatched [seq, heads, dim], as Paddle: a batch axis of 1 added, then removed
        if key.ndim != 3 or value.ndim != 3:
            raise ValueError(
                f"scaled_dot_product_attention: an unbatched 3-D query [seq, heads, dim] needs 3-D key and value, but "
                f"received query {list(query.shape)}, key {list(key.shape)}, value {list(value.shape)}. Give all "
                f"three the same layout ([seq, heads, dim] or [batch, seq, heads, dim]).")
        query, key, value = query.unsqueeze(0), key.unsqueeze(0), value.unsqueeze(0)
    out = _sdpa(query, key, value, attn_mask, rng, dropout_p=float(dropout_p), is_causal=is_causal,
                training=training, scale=scale)
    return out if batched else out.squeeze(0)


_sdpa = with_chain("scaled_dot_product_attention", _chains.scaled_dot_product_attention)


# ---- in-place forms: the out-of-place op written into x ----
def _inplace(api: str, x: Tensor, out: Tensor) -> Tensor:
    check_inplace_leaf(x, api)
    return write_result(x, out, api)


def silu(x: Tensor, inplace: bool = False, name: str | None = None) -> Tensor:
    """``x * sigmoid(x)``; ``inplace=True`` writes the result into ``x`` (and returns it)."""
    out = apply_op(TABLE["silu"], (x,), {})
    return _inplace("silu", x, out) if inplace else out


def relu_(x: Tensor, name: str | None = None) -> Tensor:
    """In-place relu."""
    return _inplace("relu_", x, relu(x))


def elu_(x: Tensor, alpha: float = 1.0, name: str | None = None) -> Tensor:
    """In-place elu."""
    return _inplace("elu_", x, elu(x, alpha))


def hardtanh_(x: Tensor, min: float = -1.0, max: float = 1.0, name: str | None = None) -> Tensor:  # noqa: A002
    """In-place hardtanh."""
    return _inplace("hardtanh_", x, hardtanh(x, min, max))


def leaky_relu_(x: Tensor, negative_slope: float = 0.01, name: str | None = None) -> Tensor:
    """In-place leaky_relu."""
    return _inplace("leaky_relu_", x, leaky_relu(x, negative_slope))


def softmax_(x: Tensor, axis: int = -1, dtype: Any = None, name: str | None = None) -> Tensor:
    """In-place softmax."""
    return _inplace("softmax_", x, softmax(x, axis, dtype))


def tanh_(x: Tensor, name: str | None = None) -> Tensor:
    """In-place tanh."""
    return _inplace("tanh_", x, tanh(x))


def thresholded_relu_(x: Tensor, threshold: float = 1.0, value: float = 0.0, name: str | None = None) -> Tensor:
    """In-place thresholded_relu."""
    return _inplace("thresholded_relu_", x, thresholded_relu(x, threshold, value))
