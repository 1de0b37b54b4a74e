"""`paddle.save` / `paddle.load` in Paddle 3.3.1's file format.

What Paddle writes (and so what is written here, byte for byte the same pickle):
- a *state dict* (a dict whose values are all Tensors, or dicts holding no Tensor, such as an
  optimizer's `LR_Scheduler`): a plain dict of numpy arrays plus the entry
  `"StructuredToParameterName@@"` mapping each Tensor's key to its `name`; on load the arrays named
  there become Tensors carrying those names again;
- anything else: the object pickled with every Tensor reduced to `tuple((name, ndarray))`; on load
  those pairs become named Tensors (when the file has none, every ndarray becomes a Tensor).
bfloat16 is stored as a uint16 array (as Paddle does) and a uint16 array loads as bfloat16.
A file path is written through a temporary file in the same folder, fsynced, then renamed over
`path`, so a failed or interrupted save leaves any earlier file whole.
"""

from __future__ import annotations

import collections
import copyreg
import io
import math
import os
import pickle
import secrets
import warnings
from typing import Any

import jax.numpy as jnp
import numpy as np

from .._tensor.facade import Tensor
from . import checkpoint_format as fmt

_NAME_TABLE = "StructuredToParameterName@@"
_BIG_INFO = "UnpackBigParamInfor@@"  # Paddle's spelling, kept for file compatibility
_SAVE_CONFIGS = ("use_binary_format", "pickle_protocol", "safetensors")
_LOAD_CONFIGS = ("model_filename", "params_filename", "keep_name_table", "return_numpy", "safetensors")
_BF16 = np.dtype(jnp.bfloat16)
_SCALARS = (type(None), bool, int, float, complex, str, np.generic, np.ndarray)
_BIG_BYTES = 2**30 - 1  # protocols 2 and 3: arrays over this many bytes are saved in slices


def _array(t: Tensor) -> np.ndarray:
    """A Tensor's value as the numpy array Paddle stores (bfloat16 as its uint16 bits)."""
    a = np.array(t.numpy(), copy=True)
    return a.view(np.uint16) if a.dtype == _BF16 else a


def _is_layer(obj: Any) -> bool:
    return any(c.__name__ == "Layer" and c.__module__.startswith("pylayer_jax.nn") for c in type(obj).__mro__)


def _check_tree(obj: Any) -> None:
    """Refuse what Paddle refuses (Layers, other iterables) and what a checkpoint could not load back."""
    if isinstance(obj, (Tensor, *_SCALARS)):
        return
    if type(obj) in (dict, collections.OrderedDict):
        for k, v in obj.items():
            _check_tree(k)
            _check_tree(v)
        return
    if type(obj) in (list, tuple, set, frozenset):
        for v in obj:
            _check_tree(v)
        return
    if _is_layer(obj):
        raise ValueError(
            "paddle.save does not save a paddle.nn.Layer object (received "
            f"{type(obj).__name__}); save its state_dict() instead: paddle.save(layer.state_dict(), path)."
        )
    if isinstance(obj, bytes | bytearray | range) or hasattr(obj, "__iter__"):
        raise NotImplementedError(
            "paddle.save: the iterable objects supported are tuple, list, dict, OrderedDict, set and str, but "
            f"received {type(obj).__name__}; convert it to a list first."
        )
    raise TypeError(
        f"paddle.save: cannot save an object of type {type(obj).__name__}; a checkpoint holds Tensors, numpy "
        "arrays, Python numbers, strings and None inside dicts, lists, tuples and sets."
    )


def _is_state_dict(obj: Any) -> bool:
    if not isinstance(obj, dict):
        return False
    for v in obj.values():
        if isinstance(v, dict):
            if any(_contains_tensor(x) for x in v.values()):
                return False
        elif not isinstance(v, Tensor):
            return False
    return True


def _contains_tensor(obj: Any) -> bool:
    if isinstance(obj, Tensor):
        return True
    if type(obj) in (dict, collections.OrderedDict):
        return any(_contains_tensor(v) for v in obj.values())
    if type(obj) in (list, tuple):
        return any(_contains_tensor(v) for v in obj)
    return False


