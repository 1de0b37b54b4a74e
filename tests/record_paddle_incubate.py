"""Record Paddle 3.3.1's ``paddle.incubate`` functions (and, where its CPU build has no kernel, the formula they
document, in Paddle's plain operators) into tests/data/paddle_incubate.json (the cases: ``tests/incubate_cases.py``).

Run with real Paddle: ``/tmp/paddle/bin/python tests/record_paddle_incubate.py``.
"""

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from paddle_record import record_into  # noqa: E402

record_into("incubate_cases", "paddle_incubate.json")
