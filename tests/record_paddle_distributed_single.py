"""Record what Paddle 3.3.1 answers (or raises) for ``paddle.distributed`` and ``fleet`` in one process started
without a launcher into tests/data/paddle_distributed_single.json (the cases: ``tests/distributed_single_cases.py``).

Run with real Paddle: ``/tmp/paddle/bin/python tests/record_paddle_distributed_single.py``.
"""

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from paddle_record import record_into  # noqa: E402

record_into("distributed_single_cases", "paddle_distributed_single.json")
