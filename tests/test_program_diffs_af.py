"""The whole programs ``tests/programs/p85_lr_scheduler_zoo.py`` and ``p86_tensor_methods_zoo.py`` against Paddle
3.3.1: the differences they showed in ReduceOnPlateau, optimizer.state_dict, sequence repetition by an int Tensor
and Tensor.apply / apply_, as focused cases (``tests/program_diff_cases_af.py``, recorded by
``tests/record_paddle_program_diffs_af.py``), and the messages of the errors."""

from __future__ import annotations

import os
import sys

import numpy as np
import pytest

import pylayer_jax as paddle

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from program_diff_cases_af import record  # noqa: E402
from recorded import recorded_tests  # noqa: E402

REF, OURS, test_as_paddle, test_every_case_recorded = recorded_tests(record, "paddle_program_diffs_af.json", paddle)


def test_apply_errors_say_what_to_do() -> None:
    w = paddle.to_tensor([1.0, 2.0], stop_gradient=False)
    with pytest.raises(RuntimeError, match=r"Tensor.apply_: cannot apply a function to a tensor that requires "
                                           r"gradient \(stop_gradient=False\); call it on x.detach\(\)"):
        w.apply_(lambda q: q * 2)
    x = paddle.to_tensor([1.0, 2.0])
    with pytest.raises(TypeError, match=r"Tensor.apply: func must return a Tensor, but it returned float"):
        x.apply(lambda q: 3.0)
    with pytest.raises(TypeError, match=r"Tensor.apply: func must be a callable taking the Tensor, but received int"):
        x.apply(3)
    # Paddle swaps the storage (a new shape or dtype); here the tensor keeps both and the call is refused
    with pytest.raises(ValueError, match=r"Tensor.apply_: here func must keep the tensor's shape \[2\] and dtype "
                                         r"float32, but it returned \[\] and float32"):
        x.apply_(lambda q: q.sum())
    assert x.numpy().tolist() == [1.0, 2.0]


def test_plateau_metric_of_two_values_says_what_to_do() -> None:
    p = paddle.optimizer.lr.ReduceOnPlateau(learning_rate=0.1)
    for kind in (AssertionError, ValueError):
        with pytest.raises(kind, match=r"ReduceOnPlateau.step: metrics must hold one value, but received shape "
                                       r"\[2\]; reduce it first"):
            p.step(np.array([1.0, 2.0]))
    # a best of shape [1] is saved as a float here (Paddle's state_dict fails there: float() of a 1-D Tensor)
    p.step(paddle.to_tensor([0.5]))
    assert p.best.shape == [1] and p.state_dict()["best"] == 0.5


def test_state_dict_taken_and_dropped_costs_nothing_later() -> None:
    lin = paddle.nn.Linear(2, 1)
    opt = paddle.optimizer.Momentum(learning_rate=0.1, parameters=lin.parameters())
    x = paddle.ones([1, 2])
    for _ in range(3):
        lin(x).sum().backward()
        opt.step()
        opt.clear_grad()
        opt.state_dict()  # dropped at once: nothing kept for the next steps to write into
    lin(x).sum().backward()
    opt.step()
    assert opt._live_states == []
