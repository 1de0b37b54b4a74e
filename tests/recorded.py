"""``record(paddle)``'s results for a test file, computed when a test first reads them.

The ``*_cases.py`` modules' ``record`` runs every case with the package (hundreds of small programs compiled). Run
at import, it ran at collection, where each worker process of the suite imports every test file although it runs
only some of them: computed at the first read, it runs once, in the worker that runs the file's tests.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from typing import Any

import numpy as np


class Recorded(Mapping[str, Any]):
    """The dict ``record(lib)`` returns, made at the first look into it."""

    def __init__(self, record: Callable[[Any], dict[str, Any]], lib: Any) -> None:
        self._record, self._lib = record, lib
        self._data: dict[str, Any] | None = None

    def _get(self) -> dict[str, Any]:
        if self._data is None:
            self._data = self._record(self._lib)
        return self._data

    def __getitem__(self, key: str) -> Any:
        return self._get()[key]

    def __iter__(self) -> Iterator[str]:
        return iter(self._get())

    def __len__(self) -> int:
        return len(self._get())


def assert_close(ours: Any, ref: Any, key: str, rtol: float) -> None:
    """A recorded entry: equal structure through lists, numbers within ``rtol`` (and 1e-6 absolute; an int recorded
    where ours is a float is a number too), anything else exactly."""
    if isinstance(ref, list):
        assert isinstance(ours, list) and len(ours) == len(ref), key
        for a, b in zip(ours, ref):
            assert_close(a, b, key, rtol)
    elif isinstance(ref, float) or (isinstance(ref, int) and not isinstance(ref, bool) and isinstance(ours, float)):
        np.testing.assert_allclose(ours, ref, rtol=rtol, atol=1e-6, err_msg=key)
    else:
        assert ours == ref, key


def paddle_fixture(name: str) -> dict[str, Any]:
    """``tests/data/<name>`` as ``record_paddle_*.py`` wrote it (``paddle_record.record_into``), without the entry
    naming Paddle's version."""
    import json
    import os

    with open(os.path.join(os.path.dirname(os.path.abspath(__file__)), "data", name)) as fh:
        ref = json.load(fh)
    ref.pop("paddle")
    return ref


def recorded_tests(record: Callable[[Any], dict[str, Any]], fixture: str, lib: Any, rtol: float = 2e-5,
                   not_mirrored: frozenset[str] | set[str] = frozenset()) -> tuple[dict[str, Any], Recorded, Any, Any]:
    """``(REF, OURS, test_as_paddle, test_every_case_recorded)`` for a test module that compares ``record(lib)`` with
    Paddle's recorded ``tests/data/<fixture>``: every entry but the ``not_mirrored`` ones within ``rtol``, and the
    same entries on both sides. Assign the two tests to module names starting with ``test_`` for pytest to run them."""
    import pytest

    ref = paddle_fixture(fixture)
    ours = Recorded(record, lib)

    @pytest.mark.parametrize("key", sorted(set(ref) - set(not_mirrored)))
    def test_as_paddle(key: str) -> None:
        assert_close(ours[key], ref[key], key, rtol=rtol)

    def test_every_case_recorded() -> None:
        assert sorted(ours) == sorted(ref)

    return ref, ours, test_as_paddle, test_every_case_recorded
