"""Test-session settings shared by every folder."""

from __future__ import annotations

import os

import pytest


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
