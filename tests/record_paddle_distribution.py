"""Record Paddle 3.3.1's ``paddle.distribution`` into tests/data/paddle_distribution.json (the cases:
``tests/distribution_cases.py``).

Run with real Paddle: ``/tmp/paddle/bin/python tests/record_paddle_distribution.py``.
"""

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from paddle_record import record_into  # noqa: E402

record_into("distribution_cases", "paddle_distribution.json")
