"""Record Paddle 3.3.1's ``paddle.fft`` into tests/data/paddle_fft.json (the cases: ``tests/fft_cases.py``).

Run with real Paddle: ``/tmp/paddle/bin/python tests/record_paddle_fft.py``.
"""

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from paddle_record import record_into  # noqa: E402

record_into("fft_cases", "paddle_fft.json")
