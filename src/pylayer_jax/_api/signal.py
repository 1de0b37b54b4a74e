"""``paddle.signal.stft`` and ``paddle.signal.istft`` (layer L5), and ``frame`` / ``overlap_add`` (framing and its
inverse, public at ``paddle.signal`` outside its ``__all__``): Paddle 3.3.1's argument rules over the kernels of
``_ops.signal``, so gradients (to the signal and to the window) flow through the table like any op's. Both are also
the Tensor methods ``x.stft(...)`` and ``x.istft(...)``.

Paddle checks its arguments with ``assert`` (an AssertionError); these raise a ValueError (a TypeError for an
argument of the wrong type) whose sentence names the rule, what was received and the fix. Where Paddle 3.3.1 fails by
a bug these compute the sane thing instead (``tests/signal/test_signal.py`` checks them against numpy):

- ``stft`` of a real signal with a complex window: Paddle's real-input transform refuses the complex frames (a
  RuntimeError); here they are transformed as a complex signal's are (the whole spectrum, ``onesided`` False);
- ``istft`` of a real signal with an odd ``n_fft``: Paddle inverts the one-sided spectrum to ``n_fft - 1`` samples and
  then fails to multiply them by the window (a ValueError); here each frame has its ``n_fft`` samples.
"""

from __future__ import annotations

import operator
from typing import Any

import jax
import numpy as np

from .._ops.signal import istft_cut, istft_envelope
from .._ops.table import TABLE
from .._runtime import dtypes as _dtypes
from .._runtime.state import modes
from .._tensor.dispatch import apply_op
from .._tensor.facade import Tensor

_STFT_TAKES = ("int32", "int64", "float32", "float64", "complex64", "complex128")
_ISTFT_TAKES = ("float32", "float64", "complex64", "complex128")


def _tensor(api: str, what: str, x: Any, takes: tuple[str, ...]) -> Tensor:
    if not isinstance(x, Tensor):
        raise TypeError(f"paddle.signal.{api}: {what} must be a Tensor, but received {type(x).__name__}. Make one "
                        "with paddle.to_tensor(...) first.")
    name = x.dtype.name
    if name not in takes:
        raise RuntimeError(f"paddle.signal.{api}: {what} must have one of the dtypes {', '.join(takes)}, but received "
                           f"{name} (Paddle has no kernel for it). Cast it, e.g. with {what}.astype('float32').")
    return x


def _int(api: str, what: str, v: Any) -> int:
    if isinstance(v, bool | np.bool_) or not isinstance(v, int | np.integer):
        raise TypeError(f"paddle.signal.{api}: {what} must be an int, but received {v!r} ({type(v).__name__}). "
                        "Pass an int.")
    return operator.index(v)


def _lengths(api: str, n_fft: Any, hop_length: Any, win_length: Any) -> tuple[int, int, int]:
    """``n_fft`` and the resolved ``hop_length`` (default ``n_fft // 4``) and ``win_length`` (default ``n_fft``)."""
    n_fft = _int(api, "n_fft", n_fft)
    hop_length = n_fft // 4 if hop_length is None else _int(api, "hop_length", hop_length)
    win_length = n_fft if win_length is None else _int(api, "win_length", win_length)
    return n_fft, hop_length, win_length


def _check_hop(api: str, hop_length: int, n_fft: int, upper: int | None) -> None:
    if hop_length <= 0 or (upper is not None and hop_length > upper):
        rule = f"in (0, win_length({upper})]" if upper is not None else "> 0"
        default = f" (the default n_fft // 4 is {n_fft // 4} for n_fft={n_fft})" if hop_length == n_fft // 4 else ""
        raise ValueError(f"paddle.signal.{api}: hop_length should be {rule}, but got {hop_length}{default}. Pass a "
                         "hop_length in that range.")


def _check_win_length(api: str, win_length: int, n_fft: int) -> None:
    if not 0 < win_length <= n_fft:
        raise ValueError(f"paddle.signal.{api}: win_length should be in (0, n_fft({n_fft})], but got {win_length}. "
                         "Pass a window no longer than n_fft.")


