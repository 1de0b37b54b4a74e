"""``paddle.audio.functional.get_window``: the window functions of signal processing, by name.

The windows are constants (no input Tensor), computed in float64 with numpy and returned in the asked dtype.
Each follows the textbook (scipy.signal.windows) definition that Paddle 3.3.1 follows; ``fftbins=True`` gives the
periodic window (the symmetric one of length M + 1 without its last sample).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

import jax
import numpy as np

from ..._runtime import dtypes as _dtypes
from ..._tensor.facade import Tensor

_API = "paddle.audio.functional.get_window"


def _general_cosine(m: int, a: list[float]) -> np.ndarray:
    fac = np.linspace(-math.pi, math.pi, m)
    return sum(c * np.cos(k * fac) for k, c in enumerate(a))


def _bartlett(m: int) -> np.ndarray:
    n = np.arange(m, dtype=np.float64)
    return np.where(n <= (m - 1) / 2.0, 2.0 * n / (m - 1), 2.0 - 2.0 * n / (m - 1))


def _kaiser(m: int, beta: float) -> np.ndarray:
    n = np.arange(m, dtype=np.float64)
    alpha = (m - 1) / 2.0
    return np.i0(beta * np.sqrt(1 - ((n - alpha) / alpha) ** 2.0)) / np.i0(beta)


def _gaussian(m: int, std: float) -> np.ndarray:
    n = np.arange(m, dtype=np.float64) - (m - 1.0) / 2.0
    return np.exp(-(n ** 2) / (2 * std * std))


def _general_gaussian(m: int, p: float, sig: float) -> np.ndarray:
    n = np.arange(m, dtype=np.float64) - (m - 1.0) / 2.0
    return np.exp(-0.5 * np.abs(n / sig) ** (2 * p))


def _triang(m: int) -> np.ndarray:
    n = np.arange(1, (m + 1) // 2 + 1, dtype=np.float64)
    if m % 2 == 0:
        w = (2 * n - 1.0) / m
        return np.concatenate([w, w[::-1]])
    w = 2 * n / (m + 1.0)
    return np.concatenate([w, w[-2::-1]])


def _bohman(m: int) -> np.ndarray:
    fac = np.abs(np.linspace(-1, 1, m)[1:-1])
    w = (1 - fac) * np.cos(math.pi * fac) + 1.0 / math.pi * np.sin(math.pi * fac)
    return np.concatenate([[0.0], w, [0.0]])


def _cosine(m: int) -> np.ndarray:
    return np.sin(math.pi / m * (np.arange(m, dtype=np.float64) + 0.5))


def _tukey(m: int, alpha: float) -> np.ndarray:
    n = np.arange(m, dtype=np.float64)
    width = int(alpha * (m - 1) / 2.0)
    n1, n2, n3 = n[:width + 1], n[width + 1:m - width - 1], n[m - width - 1:]
    w1 = 0.5 * (1 + np.cos(math.pi * (-1 + 2.0 * n1 / alpha / (m - 1))))
    w3 = 0.5 * (1 + np.cos(math.pi * (-2.0 / alpha + 1 + 2.0 * n3 / alpha / (m - 1))))
    return np.concatenate([w1, np.ones(n2.shape), w3])


def _taylor(m: int, nbar: int, sll: float, norm: bool) -> np.ndarray:
    b = 10 ** (sll / 20)
    a = math.log(b + math.sqrt(b ** 2 - 1)) / math.pi
    s2 = nbar ** 2 / (a ** 2 + (nbar - 0.5) ** 2)
    ma = np.arange(1, nbar, dtype=np.float64)
    m2 = ma * ma
    fm = np.empty(nbar - 1)
    for i in range(nbar - 1):
        sign = 1.0 if i % 2 == 0 else -1.0
        num = sign * np.prod(1 - m2[i] / s2 / (a ** 2 + (ma - 0.5) ** 2))
        others = np.concatenate([m2[:i], m2[i + 1:]])
        fm[i] = num / (2 * np.prod(1 - m2[i] / others))

    def w_at(n: Any) -> np.ndarray:
        return 1 + 2 * fm @ np.cos(2 * math.pi * ma[:, None] * (np.asarray(n, np.float64) - m / 2.0 + 0.5) / m)

    w = w_at(np.arange(m))
    if norm:
        w = w / w_at([(m - 1) / 2])
    return w


def _exponential(m: int, center: float | None, tau: float) -> np.ndarray:
    c = (m - 1) / 2 if center is None else center
    return np.exp(-np.abs(np.arange(m, dtype=np.float64) - c) / tau)


_REQUIRED = object()  # a parameter without a default

# name -> (function of (M, *params), the parameters' defaults)
_WINDOWS: dict[str, tuple[Callable[..., np.ndarray], tuple]] = {
    "hamming": (lambda m: _general_cosine(m, [0.54, 0.46]), ()),
    "hann": (lambda m: _general_cosine(m, [0.5, 0.5]), ()),
    "blackman": (lambda m: _general_cosine(m, [0.42, 0.50, 0.08]), ()),
    "nuttall": (lambda m: _general_cosine(m, [0.3635819, 0.4891775, 0.1365995, 0.0106411]), ()),
    "general_hamming": (lambda m, alpha: _general_cosine(m, [alpha, 1.0 - alpha]), (_REQUIRED,)),
    "general_cosine": (lambda m, a: _general_cosine(m, list(a)), (_REQUIRED,)),
    "bartlett": (_bartlett, ()),
    "kaiser": (_kaiser, (_REQUIRED,)),
    "gaussian": (_gaussian, (_REQUIRED,)),
    "general_gaussian": (_general_gaussian, (_REQUIRED, _REQUIRED)),
    "exponential": (_exponential, (None, 1.0)),
    "triang": (_triang, ()),
    "bohman": (_bohman, ()),
    "cosine": (_cosine, ()),
    "tukey": (_tukey, (0.5,)),
    "taylor": (_taylor, (4, 30, True)),
}
_NEEDS_PARAMS = ("gaussian", "exponential", "kaiser")


def window_values(name: str, m: int, params: tuple, sym: bool) -> np.ndarray:
    """The window ``name`` of length ``m`` (float64), symmetric or periodic."""
    fn, defaults = _WINDOWS[name]
    if len(params) > len(defaults):
        raise TypeError(f"{_API}: the {name!r} window takes {len(defaults)} parameter(s) after the length, but received "
                        f"{len(params)}: {params!r}.")
    full = list(params) + list(defaults[len(params):])
    if any(p is _REQUIRED for p in full):
        raise TypeError(f"{_API}: the {name!r} window needs {len(defaults)} parameter(s); pass ({name!r}, ...) with "
                        "them.")
    if name == "exponential" and sym and full[0] is not None:
        raise ValueError(f"{_API}: the exponential window takes a center only when it is periodic (fftbins=True); "
                         "If sym==True, center must be None.")
    if isinstance(m, bool) or not isinstance(m, int | np.integer) or m < 0:
        raise ValueError(f"{_API}: Window length M must be a non-negative integer, but received {m!r}.")
    m = int(m)
    if m <= 1 or (name == "tukey" and full[0] <= 0):
        return np.ones(m)
    if name == "tukey" and full[0] >= 1.0:
        name, fn, full = "hann", _WINDOWS["hann"][0], []
    ext = m if sym else m + 1
    w = np.asarray(fn(ext, *full), np.float64)
    return w if sym else w[:-1]


def get_window(window: str | tuple, win_length: int, fftbins: bool = True, dtype: str = "float64") -> Tensor:
    """The window ``window`` of ``win_length`` samples as a Tensor of ``dtype`` (float64 by default).

    ``window`` is a name ('hamming', 'hann', 'blackman', 'nuttall', 'bartlett', 'triang', 'bohman', 'cosine',
    'tukey', 'taylor', ...) or a tuple of a name and its parameters (('kaiser', beta), ('gaussian', std),
    ('general_gaussian', p, sig), ('exponential', center, tau), ('tukey', alpha), ('taylor', nbar, sll, norm));
    'kaiser', 'gaussian' and 'exponential' need the tuple. ``fftbins=True`` gives the periodic window (for spectral
    analysis), False the symmetric one (for filter design). A 'tukey' window with alpha >= 1 is the Hann window in
    float64 whatever ``dtype`` says, as in Paddle 3.3.1.
    """
    params: tuple = ()
    if isinstance(window, tuple):
        if not window:
            raise ValueError(f"{_API}: an empty tuple names no window; pass ('kaiser', beta) or a name.")
        name, params = window[0], tuple(window[1:])
    elif isinstance(window, str):
        if window in _NEEDS_PARAMS:
            raise ValueError(f"{_API}: The '{window}' window needs one or more parameters -- pass a tuple, such as "
                             f"('{window}', value).")
        name = window
    else:
        raise ValueError(f"{_API}: {type(window)} as window type is not supported; pass a name or a tuple.")
    if name not in _WINDOWS:
        raise ValueError(f"{_API}: Unknown window type {name!r}; the windows are {sorted(_WINDOWS)}.")
    w = window_values(name, win_length, params, not fftbins)
    tukey_as_hann = name == "tukey" and params and params[0] >= 1.0 and win_length > 1
    np_dtype = np.float64 if tukey_as_hann else _dtypes.to_np(dtype)
    return Tensor(jax.device_put(np.asarray(w).astype(np_dtype)), True)
