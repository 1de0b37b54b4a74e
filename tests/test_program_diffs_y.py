"""The whole programs ``tests/programs/p71_param_attr_training.py`` and ``tests/programs/p72_initializers.py``
against Paddle 3.3.1: the differences they showed, as focused cases (``tests/program_diff_cases_y.py``, recorded by
``tests/record_paddle_program_diffs_y.py``), and the messages of the errors changed for them."""

from __future__ import annotations

import os
import sys

import pytest

import pylayer_jax as paddle

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from program_diff_cases_y import record  # noqa: E402
from recorded import recorded_tests  # noqa: E402

REF, OURS, test_as_paddle, test_every_case_recorded = recorded_tests(record, "paddle_program_diffs_y.json", paddle)

init = paddle.nn.initializer


def test_initializer_shape_errors_say_what_to_do() -> None:
    with pytest.raises(AssertionError, match=r"Dirac: the parameter must have 3, 4 or 5 dimensions \(a Conv1D/2D/3D "
                                             r"kernel\), but its shape is \[3, 3\]"):
        paddle.create_parameter([3, 3], "float32", default_initializer=init.Dirac())
    with pytest.raises(AssertionError, match=r"Dirac: the parameter's dimension 0 \(3\) must be divisible by "
                                             r"groups=2"):
        paddle.create_parameter([3, 2, 3], "float32", default_initializer=init.Dirac(groups=2))
    with pytest.raises(AssertionError, match=r"Dirac: groups must be a positive int, but received 0"):
        init.Dirac(groups=0)
    with pytest.raises(AssertionError, match=r"Orthogonal: the parameter needs at least 2 dimensions, but its shape "
                                             r"is \[4\]; Orthogonal initializes matrices"):
        paddle.create_parameter([4], "float32", default_initializer=init.Orthogonal())


def test_optimizer_without_parameters_says_what_to_do() -> None:
    with pytest.raises(AttributeError, match=r"Adam: parameters must be given in dynamic mode \(the Tensors to update, "
                                             r"e.g. parameters=model.parameters\(\)\), but received None"):
        paddle.optimizer.Adam(0.1)
