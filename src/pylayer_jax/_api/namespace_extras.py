"""Paddle 3.3.1's smaller top-level names (layer L5): ``range`` (end included, deprecated), ``positive``, ``tolist``,
the samplers ``binomial`` / ``log_normal`` / ``standard_gamma``, the typed Tensor factories (``FloatTensor``, ...),
the pinned places, ``Generator`` / ``manual_seed``, ``check_shape`` and the tensor-array helpers of
``paddle.tensor`` (``create_array``, ``array_write``, ``array_read``, ``array_length``).

The samplers draw from this package's generator (JAX keys), not Paddle's stream: after ``paddle.seed(n)`` draws
repeat here, but they are not Paddle's numbers. Their laws are Paddle's (tests check them by statistics).

>>> import pylayer_jax as paddle
>>> paddle.range(3, dtype="int64").tolist(), paddle.FloatTensor([1, 2]).dtype
([0, 1, 2, 3], paddle.float32)
"""

from __future__ import annotations

import builtins
from collections.abc import Sequence
from typing import Any

import numpy as np

from .._ops.table import TABLE
from .._runtime import device as _device
from .._runtime import dtypes as _dtypes
from .._runtime.deprecation import deprecated
from .._runtime.rng import generator as _generator
from .._runtime.state import modes
from .._tensor.device import placed
from .._tensor.dispatch import apply_op
from .._tensor.facade import Tensor, to_tensor
from .._tensor.methods import inplace_assign
from .random import normal as _normal
from .random import randn as _randn
from .random import random_key
from .random import seed as _seed

_RANGE_DTYPES = ("int32", "int64", "float32", "float64")


def _scalar(api: str, pname: str, v: Any, np_dt: np.dtype) -> Any:
    """One bound of ``range`` as a numpy scalar of the output dtype (a Tensor of one element is read; a float
    becomes an int by truncation, as Paddle's cast does)."""
    if isinstance(v, Tensor):
        if v.size != 1:
            raise ValueError(f"{api}: a Tensor {pname} must hold one value, but it has shape {list(v.shape)}.")
        v = v.numpy().reshape(())
    elif isinstance(v, bool) or not isinstance(v, int | float | np.integer | np.floating):
        raise TypeError(f"{api}: {pname} must be a number or a Tensor of one value, but received "
                        f"{type(v).__name__}.")
    return np.asarray(v).astype(np_dt)[()]


@deprecated(
    reason="paddle.range is deprecated and will be removed in a future release because its behavior is inconsistent "
           "with Python's range builtin.Instead, use paddle.arange, which produces values in [start, end)",
    level=1,
)
def range(start: Any = 0, end: Any = None, step: Any = 1, dtype: Any = None, *, out: Tensor | None = None,  # noqa: A001
          device: Any = None, requires_grad: bool = False, name: str | None = None) -> Tensor:
    """The 1-D Tensor ``start, start + step, ...`` up to ``end`` *included* (``int((end - start) / step) + 1``
    values, the division done in ``dtype``, each value the previous one plus ``step`` in ``dtype``); ``range(n)``
    counts from 0 to n. ``dtype`` (int32, int64, float32, float64) defaults to the default float dtype, whatever
    the bounds are. Deprecated in Paddle: ``arange`` excludes ``end``.

    With ``out`` the result is also written into it (``out`` takes its values, shape and dtype); the new Tensor is
    returned. ``device`` places it, ``requires_grad=True`` makes it trainable."""
    if end is None:
        start, end = 0, start
    dt = _dtypes.get_default_dtype() if dtype is None else _dtypes.to_paddle(dtype).name
    if dt not in _RANGE_DTYPES:
        raise TypeError(f"range: dtype must be one of {', '.join(_RANGE_DTYPES)}, but received {dt}.")
    np_dt = np.dtype(dt)
    s, e, st = (_scalar("range", n, v, np_dt) for n, v in (("start", start), ("end", end), ("step", step)))
    if st == 0:
        raise ValueError("range: step must be nonzero, but received 0; pass a positive or negative step.")
    if np.issubdtype(np_dt, np.integer):
        span, stride = int(e) - int(s), int(st)
        q = abs(span) // abs(stride) * (1 if (span >= 0) == (stride > 0) else -1)  # C++ division: toward zero
        size = q + 1
    else:
        size = int(np_dt.type((e - s) / st) + np_dt.type(1))
    if size < 0:
        raise RuntimeError(
            f"range: from start={s} by step={st}, end={e} is never reached (that would be {size} values); give a "
            "step whose sign goes from start toward end."
        )
    values = np.full(size, st, np_dt)
    if size:
        values[0] = s
    r = to_tensor(np.add.accumulate(values, dtype=np_dt))
    r = placed(r, "range", device, requires_grad)
    if out is not None:
        if not isinstance(out, Tensor):
            raise TypeError(f"range: out must be a Tensor, but received {type(out).__name__}.")
        inplace_assign(out, r, "range")
        out.stop_gradient = requires_grad is not True
    return r


