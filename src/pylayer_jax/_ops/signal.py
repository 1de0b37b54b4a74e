"""The short-time Fourier transform and its inverse (Paddle's ``paddle.signal.stft`` / ``istft``), one kernel each.

``signal_stft`` pads the signal (``center``), cuts it into frames of ``n_fft`` samples ``hop_length`` apart, weights
each by the window (centre-padded with zeros to ``n_fft``) and transforms it: the one-sided spectrum of a real signal
(``onesided``) or the whole one. ``signal_istft`` transforms the frames back, weights them by the window again,
adds them up where they overlap and divides by the overlapped squared window (the least-squares estimate of the
signal). The public functions (``_api.signal``) check the arguments as Paddle does and resolve the defaults; these
kernels take them resolved. JAX derives both backwards (gathers, scatter-adds, products and FFTs), with respect to
the signal and to the window.
"""

from __future__ import annotations

import jax.numpy as jnp
import numpy as np

from .fft import _as_complex, _as_real
from .table import defop


def _frame_index(n_frames: int, n_fft: int, hop_length: int) -> np.ndarray:
    """Where the samples of each frame lie: ``[n_frames, n_fft]`` positions in the (padded) signal."""
    return np.arange(n_frames)[:, None] * hop_length + np.arange(n_fft)[None, :]


def _centred(window, n_fft):  # noqa: ANN001, ANN202
    """The window with zeros on both sides up to ``n_fft`` (the left side gets the smaller half)."""
    wl = window.shape[0]
    if wl == n_fft:
        return window
    left = (n_fft - wl) // 2
    return jnp.pad(window, (left, n_fft - wl - left))


@defop(("x", "window"), saves=("x", "window"), method=False, name="signal_stft")
def signal_stft(x, window=None, n_fft=2, hop_length=1, center=True, pad_mode="reflect", normalized=False,
                onesided=True):
    """The STFT of ``x`` (``[..., seq_length]``): ``[..., n_fft // 2 + 1 or n_fft, num_frames]``, complex."""
    if center:
        p = n_fft // 2
        x = jnp.pad(x, [(0, 0)] * (x.ndim - 1) + [(p, p)], mode="reflect" if pad_mode == "reflect" else "constant")
    n_frames = 1 + (x.shape[-1] - n_fft) // hop_length
    frames = x[..., _frame_index(n_frames, n_fft, hop_length)]  # [..., num_frames, n_fft]
    if window is not None:
        frames = frames * _centred(window, n_fft)
    norm = "ortho" if normalized else "backward"
    if onesided and not jnp.iscomplexobj(frames):
        spec = jnp.fft.rfft(_as_real(frames), axis=-1, norm=norm)
    else:
        spec = jnp.fft.fft(_as_complex(frames), axis=-1, norm=norm)
    return jnp.swapaxes(spec, -1, -2)


def istft_envelope(window: np.ndarray, n_fft: int, hop_length: int, n_frames: int) -> np.ndarray:
    """The overlap-added squared window (numpy): what ``signal_istft`` divides by, before it is cut."""
    w = np.asarray(window)
    if w.shape[0] != n_fft:
        left = (n_fft - w.shape[0]) // 2
        w = np.pad(w, (left, n_fft - w.shape[0] - left))
    env = np.zeros(n_fft + hop_length * (n_frames - 1), (w * w).dtype)
    np.add.at(env, _frame_index(n_frames, n_fft, hop_length), np.broadcast_to(w * w, (n_frames, n_fft)))
    return env


def istft_cut(size: int, n_fft: int, center: bool, length: int | None) -> slice:
    """The part of the overlap-added signal ``istft`` returns (Paddle's rule: the padding of ``center`` cut off, and
    ``length`` samples from there where given; a ``length`` beyond the end gives what there is)."""
    start = n_fft // 2 if center else 0
    if length is None:
        return slice(start, -start) if center else slice(0, size)  # (Paddle's ``[n_fft // 2 : -(n_fft // 2)]``)
    return slice(start, start + length)


@defop(("x", "window"), saves=("x", "window"), method=False, name="signal_istft")
def signal_istft(x, window=None, n_fft=2, hop_length=1, center=True, normalized=False, onesided=True, length=None,
                 return_complex=False):
    """The signal whose STFT is ``x`` (``[..., n_fft // 2 + 1 or n_fft, num_frames]``): ``[..., seq_length]``."""
    xt = jnp.swapaxes(_as_complex(x), -1, -2)  # [..., num_frames, fft_size]
    norm = "ortho" if normalized else "backward"
    if return_complex:
        frames = jnp.fft.ifft(xt, axis=-1, norm=norm)
    else:
        if not onesided:
            xt = xt[..., : n_fft // 2 + 1]
        frames = jnp.fft.irfft(xt, n=n_fft, axis=-1, norm=norm)
    w = jnp.ones((n_fft,), jnp.finfo(frames.dtype).dtype) if window is None else _centred(window, n_fft)
    frames = frames * w
    n_frames = frames.shape[-2]
    idx = _frame_index(n_frames, n_fft, hop_length)
    size = n_fft + hop_length * (n_frames - 1)
    out = jnp.zeros((*frames.shape[:-2], size), frames.dtype).at[..., idx].add(frames)
    env = jnp.zeros((size,), (w * w).dtype).at[idx].add(jnp.broadcast_to(w * w, (n_frames, n_fft)))
    cut = istft_cut(size, n_fft, center, length)
    return out[..., cut] / env[cut]


@defop(1, saves=(), method=False, name="signal_frame")
def signal_frame(x, frame_length=1, hop_length=1, axis=-1):
    """``x`` cut into frames of ``frame_length`` samples ``hop_length`` apart along its first (``axis=0``) or last
    axis: ``[..., seq_length] -> [..., frame_length, num_frames]``, ``[seq_length, ...] -> [num_frames,
    frame_length, ...]`` (``num_frames = 1 + (seq_length - frame_length) // hop_length``)."""
    seq = x.shape[0] if axis == 0 else x.shape[-1]
    index = _frame_index(1 + (seq - frame_length) // hop_length, frame_length, hop_length)  # [frames, length]
    if axis == 0:
        return x[index]
    return x[..., index.T]


@defop(1, saves=(), method=False, name="signal_overlap_add")
def signal_overlap_add(x, hop_length=1, axis=-1):
    """The frames of ``x`` added up ``hop_length`` samples apart (the inverse arrangement of ``signal_frame``):
    ``[..., frame_length, num_frames] -> [..., seq_length]``, ``[num_frames, frame_length, ...] -> [seq_length,
    ...]`` (``seq_length = (num_frames - 1) * hop_length + frame_length``)."""
    if axis == 0:
        n_frames, length = x.shape[0], x.shape[1]
        frames = x
    else:
        length, n_frames = x.shape[-2], x.shape[-1]
        frames = jnp.moveaxis(jnp.swapaxes(x, -1, -2), (-2, -1), (0, 1))  # [frames, length, ...]
    index = _frame_index(n_frames, length, hop_length)
    out = jnp.zeros(((n_frames - 1) * hop_length + length, *frames.shape[2:]), x.dtype).at[index].add(frames)
    return out if axis == 0 else jnp.moveaxis(out, 0, -1)
