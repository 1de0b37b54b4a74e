"""Sequence losses (``paddle.nn.functional.ctc_loss``, ``rnnt_loss``; layer L1).

Both take padded batches with per-sequence lengths, as Paddle's warp-ctc and warp-transducer kernels
do, and check shapes, dtypes and the length and label values at the call (Paddle reads past the
buffers on a length longer than the padding, and crashes).
"""

from __future__ import annotations

import jax
import jax.numpy as jnp
import numpy as np
from jax import lax

from .checks import ValueCheck, dtype_of
from .loss import _check_reduction
from .table import defop


def _int_tensor(op: str, t, what: str) -> None:  # noqa: ANN001
    dt = dtype_of(t)
    if dt is None or not np.issubdtype(dt, np.integer):
        raise TypeError(f"{op}: {what} must be an integer tensor (int32 or int64), but received "
                        f"{getattr(dt, 'name', type(t).__name__)}. Cast it with .astype('int32').")


def _float_tensor(op: str, t, what: str) -> None:  # noqa: ANN001
    dt = dtype_of(t)
    if dt is None or dt not in (np.float32, np.float64):
        raise TypeError(f"{op}: {what} must be a float32 or float64 tensor, but received "
                        f"{getattr(dt, 'name', type(t).__name__)}.")


def _lengths_checks(op: str, a: dict, x_name: str, time_axis: int, x_rank: int, label_name: str) -> list:
    """Shared checks of ctc_loss and rnnt_loss: ranks, batch sizes, dtypes, blank; value checks of the
    labels and lengths."""
    _check_reduction(op, a["reduction"])
    x, labels, il, ll = a[x_name], a[label_name], a["input_lengths"], a["label_lengths"]
    _float_tensor(op, x, x_name)
    if len(x.shape) != x_rank:
        raise ValueError(f"{op}: {x_name} must be a {x_rank}-D tensor, but received shape {list(x.shape)}.")
    for t, what in ((labels, label_name), (il, "input_lengths"), (ll, "label_lengths")):
        _int_tensor(op, t, what)
    if len(labels.shape) != 2:
        raise ValueError(f"{op}: {label_name} must be a 2-D tensor [batch_size, max_label_length], but received "
                         f"shape {list(labels.shape)}.")
    b = x.shape[1] if time_axis == 0 else x.shape[0]
    for t, what in ((labels, label_name), (il, "input_lengths"), (ll, "label_lengths")):
        if len(t.shape) < 1 or t.shape[0] != b or (what != label_name and len(t.shape) != 1):
            raise ValueError(f"{op}: {what} must have batch_size={b} rows (the batch size of {x_name}), but "
                             f"received shape {list(t.shape)}.")
    c = x.shape[-1]
    blank = a["blank"]
    if not isinstance(blank, int) or isinstance(blank, bool) or not 0 <= blank < c:
        raise ValueError(f"{op}: blank must be a class index in [0, {c}), but received {blank!r}.")
    t_max = x.shape[time_axis]
    l_max = labels.shape[1]
    return [
        ValueCheck(labels, f"{op}: {label_name} holds {{value}}, which is not a class index in [0, {c}); every "
                   f"entry (padding included) must be one. Pad the labels with the blank index.", lo=0, hi=c),
        ValueCheck(il, f"{op}: input_lengths holds {{value}}, but each length must be in [0, {t_max}] (the padded "
                   f"length of {x_name}). Fix the lengths or pad {x_name} further.", lo=0, hi=t_max + 1),
        ValueCheck(ll, f"{op}: label_lengths holds {{value}}, but each length must be in [0, {l_max}] (the padded "
                   f"length of {label_name}). Fix the lengths or pad {label_name} further.", lo=0, hi=l_max + 1),
    ]


def _ctc_checks(op: str, a: dict) -> list:
    return _lengths_checks(op, a, "log_probs", 0, 3, "labels")


