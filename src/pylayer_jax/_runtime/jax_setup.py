"""The JAX settings importing pylayer_jax makes (they are process-wide; the README says so).

Layer L0: imports nothing from the package but ``compile_cache``; every module that needs them imports this one.
"""

from __future__ import annotations

import os

import jax

from . import compile_cache as _compile_cache

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
