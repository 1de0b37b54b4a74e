"""Value checks of concrete inputs (``_ops.checks.first_bad_now``): a device array of a label's size is checked on
the host, so a new batch size compiles nothing; a larger one by a kernel on the device. Arrays here are CPU arrays
taken for device ones (``_HOST_PLATFORMS`` emptied). Oracles: numpy on the same values, XLA compiles counted
through ``jax.monitoring``, and the message of cross_entropy's label check."""

from __future__ import annotations

import jax
import numpy as np
import pytest
from xla_compiles import COMPILES

import pylayer_jax as paddle
import pylayer_jax.nn.functional as F
from pylayer_jax._ops import checks

RULE = (0, 5, None, False)  # labels in [0, 5)


def _oracle(v: np.ndarray) -> tuple[bool, int | None]:
    bad = (v < 0) | (v >= 5)
    return bool(bad.any()), (int(v[np.argmax(bad)]) if bad.any() else None)


def _answer(r: tuple) -> tuple[bool, int | None]:
    return bool(r[0]), (int(np.asarray(r[1])) if bool(r[0]) else None)


def test_a_device_label_of_each_new_batch_size_is_checked_without_a_compile(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(checks, "_HOST_PLATFORMS", ())
    rng = np.random.default_rng(0)
    arrays = [jax.device_put(rng.integers(-1, 6, (n,))) for n in (37, 38, 39, 41)]
    c0 = COMPILES[0]
    for a in arrays:
        assert _answer(checks.first_bad_now(RULE, a)) == _oracle(np.asarray(a))
    assert COMPILES[0] - c0 == 0
    with pytest.raises(IndexError, match=r"cross_entropy: label 7 is out of range for 5 classes"):  # (an op's check)
        F.cross_entropy(paddle.to_tensor(np.zeros((3, 5), np.float32)), paddle.to_tensor(np.array([0, 7, 1])))


def test_a_device_array_over_the_host_bound_is_checked_by_a_kernel(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(checks, "_HOST_PLATFORMS", ())
    monkeypatch.setattr(checks, "HOST_CHECK_BYTES", 8)
    a = jax.device_put(np.array([3, 1, 9, 4, -2], np.int64))
    c0 = COMPILES[0]
    assert _answer(checks.first_bad_now(RULE, a)) == (True, 9)
    assert COMPILES[0] - c0 == 1


def test_a_label_that_passed_is_not_checked_again_and_a_bad_one_always_raises(monkeypatch: pytest.MonkeyPatch) -> None:
    """A jax array is immutable: a label Tensor that passed cross_entropy's range check passes it again without being
    copied to the host and scanned (a fixed batch trained on every step), while a bad label raises at every call
    and a new label Tensor is checked anew. Oracle: the rule's answer in numpy, and the calls counted."""
    from pylayer_jax._tensor import dispatch

    calls = []
    real = dispatch.first_bad_now
    monkeypatch.setattr(dispatch, "first_bad_now", lambda key, a: calls.append(key) or real(key, a))
    logits = paddle.to_tensor(np.random.default_rng(1).standard_normal((4, 5)).astype(np.float32))
    good = paddle.to_tensor(np.array([0, 4, 2, 1]))
    losses = [float(F.cross_entropy(logits, good)) for _ in range(3)]
    assert len(calls) == 1 and losses[0] == losses[1] == losses[2]
    bad = paddle.to_tensor(np.array([0, 5, 2, 1]))
    for _ in range(2):
        with pytest.raises(IndexError, match=r"cross_entropy: label 5 is out of range for 5 classes"):
            F.cross_entropy(logits, bad)
    assert len(calls) == 3
    again = paddle.to_tensor(np.array([0, 4, 2, 1]))  # equal values, a new array: checked
    F.cross_entropy(logits, again)
    assert len(calls) == 4
    neg = paddle.to_tensor(np.array([-3, 0, 0, 0]))
    with pytest.raises(IndexError, match=r"label -3 is out of range"):
        F.cross_entropy(logits, neg)
