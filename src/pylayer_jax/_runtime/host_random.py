"""JAX's threefry random stream computed on the host with numpy (layer L0: no package imports).

``jax.random`` compiles an XLA program for every shape it draws (about 0.1-0.3 s of CPU each on a cold
cache): building a model with a few distinct weight shapes used to cost more than its first training steps.
The same numbers come from the host: threefry2x32 is integer arithmetic that numpy does exactly, so

- ``split(key)`` equals ``jax.random.split(key)`` (with ``jax_threefry_partitionable``, JAX's default);
- ``uniform(key, shape, dtype, lo, hi)`` equals ``jax.random.uniform`` bit for bit (float32 and float64:
  the mantissa trick, a multiply, an add and a max, each rounded as XLA rounds it);
- ``normal(key, shape, float32)`` is ``sqrt(2) * erfinv(u)`` with the polynomial XLA evaluates for
  float32 ``erf_inv`` (Giles' single-precision one) on the same ``u``: it equals ``jax.random.normal`` up to
  the last bit or two of numpy's ``log1p`` against XLA's.

``usable()`` says whether the running JAX draws this stream (threefry, partitionable); callers fall back to
``jax.random`` otherwise. Cost: about 0.1 µs per element on the host, so callers keep large draws (where a
compile is small beside the draw) on the device.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import jax
import numpy as np

_M32 = 0xFFFFFFFF
_ROTATIONS = ((13, 15, 26, 6), (17, 29, 16, 24))
_PARITY = 0x1BD11BDA


def usable() -> bool:
    """Whether JAX's keys are threefry2x32 keys whose draws follow the partitionable stream."""
    return jax.config.jax_default_prng_impl == "threefry2x32" and bool(jax.config.jax_threefry_partitionable)


def _threefry_ints(k1: int, k2: int, x1: int, x2: int) -> tuple[int, int]:
    """threefry2x32 on one counter pair, with Python ints (a few µs: cheaper than numpy on scalars)."""
    ks = (k1, k2, k1 ^ k2 ^ _PARITY)
    a, b = (x1 + k1) & _M32, (x2 + k2) & _M32
    for i in range(5):
        for r in _ROTATIONS[i % 2]:
            a = (a + b) & _M32
            b = ((b << r) & _M32) | (b >> (32 - r))
            b ^= a
        a = (a + ks[(i + 1) % 3]) & _M32
        b = (b + ks[(i + 2) % 3] + i + 1) & _M32
    return a, b


def split(key: Sequence[int]) -> tuple[tuple[int, int], tuple[int, int]]:
    """``jax.random.split(key)`` (two new keys) for a raw ``[2]`` key whose values are taken mod 2**32."""
    k1, k2 = int(key[0]) & _M32, int(key[1]) & _M32
    return _threefry_ints(k1, k2, 0, 0), _threefry_ints(k1, k2, 0, 1)