def positive(x: Tensor, name: str | None = None) -> Tensor:
    """``+x``: ``x`` itself (the same Tensor object, as in Paddle); a bool ``x`` is refused."""
    if not isinstance(x, Tensor):
        raise TypeError(f"positive: x must be a Tensor, but received {type(x).__name__}.")
    if x.dtype == _dtypes.DTYPES["bool"]:
        raise TypeError("The `+` operator, on a bool tensor is not supported.")
    return x


def tolist(x: Tensor) -> Any:
    """``x``'s values as (nested) Python lists of Python numbers, as ``x.tolist()``."""
    if not isinstance(x, Tensor):
        raise TypeError(f"tolist: x must be a Tensor, but received {type(x).__name__}; a list is already a list.")
    return x.tolist()


def _float_tensor(api: str, pname: str, v: Any) -> Tensor:
    if not isinstance(v, Tensor):
        raise TypeError(f"{api}: {pname} must be a Tensor, but received {type(v).__name__}; wrap it with "
                        "paddle.to_tensor.")
    if v.dtype.name not in ("float32", "float64"):
        raise TypeError(f"{api}: {pname} must be a float32 or float64 Tensor (Paddle has no other kernel), but it is "
                        f"{v.dtype.name}; cast it with .astype('float32').")
    return v


def binomial(count: Tensor, prob: Tensor, name: str | None = None) -> Tensor:
    """The number of successes (int64) in ``count`` trials that each succeed with probability ``prob`` (float32 or
    float64); ``count`` and ``prob`` broadcast together. As in Paddle, a probability above 1 acts as 1 and a
    negative count gives 0."""
    prob = _float_tensor("binomial", "prob", prob)
    if not isinstance(count, Tensor):
        raise TypeError(f"binomial: count must be a Tensor, but received {type(count).__name__}.")
    try:
        shape = list(np.broadcast_shapes(tuple(count.shape), tuple(prob.shape)))
    except ValueError:
        raise ValueError(f"binomial: count of shape {list(count.shape)} and prob of shape {list(prob.shape)} do not "
                         "broadcast together; give them equal or broadcastable shapes.") from None
    n = apply_op(TABLE["clip"], (count.detach().astype(prob.dtype), 0.0, None))
    p = apply_op(TABLE["clip"], (prob.detach(), 0.0, 1.0))
    n, p = n.broadcast_to(shape), p.broadcast_to(shape)
    out = apply_op(TABLE["random_binomial"], (random_key(), n, p))
    return out.astype("int64")


def log_normal(mean: Any = 1.0, std: Any = 2.0, shape: Any = None, name: str | None = None) -> Tensor:
    """``exp`` of Gaussian samples of mean ``mean`` and standard deviation ``std`` (those of the underlying normal
    law). With a Tensor ``mean`` or ``std`` the output takes its shape and dtype (``shape`` is ignored) and is
    differentiable in them, as in Paddle; otherwise ``shape`` is required."""
    ts = [v for v in (mean, std) if isinstance(v, Tensor)]
    if not ts:
        if shape is None:
            raise ValueError("log_normal: give a shape, or a Tensor mean or std whose shape the output takes.")
        return apply_op(TABLE["exp"], (_normal(mean, std, shape),))
    if len(ts) == 2 and list(mean.shape) != list(std.shape):
        raise ValueError(f"log_normal: a Tensor mean and a Tensor std must have one shape, but received "
                         f"{list(mean.shape)} and {list(std.shape)}.")
    for t in ts:
        if not t.is_floating_point():
            raise TypeError(f"log_normal: a Tensor mean or std must be floating, but it is {t.dtype.name}.")
    z = _randn(list(ts[0].shape), ts[0].dtype)
    return apply_op(TABLE["exp"], (z * std + mean,))


