"""The programs ``tests/programs/p39_timeseries.py`` and ``p40_linalg_fit.py`` against Paddle 3.3.1: the differences
they showed, as focused cases (``tests/program_diff_cases_g.py``, recorded by
``tests/record_paddle_program_diffs_g.py``), and the errors of what was changed for them."""

from __future__ import annotations

import os
import sys

import numpy as np
import pytest

import pylayer_jax as paddle

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from program_diff_cases_g import record  # noqa: E402
from recorded import recorded_tests  # noqa: E402

FIXTURE = "paddle_program_diffs_g.json"
REF, OURS, test_as_paddle, test_every_case_recorded = recorded_tests(record, FIXTURE, paddle, rtol=2e-4)


def test_pad_errors_say_what_to_do() -> None:
    F = paddle.nn.functional
    x3 = paddle.ones([2, 3, 5])
    with pytest.raises(AssertionError, match=r"pad: mode 'reflect' pads 3-D, 4-D or 5-D input .* 2-D input of shape "
                                             r"\[3, 5\]; pad it with mode 'constant'"):
        F.pad(x3[0], [1, 1], mode="reflect")
    with pytest.raises(ValueError, match=r"pad: mode 'circular' takes one \(before, after\) pair per spatial axis, 2 "
                                         r"values for a 3-D input, but received 4 \(\[1, 1, 0, 0\]\)"):
        F.pad(x3, [1, 1, 0, 0], mode="circular")
    with pytest.raises(ValueError, match=r"pad: mode 'reflect' pads an axis by less than its size, but axis 2 has "
                                         r"size 5 and the pads \(5, 0\)"):
        F.pad(x3, [5, 0], mode="reflect")
    # Paddle: a RuntimeError from its kernel's memory allocation
    with pytest.raises(ValueError, match=r"pad: negative pads crop an axis, but the pads \(-3, -3\) of axis 2 crop "
                                         r"more than its size 5"):
        F.pad(x3, [-3, -3])


def test_pad_crop_everywhere() -> None:
    """Paddle refuses negative values in a pad of every axis (its other kernel); cropping is kept there too."""
    x = paddle.arange(30, dtype="float32").reshape([2, 3, 5])
    got = paddle.nn.functional.pad(x, [0, 0, -1, 0, -1, 2]).numpy()
    want = np.pad(x.numpy()[:, 1:, 1:], [(0, 0), (0, 0), (0, 2)])
    np.testing.assert_array_equal(got, want)


def test_eigvalsh_refuses_other_uplo() -> None:
    """Paddle's eigvalsh reads any UPLO but 'L' (a lowercase 'l' too) as 'U'; that misuse raises here."""
    with pytest.raises(ValueError, match=r"eigvalsh: UPLO must be 'L' \(use the lower triangle\) or 'U' \(the upper "
                                         r"one\), but received 'l'"):
        paddle.linalg.eigvalsh(paddle.eye(3), UPLO="l")


def test_eigh_upper_gradient_is_the_symmetric_one() -> None:
    """The eigenvalue gradient of the matrix read from the upper triangle: ``V diag(c) V^T`` for its eigenvectors V
    (numpy's), in both triangles, as Paddle gives it."""
    m = np.random.default_rng(3).standard_normal((4, 4)).astype("float32")
    c = np.asarray([1.0, -2.0, 3.0, 0.5], "float32")
    x = paddle.to_tensor(m, stop_gradient=False)
    w = paddle.linalg.eigvalsh(x, UPLO="U")
    (w * paddle.to_tensor(c)).sum().backward()
    h = np.triu(m) + np.triu(m, 1).T
    wn, v = np.linalg.eigh(h.astype(np.float64))
    np.testing.assert_allclose(w.numpy(), wn, rtol=1e-5, atol=1e-5)
    np.testing.assert_allclose(x.grad.numpy(), v @ np.diag(c) @ v.T, rtol=1e-4, atol=1e-5)


def test_cross_and_solve_and_cov_errors_say_what_to_do() -> None:
    la = paddle.linalg
    with pytest.raises(ValueError, match=r"cross: the cross product needs size 3 along axis 1, but x has shape "
                                         r"\[3, 2\]"):
        paddle.cross(paddle.ones([3, 2]), paddle.ones([3, 2]), axis=1)
    with pytest.raises(IndexError, match=r"cross: axis 2 is out of range for the 2-D x of shape \[2, 3\]"):
        paddle.cross(paddle.ones([2, 3]), paddle.ones([2, 3]), axis=2)
    with pytest.raises(ValueError, match=r"solve: with left=False \(out @ x = y\) y must be a matrix .* shape \[3\]"):
        la.solve(paddle.eye(3), paddle.ones([3]), left=False)
    with pytest.raises(ValueError, match=r"cov: fweights must hold whole numbers .* 1.5"):
        la.cov(paddle.ones([2, 3]), fweights=paddle.to_tensor([1.5, 1.0, 1.0]))
