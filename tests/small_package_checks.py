"""What the test files of Paddle 3.3.1's small packages share: one part of ``small_package_cases.py``'s cases
(``PARTS``), run with this package when first read, Paddle's recorded results for it, and their comparison."""

from __future__ import annotations

from typing import Any

from recorded import Recorded, assert_close, paddle_fixture
from small_package_cases import record_part

import pylayer_jax as paddle

_ALL = paddle_fixture("paddle_small_packages.json")


def _lists(v: Any) -> Any:
    """A recorded value with its dicts as sorted [key, value] lists, and NaN as the string 'nan' (so that a
    recorded NaN compares equal to ours)."""
    if isinstance(v, dict):
        return [[k, _lists(v[k])] for k in sorted(v)]
    if isinstance(v, float) and v != v:
        return "nan"
    return [_lists(x) for x in v] if isinstance(v, list) else v


def part(name: str) -> tuple[dict[str, Any], Recorded, list[str]]:
    """(Paddle's results, ours (computed at the first read), the keys) of the part ``name``."""
    keys = _ALL["parts"][name]
    return {k: _ALL[k] for k in keys}, Recorded(lambda lib: record_part(lib, name), paddle), keys


def check(ours: Any, ref: Any, key: str) -> None:
    assert_close(_lists(ours), _lists(ref), key, rtol=1e-6)
