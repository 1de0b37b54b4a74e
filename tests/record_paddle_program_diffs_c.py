"""Record Paddle 3.3.1 running the cases of ``tests/program_diff_cases_c.py`` into
tests/data/paddle_program_diffs_c.json.

Run with real Paddle: ``/tmp/paddle/bin/python tests/record_paddle_program_diffs_c.py``.

Paddle's ``paddle.flops`` ends by ``int()`` of its per-layer counters, tensors of shape [1], which NumPy 2 refuses
(``TypeError: only 0-dimensional arrays can be converted to Python scalars``) after the counting is done: here
``int()`` of a one-element Paddle tensor reads its element, so the counts are Paddle's own.
"""

import os
import sys

import paddle

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from paddle_record import record_into  # noqa: E402

_int = paddle.Tensor.__int__
paddle.Tensor.__int__ = lambda self: int(self.numpy().reshape(-1)[0]) if int(self.size) == 1 else _int(self)

record_into("program_diff_cases_c", "paddle_program_diffs_c.json")
