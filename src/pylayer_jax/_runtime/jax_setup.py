"""The JAX settings importing pylayer_jax makes (they are process-wide; the README says so), XLA_FLAGS among them.

Layer L0: imports nothing from the package but ``compile_cache``; every module that needs them imports this one.
"""

from __future__ import annotations

import os

# XLA's CPU backend without LLVM optimisation (the deferred executor's programs for small and one-off steps; the
# test suite's XLA_FLAGS) selects the instructions of scalar loops with LLVM's FastISel, which never contracts a
# multiply and an add into one FMA, and those of vector loops with SelectionDAG, which does. An expression that a
# program computes in two fusions then rounds two ways: ``h == h.max(axis, keepdim=True)`` was False in whole rows
# for a batch-normalised ``h``, and the gradient of ``max`` went to no element (JAX's rule compares the input with
# the maximum). Without FastISel every loop rounds as XLA's default build does (its compile is ~4% slower at that
# level; above it FastISel is not used). XLA reads XLA_FLAGS when its backend starts, so this is set before; an
# ``xla_backend_extra_options`` of the environment's own is left as it is.
_NO_FAST_ISEL = "--xla_backend_extra_options=-fast-isel=false"
if "xla_backend_extra_options" not in os.environ.get("XLA_FLAGS", ""):
    os.environ["XLA_FLAGS"] = f"{os.environ.get('XLA_FLAGS', '')} {_NO_FAST_ISEL}".strip()

import jax  # noqa: E402

from . import compile_cache as _compile_cache  # noqa: E402

# Paddle computes in float64/int64 routinely; JAX truncates to 32 bits unless x64 is on.
jax.config.update("jax_enable_x64", True)

# An eager step ends in one small compiled program; XLA's CPU client runs such a program inline
# faster than through its asynchronous dispatch queue (a 64x8 MLP step's program: ~26 µs inline,
# 35-52 µs queued, on a 2-core CPU). The client reads this when it starts, so it only applies when
# nothing ran on the CPU before this import. Set JAX_CPU_ENABLE_ASYNC_DISPATCH=1 to keep the queue.
if "JAX_CPU_ENABLE_ASYNC_DISPATCH" not in os.environ:
    jax.config.update("jax_cpu_enable_async_dispatch", False)

# Compiled programs are cached on disk, so that a script's second run reads them back instead of compiling
# them again (see _runtime/compile_cache.py: PYLAYER_JAX_CACHE_DIR sets the directory, empty turns it off).
_compile_cache.setup()
