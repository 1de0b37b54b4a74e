"""``paddle.audio.functional``: mel scales, filter banks, decibels and the DCT matrix of audio features.

``hz_to_mel``/``mel_to_hz``/``power_to_db`` of a Tensor are built from the package's differentiable functions in
Paddle 3.3.1's order of operations, so a gradient flows through them as through any op; a Python number in gives a
Python number out. The constants (mel and FFT frequencies, the filter bank, the DCT matrix) are computed with numpy
in the asked dtype, with no op to compile per shape.
"""

from __future__ import annotations

import math
from typing import Any

import jax
import numpy as np

from ..._api import functional as F
from ..._runtime import dtypes as _dtypes
from ..._tensor.facade import Tensor
from ...nn._chains import normalize

_F_SP = 200.0 / 3  # Hz per mel in the linear part of the Slaney scale
_MIN_LOG_HZ = 1000.0  # where the log part starts
_MIN_LOG_MEL = _MIN_LOG_HZ / _F_SP
_LOGSTEP = math.log(6.4) / 27.0


def _number_or_tensor(api: str, what: str, x: Any) -> bool:
    """True for a Tensor, False for a Python number; anything else is refused."""
    if isinstance(x, Tensor):
        return True
    if isinstance(x, int | float) and not isinstance(x, bool):
        return False
    raise TypeError(f"paddle.audio.functional.{api}: {what} must be a Tensor or a Python number, but received "
                    f"{type(x).__name__}; wrap arrays with paddle.to_tensor.")


def hz_to_mel(freq: Tensor | float, htk: bool = False) -> Tensor | float:
    """Hz to mels: the HTK formula ``2595 log10(1 + f / 700)`` with ``htk``, else the Slaney scale (linear below
    1 kHz, logarithmic above)."""
    tensor = _number_or_tensor("hz_to_mel", "freq", freq)
    if htk:
        return 2595.0 * (F.log10(1.0 + freq / 700.0) if tensor else math.log10(1.0 + freq / 700.0))
    mels = freq / _F_SP
    if tensor:
        target = _MIN_LOG_MEL + F.log(freq / _MIN_LOG_HZ + 1e-10) / _LOGSTEP
        mask = (freq > _MIN_LOG_HZ).astype(freq.dtype)
        return target * mask + mels * (1 - mask)
    if freq >= _MIN_LOG_HZ:
        return _MIN_LOG_MEL + math.log(freq / _MIN_LOG_HZ + 1e-10) / _LOGSTEP
    return mels


def mel_to_hz(mel: Tensor | float, htk: bool = False) -> Tensor | float:
    """Mels to Hz (the inverse of ``hz_to_mel`` with the same ``htk``)."""
    tensor = _number_or_tensor("mel_to_hz", "mel", mel)
    if htk:
        return 700.0 * (10.0 ** (mel / 2595.0) - 1.0)
    freqs = _F_SP * mel
    if tensor:
        target = _MIN_LOG_HZ * F.exp(_LOGSTEP * (mel - _MIN_LOG_MEL))
        mask = (mel > _MIN_LOG_MEL).astype(mel.dtype)
        return target * mask + freqs * (1 - mask)
    if mel >= _MIN_LOG_MEL:
        return _MIN_LOG_HZ * math.exp(_LOGSTEP * (mel - _MIN_LOG_MEL))
    return freqs


def _np_mel_to_hz(m: np.ndarray, htk: bool) -> np.ndarray:
    if htk:
        return 700.0 * (10.0 ** (m / 2595.0) - 1.0)
    return np.where(m > _MIN_LOG_MEL, _MIN_LOG_HZ * np.exp(_LOGSTEP * (m - _MIN_LOG_MEL)), _F_SP * m)


def _np_mel_frequencies(n_mels: int, f_min: float, f_max: float, htk: bool, dtype: np.dtype) -> np.ndarray:
    mels = np.linspace(hz_to_mel(float(f_min), htk=htk), hz_to_mel(float(f_max), htk=htk), n_mels).astype(dtype)
    with np.errstate(divide="ignore", invalid="ignore"):
        return _np_mel_to_hz(mels, htk).astype(dtype)


def _constant(a: np.ndarray) -> Tensor:
    return Tensor(jax.device_put(a), True)


def mel_frequencies(n_mels: int = 64, f_min: float = 0.0, f_max: float = 11025.0, htk: bool = False,
                    dtype: str = "float32") -> Tensor:
    """``n_mels`` frequencies (Hz) evenly spaced on the mel scale from ``f_min`` to ``f_max``."""
    return _constant(_np_mel_frequencies(n_mels, f_min, f_max, htk, np.dtype(_dtypes.to_np(dtype))))