def standard_gamma(x: Tensor, name: str | None = None) -> Tensor:
    """Gamma(``x``, 1) samples (shape ``x``) of the shapes ``x`` (float32 or float64); not differentiable, as in
    Paddle. A shape of 0 or below gives the dtype's smallest normal number, as Paddle's kernel does."""
    x = _float_tensor("standard_gamma", "x", x)
    alpha = x.detach()
    s = apply_op(TABLE["random_gamma"], (random_key(), alpha), {"shape": list(x.shape)}).detach()
    tiny = float(np.finfo(np.dtype(x.dtype.name)).tiny)
    floor = apply_op(TABLE["full_like"], (alpha, tiny))
    s = apply_op(TABLE["where"], (alpha > 0, s, floor))
    return apply_op(TABLE["maximum"], (s, floor))


def _typed_factory(dtype: str) -> type:
    """``paddle.FloatTensor`` and its kin: calling one makes a Tensor of ``dtype``; it is no Tensor type itself
    (``isinstance(t, paddle.FloatTensor)`` is False, as in Paddle)."""
    api = {"float32": "FloatTensor", "float64": "DoubleTensor", "float16": "HalfTensor",
           "bfloat16": "BFloat16Tensor", "uint8": "ByteTensor", "int8": "CharTensor", "int16": "ShortTensor",
           "int32": "IntTensor", "int64": "LongTensor", "bool": "BoolTensor"}[dtype]

    def __new__(cls: type, *args: Any, **kwargs: Any) -> Tensor:  # noqa: N807
        if not args:
            return apply_op(TABLE["empty"], ([0], dtype))
        if len(args) == 1 and isinstance(args[0], list | tuple):
            return to_tensor(list(args[0]) if isinstance(args[0], tuple) else args[0], dtype=dtype)
        if all(isinstance(a, int) and not isinstance(a, bool) for a in args):
            return apply_op(TABLE["empty"], (list(args), dtype))
        if len(args) == 1 and not kwargs and isinstance(args[0], Tensor | np.ndarray):
            # (Paddle hands these to the Tensor constructor, which keeps their own dtype)
            return to_tensor(args[0], stop_gradient=True)
        raise ValueError(
            f"paddle.{api}: give a list or tuple of values, sizes as ints, a Tensor or a numpy array, but received "
            f"{', '.join(type(a).__name__ for a in args)}."
        )

    return type(api, (), {"__new__": __new__, "__module__": __name__, "__qualname__": api,
                          "__doc__": f"Calling it makes a {dtype} Tensor: ``{api}()`` an empty one, ``{api}(2, 3)`` "
                                     f"one of shape [2, 3] (uninitialised), ``{api}([1, 2])`` one of these values."})


FloatTensor = _typed_factory("float32")
DoubleTensor = _typed_factory("float64")
HalfTensor = _typed_factory("float16")
BFloat16Tensor = _typed_factory("bfloat16")
ByteTensor = _typed_factory("uint8")
CharTensor = _typed_factory("int8")
ShortTensor = _typed_factory("int16")
IntTensor = _typed_factory("int32")
LongTensor = _typed_factory("int64")
BoolTensor = _typed_factory("bool")


class CUDAPinnedPlace:
    """Page-locked host memory that serves copies to a GPU. Without a GPU (JAX sees none) making one is a
    RuntimeError, as in a CPU build of Paddle."""

    def __init__(self) -> None:
        if not _device.gpus():
            raise RuntimeError("Cannot use CUDAPinnedPlace in CPU only version: JAX sees no GPU here. Use "
                               "paddle.CPUPlace(), or run where a GPU is visible.")

    def __repr__(self) -> str:
        return "Place(gpu_pinned)"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, CUDAPinnedPlace)

    def __hash__(self) -> int:
        return hash("gpu_pinned")


