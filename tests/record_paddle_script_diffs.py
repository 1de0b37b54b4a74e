"""Record Paddle 3.3.1 running the cases of ``tests/script_diff_cases.py`` into tests/data/paddle_script_diffs.json.

Run with real Paddle: ``/tmp/paddle/bin/python tests/record_paddle_script_diffs.py``.
"""

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from paddle_record import record_into  # noqa: E402

record_into("script_diff_cases", "paddle_script_diffs.json")
