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
_cuda_archs: list[int] = []

__all__ = ["cuda", "cudnn", "nccl", "show", "xpu", "xpu_xre", "xpu_xccl", "xpu_xhpc", "tensorrt", "cuda_archs", "hip"]


class CudaVersion(str):
    """A version string that is also callable (``paddle.version.cuda()``), as Paddle 3.3.1's: code written for
    either ``paddle.version.cuda()`` or PyTorch's ``torch.version.cuda`` (a str) reads it."""

    def __call__(self) -> str:
        return str(self)

    def __repr__(self) -> str:
        return f"CudaVersion('{self}')"


# the CUDA version the package was built with: 'False' (it has no CUDA build of its own)
cuda = CudaVersion("False")


def cudnn() -> str:
    """The cuDNN version the package was built with: ``'False'``."""
    return "False"


def nccl() -> str:
    """The NCCL version the package was built with: ``'0'`` (none), as Paddle's CPU build reports."""
    return "0"


def xpu() -> str:
    """The XPU version the package was built with: ``'False'``."""
    return "False"


# the ROCm (HIP) version the package was built with: None (Paddle 3.3.1 exports ``hip`` as this value, not a
# function)
hip = None


def xpu_xre() -> str:
    """The XPU runtime (XRE) version the package was built with: ``'False'``."""
    return "False"


def xpu_xccl() -> str:
    """The XPU collective library (XCCL) version the package was built with: ``'False'``."""
    return "False"


def xpu_xhpc() -> str:
    """The XPU math library (XHPC) version the package was built with: ``'False'``."""
    return "False"


def cinn() -> str:
    """Whether the package was built with the CINN compiler: ``'False'`` (XLA compiles here)."""
    return "False"


def tensorrt() -> str:
    """The TensorRT version the package was built with: ``'None'`` (a str, as Paddle's CPU build returns)."""
    return "None"


def cuda_archs() -> list[int]:
    """The CUDA architectures the package was compiled for: ``[]``."""
    return list(_cuda_archs)


def show() -> None:
    """Print the version fields, one per line, as Paddle's ``paddle.version.show()`` does."""
    head = ((("full_version", full_version), ("major", major), ("minor", minor), ("patch", patch), ("rc", rc))
            if is_tagged else (("commit", commit),))
    for name, value in (*head, ("cuda", cuda()), ("cudnn", cudnn()), ("hip", hip), ("nccl", nccl()),
                        ("xpu_xre", xpu_xre()), ("xpu_xccl", xpu_xccl()), ("xpu_xhpc", xpu_xhpc()), ("cinn", cinn()),
                        ("tensorrt_version", tensorrt()), ("cuda_archs", cuda_archs())):
        print(f"{name}: {value}")
