"""Record Paddle 3.3.1's ``paddle.nn.utils.weight_norm`` / ``remove_weight_norm`` / ``spectral_norm`` into
tests/data/paddle_weight_hooks.json (the cases: ``tests/weight_hook_cases.py``).

Run with real Paddle: ``/tmp/paddle/bin/python tests/record_paddle_weight_hooks.py``.
"""

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from paddle_record import record_into  # noqa: E402

record_into("weight_hook_cases", "paddle_weight_hooks.json")
