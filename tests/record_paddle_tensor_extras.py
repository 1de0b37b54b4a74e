"""Record Paddle 3.3.1's ``Tensor.resize_``, ``Tensor.set_``, ``paddle.tensor.create_tensor`` and
``paddle.tensor.top_p_sampling`` (on a CPU) into tests/data/paddle_tensor_extras.json (the cases:
``tests/tensor_extra_cases.py``).

Run with real Paddle: ``/tmp/paddle/bin/python tests/record_paddle_tensor_extras.py``.
"""

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from paddle_record import record_into  # noqa: E402

record_into("tensor_extra_cases", "paddle_tensor_extras.json")
