"""The whole programs ``tests/programs/p79_dataloader_advanced.py`` and ``p80_hapi_model_advanced.py`` against
Paddle 3.3.1: the differences they showed in data loading and paddle.Model, as focused cases
(``tests/program_diff_cases_ac.py``, recorded by ``tests/record_paddle_program_diffs_ac.py``), and the messages of
the errors (AssertionErrors as Paddle's, still ValueErrors / RuntimeErrors as the package raised them before)."""

from __future__ import annotations

import os
import sys

import numpy as np
import pytest

import pylayer_jax as paddle

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from program_diff_cases_ac import record  # noqa: E402
from recorded import recorded_tests  # noqa: E402

REF, OURS, test_as_paddle, test_every_case_recorded = recorded_tests(record, "paddle_program_diffs_ac.json", paddle)


def test_io_assertions_say_what_to_do() -> None:
    io = paddle.io
    ds = io.TensorDataset([paddle.ones([6, 2])])
    with pytest.raises(AssertionError, match=r"BatchSampler: pass either dataset or sampler"):
        io.BatchSampler(batch_size=3)
    with pytest.raises(ValueError, match=r"BatchSampler: batch_size must be a positive int, but received 0"):
        io.BatchSampler(ds, batch_size=0)
    with pytest.raises(AssertionError, match=r"DataLoader: batch_size, shuffle and drop_last must keep their "
                                             r"defaults when batch_sampler is given .* batch_size=2"):
        io.DataLoader(ds, batch_size=2, batch_sampler=io.BatchSampler(ds))
    with pytest.raises(AssertionError, match=r"DataLoader: num_workers must be an int >= 0, but received -1"):
        io.DataLoader(ds, num_workers=-1)
    with pytest.raises(AssertionError, match=r"WeightedRandomSampler: without replacement each row needs at least "
                                             r"num_samples=3 positive weights, but a row has 2"):
        io.WeightedRandomSampler(np.array([1.0, 1.0, 0.0]), num_samples=3, replacement=False)
    with pytest.raises(ValueError, match=r"TensorDataset: every tensor needs the same first dimension, but "
                                         r"received shapes \[\[3, 2\], \[4\]\]"):
        io.TensorDataset([paddle.ones([3, 2]), paddle.ones([4])])
    with pytest.raises(AssertionError, match=r"ConcatDataset: datasets must not be empty"):
        io.ConcatDataset([])


def test_train_before_prepare_says_what_to_do() -> None:
    model = paddle.Model(paddle.nn.Linear(3, 2))
    for kind in (AssertionError, RuntimeError):
        with pytest.raises(kind, match=r"paddle.Model.train_batch: the model is not ready to train; call "
                                       r"model.prepare\(optimizer, loss\) first"):
            model.train_batch([np.ones([2, 3], "float32")])
