"""Recurrent layers as one op each (layer L1): a whole sequence through one cell in one ``lax.scan``.

``rnn_scan`` runs a SimpleRNN/LSTM/GRU cell over a time-major sequence in one kernel, so eager
dispatch records one call per layer and direction, and its backward is the scan's VJP. The cell
formulas and the gate order are Paddle's (LSTM gates ``i, f, c, o``; GRU gates ``r, z, c`` with the
reset gate applied after the hidden projection).
"""

from __future__ import annotations

import jax
import jax.numpy as jnp
from jax import lax

from .table import defop

_MODES = ("RNN_TANH", "RNN_RELU", "LSTM", "GRU")


def _cell(mode, w_hh, b_hh, w_ho):  # noqa: ANN001, ANN202
    """The step function ``(h, c), x_proj -> (h, c), out`` of one cell kind."""

    def hproj(h):  # noqa: ANN001, ANN202
        out = h @ w_hh.T
        return out if b_hh is None else out + b_hh

    if mode in ("RNN_TANH", "RNN_RELU"):
        act = jnp.tanh if mode == "RNN_TANH" else jax.nn.relu

        def step(h, c, xp):  # noqa: ANN001, ANN202
            h = act(xp + hproj(h))
            return h, c

    elif mode == "LSTM":

        def step(h, c, xp):  # noqa: ANN001, ANN202
            i, f, g, o = jnp.split(xp + hproj(h), 4, axis=-1)
            c = jax.nn.sigmoid(f) * c + jax.nn.sigmoid(i) * jnp.tanh(g)
            h = jax.nn.sigmoid(o) * jnp.tanh(c)
            if w_ho is not None:
                h = h @ w_ho
            return h, c

    else:

        def step(h, c, xp):  # noqa: ANN001, ANN202
            x_r, x_z, x_c = jnp.split(xp, 3, axis=-1)
            h_r, h_z, h_c = jnp.split(hproj(h), 3, axis=-1)
            r = jax.nn.sigmoid(x_r + h_r)
            z = jax.nn.sigmoid(x_z + h_z)
            cand = jnp.tanh(x_c + r * h_c)
            return (h - cand) * z + cand, c

    return step


_TENSORS = ("x", "h0", "c0", "weight_ih", "weight_hh", "bias_ih", "bias_hh", "weight_ho", "sequence_length")


@defop(_TENSORS, saves=_TENSORS, nondiff=("sequence_length",), method=False)
def rnn_scan(x, h0, c0=None, weight_ih=None, weight_hh=None, bias_ih=None, bias_hh=None, weight_ho=None, sequence_length=None,
             mode="LSTM", is_reverse=False, time_major=True, zero_padded=True):
    """One recurrent cell over a sequence ``x`` ([T, B, I], or [B, T, I] with ``time_major=False``) from
    state ``h0`` (and ``c0`` for LSTM).

    Returns ``(outputs, h_last, c_last)`` with outputs laid out as ``x`` (``c_last`` is ``h_last`` for
    cells without a cell state). ``sequence_length`` [B] (or None) keeps a sequence's state through its
    padding steps, so its final state is the one at its last valid step; ``zero_padded`` zeroes the
    outputs at padding steps. ``is_reverse`` runs from the last step to the first (outputs stay in
    time order).
    """
    if mode not in _MODES:
        raise ValueError(f"rnn_scan: mode must be one of {list(_MODES)}, but received {mode!r}.")
    if not time_major:
        x = jnp.swapaxes(x, 0, 1)
    step = _cell(mode, weight_hh, bias_hh, weight_ho)
    xp = x @ weight_ih.T
    if bias_ih is not None:
        xp = xp + bias_ih
    m = None
    if sequence_length is not None:
        valid = jnp.arange(x.shape[0])[:, None] < sequence_length.reshape(1, -1)
        m = valid.astype(x.dtype)[..., None]
    if is_reverse:
        xp = jnp.flip(xp, 0)
        m = None if m is None else jnp.flip(m, 0)
    c_init = h0 if c0 is None else c0

    def body(carry, inp):  # noqa: ANN001, ANN202
        h, c = carry
        if m is None:
            nh, nc = step(h, c, inp)
            return (nh, nc), nh
        xs, ms = inp
        nh, nc = step(h, c, xs)
        out = nh * ms if zero_padded else nh
        return (nh * ms + h * (1 - ms), nc * ms + c * (1 - ms)), out

    (h_last, c_last), outs = lax.scan(body, (h0, c_init), xp if m is None else (xp, m))
    if is_reverse:
        outs = jnp.flip(outs, 0)
    if not time_major:
        outs = jnp.swapaxes(outs, 0, 1)
    return outs, h_last, c_last
