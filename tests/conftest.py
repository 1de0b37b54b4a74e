"""Test-session settings shared by every folder."""

from __future__ import annotations

import os

import pytest

# The suite compiles thousands of programs: they are not written to the user's compilation cache (it would grow
# by every program of every version of the code under test, and runs would depend on what an earlier run left).
# tests/runtime/test_compile_cache.py turns the cache on in its own interpreters; PYLAYER_JAX_CACHE_DIR=dir in the
# environment runs the suite with the cache there.
os.environ.setdefault("PYLAYER_JAX_CACHE_DIR", "")

# The suite's programs are tiny and each runs a few times, so compiling them is most of the suite's time. For the
# tests XLA compiles as the package's small steps are compiled (``_exec/deferred.py``'s ``_SMALL_OPTIONS``): backend
# (LLVM) optimisation turned down and the CPU fusion emitters off (the older per-element code generator, far
# cheaper to compile). The programs compute the same operations (XLA's own graph passes still run); XLA_FLAGS in the
# environment wins. Oracles that must be built as a user's programs are built with XLA's defaults
# (tests/xla_default.py). (Not --xla_cpu_parallel_codegen_split_count=1, which would save a few percent more: with
# it, or 2, jaxlib 0.10.2 computes NaN gradients in test_layer_zoo_b's BatchNorm CNN from the same optimised HLO.)
SUITE_XLA_FLAGS = "--xla_backend_optimization_level=0 --xla_cpu_use_fusion_emitters=false"
os.environ.setdefault("XLA_FLAGS", SUITE_XLA_FLAGS)


def pytest_xdist_auto_num_workers(config: pytest.Config) -> int | None:
    """How many worker processes ``-n auto`` (pyproject's addopts) starts.

    The whole suite (``python -m pytest`` with no paths, as CI runs it) runs on two processes, a file per
    worker at a time (``--dist loadfile``), when the machine has two cores or more. A run of chosen files
    or tests stays in this one process; ``-n 2`` asks for workers anyway, ``-n 0`` for none, and
    ``PYTEST_XDIST_AUTO_NUM_WORKERS`` sets the number for ``-n auto``.
    """
    if os.environ.get("PYTEST_XDIST_AUTO_NUM_WORKERS"):
        return None  # xdist's own rule reads it
    if config.args_source != pytest.Config.ArgsSource.TESTPATHS:
        return 0
    return min(2, os.cpu_count() or 1)
