"""Record Paddle 3.3.1's ``paddle.profiler`` (its enums, schedulers, when ``on_trace_ready`` runs, the timer-only
step info and summary format, the exported trace) into tests/data/paddle_profiler.json (the cases:
``tests/profiler_cases.py``).

Run with real Paddle: ``/tmp/paddle/bin/python tests/record_paddle_profiler.py``.
"""

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from paddle_record import record_into  # noqa: E402

record_into("profiler_cases", "paddle_profiler.json")