def _split_big(saved: dict, protocol: int) -> dict:
    """Protocols 2 and 3 cannot hold an object over 4 GiB: Paddle splits such arrays into slices."""
    if protocol >= 4:
        return saved
    info: dict = {}
    for key, value in list(saved.items()):
        if not isinstance(value, np.ndarray):
            continue
        limit = int(_BIG_BYTES / value.dtype.itemsize)
        if value.size <= limit:
            continue
        flat, parts = value.reshape(-1), []
        for i in range(math.ceil(value.size / limit)):
            part = f"{key}@@.{i}"
            parts.append(part)
            saved[part] = flat[i * limit:(i + 1) * limit]
        del saved[key]
        info[key] = {"OriginShape": value.shape, "slices": parts}
    if info:
        saved[_BIG_INFO] = info
    return saved


def _reduce_tensor(t: Tensor) -> tuple:
    return (tuple, ((t.name, _array(t)),))


def _dump(obj: Any, f: Any, protocol: int) -> None:
    if _is_state_dict(obj):
        if not obj:
            warnings.warn("The input state dict is empty, no need to save.", stacklevel=3)
        saved: dict = {}
        names: dict = {}
        for k, v in obj.items():
            if isinstance(v, Tensor):
                saved[k] = _array(v)
                names[k] = v.name
            else:
                saved[k] = v
        saved[_NAME_TABLE] = names
        pickle.dump(_split_big(saved, protocol), f, protocol=protocol)
        return
    pickler = pickle.Pickler(f, protocol)
    table = copyreg.dispatch_table.copy()
    for cls in _tensor_classes(obj, {Tensor}):
        table[cls] = _reduce_tensor
    pickler.dispatch_table = table
    pickler.dump(obj)


def _tensor_classes(obj: Any, found: set) -> set:
    """Tensor subclasses (Parameters) in obj: the pickler's dispatch table is keyed by exact class."""
    if isinstance(obj, Tensor):
        found.add(type(obj))
    elif isinstance(obj, dict):
        for v in obj.values():
            _tensor_classes(v, found)
    elif isinstance(obj, list | tuple | set | frozenset):
        for v in obj:
            _tensor_classes(v, found)
    return found


def _write_file(path: str, write: Any) -> None:
    """Write through a temporary file beside `path`, fsync it, then rename it over `path`.

    The temporary file is created like `open(path, "wb")` creates one (mode 0o666 less the umask);
    a symbolic link at `path` is followed, so the file it points to is the one replaced.
    """
    path = os.path.realpath(path) if os.path.islink(path) else path
    tmp = os.path.join(os.path.dirname(path) or ".", f".{os.path.basename(path)}.{secrets.token_hex(6)}.tmp")
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_BINARY", 0), 0o666)
    try:
        with os.fdopen(fd, "wb") as f:
            write(f)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)
    except BaseException:
        try:
            os.unlink(tmp)
        except FileNotFoundError:
            pass
        raise


