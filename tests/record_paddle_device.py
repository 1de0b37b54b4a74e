"""Record what Paddle 3.3.1's CPU build answers (or raises) for ``paddle.device`` and ``paddle.device.cuda`` into
tests/data/paddle_device.json (the cases: ``tests/device_cases.py``).

Run with real Paddle: ``/tmp/paddle/bin/python tests/record_paddle_device.py``.
"""

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from paddle_record import record_into  # noqa: E402

record_into("device_cases", "paddle_device.json")
