"""The deferred engine's default policy for a test file, whatever mode the suite runs in (layer: tests).

CI also runs the suite with ``PYLAYER_JAX_FUSE_AFTER=1`` and with ``PYLAYER_JAX_LAZY=0``; the files that test the
policy itself (tests/exec/test_new_shapes.py, tests/exec/test_row_buckets.py, tests/exec/test_sequence_buckets.py) set it
back from an autouse fixture.
The test then begins on an empty buffer: calls an earlier test recorded and never read (a forward whose result it
dropped) would otherwise join the test's first step, whose signature (its family, what a new batch size is told
from) would then not be the step's.
"""

from __future__ import annotations

import pytest

from pylayer_jax._exec import deferred
from pylayer_jax._replay import follow


def default_policy(monkeypatch: pytest.MonkeyPatch, buckets: bool) -> None:
    """Deferred steps on, fused from their third sighting; ``buckets``: a known step on a new batch size runs padded
    to a bucket when its rows allow (``_autograd.row_buckets``), else it is compiled for its shapes. This thread's
    recorded calls run first, under the policy they were recorded in."""
    deferred.flush()
    monkeypatch.setattr(deferred, "ENABLED", True)
    monkeypatch.setattr(deferred, "FUSE_AFTER", 3)
    monkeypatch.setattr(deferred, "BUCKETS", buckets)
    follow.reset()


def checked_shape_rule(monkeypatch: pytest.MonkeyPatch, counter: list[int]) -> None:
    """Each output shape the shape rule predicts for a new size (``_autograd.row_buckets``) is checked against
    tracing the call; ``counter[0]`` counts the predictions."""
    rule = deferred._shape_rule[0]
    predict = rule.predict

    def checked(fn: object, tree: object, akey: tuple) -> object:
        r = predict(fn, tree, akey)
        if r is not None:
            counter[0] += 1
            want = deferred._infer_avals(fn, tree, [None if type(a) is tuple else a(1) for a in akey], akey)
            assert (r[0], list(r[1])) == (want[0], list(want[1])), (r, want)
        return r

    monkeypatch.setattr(rule, "predict", checked)
