"""Record Paddle 3.3.1's view semantics into tests/data/paddle_views.json: which ops give views (a write through
the result changes the base, a write to the base changes the result), views of views, in-place shape ops on a base,
version counters, ``stop_gradient`` and the gradients after a write through a view.

Run with real Paddle: ``/tmp/paddle/bin/python tests/record_paddle_views.py``. The cases are in
``tests/view_cases.py`` (Paddle code, run by ``tests/tensor/test_views.py`` with pylayer_jax).
"""

import json
import os
import sys

import paddle

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from view_cases import CASES, run  # noqa: E402

out = {"paddle": paddle.__version__}
for name, code in CASES.items():
    out[name] = run(paddle, code)
path = os.path.join(os.path.dirname(os.path.abspath(__file__)), "data", "paddle_views.json")
with open(path, "w") as fh:
    json.dump(out, fh, indent=1, sort_keys=True)
for name in CASES:
    print(name, json.dumps(out[name]))
