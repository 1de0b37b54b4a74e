"""Record Paddle 3.3.1's Tensor printing under ``set_printoptions`` and its ``finfo``/``iinfo`` into
tests/data/paddle_print_info.json (the cases: ``tests/print_info_cases.py``).

Run with real Paddle: ``/tmp/paddle/bin/python tests/record_paddle_print_info.py``.
"""

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from paddle_record import record_into  # noqa: E402

record_into("print_info_cases", "paddle_print_info.json")
