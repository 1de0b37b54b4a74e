"""Record Paddle 3.3.1's flash_attn_qkvpacked (its CPU math path) and class_center_sample (its CPU kernel) into
tests/data/paddle_fused.json (the cases: ``tests/fused_cases.py``).

Run with real Paddle: ``/tmp/paddle/bin/python tests/record_paddle_fused.py``.
"""

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from paddle_record import record_into  # noqa: E402

record_into("fused_cases", "paddle_fused.json")
