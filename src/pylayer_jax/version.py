"""``paddle.version``: this package's version in Paddle's fields, and what it was built with (no CUDA, cuDNN, NCCL,
XPU or TensorRT of its own: JAX's plugins bring the GPU support).

>>> import pylayer_jax as paddle
>>> paddle.version.full_version == paddle.__version__
True
>>> paddle.version.cuda()
'False'
"""

from __future__ import annotations

import re
from importlib import metadata

try:
    full_version = metadata.version("pylayer_jax")
except metadata.PackageNotFoundError:  # running from a source tree that was never installed
    full_version = "0+unknown"
_parts = [*(re.findall(r"\d+", full_version) + ["0", "0", "0"])][:3]
major, minor, patch = _parts
rc = "0"
is_tagged = not full_version.startswith("0+")
commit = "unknown"
with_mkl = "OFF"
with_pip_cuda_libraries = "OFF"
cuda_archs: list[int] = []

__all__ = ["cuda", "cudnn", "full_version", "major", "minor", "nccl", "patch", "rc", "show", "tensorrt", "xpu"]


def cuda() -> str:
    """The CUDA version the package was built with: ``'False'`` (it has no CUDA build of its own)."""
    return "False"


def cudnn() -> str:
    """The cuDNN version the package was built with: ``'False'``."""
    return "False"


def nccl() -> str:
    """The NCCL version the package was built with: ``'0'`` (none), as Paddle's CPU build reports."""
    return "0"


def xpu() -> str:
    """The XPU version the package was built with: ``'False'``."""
    return "False"


def tensorrt() -> None:
    """The TensorRT version the package was built with: None."""
    return None


def show() -> None:
    """Print the version fields, one per line, as Paddle's ``paddle.version.show()`` does."""
    for name, value in (("full_version", full_version), ("major", major), ("minor", minor), ("patch", patch),
                        ("rc", rc), ("cuda", cuda()), ("cudnn", cudnn()), ("nccl", nccl()), ("xpu", xpu()),
                        ("tensorrt_version", tensorrt()), ("cuda_archs", cuda_archs)):
        print(f"{name}: {value}")
