"""Sequence losses (``paddle.nn.functional.ctc_loss``; ``rnnt_loss`` over the ``warprnnt`` op; layer L1).

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


# ---- rnnt_loss: Paddle's warprnnt kernel ---------------------------------------------------------------------------
def _rnnt_checks(op: str, a: dict) -> list:
    """rnnt_loss's checks (the messages name the function the caller called): input ``[B, T, U + 1, D]`` with
    ``U`` the label's padded length, lengths within the padding and at least one frame, fastemit_lambda >= 0."""
    api = "rnnt_loss"
    checks = _lengths_checks(api, {**a, "reduction": "none"}, "input", 1, 4, "label")
    x, label = a["input"], a["label"]
    if x.shape[2] != label.shape[1] + 1:
        raise ValueError(f"{api}: input must be [batch_size, max_input_length, max_label_length + 1, num_classes] "
                         f"= [.., .., {label.shape[1] + 1}, ..] for a label of shape {list(label.shape)}, but "
                         f"received shape {list(x.shape)}. Pad the label or the input's third dim to match.")
    lam = a["fastemit_lambda"]
    if isinstance(lam, bool) or not isinstance(lam, int | float) or not lam >= 0:
        # (Paddle's warp-transducer refuses it in a RuntimeError too)
        raise RuntimeError(f"{api}: fastemit_lambda must be a number >= 0, but received {lam!r}. Pass 0 to "
                           f"turn FastEmit off.")
    t_max = x.shape[1]
    checks[1] = ValueCheck(a["input_lengths"], f"{api}: input_lengths holds {{value}}, but each length must be in "
                           f"[1, {t_max}] (at least one frame, at most the padded length of input). Fix the lengths "
                           f"or pad input further.", lo=1, hi=t_max + 1)
    return checks


_NEG = -1e30  # "log 0" off the lattice: finite, so that the derivative of logaddexp stays finite there


def _rnnt_per_sequence(x, label, input_lengths, label_lengths, blank, fastemit_lambda):  # noqa: ANN001, ANN202
    """Each sequence's ``-log p(label | x)`` with ``x`` [B, T, U + 1, D] taken as log-probabilities (Paddle's CPU
    kernel applies no log_softmax). The forward variable alpha is computed along the lattice's anti-diagonals
    ``t + u = n`` (a scan over n, vectorised over the batch and u). FastEmit scales the derivative of each label
    emission by ``1 + fastemit_lambda`` and leaves the loss as it is, as warp-transducer does."""
    nb, t_max, up, _ = x.shape
    u_max = up - 1
    dt = x.dtype
    lab = label.astype(jnp.int32)
    il = input_lengths.astype(jnp.int32)
    ll = label_lengths.astype(jnp.int32)
    blank_lp = x[..., blank]  # [B, T, U + 1]
    emit = jnp.take_along_axis(x[:, :, :u_max, :], lab[:, None, :, None], axis=-1)[..., 0]  # [B, T, U]
    emit = emit + fastemit_lambda * (emit - lax.stop_gradient(emit))  # the same value, (1 + lambda) x derivative
    n_diag = t_max + u_max
    n = jnp.arange(n_diag)[:, None]
    u = jnp.arange(up)[None, :]
    t = n - u  # [N, U + 1]: the frame of lattice point (n, u)
    on = (t >= 0) & (t < t_max)
    tc = jnp.clip(t, 0, t_max - 1)
    neg = jnp.asarray(_NEG, dt)
    blank_d = jnp.where(on[None], blank_lp[:, tc, u], neg)  # [B, N, U + 1]
    uc = jnp.minimum(u, u_max - 1) if u_max > 0 else u
    emit_d = jnp.where((on & (u < u_max))[None], emit[:, tc, uc], neg) if u_max > 0 else jnp.full(blank_d.shape, neg)
    alpha0 = jnp.where(jnp.arange(up)[None, :] == 0, jnp.zeros((), dt), neg) * jnp.ones((nb, 1), dt)

    def step(alpha, xs):  # noqa: ANN001, ANN202
        b, e = xs  # the diagonal's blank and emission log-probabilities [B, U + 1]
        from_blank = alpha + b  # (t, u) -> (t + 1, u)
        from_emit = jnp.concatenate([jnp.full((nb, 1), neg), (alpha + e)[:, :-1]], axis=1)  # (t, u - 1) -> (t, u)
        nxt = jnp.logaddexp(from_blank, from_emit)
        return nxt, nxt

    xs = (jnp.moveaxis(blank_d, 1, 0)[:-1], jnp.moveaxis(emit_d, 1, 0)[:-1])
    _, alphas = lax.scan(step, alpha0, xs)
    alphas = jnp.concatenate([alpha0[None], alphas], axis=0)  # [N, B, U + 1]
    bi = jnp.arange(nb)
    last = il - 1
    ll_c = jnp.minimum(ll, u_max)
    loglik = alphas[last + ll_c, bi, ll_c] + blank_lp[bi, jnp.clip(last, 0, t_max - 1), ll_c]
    return -loglik


def _rnnt_vjp(s, ct, blank=0, fastemit_lambda=0.001):  # noqa: ANN001, ANN202
    # the loss's cotangent scales the gradient the forward computed (the gradient's own cotangent adds nothing:
    # the op's derivative holds that gradient fixed, as Paddle's kernel does)
    grad = s["out1"]
    return grad * ct[0].astype(grad.dtype)[:, None, None, None], None, None, None


@defop(4, saves=("input_lengths", "out1"), vjp=_rnnt_vjp, hidden=1, nondiff=("label", "input_lengths", "label_lengths"),
       method=False, checks=_rnnt_checks)
def warprnnt(input, label, input_lengths, label_lengths, blank=0, fastemit_lambda=0.001):  # noqa: A002
    """RNN-T loss per sequence of padded ``[B, T, U + 1, D]`` log-probabilities (no log_softmax is applied, as in
    Paddle's CPU kernel) against padded ``[B, U]`` labels, that also gives (hidden) the gradient of each sequence's
    loss with respect to ``input``, label emissions scaled by ``1 + fastemit_lambda``, which the backward scales by
    the incoming gradient. The loss's derivative is that gradient held fixed (no second derivative, as Paddle's
    kernel has none)."""
    per, pull = jax.vjp(lambda v: _rnnt_per_sequence(v, label, input_lengths, label_lengths, blank,
                                                     float(fastemit_lambda)), input)
    (grad,) = pull(jnp.ones_like(per))
    grad = lax.stop_gradient(grad)
    moved = input - lax.stop_gradient(input)  # the value of ``per`` whose derivative is ``grad``
    return lax.stop_gradient(per) + jnp.sum(grad * moved, axis=(1, 2, 3)), grad

