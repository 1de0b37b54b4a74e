"""Record real Paddle's ``paddle.sparse`` results for ``tests/sparse_cases.py`` into ``tests/data/paddle_sparse.json``.

Run with a Python that has Paddle 3.3.1: ``/tmp/paddle/bin/python tests/record_paddle_sparse.py``.
"""

from __future__ import annotations

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from paddle_record import record_into  # noqa: E402

if __name__ == "__main__":
    record_into("sparse_cases", "paddle_sparse.json")
