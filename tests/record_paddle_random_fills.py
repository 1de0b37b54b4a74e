"""Record Paddle 3.3.1's in-place random fills (``normal_``, ``bernoulli_``, ``random_``, ...) into
tests/data/paddle_random_fills.json (the cases: ``tests/random_fill_cases.py``).

Run with real Paddle: ``/tmp/paddle/bin/python tests/record_paddle_random_fills.py``.
"""

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from paddle_record import record_into  # noqa: E402

record_into("random_fill_cases", "paddle_random_fills.json")