def _window(api: str, window: Any, win_length: int) -> Tensor | None:
    if window is None:
        return None
    if not isinstance(window, Tensor):
        raise TypeError(f"paddle.signal.{api}: window must be a Tensor (or None for a rectangular window), but "
                        f"received {type(window).__name__}. Make one with paddle.to_tensor(...) first.")
    if window.ndim != 1 or window.shape[0] != win_length:
        raise ValueError(f"paddle.signal.{api}: expected a 1D window tensor of size equal to win_length({win_length}),"
                         f" but got window with shape {list(window.shape)}. Pass a window of win_length values (or "
                         "set win_length to the window's size).")
    return window


def _promotes(api: str, frames: str, window: Tensor | None) -> None:
    """Paddle multiplies the frames (dtype ``frames``) by the window only where its type promotion allows: the same
    dtype, two floating dtypes, or a complex and a floating or complex one (a TypeError otherwise)."""
    if window is None or window.dtype.name == frames:
        return
    kinds = {frames[:5], window.dtype.name[:5]}
    if kinds <= {"float", "compl"}:
        return
    fix = (f"Cast the signal first: x.astype('{window.dtype.name}')" if frames.startswith("int")
           else f"Cast the window: window.astype('{frames}')")
    raise TypeError(f"paddle.signal.{api}: the window ({window.dtype.name}) multiplies frames of dtype {frames}, and "
                    "Paddle's type promotion combines only floating-point dtypes, or a complex dtype with a real one. "
                    f"{fix}.")


def _ones(win_length: int, dtype: Any) -> Tensor:
    """Paddle's default window when ``win_length < n_fft``: ``win_length`` ones (the kernel pads them to n_fft)."""
    return Tensor(np.ones(win_length, _dtypes.to_np(dtype)))


def stft(x: Tensor, n_fft: int, hop_length: int | None = None, win_length: int | None = None,
         window: Tensor | None = None, center: bool = True, pad_mode: str = "reflect", normalized: bool = False,
         onesided: bool | None = None, name: str | None = None) -> Tensor:
    """The short-time Fourier transform of ``x`` (``[seq_length]`` or ``[batch, seq_length]``, real or complex):
    ``X[f, t] = sum_n window[n] x[t * hop_length + n] exp(-2 pi j f n / n_fft)``, of shape ``[..., n_fft // 2 + 1,
    num_frames]`` (a real signal with ``onesided``, its default) or ``[..., n_fft, num_frames]``.

    ``hop_length`` (default ``n_fft // 4``) is the step between frames; ``window`` (default: ones) has ``win_length``
    values (default ``n_fft``) and is padded with zeros on both sides to ``n_fft``; ``center`` pads ``x`` by
    ``n_fft // 2`` on both sides (``pad_mode`` 'reflect' or 'constant') so that frame ``t`` is centred on sample
    ``t * hop_length``; ``normalized`` scales by ``1 / sqrt(n_fft)``. A complex signal or window gives the whole
    spectrum (``onesided`` must then be False or None)."""
    x = _tensor("stft", "x", x, _STFT_TAKES)
    if x.ndim not in (1, 2):
        raise ValueError(f"paddle.signal.stft: x should be a 1D or 2D tensor ([seq_length] or [batch, seq_length]), "
                         f"but got rank of x is {x.ndim} (shape {list(x.shape)}). Reshape it to [batch, seq_length].")
    n_fft, hop_length, win_length = _lengths("stft", n_fft, hop_length, win_length)
    _check_hop("stft", hop_length, n_fft, None)
    seq = x.shape[-1]
    if not 0 < n_fft <= seq and not modes.static_mode:  # (checked eagerly only, as in Paddle)
        raise ValueError(f"paddle.signal.stft: n_fft should be in (0, seq_length({seq})], but got {n_fft}. Pass an "
                         "n_fft no longer than the signal.")
    _check_win_length("stft", win_length, n_fft)
    window = _window("stft", window, win_length)
    _promotes("stft", x.dtype.name, window)
    if window is None and win_length < n_fft:
        window = _ones(win_length, x.dtype)
    if center and pad_mode not in ("reflect", "constant"):
        raise ValueError(f"paddle.signal.stft: pad_mode should be \"reflect\" or \"constant\", but got {pad_mode!r}. "
                         "Pass one of them (or center=False, which pads nothing).")
    complex_frames = x.dtype.name.startswith("complex") or (window is not None and window.dtype.name.startswith("complex"))
    if onesided is None:
        onesided = not complex_frames
    elif onesided and complex_frames:
        raise ValueError("paddle.signal.stft: onesided should be False when input or window is a complex Tensor (a "
                         "complex signal has no conjugate-symmetric half to keep). Pass onesided=False or leave it "
                         "None.")
    return apply_op(TABLE["signal_stft"], (x, window),
                    {"n_fft": n_fft, "hop_length": hop_length, "center": bool(center),
                     "pad_mode": pad_mode if center else "reflect", "normalized": bool(normalized),
                     "onesided": bool(onesided)})


