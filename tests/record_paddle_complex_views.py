"""Record Paddle 3.3.1's ``as_complex`` / ``as_real`` / ``view_as_complex`` / ``view_as_real`` into
tests/data/paddle_complex_views.json (the cases: ``tests/complex_view_cases.py``).

Run with real Paddle: ``/tmp/paddle/bin/python tests/record_paddle_complex_views.py``.
"""

import json
import os
import sys

import paddle

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from complex_view_cases import record  # noqa: E402

out = {"paddle": paddle.__version__, **record(paddle)}
path = os.path.join(os.path.dirname(os.path.abspath(__file__)), "data", "paddle_complex_views.json")
with open(path, "w") as fh:
    json.dump(out, fh, indent=1, sort_keys=True)
print(f"{len(out['values'])} value cases -> {path}")
