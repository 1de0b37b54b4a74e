"""Record Paddle 3.3.1's ``as_complex`` / ``as_real`` / ``view_as_complex`` / ``view_as_real`` into
tests/data/paddle_complex_views.json (the cases: ``tests/complex_view_cases.py``).

Run with real Paddle: ``/tmp/paddle/bin/python tests/record_paddle_complex_views.py``.
"""

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from paddle_record import record_into  # noqa: E402

record_into("complex_view_cases", "paddle_complex_views.json")