def fft_frequencies(sr: int, n_fft: int, dtype: str = "float32") -> Tensor:
    """The ``1 + n_fft // 2`` frequencies (Hz) of a one-sided FFT of ``n_fft`` samples at rate ``sr``."""
    return _constant(np.linspace(0, float(sr) / 2, int(1 + n_fft // 2)).astype(_dtypes.to_np(dtype)))


def compute_fbank_matrix(sr: int, n_fft: int, n_mels: int = 64, f_min: float = 0.0, f_max: float | None = None,
                         htk: bool = False, norm: str | float | None = "slaney", dtype: str = "float32") -> Tensor:
    """The mel filter bank [n_mels, 1 + n_fft // 2]: triangles between neighbouring mel frequencies. ``norm``:
    'slaney' scales each triangle to constant area (2 / bandwidth), a number p divides each row by its p-norm, None
    leaves the triangles at height 1. (A constant: computed with numpy in ``dtype``.)"""
    api = "paddle.audio.functional.compute_fbank_matrix"
    if not (norm is None or norm == "slaney" or (isinstance(norm, int | float) and not isinstance(norm, bool))):
        raise ValueError(f"{api}: norm must be 'slaney', a number (the p of a p-norm) or None, but received {norm!r}.")
    dt = np.dtype(_dtypes.to_np(dtype))
    if f_max is None:
        f_max = float(sr) / 2
    fftfreqs = np.linspace(0, float(sr) / 2, int(1 + n_fft // 2)).astype(dt)
    mel_f = _np_mel_frequencies(n_mels + 2, f_min, f_max, htk, dt)
    fdiff = mel_f[1:] - mel_f[:-1]
    ramps = mel_f[:, None] - fftfreqs[None, :]
    lower = -ramps[:n_mels] / fdiff[:n_mels, None]
    upper = ramps[2:n_mels + 2] / fdiff[1:n_mels + 1, None]
    weights = np.maximum(np.zeros_like(lower), np.minimum(lower, upper))
    if norm == "slaney":
        weights = weights * (dt.type(2.0) / (mel_f[2:n_mels + 2] - mel_f[:n_mels]))[:, None]
    elif norm is not None:
        weights = np.asarray(normalize(_constant(weights), p=norm, axis=-1)._value)
    return _constant(weights.astype(dt))


def power_to_db(spect: Tensor, ref_value: float = 1.0, amin: float = 1e-10, top_db: float | None = 80.0) -> Tensor:
    """``10 log10(max(spect, amin) / max(ref_value, amin))``; with ``top_db``, values more than ``top_db`` below
    the largest value of the whole Tensor are raised to that floor."""
    api = "paddle.audio.functional.power_to_db"
    if amin <= 0:
        raise ValueError(f"{api}: amin must be strictly positive, but received {amin}.")
    if ref_value <= 0:
        raise ValueError(f"{api}: ref_value must be strictly positive, but received {ref_value}.")
    if top_db is not None and top_db < 0:
        raise ValueError(f"{api}: top_db must be non-negative (or None), but received {top_db}.")
    if not isinstance(spect, Tensor):
        raise TypeError(f"{api}: spect must be a Tensor, but received {type(spect).__name__}.")
    ones = F.ones_like(spect)
    log_spec = 10.0 * F.log10(F.maximum(ones * amin, spect))
    log_spec = log_spec - 10.0 * math.log10(max(ref_value, amin))
    if top_db is not None:
        log_spec = F.maximum(log_spec, ones * (log_spec.max() - top_db))
    return log_spec


def create_dct(n_mfcc: int, n_mels: int, norm: str | None = "ortho", dtype: str = "float32") -> Tensor:
    """The DCT-II matrix [n_mels, n_mfcc] (orthonormal with ``norm='ortho'``, unscaled times 2 with None; a constant
    computed with numpy in ``dtype``)."""
    if norm not in (None, "ortho"):
        raise ValueError(f"paddle.audio.functional.create_dct: norm must be 'ortho' or None, but received {norm!r}.")
    dt = np.dtype(_dtypes.to_np(dtype))
    n = np.arange(n_mels, dtype=dt)
    k = np.arange(n_mfcc, dtype=dt)[:, None]
    dct = np.cos(dt.type(math.pi / float(n_mels)) * (n + dt.type(0.5)) * k)  # [n_mfcc, n_mels]
    if norm is None:
        dct = dct * dt.type(2.0)
    else:
        dct[0] *= dt.type(1.0 / math.sqrt(2.0))
        dct = dct * dt.type(math.sqrt(2.0 / float(n_mels)))
    return _constant(np.ascontiguousarray(dct.T.astype(dt)))