def _ctc_per_sequence(log_probs, labels, input_lengths, label_lengths, blank):  # noqa: ANN001, ANN202
    """Each sequence's ``-log p(label | logits)`` (0 when its frames are too few for its label), and the lengths
    as int32."""
    t_max, _, _ = log_probs.shape
    l_max = labels.shape[1]
    dt = log_probs.dtype
    il = input_lengths.astype(jnp.int32)
    ll = label_lengths.astype(jnp.int32)
    lab = labels.astype(jnp.int32)
    frame_pad = (jnp.arange(t_max)[None, :] >= il[:, None]).astype(dt)
    label_pad = (jnp.arange(l_max)[None, :] >= ll[:, None]).astype(dt)
    import optax  # (here, not at import: a script without ctc_loss does not load optax)

    per = optax.ctc_loss(jnp.transpose(log_probs, (1, 0, 2)), frame_pad, lab, label_pad, blank_id=blank).astype(dt)
    # a label needs one frame per entry plus one between each pair of equal neighbours
    in_label = jnp.arange(l_max)[None, 1:] < ll[:, None]
    repeats = jnp.sum((lab[:, 1:] == lab[:, :-1]) & in_label, axis=1)
    return jnp.where(ll + repeats <= il, per, jnp.zeros((), dt)), il, ll


@defop(4, saves=("log_probs", "labels", "input_lengths", "label_lengths"),
       nondiff=("labels", "input_lengths", "label_lengths"), method=False, checks=_ctc_checks)
def ctc_loss(log_probs, labels, input_lengths, label_lengths, blank=0, reduction="mean", norm_by_times=False,
             zero_infinity=False):
    """Connectionist Temporal Classification loss of padded ``[T, B, C]`` logits (softmax applied inside,
    as Paddle's warp-ctc kernel does) against padded ``[B, L]`` labels.

    Per sequence: ``-log p(label | logits)`` over its first ``input_lengths`` frames and ``label_lengths``
    labels, 0 (with a zero gradient) when the frames are too few for the label, as warp-ctc gives.
    ``norm_by_times`` divides each sequence's gradient (not its loss) by its frame count;
    ``zero_infinity`` turns infinite losses into 0; ``reduction='mean'`` averages ``loss / label_length``.
    """
    per, il, ll = _ctc_per_sequence(log_probs, labels, input_lengths, label_lengths, blank)
    dt = log_probs.dtype
    if norm_by_times:
        scaled = per / jnp.maximum(il, 1).astype(dt)
        per = scaled + lax.stop_gradient(per - scaled)
    if zero_infinity:
        per = jnp.where(jnp.isinf(per), jnp.zeros((), dt), per)
    if reduction == "mean":
        return jnp.mean(per / ll.astype(dt))
    if reduction == "sum":
        return jnp.sum(per)
    return per


def _ctc_residuals_vjp(s, ct, blank=0, norm_by_times=False):  # noqa: ANN001, ANN202
    # the loss's cotangent scales the gradient the forward computed (the gradient's own cotangent adds nothing:
    # the op's derivative holds that gradient fixed, as Paddle's kernel does)
    grad = s["out1"]
    return grad * ct[0].astype(grad.dtype)[None, :, None], None, None, None


# Paddle's warp-ctc kernel computes the logits' gradient in the forward and keeps it with the input lengths (the
# logits themselves are not kept): under saved-tensor hooks nn.functional runs this form, then reduces in Python
@defop(4, saves=("input_lengths", "out1"), vjp=_ctc_residuals_vjp, hidden=1,
       nondiff=("labels", "input_lengths", "label_lengths"), method=False,
       # (the messages name the function the caller called)
       checks=lambda op, a: _lengths_checks("ctc_loss", {**a, "reduction": "none"}, "log_probs", 0, 3, "labels"))
def ctc_loss_residuals(log_probs, labels, input_lengths, label_lengths, blank=0, norm_by_times=False):
    """ctc_loss per sequence (``reduction='none'``, no ``zero_infinity``) that also gives (hidden) the gradient of
    each sequence's loss with respect to the logits ``[T, B, C]``, divided by the sequence's frame count with
    ``norm_by_times``, which the backward scales by the incoming gradient. The loss's derivative is that gradient
    held fixed (no second derivative, as warp-ctc has none)."""
    per, pull = jax.vjp(lambda lp: _ctc_per_sequence(lp, labels, input_lengths, label_lengths, blank)[0], log_probs)
    (grad,) = pull(jnp.ones_like(per))
    if norm_by_times:
        grad = grad / jnp.maximum(input_lengths, 1).astype(grad.dtype)[None, :, None]
    grad = lax.stop_gradient(grad)
    # the value of ``per`` whose derivative is ``grad``
    moved = log_probs - lax.stop_gradient(log_probs)
    return lax.stop_gradient(per) + jnp.sum(grad * moved, axis=(0, 2)), grad
