"""Record Paddle 3.3.1's ``paddle.linalg`` on singular, non-positive-definite and rank-deficient input (errors raised,
values returned, lstsq's rank and residuals) into tests/data/paddle_linalg_singular.json (the cases:
``tests/linalg_singular_cases.py``).

Run with real Paddle: ``/tmp/paddle/bin/python tests/record_paddle_linalg_singular.py``.
"""

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from paddle_record import record_into  # noqa: E402

record_into("linalg_singular_cases", "paddle_linalg_singular.json")
