"""``paddle.sysconfig``: where a native extension finds the package's C++ headers and libraries.

In Paddle 3.3.1 these are the ``include`` and ``libs`` folders of the installed ``paddle`` package. This package
ships no C++ library of its own, so the folders it names (``include`` and ``libs`` beside this module) are not
created: a native extension of this package is an XLA FFI custom call, built against JAX's headers
(``jax.ffi.include_dir()``) and registered with ``jax.ffi.register_ffi_target``.

>>> import os
>>> import pylayer_jax as paddle
>>> os.path.basename(paddle.sysconfig.get_include()), os.path.basename(paddle.sysconfig.get_lib())
('include', 'libs')
"""

from __future__ import annotations

import os

__all__ = ["get_include", "get_lib"]

_HERE = os.path.dirname(os.path.abspath(__file__))


def get_include() -> str:
    """The folder of the package's C++ headers: ``<package>/include`` (this package has none; see the module)."""
    return os.path.join(_HERE, "include")


def get_lib() -> str:
    """The folder of the package's shared libraries: ``<package>/libs`` (this package has none; see the module)."""
    return os.path.join(_HERE, "libs")