class XPUPinnedPlace:
    """Page-locked host memory serving a Kunlun XPU; this package runs on no XPU, so making one is a RuntimeError,
    as in a Paddle built without XPU support."""

    def __init__(self) -> None:
        raise RuntimeError("Cannot use XPUPinnedPlace: pylayer_jax runs on no XPU. Use paddle.CPUPlace() (or "
                           "paddle.CUDAPinnedPlace() with a GPU).")


manual_seed = _seed  # (``paddle.manual_seed is paddle.seed`` in Paddle too)


class Generator:
    """``paddle.Generator(device=None)``: the global random generator of ``device`` (``'cpu'``, ``'gpu'``, an int, a
    Place; None: the current device), not a new one, as in Paddle. One generator serves every device here; it has
    Paddle's ``manual_seed(n)``, ``initial_seed()``, ``seed()``, ``random()``, ``get_state()`` and ``set_state``."""

    def __new__(cls, device: Any = None) -> Any:  # noqa: D102
        if device is not None and not isinstance(device, int | str) and not hasattr(device, "get_device_id") \
                and not isinstance(device, _device.CPUPlace | _device.CUDAPlace | _device.CustomPlace):
            raise TypeError(f"paddle.Generator: device must be a str, an int or a Place, but received "
                            f"{type(device).__name__}.")
        if isinstance(device, str) and device.strip().lower() in ("gpu", "cuda") and not _device.gpus():
            raise ValueError("paddle.Generator: the device should not be 'gpu', since JAX sees no GPU here; pass "
                             "'cpu' or leave device out.")
        if isinstance(device, str | _device.CUDAPlace | _device.CustomPlace):
            _device.resolve(device, "paddle.Generator")
        return _generator


_SHAPE_TYPES = (list, tuple)


def check_shape(shape: Any, op_name: str, expected_shape_type: Any = None, expected_element_type: Any = None,
                expected_tensor_dtype: Sequence[str] | None = ("int32", "int64")) -> None:
    """Paddle's check of a shape argument: in dynamic mode (the default) it checks nothing, as in Paddle; while a
    static program is built, ``shape`` must be a list or tuple of ints / int Tensors, or an int Tensor."""
    if not modes.static_mode:
        return
    shape_types = _SHAPE_TYPES + (Tensor,) if expected_shape_type is None else expected_shape_type
    elem_types = (int, Tensor) if expected_element_type is None else expected_element_type
    if not isinstance(shape, shape_types):
        raise TypeError(f"The type of 'shape' in {op_name} must be {shape_types}, but received "
                        f"{type(shape).__name__}.")
    items = [shape] if isinstance(shape, Tensor) else list(shape)
    for item in items:
        if item is not shape and not isinstance(item, elem_types):
            raise TypeError(f"The type of 'element of shape' in {op_name} must be {elem_types}, but received "
                            f"{type(item).__name__}.")
        if isinstance(item, Tensor) and expected_tensor_dtype is not None \
                and item.dtype.name not in expected_tensor_dtype:
            raise TypeError(f"The data type of 'shape' in {op_name} must be one of {list(expected_tensor_dtype)}, "
                            f"but received {item.dtype.name}.")


def create_array(dtype: Any, initialized_list: Sequence[Tensor] | None = None) -> list[Tensor]:
    """A tensor array: in dynamic mode, as in Paddle, a Python list (holding ``initialized_list``'s Tensors;
    ``dtype`` is not looked at there)."""
    if initialized_list is None:
        return []
    if not isinstance(initialized_list, list | tuple):
        raise TypeError(f"create_array: initialized_list must be a list or tuple of Tensors, but received "
                        f"{type(initialized_list).__name__}.")
    for t in initialized_list:
        if not isinstance(t, Tensor):
            raise TypeError(f"create_array: every item of initialized_list must be a Tensor, but one is "
                            f"{type(t).__name__}.")
    return list(initialized_list)


