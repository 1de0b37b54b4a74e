"""The bytes of Paddle's checkpoint files: a restricted unpickler and the binary dense-tensor format.

`paddle.save` writes a pickle (protocol 2-4) whose only globals are numpy's array reconstruction,
`builtins.tuple` (a saved Tensor is `tuple((name, ndarray))`), `collections.OrderedDict` and, under
protocol 2, `_codecs.encode` for bytes. Loading allows exactly those, so a checkpoint can never run
code. `use_binary_format=True` writes Paddle's C++ DenseTensor serialisation, read back here too.
"""

from __future__ import annotations

import pickle
import struct
from typing import Any

import jax.numpy as jnp
import numpy as np

# (module, name) pairs a Paddle checkpoint may name; anything else is refused.
_ALLOWED = {
    ("numpy._core.multiarray", "_reconstruct"),
    ("numpy.core.multiarray", "_reconstruct"),
    ("numpy._core.multiarray", "scalar"),
    ("numpy.core.multiarray", "scalar"),
    ("numpy", "ndarray"),
    ("numpy", "dtype"),
    ("collections", "OrderedDict"),
    ("builtins", "tuple"),
    ("builtins", "list"),
    ("builtins", "set"),
    ("builtins", "frozenset"),
    ("builtins", "complex"),
    ("__builtin__", "tuple"),
    ("__builtin__", "set"),
    ("__builtin__", "frozenset"),
    ("__builtin__", "complex"),
    ("copy_reg", "_reconstructor"),
    ("copyreg", "_reconstructor"),
    ("_codecs", "encode"),
}


class ForbiddenGlobalError(pickle.UnpicklingError):
    """A checkpoint names a class or function outside the ones Paddle's files contain."""


class CorruptCheckpointError(ValueError, pickle.UnpicklingError):
    """A checkpoint file that neither unpickles nor parses as a binary tensor."""


class EmptyCheckpointError(CorruptCheckpointError, EOFError):
    """A checkpoint file with no bytes at all (Paddle raises EOFError here)."""


class _RestrictedUnpickler(pickle.Unpickler):
    def __init__(self, f: Any, where: str) -> None:
        super().__init__(f, encoding="latin1")
        self._where = where

    def find_class(self, module: str, name: str) -> Any:
        if (module, name) not in _ALLOWED:
            raise ForbiddenGlobalError(
                f"paddle.load: {self._where} asks to import {module}.{name}, which a checkpoint written by "
                "paddle.save never contains (only numpy arrays, tuples, OrderedDicts and Python values); it is "
                "refused so that loading cannot run code. Load only files written by paddle.save."
            )
        if module == "copy_reg":
            module = "copyreg"
        if module == "__builtin__":
            module = "builtins"
        return super().find_class(module, name)


def unpickle(f: Any, where: str) -> Any:
    """Unpickle a checkpoint stream, allowing only the globals Paddle's files contain."""
    return _RestrictedUnpickler(f, where).load()


# ---- Paddle's binary DenseTensor format (use_binary_format=True) -----------------------------------
# Layout: uint32 version 0, uint64 LoD levels (each: uint64 byte size + offsets), uint32 version 0,
# int32 size of a TensorDesc protobuf (field 1: data type enum, field 2: dims, repeated varints), data.
_DTYPE_CODES = {
    np.dtype("bool"): 0, np.dtype("int16"): 1, np.dtype("int32"): 2, np.dtype("int64"): 3,
    np.dtype("float16"): 4, np.dtype("float32"): 5, np.dtype("float64"): 6, np.dtype("uint8"): 20,
    np.dtype("int8"): 21, np.dtype(jnp.bfloat16): 22, np.dtype("complex64"): 23,
    np.dtype("complex128"): 24,
}
_CODE_DTYPES = {v: k for k, v in _DTYPE_CODES.items()}


def _varint(n: int) -> bytes:
    n &= (1 << 64) - 1  # int64 fields are encoded as 64-bit two's complement
    out = bytearray()
    while True:
        b = n & 0x7F
        n >>= 7
        if n:
            out.append(b | 0x80)
        else:
            out.append(b)
            return bytes(out)


def dense_tensor_bytes(arr: np.ndarray, api: str = "paddle.save(use_binary_format=True)",
                       fix: str = "save it with use_binary_format=False") -> bytes:
    """Serialise an array as Paddle's binary DenseTensor (what `use_binary_format=True` and `static.save_vars`
    write); ``api`` and ``fix`` word the error for a dtype the format has no code for."""
    arr = np.ascontiguousarray(arr)
    code = _DTYPE_CODES.get(arr.dtype)
    if code is None:
        raise TypeError(f"{api}: a Tensor of dtype {arr.dtype} has no binary format code; {fix}.")
    desc = b"\x08" + _varint(code) + b"".join(b"\x10" + _varint(int(d)) for d in arr.shape)
    head = struct.pack("<IQI", 0, 0, 0) + struct.pack("<i", len(desc)) + desc
    return head + arr.astype(arr.dtype.newbyteorder("<"), copy=False).tobytes()


def _read_varint(buf: bytes, i: int) -> tuple[int, int]:
    n = shift = 0
    while True:
        b = buf[i]
        i += 1
        n |= (b & 0x7F) << shift
        shift += 7
        if not b & 0x80:
            if n >= 1 << 63:
                n -= 1 << 64
            return n, i


def read_dense_tensor(data: bytes, pos: int = 0) -> tuple[np.ndarray, int]:
    """The binary DenseTensor at ``data[pos:]`` (its LoD offsets read past) and the position after it; a
    ValueError says what is wrong when it is not one."""
    try:
        version, levels = struct.unpack_from("<IQ", data, pos)
        if version != 0:
            raise ValueError(f"unknown version {version}")
        i = pos + 12
        for _ in range(levels):
            (size,) = struct.unpack_from("<Q", data, i)
            i += 8 + size
        version, size = struct.unpack_from("<Ii", data, i)
        i += 8
        if version != 0 or size < 0:
            raise ValueError(f"unknown tensor version {version}")
        desc, i = data[i:i + size], i + size
        code, dims, j = None, [], 0
        while j < len(desc):
            key, j = _read_varint(desc, j)
            value, j = _read_varint(desc, j)
            if key == 0x08:
                code = value
            elif key == 0x10:
                dims.append(value)
            else:
                raise ValueError(f"an unknown field {key} in the tensor description")
        dtype = _CODE_DTYPES.get(code) if code is not None else None
        if dtype is None or any(d < 0 for d in dims):
            raise ValueError("no known data type, or a negative dimension, in the tensor description")
        count = int(np.prod(dims, dtype=np.int64))
        end = i + count * dtype.itemsize
        if end > len(data):
            raise ValueError("the data is shorter than its shape says")
        arr = np.frombuffer(data, dtype.newbyteorder("<"), count, i).astype(dtype).reshape(dims)
        return arr, end
    except (struct.error, IndexError) as e:
        raise ValueError(f"truncated ({e})") from None


def parse_dense_tensor(data: bytes) -> np.ndarray | None:
    """Read Paddle's binary DenseTensor; None when `data` is not exactly one such tensor."""
    try:
        arr, end = read_dense_tensor(data)
    except ValueError:
        return None
    return arr if end == len(data) else None