def _check_nola(window: Tensor | None, win_length: int, n_fft: int, hop_length: int, n_frames: int, center: bool,
                length: int | None) -> None:
    """Paddle's check that the overlapped squared window nowhere vanishes (else the division is by zero)."""
    if window is None:
        w = np.ones(win_length)
    else:
        v = window._value
        if isinstance(v, jax.core.Tracer):  # (traced: Paddle's static graph does not check either)
            return
        w = np.asarray(v)
    env = istft_envelope(w, n_fft, hop_length, n_frames)
    env = env[istft_cut(env.shape[0], n_fft, center, length)]
    if env.size and np.abs(env).min() < 1e-11:
        raise ValueError(
            "paddle.signal.istft: Abort istft because Nonzero Overlap Add (NOLA) condition failed: the squared window, "
            f"overlap-added with hop_length={hop_length}, is zero at sample {int(np.abs(env).argmin())} of the output, "
            "so the signal there cannot be recovered. Use a window that is nonzero where frames overlap, or a "
            "smaller hop_length (see scipy.signal.check_NOLA)."
        )


def istft(x: Tensor, n_fft: int, hop_length: int | None = None, win_length: int | None = None,
          window: Tensor | None = None, center: bool = True, normalized: bool = False, onesided: bool = True,
          length: int | None = None, return_complex: bool = False, name: str | None = None) -> Tensor:
    """The inverse of ``stft``: the signal (``[seq_length]`` or ``[batch, seq_length]``) whose STFT is ``x``
    (``[n_fft // 2 + 1, num_frames]`` with ``onesided``, else ``[n_fft, num_frames]``, an optional batch axis
    first), the least-squares estimate where ``x`` is no exact STFT: the frames transformed back, weighted by the
    window, overlap-added and divided by the overlap-added squared window (which must nowhere vanish: the NOLA
    condition).

    The arguments are those ``stft`` was given; ``center`` cuts its padding off again, ``length`` keeps that many
    samples (from the start of the unpadded signal; fewer where the signal is shorter), ``return_complex`` gives a
    complex signal (with ``onesided=False``)."""
    x = _tensor("istft", "x", x, _ISTFT_TAKES)
    if x.ndim not in (2, 3):
        raise ValueError(f"paddle.signal.istft: x should be a 2D or 3D complex tensor ([fft_size, num_frames] or "
                         f"[batch, fft_size, num_frames]), but got rank of x is {x.ndim} (shape {list(x.shape)}).")
    n_fft, hop_length, win_length = _lengths("istft", n_fft, hop_length, win_length)
    _check_hop("istft", hop_length, n_fft, win_length)
    _check_win_length("istft", win_length, n_fft)
    dynamic = not modes.static_mode  # (the checks Paddle makes eagerly only)
    if dynamic and x.size == 0:
        raise ValueError(f"paddle.signal.istft: x should not be an empty tensor, but got shape {list(x.shape)}. Pass "
                         "the STFT of a signal.")
    fft_size, n_frames = x.shape[-2], x.shape[-1]
    want = n_fft // 2 + 1 if onesided else n_fft
    if dynamic and fft_size != want:
        rule = f"n_fft // 2 + 1({want}) when onesided is True" if onesided else f"n_fft({want}) when onesided is False"
        raise ValueError(f"paddle.signal.istft: fft_size should be equal to {rule}, but got {fft_size} (x.shape[-2]). "
                         "Pass the n_fft and onesided that stft was given.")
    window = _window("istft", window, win_length)
    if return_complex:
        if onesided:
            raise ValueError("paddle.signal.istft: onesided should be False when input(output of istft) or window is "
                             "a complex Tensor (return_complex=True); pass onesided=False with the whole spectrum.")
    elif window is not None and window.dtype.name.startswith("complex"):
        raise ValueError("paddle.signal.istft: Data type of window should not be complex when return_complex is False."
                         " Pass a real window, or return_complex=True (with onesided=False).")
    real = "float32" if x.dtype.name in ("float32", "complex64") else "float64"
    _promotes("istft", ({"float32": "complex64", "float64": "complex128"}[real] if return_complex else real), window)
    if length is not None:
        length = _int("istft", "length", length)
        if length < 0:
            raise ValueError(f"paddle.signal.istft: length must be a number of samples (>= 0), but got {length}. "
                             "Pass the signal's length, or None for all of it.")
    if dynamic:
        _check_nola(window, win_length, n_fft, hop_length, n_frames, bool(center), length)
    if window is None and win_length < n_fft:
        window = _ones(win_length, real)
    return apply_op(TABLE["signal_istft"], (x, window),
                    {"n_fft": n_fft, "hop_length": hop_length, "center": bool(center), "normalized": bool(normalized),
                     "onesided": bool(onesided), "length": length, "return_complex": bool(return_complex)})