def save(obj: Any, path: str | os.PathLike | io.BytesIO, protocol: int = 4, **configs: Any) -> None:
    """Save a Tensor, a state dict or a nested structure of them in Paddle's checkpoint format.

    Files written here load in Paddle (`paddle.load`) and the reverse. A file path is replaced
    atomically: a save that fails or is interrupted leaves the earlier file as it was.

    Args:
        obj: a Tensor, a layer's or optimizer's ``state_dict()``, or dicts/lists/tuples of Tensors,
            numpy arrays, Python numbers and strings.
        path: a file name (folders are created) or an ``io.BytesIO``.
        protocol: pickle protocol, 2, 3 or 4 (default 4).
        **configs: ``use_binary_format`` (bool: save a single Tensor in Paddle's binary tensor
            format), ``pickle_protocol`` (deprecated alias of ``protocol``).

    Example:
        >>> import pylayer_jax as paddle
        >>> paddle.save({"w": paddle.ones([2])}, "/tmp/w.pdparams")
        >>> paddle.load("/tmp/w.pdparams")["w"].shape
        [2]
    """
    if isinstance(path, os.PathLike):
        path = os.fspath(path)
    if isinstance(path, str):
        if os.path.basename(path) == "":
            raise ValueError(
                "paddle.save: the path must name a file (dirname/filename), but received "
                f"{path!r}, whose file name is empty; add a file name such as 'model.pdparams'."
            )
    elif not isinstance(path, io.BytesIO):
        raise ValueError(
            f"paddle.save only saves to a file path or an io.BytesIO, but received {type(path).__name__}."
        )
    for key in configs:
        if key not in _SAVE_CONFIGS:
            raise ValueError(
                f"paddle.save: the additional config ({key}) is not supported; the supported ones are "
                f"{', '.join(_SAVE_CONFIGS)}."
            )
    if configs.get("safetensors", False):
        raise NotImplementedError("paddle.save: safetensors=True is not supported; save without it.")
    binary = configs.get("use_binary_format", False)
    if not isinstance(binary, bool):
        raise TypeError(
            f"paddle.save: use_binary_format must be a bool, but received {type(binary).__name__}."
        )
    if configs.get("pickle_protocol") is not None:
        protocol = configs["pickle_protocol"]
        warnings.warn("'pickle_protocol' is a deprecated argument. Please use 'protocol' instead.", stacklevel=2)
    if binary:
        if not isinstance(obj, Tensor):
            raise NotImplementedError(
                f"paddle.save(use_binary_format=True) saves a single Tensor, but received {type(obj).__name__}; "
                "save other objects with use_binary_format=False."
            )
        data = fmt.dense_tensor_bytes(np.asarray(obj.numpy()))

        def write(f: Any) -> None:
            f.write(data)
    else:
        if isinstance(protocol, bool) or not isinstance(protocol, int):
            raise ValueError(f"paddle.save: the 'protocol' must be an int, but received {type(protocol).__name__}.")
        if not 2 <= protocol <= 4:
            raise ValueError(f"paddle.save: expected 1 < protocol < 5, but received protocol={protocol}.")
        _check_tree(obj)

        def write(f: Any) -> None:
            _dump(obj, f, protocol)
    if isinstance(path, io.BytesIO):
        staged = io.BytesIO()  # a failed save leaves the caller's buffer untouched
        write(staged)
        path.write(staged.getbuffer())
        return
    folder = os.path.dirname(path)
    if folder:
        os.makedirs(folder, exist_ok=True)
    _write_file(path, write)


# ---- load -------------------------------------------------------------------------------------------
def _to_tensor(arr: np.ndarray, name: str | None = None) -> Tensor:
    if arr.dtype == np.uint16:
        arr = arr.view(_BF16)
    return Tensor(jnp.asarray(arr), True, name=name)


def _is_named_pair(obj: Any) -> bool:
    return isinstance(obj, tuple) and len(obj) == 2 and isinstance(obj[0], str) and isinstance(obj[1], np.ndarray)


def _contains(obj: Any, cond: Any) -> bool:
    if cond(obj):
        return True
    if type(obj) in (dict, collections.OrderedDict):
        return any(_contains(v, cond) for v in obj.values())
    if type(obj) in (list, tuple):
        return any(_contains(v, cond) for v in obj)
    return False


def _convert(obj: Any, cond: Any, conv: Any) -> Any:
    if cond(obj):
        return conv(obj)
    if type(obj) in (dict, collections.OrderedDict):
        return type(obj)((k, _convert(v, cond, conv)) for k, v in obj.items())
    if type(obj) in (list, tuple, set, frozenset):
        return type(obj)(_convert(v, cond, conv) for v in obj)
    return obj


