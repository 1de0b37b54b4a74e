"""Record Paddle 3.3.1's ``paddle.incubate.optimizer`` into tests/data/paddle_incubate_optimizer.json (the cases:
``tests/incubate_optimizer_cases.py``).

Run with real Paddle: ``/tmp/paddle/bin/python tests/record_paddle_incubate_optimizer.py``.
"""

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from paddle_record import record_into  # noqa: E402

record_into("incubate_optimizer_cases", "paddle_incubate_optimizer.json")