Tensor.stft = stft  # type: ignore[attr-defined]
Tensor.istft = istft  # type: ignore[attr-defined]


def _frame_axis(api: str, axis: Any) -> int:
    if isinstance(axis, bool) or axis not in (0, -1):
        raise ValueError(f"paddle.signal.{api}: axis must be 0 (frames along the first axis) or -1 (the last), but "
                         f"received {axis!r}.")
    return int(axis)


def _positive(api: str, what: str, v: Any) -> int:
    if isinstance(v, bool | np.bool_) or not isinstance(v, int | np.integer) or v <= 0:
        raise ValueError(f"paddle.signal.{api}: {what} must be a positive int, but received {v!r}.")
    return operator.index(v)


def frame(x: Tensor, frame_length: int, hop_length: int, axis: int = -1, name: str | None = None) -> Tensor:
    """``x`` cut into frames of ``frame_length`` samples, ``hop_length`` apart, along its last axis (``axis=-1``:
    ``[..., seq_length] -> [..., frame_length, num_frames]``) or its first (``axis=0``: ``[seq_length, ...] ->
    [num_frames, frame_length, ...]``), where ``num_frames = 1 + (seq_length - frame_length) // hop_length``."""
    if not isinstance(x, Tensor):
        raise TypeError(f"paddle.signal.frame: x must be a Tensor, but received {type(x).__name__}.")
    axis = _frame_axis("frame", axis)
    frame_length = _positive("frame", "frame_length", frame_length)
    hop_length = _positive("frame", "hop_length", hop_length)
    if x.ndim == 0:
        raise ValueError("paddle.signal.frame: x must have at least 1 dimension (the samples), but it is 0-D.")
    seq = x.shape[0] if axis == 0 else x.shape[-1]
    if frame_length > seq:
        raise ValueError(f"paddle.signal.frame: frame_length should be less equal than sequence length, but got "
                         f"({frame_length}) > ({seq}).")
    return apply_op(TABLE["signal_frame"], (x,), {"frame_length": frame_length, "hop_length": hop_length,
                                                  "axis": axis})


def overlap_add(x: Tensor, hop_length: int, axis: int = -1, name: str | None = None) -> Tensor:
    """The frames of ``x`` added up ``hop_length`` samples apart, the inverse arrangement of ``frame``: ``[...,
    frame_length, num_frames] -> [..., seq_length]`` (``axis=-1``) or ``[num_frames, frame_length, ...] ->
    [seq_length, ...]`` (``axis=0``), where ``seq_length = (num_frames - 1) * hop_length + frame_length``."""
    if not isinstance(x, Tensor):
        raise TypeError(f"paddle.signal.overlap_add: x must be a Tensor, but received {type(x).__name__}.")
    axis = _frame_axis("overlap_add", axis)
    hop_length = _positive("overlap_add", "hop_length", hop_length)
    if x.ndim < 2:
        raise ValueError(f"paddle.signal.overlap_add: x must have at least 2 dimensions (frame_length and "
                         f"num_frames), but received shape {list(x.shape)}.")
    length = x.shape[1] if axis == 0 else x.shape[-2]
    if hop_length > length:
        raise ValueError(f"paddle.signal.overlap_add: hop_length should be less or equal than frame_length, but got "
                         f"hop_length({hop_length}) > frame_length({length}).")
    return apply_op(TABLE["signal_overlap_add"], (x,), {"hop_length": hop_length, "axis": axis})
