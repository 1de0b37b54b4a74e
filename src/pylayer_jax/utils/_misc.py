"""``paddle.utils.strtobool``, ``try_import`` and ``require_version`` (layer L5)."""

from __future__ import annotations

import importlib
import re
from types import ModuleType

from .._runtime.api_version import PADDLE_API_VERSION, parts

_TRUE = ("y", "yes", "t", "true", "on", "1")
_FALSE = ("n", "no", "f", "false", "off", "0")


def strtobool(val: str) -> bool:
    """A truth value written as text: ``y``, ``yes``, ``t``, ``true``, ``on``, ``1`` are True, ``n``, ``no``,
    ``f``, ``false``, ``off``, ``0`` False, in any case.

    >>> import pylayer_jax as paddle
    >>> paddle.utils.strtobool("Yes"), paddle.utils.strtobool("off")
    (True, False)
    """
    if not isinstance(val, str):
        raise TypeError(f"strtobool: val must be a str such as 'true' or '0', but received {type(val).__name__}.")
    low = val.lower()
    if low in _TRUE:
        return True
    if low in _FALSE:
        return False
    raise ValueError(f"Invalid truth value {low!r}: strtobool takes one of {', '.join(_TRUE + _FALSE)}.")


def try_import(module_name: str, err_msg: str | None = None) -> ModuleType:
    """Import ``module_name``; if it is missing, raise ImportError with ``err_msg`` or a message saying what to
    install (the top package's name; ``opencv-python`` for ``cv2``).

    >>> import pylayer_jax as paddle
    >>> paddle.utils.try_import("json").__name__
    'json'
    """
    if not isinstance(module_name, str):
        raise TypeError(f"try_import: module_name must be a str, but received {type(module_name).__name__}.")
    install = "opencv-python" if module_name == "cv2" else module_name.split(".")[0]
    try:
        return importlib.import_module(module_name)
    except ImportError:
        if err_msg is None:
            err_msg = (
                f"Failed importing {module_name}. This likely means that some paddle modules require additional "
                f"dependencies that have to be manually installed (usually with `pip install {install}`). "
            )
        raise ImportError(err_msg) from None


_VERSION = re.compile(r"\d+(\.\d+){0,3}")


def require_version(min_version: str, max_version: str | None = None) -> None:
    """Raise unless the Paddle API this package implements (3.3.1) is at least ``min_version`` and at most
    ``max_version`` (versions of up to four numbers, missing ones read as 0).

    Paddle code calls this to make sure of a Paddle API level, so the comparison is with the Paddle release whose
    API is implemented here, not with this package's own version.

    >>> import pylayer_jax as paddle
    >>> paddle.utils.require_version("2.0", "3.3.1")
    """
    for name, v in (("min_version", min_version), ("max_version", max_version)):
        if v is None and name == "max_version":
            continue
        if not isinstance(v, str):
            raise TypeError(
                f"require_version: {name} must be a str like '2.6.0'{' or None' if name == 'max_version' else ''}, "
                f"but received {type(v).__name__}."
            )
        if not _VERSION.fullmatch(v):
            raise ValueError(
                f"require_version: {name} must be up to four dot-separated numbers like '1.5.2.0', but received "
                f"{v!r}."
            )
    have = parts(PADDLE_API_VERSION)
    if max_version is not None and not parts(min_version) <= have <= parts(max_version):
        raise RuntimeError(
            f"VersionError: PaddlePaddle version in [{min_version}, {max_version}] required, but this package "
            f"implements PaddlePaddle {PADDLE_API_VERSION}'s API."
        )
    if max_version is None and have < parts(min_version):
        raise RuntimeError(
            f"VersionError: PaddlePaddle version {min_version} or higher is required, but this package implements "
            f"PaddlePaddle {PADDLE_API_VERSION}'s API."
        )
