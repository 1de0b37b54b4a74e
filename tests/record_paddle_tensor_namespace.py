"""Record Paddle 3.3.1's ``paddle.LazyGuard`` and calls through ``paddle.tensor`` (``paddle.tensor(data)``,
``fill_constant``, functions of the submodules) into tests/data/paddle_tensor_namespace.json (the cases:
``tests/tensor_namespace_cases.py``).

Run with real Paddle: ``/tmp/paddle/bin/python tests/record_paddle_tensor_namespace.py``.
"""

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from paddle_record import record_into  # noqa: E402

record_into("tensor_namespace_cases", "paddle_tensor_namespace.json")
