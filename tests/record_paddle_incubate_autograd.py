"""Record Paddle 3.3.1's ``paddle.incubate.autograd`` into tests/data/paddle_incubate_autograd.json (the cases:
``tests/incubate_autograd_cases.py``).

Run with real Paddle: ``/tmp/paddle/bin/python tests/record_paddle_incubate_autograd.py``.
"""

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from paddle_record import record_into  # noqa: E402

record_into("incubate_autograd_cases", "paddle_incubate_autograd.json")
