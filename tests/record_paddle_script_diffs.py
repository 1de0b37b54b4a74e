"""Record Paddle 3.3.1 running the cases of ``tests/script_diff_cases.py`` into tests/data/paddle_script_diffs.json.

Run with real Paddle: ``/tmp/paddle/bin/python tests/record_paddle_script_diffs.py``.
"""

import json
import os
import sys

import paddle

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from script_diff_cases import record  # noqa: E402

out = {"paddle": paddle.__version__, **record(paddle)}
path = os.path.join(os.path.dirname(os.path.abspath(__file__)), "data", "paddle_script_diffs.json")
with open(path, "w") as fh:
    json.dump(out, fh, indent=1, sort_keys=True)
print(f"{len(out) - 1} entries -> {path}")