def _restore(obj: Any, return_numpy: bool, keep_name_table: bool) -> Any:
    if isinstance(obj, dict):
        info = obj.pop(_BIG_INFO, None)
        for key, value in (info or {}).items():
            obj[key] = np.concatenate([obj.pop(p) for p in value["slices"]]).reshape(value["OriginShape"])
        if _NAME_TABLE in obj:
            for key, name in obj[_NAME_TABLE].items():
                if isinstance(obj.get(key), np.ndarray) and not return_numpy:
                    obj[key] = _to_tensor(obj[key], name)
            if not keep_name_table:
                del obj[_NAME_TABLE]
            return obj
    if _contains(obj, _is_named_pair):
        return _convert(obj, _is_named_pair, (lambda p: p[1]) if return_numpy else (lambda p: _to_tensor(p[1], p[0])))
    if return_numpy:
        return obj
    return _convert(obj, lambda a: isinstance(a, np.ndarray), _to_tensor)


def _read(path: str | io.BytesIO) -> tuple[bytes, str]:
    if isinstance(path, io.BytesIO):
        return path.read(), "the BytesIO buffer"
    with open(path, "rb") as f:
        return f.read(), f"the file {path}"


def load(path: str | os.PathLike | io.BytesIO, **configs: Any) -> Any:
    """Load what `save` (or Paddle's `paddle.save`) wrote.

    Tensors come back as Tensors with their saved names (or numpy arrays with
    ``return_numpy=True``); the file is read by an unpickler that allows only the classes
    Paddle's checkpoints contain, so loading never runs code.

    Args:
        path: a file name or an ``io.BytesIO``.
        **configs: ``return_numpy`` (bool), ``keep_name_table`` (bool: keep the
            ``"StructuredToParameterName@@"`` entry of a state dict).

    Example:
        >>> import pylayer_jax as paddle
        >>> paddle.save(paddle.to_tensor([1.0, 2.0]), "/tmp/t.pdtensor")
        >>> paddle.load("/tmp/t.pdtensor", return_numpy=True)
        array([1., 2.], dtype=float32)
    """
    if isinstance(path, os.PathLike):
        path = os.fspath(path)
    if not isinstance(path, str | io.BytesIO):
        raise TypeError(f"paddle.load reads a file path or an io.BytesIO, but received {type(path).__name__}.")
    for key in configs:
        if key not in _LOAD_CONFIGS:
            raise ValueError(
                f"paddle.load: the additional config ({key}) is not supported; the supported ones are "
                f"{', '.join(_LOAD_CONFIGS)}."
            )
    for key in ("model_filename", "params_filename", "safetensors"):
        if configs.get(key):
            raise NotImplementedError(
                f"paddle.load: {key} (loading jit.save / save_inference_model / safetensors files) is not "
                "supported; load a file written by paddle.save without it."
            )
    return_numpy = bool(configs.get("return_numpy", False))
    keep_name_table = bool(configs.get("keep_name_table", False))
    if isinstance(path, str) and not os.path.isfile(path):
        if os.path.isdir(path):
            if not os.listdir(path):
                return {}
            raise ValueError(
                f"paddle.load: {path} is a directory; paddle.load reads one file written by paddle.save "
                "(directories of parameters written by static save_params are not supported)."
            )
        raise ValueError(f"paddle.load: the path ({path}) to load model does not exist; check the file name.")
    data, where = _read(path)
    if not data:
        raise fmt.EmptyCheckpointError(f"paddle.load: {where} is empty (corrupt or truncated); nothing to load.")
    try:
        obj = fmt.unpickle(io.BytesIO(data), where)
    except fmt.ForbiddenGlobalError:
        raise
    except Exception as err:
        arr = fmt.parse_dense_tensor(data)
        if arr is None:
            raise fmt.CorruptCheckpointError(
                f"paddle.load: {where} is corrupt or truncated: it is neither a pickle written by paddle.save "
                f"nor a binary tensor ({type(err).__name__}: {err})."
            ) from err
        if return_numpy:
            return arr.view(np.uint16) if arr.dtype == _BF16 else arr
        return Tensor(jnp.asarray(arr), True)
    return _restore(obj, return_numpy, keep_name_table)
