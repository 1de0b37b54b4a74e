"""Record Paddle 3.3.1 running the cases of ``tests/program_diff_cases_ae.py`` into
tests/data/paddle_program_diffs_ae.json.

Run with real Paddle: ``/tmp/paddle/bin/python tests/record_paddle_program_diffs_ae.py``.
"""

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from paddle_record import record_into  # noqa: E402

record_into("program_diff_cases_ae", "paddle_program_diffs_ae.json")
