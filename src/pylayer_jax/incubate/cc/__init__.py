"""``paddle.incubate.cc``: compile a function for inference with fused kernels (``compile``), and the fusion
helpers of ``fuse``.

Paddle 3.3.1 lowers the function through its CINN / PCC kernel generator ("abstract pass"), reading the input
dtypes from the function's type annotations. Here the function is compiled by XLA, which fuses elementwise
epilogues into the kernels on its own: ``compile`` gives ``paddle.jit.to_static(func, full_graph=True)``
(compiled once for each set of input shapes and dtypes), in inference mode, as Paddle's."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from . import fuse as fuse

__all__ = ["compile", "fuse"]


def compile(func: Callable[..., Any], train: bool = False, ap_path: str = "",  # noqa: A001  (Paddle's name)
            ap_workspace_dir: str = "/tmp/paddle/ap", backend_device: str = "cuda",
            target_framework: str = "paddle", compile_engine: str = "PCC") -> Callable[..., Any]:
    """``func`` compiled for inference (see the module). ``ap_path``, ``ap_workspace_dir``, ``backend_device`` and
    ``target_framework`` choose Paddle's kernel generator's files and target, which XLA has no use for."""
    from ... import jit

    if not callable(func):
        raise TypeError(f"paddle.incubate.cc.compile: func must be callable, but received {type(func).__name__}.")
    if train:
        raise ValueError("paddle.incubate.cc.compile: only inference is supported (train=False), as in Paddle; "
                         "use paddle.jit.to_static to compile a training step.")
    if compile_engine not in ("CINN", "PCC"):
        raise ValueError(f"paddle.incubate.cc.compile: compile_engine must be 'CINN' or 'PCC', but received "
                         f"{compile_engine!r}.")
    if ap_path is None:
        raise TypeError("paddle.incubate.cc.compile: ap_path must be a str, but received None.")
    static_fn = jit.to_static(func, full_graph=True)
    if hasattr(static_fn, "eval"):
        static_fn.eval()
    return static_fn
