"""Record Paddle 3.3.1's results for ``tests/small_package_cases.py`` into tests/data/paddle_small_packages.json.

Run with real Paddle: ``/tmp/paddle/bin/python tests/record_paddle_small_packages.py``."""

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from paddle_record import record_into  # noqa: E402

if __name__ == "__main__":
    record_into("small_package_cases", "paddle_small_packages.json")