def _threefry(k1: int, k2: int, x1: np.ndarray, x2: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """threefry2x32 on arrays of uint32 counters (in place on copies: numpy wraps uint32 arithmetic)."""
    u32 = np.uint32
    ks = (u32(k1), u32(k2), u32(k1 ^ k2 ^ _PARITY))
    a = x1 + ks[0]
    b = x2 + ks[1]
    t = np.empty_like(b)
    for i in range(5):
        for r in _ROTATIONS[i % 2]:
            a += b
            np.left_shift(b, u32(r), out=t)
            b >>= u32(32 - r)
            b |= t
            b ^= a
        a += ks[(i + 1) % 3]
        b += u32((int(ks[(i + 2) % 3]) + i + 1) & _M32)
    return a, b


def bits(key: Sequence[int], n: int, width: int) -> np.ndarray:
    """The ``n`` random words of ``width`` (32 or 64) bits that ``jax.random.bits`` draws for ``n`` elements."""
    k1, k2 = int(key[0]) & _M32, int(key[1]) & _M32
    count = np.arange(n, dtype=np.uint64)
    hi = (count >> np.uint64(32)).astype(np.uint32)
    lo = count.astype(np.uint32)
    b1, b2 = _threefry(k1, k2, hi, lo)
    if width == 32:
        return b1 ^ b2
    return (b1.astype(np.uint64) << np.uint64(32)) | b2.astype(np.uint64)


def _two_sum(a: np.ndarray, b: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """``s, e`` with ``s = RN(a + b)`` and ``a + b = s + e`` exactly (Knuth)."""
    s = a + b
    bb = s - a
    return s, (a - (s - bb)) + (b - bb)


def _two_prod(a: np.ndarray, b: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """``p, e`` with ``p = RN(a * b)`` and ``a * b = p + e`` exactly, for float64 (Dekker, Veltkamp's split)."""
    p = a * b
    c = 134217729.0  # 2**27 + 1
    ah = a * c
    ah = ah - (ah - a)
    bh = b * c
    bh = bh - (bh - b)
    al, bl = a - ah, b - bh
    return p, ((ah * bh - p) + ah * bl + al * bh) + al * bl


def _odd_sum(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """``a + b`` rounded to odd: when inexact, the neighbour of the exact sum whose last bit is 1."""
    s, e = _two_sum(a, b)
    fix = (e != 0) & ((s.view(np.int64) & 1) == 0)
    if fix.any():
        s = np.where(fix, np.nextafter(s, np.where(e > 0, np.inf, -np.inf)), s)
    return s


def _fma(a: np.ndarray, b: np.ndarray | float, c: np.ndarray | float, dt: np.dtype) -> np.ndarray:
    """``a * b + c`` rounded once to ``dt``, as XLA computes it (it contracts a multiply and an add)."""
    a64 = a.astype(np.float64)
    b64 = np.broadcast_to(np.asarray(b, np.float64), a64.shape)
    c64 = np.broadcast_to(np.asarray(c, np.float64), a64.shape)
    if dt == np.float32:  # the product is exact in float64; the sum, rounded to odd there, rounds right to float32
        return _odd_sum(a64 * b64, c64).astype(np.float32)
    uh, ul = _two_prod(a64, b64)  # Boldo and Melquiond's emulation of a float64 fma
    th, tl = _two_sum(c64, uh)
    return th + _odd_sum(tl, ul)


def uniform(key: Sequence[int], shape: Sequence[int], dtype: np.dtype | type, lo: float, hi: float) -> np.ndarray:
    """``jax.random.uniform(key, shape, dtype, lo, hi)`` for float32 or float64, on the host."""
    dt = np.dtype(dtype)
    if dt not in (np.dtype(np.float32), np.dtype(np.float64)):
        raise TypeError(f"host_random.uniform: draws float32 or float64, not {dt}.")
    n = math.prod(shape)
    nbits, nmant = (32, 23) if dt == np.float32 else (64, 52)
    uint = np.uint32 if nbits == 32 else np.uint64
    raw = bits(key, n, nbits) >> uint(nbits - nmant)
    raw |= np.array(1.0, dt).view(uint)
    lo_, hi_ = dt.type(lo), dt.type(hi)
    with np.errstate(over="ignore", invalid="ignore"):
        floats = raw.view(dt) - dt.type(1.0)
        floats = _fma(floats, hi_ - lo_, lo_, dt)
    return np.maximum(lo_, floats).reshape(tuple(shape))


# XLA's float32 erf_inv (Giles, "Approximating the erfinv function"): coefficients for w < 5 and w >= 5
_ERFINV_LT5 = (2.81022636e-08, 3.43273939e-07, -3.5233877e-06, -4.39150654e-06, 0.00021858087, -0.00125372503,
               -0.00417768164, 0.246640727, 1.50140941)
_ERFINV_GE5 = (-0.000200214257, 0.000100950558, 0.00134934322, -0.00367342844, 0.00573950773, -0.0076224613,
               0.00943887047, 1.00167406, 2.83297682)


def erfinv32(x: np.ndarray) -> np.ndarray:
    """The inverse error function of float32 ``x`` in ``[-1, 1]``, as XLA evaluates it for float32."""
    f = np.float32
    with np.errstate(divide="ignore", invalid="ignore"):
        w = -np.log1p((-x * x).astype(np.float64)).astype(np.float32)  # (closer to XLA's than a float32 log1p)
        lt = w < f(5.0)
        w = np.where(lt, w - f(2.5), np.sqrt(w) - f(3.0))
        p = np.where(lt, f(_ERFINV_LT5[0]), f(_ERFINV_GE5[0]))
        for c_lt, c_ge in zip(_ERFINV_LT5[1:], _ERFINV_GE5[1:]):
            p = _fma(p, w, np.where(lt, f(c_lt), f(c_ge)), np.dtype(np.float32))
        return np.where(np.abs(x) == f(1.0), x * f(np.inf), p * x)


def normal(key: Sequence[int], shape: Sequence[int], dtype: np.dtype | type) -> np.ndarray:
    """``jax.random.normal(key, shape, float32)`` on the host (see the module's note on its last bits)."""
    if np.dtype(dtype) != np.float32:
        raise TypeError(f"host_random.normal: draws float32, not {np.dtype(dtype)}.")
    lo = np.nextafter(np.float32(-1.0), np.float32(0.0))
    u = uniform(key, shape, np.float32, lo, 1.0)
    return np.float32(np.sqrt(2)) * erfinv32(u)
