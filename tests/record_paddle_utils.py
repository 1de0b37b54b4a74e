"""Record Paddle 3.3.1's ``paddle.utils`` helpers (nested structures, ``strtobool``, ``try_import``,
``require_version``, ``deprecated``, ``download`` on cached files) into tests/data/paddle_utils.json (the cases:
``tests/utils_cases.py``).

Run with real Paddle: ``/tmp/paddle/bin/python tests/record_paddle_utils.py``.
"""

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from paddle_record import record_into  # noqa: E402

record_into("utils_cases", "paddle_utils.json")
