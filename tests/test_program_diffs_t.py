"""The PyLayer and hook programs (``tests/programs/p63_pylayer_zoo.py``, ``p64_hooks_grad_utils.py``) against
Paddle 3.3.1: the differences they showed, as focused cases (``tests/program_diff_cases_t.py``, recorded by
``tests/record_paddle_program_diffs_t.py``), and the errors of what was added for them."""

from __future__ import annotations

import os
import sys

import pytest

import pylayer_jax as paddle
from pylayer_jax.autograd import PyLayer

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from program_diff_cases_t import record  # noqa: E402
from recorded import recorded_tests  # noqa: E402

REF, OURS, test_as_paddle, test_every_case_recorded = recorded_tests(record, "paddle_program_diffs_t.json", paddle)


def test_released_graph_error_is_also_a_runtime_error() -> None:
    a = paddle.to_tensor([1.0, 2.0], stop_gradient=False)
    f = (a * a).sum()
    f.backward()
    with pytest.raises(RuntimeError, match=r"backward through the graph a second time .*retain_graph=True") as info:
        f.backward()
    assert isinstance(info.value, SystemError) and type(info.value).__name__ == "SystemError"


def test_grad_and_hook_errors_say_what_to_do() -> None:
    x = paddle.to_tensor([1.0, 2.0], stop_gradient=False)
    f = (x * x).sum()
    with pytest.raises(RuntimeError, match=r"paddle.grad: inputs must be different Tensors, but \S+ appears more "
                                           r"than once\. Pass each Tensor once \(its gradient is the same"):
        paddle.grad(f, [x, x], retain_graph=True)
    with pytest.raises(RuntimeError, match=r"paddle.grad: outputs must be different Tensors, .* appears more than "):
        paddle.grad([f, f], x, retain_graph=True)
    x.register_hook(lambda g: g.astype("float64"))
    with pytest.raises(RuntimeError, match=r"Tensor.register_hook: a hook must keep the gradient's dtype float32, but "
                                           r"it returned float64\. Cast the hook's result back"):
        f.backward()


class _Cube(PyLayer):
    @staticmethod
    def forward(ctx, x):  # noqa: ANN001, ANN205
        return x * x * x

    @staticmethod
    def backward(ctx, dy):  # noqa: ANN001, ANN205
        return dy


def test_pylayer_called_on_inputs_names_apply() -> None:
    with pytest.raises(TypeError, match=r"_Cube\(\.\.\.\): a PyLayer is not called on its inputs, but _Cube received "
                                        r"1 argument\(s\)\. Run it with _Cube\.apply\(\.\.\.\)"):
        _Cube(paddle.ones([2]))
    assert isinstance(_Cube(), _Cube)  # (without arguments, as in Paddle, an object of the class)


def test_state_dict_hook_must_be_callable() -> None:
    with pytest.raises(TypeError, match=r"register_state_dict_hook: hook must be callable, but received int"):
        paddle.nn.Linear(2, 2).register_state_dict_hook(3)
