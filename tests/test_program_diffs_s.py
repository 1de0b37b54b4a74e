"""The programs ``tests/programs/p61_mlm_pretrain.py`` and ``p62_image_pipeline.py`` against Paddle 3.3.1: what
they lean on, as focused cases (``tests/program_diff_cases_s.py``, recorded by
``tests/record_paddle_program_diffs_s.py``), and the errors pylayer_jax gives where it deliberately differs."""

from __future__ import annotations

import os
import sys

import numpy as np
import pytest

import pylayer_jax as paddle

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from program_diff_cases_s import LOGITS, record  # noqa: E402
from recorded import recorded_tests  # noqa: E402

REF, OURS, test_as_paddle, test_every_case_recorded = recorded_tests(record, "paddle_program_diffs_s.json", paddle)


def test_nll_loss_negative_ignore_index_averages_kept_labels() -> None:
    # Paddle 3.3.1 corrupts its heap here (free(): invalid next size), so numpy is the oracle: the mean of
    # -log_softmax at the kept labels.
    F = paddle.nn.functional
    lab = np.array([2, -100, 0, -100, 1])
    logp = LOGITS - np.log(np.exp(LOGITS).sum(1, keepdims=True))
    keep = lab != -100
    want = -logp[np.nonzero(keep)[0], lab[keep]].mean()
    got = F.nll_loss(F.log_softmax(paddle.to_tensor(LOGITS.astype("float32")), -1), paddle.to_tensor(lab),
                     ignore_index=-100)
    np.testing.assert_allclose(float(got), want, rtol=1e-6)


def test_random_split_generator_is_refused_with_the_fix() -> None:
    # Paddle 3.3.1 accepts generator= and ignores it; pylayer_jax says so instead of ignoring it silently.
    with pytest.raises(NotImplementedError, match=r"random_split: the generator argument is not supported; .*"
                                                  r"call paddle.seed\(n\) before random_split"):
        paddle.io.random_split(list(range(6)), [4, 2], generator=paddle.seed(5))
