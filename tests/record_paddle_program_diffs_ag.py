"""Record Paddle 3.3.1 running the cases of ``tests/program_diff_cases_ag.py`` into
tests/data/paddle_program_diffs_ag.json.

Run with real Paddle: ``/tmp/paddle/bin/python tests/record_paddle_program_diffs_ag.py``.
"""

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from paddle_record import record_into  # noqa: E402

record_into("program_diff_cases_ag", "paddle_program_diffs_ag.json")
