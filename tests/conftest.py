"""Test-session settings shared by every folder."""

from __future__ import annotations

import os

import pytest

# The suite compiles thousands of programs: they are not written to the user's compilation cache (it would grow
# by every program of every version of the code under test, and runs would depend on what an earlier run left).
# tests/runtime/test_compile_cache.py turns the cache on in its own interpreters; PYLAYER_JAX_CACHE_DIR=dir in the
# environment runs the suite with the cache there.
os.environ.setdefault("PYLAYER_JAX_CACHE_DIR", "")

# The suite's programs are tiny and each runs a few times, so compiling them is most of the suite's time: XLA's
# backend (LLVM) optimisation is turned down for the tests, which cuts the suite's CPU time by about a quarter.
# The programs compute the same operations (XLA's own graph passes still run); XLA_FLAGS in the environment wins.
os.environ.setdefault("XLA_FLAGS", "--xla_backend_optimization_level=0")


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
