"""``crop`` and ``strided_slice`` refuse what Paddle 3.3.1 refuses (it raises ValueError for each call below), where
they gave a silently clamped or truncated result: a crop block that does not fit its axis, a negative offset, a
shape or offsets without one entry per axis, a size below -1; strided_slice arguments of different lengths or an
axis out of range or negative (strided_slice; slice takes one), an axis named twice (slice). The calls Paddle accepts keep numpy's values (the oracle: numpy slicing)."""

from __future__ import annotations

import numpy as np
import pytest

import pylayer_jax as P
from pylayer_jax._tensor import methods

X = np.arange(40, dtype="float32").reshape(10, 4)

REFUSED = [
    (lambda x: P.crop(x, [4, 2], [8, 1]), r"crop: the block does not fit in axis 0 of size 10 \(x's shape \[10, 4\]\): "
                                           r"offsets\[0\] \+ shape\[0\] is 8 \+ 4; it must be at most 10\."),
    (lambda x: P.crop(x, [11, 2]), r"crop: the block does not fit in axis 0 of size 10 .* is 0 \+ 11"),
    (lambda x: P.crop(x, None, [1, 1]), r"crop: the block does not fit in axis 0 of size 10 .* is 1 \+ 10"),
    (lambda x: P.crop(x, [-1, 2], [11, 2]), r"crop: offsets\[0\] is 11, past the end of axis 0 of size 10"),
    (lambda x: P.crop(x, [3, 2], [-1, 1]), r"crop: an offset must not be negative, but offsets\[0\] is -1\."),
    (lambda x: P.crop(x, [3], [1]), r"crop: shape needs one entry per dimension of x \(2, shape \[10, 4\]\), but "
                                     r"received \[3\]\."),
    (lambda x: P.crop(x, [2, 2], [1, 1, 1]), r"crop: offsets needs one entry per dimension of x .* received \[1, 1, 1\]"),
    (lambda x: P.crop(x, [-2, 2], [1, 1]), r"crop: an entry of shape is a size \(0 or more\) or -1 .* shape\[0\] is -2"),
    (lambda x: P.strided_slice(x, [0], [1, 2], [7], [2]), r"strided_slice: axes, starts, ends and strides must have "
                                                          r"the same length .* received 1, 2, 1 and 1\."),
    (lambda x: P.strided_slice(x, [0], [1], [7], [1, 1]), r"strided_slice: .* received 1, 1, 1 and 2\."),
    (lambda x: P.strided_slice(x, [2], [1], [7], [1]), r"strided_slice: axes 2 is out of range for a 2-D input; it "
                                                       r"must be in \[-2, 2\)\."),
    (lambda x: P.strided_slice(x, [-1], [1], [3], [1]), r"strided_slice: axes must be non-negative \(Paddle's "
                                                        r"strided_slice counts no axis from the end\), but received "
                                                        r"\[-1\]; write \[1\]\."),
    (lambda x: P.slice(x, [0, 0], [0, 1], [2, 3]), r"slice: axes \(0, 0\) names the same axis twice"),
]


@pytest.mark.parametrize(("call", "match"), REFUSED, ids=[r[1][:50] for r in REFUSED])
def test_what_paddle_refuses_raises(call, match, monkeypatch: pytest.MonkeyPatch):  # noqa: ANN001
    monkeypatch.setattr(methods, "_POSITIONS", {})
    x = P.to_tensor(X)
    with pytest.raises(ValueError, match=match):
        call(x)
    for k in range(methods.MOVING_KEPT + 2):  # a form that has moved: the same errors
        P.crop(x, [4, 2], [k, 1])
        P.strided_slice(x, [0], [k], [k + 2], [1])
    with pytest.raises(ValueError, match=match):
        call(x)


ACCEPTED = [
    (lambda x: P.crop(x, [2, 2], [8, 2]), X[8:10, 2:4]),
    (lambda x: P.crop(x, [-1, 2], [10, 2]), X[10:, 2:4]),
    (lambda x: P.crop(x, [0, 2], [1, 1]), X[1:1, 1:3]),
    (lambda x: P.crop(x, [-1, -1], [3, 0]), X[3:]),
    (lambda x: P.crop(x), X),
    (lambda x: P.crop(x, shape=[5, 4]), X[:5]),
    (lambda x: P.strided_slice(x, [0, 1], [-100, 3], [100, -100], [3, -2]), X[::3, 3::-2]),
]


@pytest.mark.parametrize(("call", "want"), ACCEPTED)
def test_what_paddle_accepts_keeps_numpys_values(call, want):  # noqa: ANN001
    np.testing.assert_array_equal(call(P.to_tensor(X)).numpy(), want)


def test_a_static_program_with_an_unknown_batch_size_is_checked_where_sizes_are_known():
    P.enable_static()
    try:
        main, start = P.static.Program(), P.static.Program()
        with P.static.program_guard(main, start):
            x = P.static.data("X", [None, 4], "float32")
            y = P.crop(x, [2, 3], [1, 1])
            with pytest.raises(ValueError, match=r"crop: the block does not fit in axis 1 of size 4"):
                P.crop(x, [2, 3], [1, 2])
            z = P.strided_slice(x, [1], [3], [0], [-1])
            with pytest.raises(ValueError, match=r"strided_slice: axes 2 is out of range"):
                P.strided_slice(x, [2], [0], [1], [1])
        got = P.static.Executor().run(main, feed={"X": X}, fetch_list=[y, z])
    finally:
        P.disable_static()
    np.testing.assert_array_equal(got[0], X[1:3, 1:4])
    np.testing.assert_array_equal(got[1], X[:, 3:0:-1])
