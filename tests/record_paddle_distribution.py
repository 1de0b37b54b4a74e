"""Record Paddle 3.3.1's ``paddle.distribution`` into tests/data/paddle_distribution.json (the cases:
``tests/distribution_cases.py``).

Run with real Paddle: ``/tmp/paddle/bin/python tests/record_paddle_distribution.py``.
"""

import json
import os
import sys

import paddle

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from distribution_cases import record  # noqa: E402

out = {"paddle": paddle.__version__, **record(paddle)}
path = os.path.join(os.path.dirname(os.path.abspath(__file__)), "data", "paddle_distribution.json")
with open(path, "w") as fh:
    json.dump(out, fh, indent=1, sort_keys=True)
print(f"{len(out) - 1} entries -> {path}")
