"""Record Paddle 3.3.1's ``paddle.signal.stft`` / ``istft`` into tests/data/paddle_signal.json (the cases:
``tests/signal_cases.py``).

Run with real Paddle: ``/tmp/paddle/bin/python tests/record_paddle_signal.py``.
"""

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from paddle_record import record_into  # noqa: E402

record_into("signal_cases", "paddle_signal.json")
