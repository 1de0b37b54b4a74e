"""The third set of whole programs (``tests/programs/p31_vision_models.py``, ``p32_hapi_callbacks.py``) against
Paddle 3.3.1: the differences and failures they showed, as focused cases (``tests/program_diff_cases_c.py``,
recorded by ``tests/record_paddle_program_diffs_c.py``), and the errors of what was added for them."""

from __future__ import annotations

import os
import sys

import pytest

import pylayer_jax as paddle

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from program_diff_cases_c import record  # noqa: E402
from recorded import recorded_tests  # noqa: E402

FIXTURE = "paddle_program_diffs_c.json"
REF, OURS, test_as_paddle, test_every_case_recorded = recorded_tests(record, FIXTURE, paddle)


def test_flops_errors_say_what_to_do() -> None:
    net = paddle.nn.Linear(2, 2)
    with pytest.raises(ValueError, match=r"paddle.flops: input_size must be a list of positive ints .* \[2, -1\]"):
        paddle.flops(net, [2, -1])
    with pytest.raises(TypeError, match=r"paddle.flops: custom_ops must be a dict .* received list"):
        paddle.flops(net, [1, 2], custom_ops=[])


def test_save_inference_error_says_what_to_do(tmp_path) -> None:  # noqa: ANN001
    model = paddle.Model(paddle.nn.Linear(2, 2))
    with pytest.raises(RuntimeError, match=r"Model.save: saving an inference model \(training=False\) needs the "
                                           r"input shapes: pass inputs=\[InputSpec\(...\)\] .* or run a batch"):
        model.save(str(tmp_path / "m"), training=False)


def test_logs_are_per_model() -> None:
    """Not mirrored: Paddle's loops share one logs dict among every Model of the process, so a first model's metric
    keys show in a second model's callback logs; here each Model has its own."""
    import numpy as np

    x = np.random.default_rng(1).standard_normal((12, 4)).astype("float32")
    y = (x[:, :1] > 0).astype("int64")

    class DS(paddle.io.Dataset):
        def __getitem__(self, i):  # noqa: ANN001, ANN204
            return x[i], y[i]

        def __len__(self) -> int:
            return len(x)

    seen = []

    class Keys(paddle.callbacks.Callback):
        def on_eval_end(self, logs=None):  # noqa: ANN001, ANN202
            seen.append(sorted(logs))

    first = paddle.Model(paddle.nn.Linear(4, 2))
    first.prepare(paddle.optimizer.SGD(learning_rate=0.1, parameters=first.parameters()), paddle.nn.CrossEntropyLoss(),
                  paddle.metric.Accuracy(topk=(1, 2), name="first_acc"))
    first.fit(DS(), batch_size=6, epochs=1, verbose=0)
    second = paddle.Model(paddle.nn.Linear(4, 2))
    second.prepare(None, paddle.nn.CrossEntropyLoss())
    res = second.evaluate(DS(), batch_size=4, verbose=0, callbacks=[Keys()])
    assert seen == [["batch_size", "loss", "step"]]
    assert sorted(res) == ["loss"]
