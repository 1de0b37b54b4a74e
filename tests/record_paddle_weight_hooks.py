"""Record Paddle 3.3.1's ``paddle.nn.utils.weight_norm`` / ``remove_weight_norm`` / ``spectral_norm`` into
tests/data/paddle_weight_hooks.json (the cases: ``tests/weight_hook_cases.py``).

Run with real Paddle: ``/tmp/paddle/bin/python tests/record_paddle_weight_hooks.py``.
"""

import json
import os
import sys

import paddle

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from weight_hook_cases import record  # noqa: E402

out = {"paddle": paddle.__version__, **record(paddle)}
path = os.path.join(os.path.dirname(os.path.abspath(__file__)), "data", "paddle_weight_hooks.json")
with open(path, "w") as fh:
    json.dump(out, fh, indent=1, sort_keys=True)
print(f"{len(out) - 1} entries -> {path}")