def _index(api: str, i: Any) -> int:
    if isinstance(i, Tensor):
        if i.size != 1 or i.dtype.name not in ("int32", "int64"):
            raise TypeError(f"{api}: i must be an int32/int64 Tensor of one element, but received one of shape "
                            f"{list(i.shape)} and dtype {i.dtype.name}.")
        return int(i.item())
    raise TypeError(f"{api}: in dynamic mode the index i must be an int Tensor of one element (as in Paddle), but "
                    f"received {type(i).__name__}; pass paddle.to_tensor([i]).")


def _array(api: str, array: Any) -> list[Tensor]:
    if not isinstance(array, list):
        raise TypeError(f"{api}: array must be a tensor array (a list from create_array), but received "
                        f"{type(array).__name__}.")
    return array


def array_write(x: Tensor, i: Any, array: list[Tensor] | None = None) -> list[Tensor]:
    """Write ``x`` at position ``i`` of ``array`` (a new array when None) and return the array: ``i`` may be the
    array's length (appending) or less (replacing)."""
    if not isinstance(x, Tensor):
        raise TypeError(f"array_write: x must be a Tensor, but received {type(x).__name__}.")
    k = _index("array_write", i)
    array = [] if array is None else _array("array_write", array)
    if not 0 <= k <= len(array):
        raise IndexError(f"array_write: the index i={k} must be in [0, {len(array)}] (the array's length appends).")
    if k == len(array):
        array.append(x)
    else:
        array[k] = x
    return array


def array_read(array: list[Tensor], i: Any) -> Tensor:
    """The Tensor at position ``i`` of the tensor array ``array``."""
    array = _array("array_read", array)
    k = _index("array_read", i)
    if not 0 <= k < len(array):
        raise IndexError(f"array_read: the index i={k} must be in [0, {len(array)}).")
    return array[k]


def array_length(array: list[Tensor]) -> int:
    """The number of Tensors in the tensor array ``array`` (in dynamic mode a Python int, as in Paddle)."""
    return builtins.len(_array("array_length", array))


class MmapStorage:
    """``paddle.MmapStorage(filename, nbytes)``: the first ``nbytes`` bytes of a file, mapped read-only into memory;
    ``get_slice`` reads Tensors from it. Opening a missing file or asking more bytes than the file has is a
    RuntimeError, as in Paddle."""

    def __init__(self, filename: str, nbytes: int) -> None:
        import os

        if not isinstance(filename, str | os.PathLike):
            raise TypeError(f"MmapStorage: filename must be a str path, but received {type(filename).__name__}.")
        if not isinstance(nbytes, int) or isinstance(nbytes, bool) or nbytes <= 0:
            raise TypeError(f"MmapStorage: nbytes must be a positive int, but received {nbytes!r}.")
        if not os.path.isfile(filename):
            raise RuntimeError(f"MmapStorage: unable to open file <{filename}> in read-only mode.")
        size = os.path.getsize(filename)
        if size < nbytes:
            raise RuntimeError(f"MmapStorage: file <{filename}> size <{size}> is smaller than the required mapping "
                               f"size <{nbytes}>; pass nbytes <= {size}.")
        self._map = np.memmap(filename, np.uint8, "r", shape=(nbytes,))

    def get_slice(self, dtype: Any = "uint8", start: int = 0, stop: int = -1, step: int = 1) -> Tensor:
        """The mapped bytes read as a 1-D Tensor of ``dtype``, its elements ``start:stop:step`` (``stop=-1``:
        through the last whole element). A copy: writing to it does not change the file."""
        np_dt = np.dtype(_dtypes.to_np(dtype))
        n = self._map.size // np_dt.itemsize
        for pname, v in (("start", start), ("stop", stop), ("step", step)):
            if not isinstance(v, int) or isinstance(v, bool):
                raise TypeError(f"MmapStorage.get_slice: {pname} must be an int, but received {type(v).__name__}.")
        if step <= 0:
            raise ValueError(f"MmapStorage.get_slice: step must be positive, but received {step}.")
        end = n if stop == -1 else stop
        if not 0 <= start <= end <= n:
            raise ValueError(f"MmapStorage.get_slice: start={start} and stop={stop} must satisfy 0 <= start <= stop "
                             f"<= {n}, the number of {np_dt.name} elements in the {self._map.size} mapped bytes.")
        values = self._map[: n * np_dt.itemsize].view(np_dt)[start:end:step]
        return to_tensor(np.array(values))
