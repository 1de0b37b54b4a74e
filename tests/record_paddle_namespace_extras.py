"""Record Paddle 3.3.1's results for ``tests/namespace_extras_cases.py`` into
tests/data/paddle_namespace_extras.json.

Run with real Paddle: ``/tmp/paddle/bin/python tests/record_paddle_namespace_extras.py``.

Paddle 3.3.1's ``paddle.flops`` takes ``int()`` of its shape-[1] count Tensors, which Paddle does through
``int(np.array(t))``: NumPy 2.4 (the oracle's) refuses that for an array that is not 0-D, so ``flops`` fails there
for every network. The script lets ``int()`` of a one-element Tensor read that element, as older NumPy did (the
behaviour ``flops`` was written for); nothing else changes."""

import os
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from paddle_record import record_into  # noqa: E402

if __name__ == "__main__":
    import paddle

    _int = paddle.Tensor.__int__

    def _one_element_int(t):  # noqa: ANN001, ANN202
        return int(np.array(t).reshape(-1)[0]) if t.size == 1 else _int(t)

    paddle.Tensor.__int__ = _one_element_int
    record_into("namespace_extras_cases", "paddle_namespace_extras.json")
