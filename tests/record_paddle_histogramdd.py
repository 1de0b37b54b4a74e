"""Record Paddle 3.3.1's ``paddle.histogramdd`` into
tests/data/paddle_histogramdd.json (the cases: ``tests/histogramdd_cases.py``).

Run with real Paddle: ``/tmp/paddle/bin/python tests/record_paddle_histogramdd.py``.
"""

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from paddle_record import record_into  # noqa: E402

record_into("histogramdd_cases", "paddle_histogramdd.json")
