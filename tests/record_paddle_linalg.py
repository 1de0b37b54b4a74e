"""Record Paddle 3.3.1's ``paddle.linalg`` factorizations and solvers (lstsq, lu, lu_unpack, triangular_solve,
cond, householder_product, ormqr, svd_lowrank, pca_lowrank, cov) into tests/data/paddle_linalg.json (the cases:
``tests/linalg_cases.py``).

Run with real Paddle: ``/tmp/paddle/bin/python tests/record_paddle_linalg.py``.
"""

import json
import os
import sys

import paddle

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from linalg_cases import record  # noqa: E402

out = {"paddle": paddle.__version__, **record(paddle)}
path = os.path.join(os.path.dirname(os.path.abspath(__file__)), "data", "paddle_linalg.json")
with open(path, "w") as fh:
    json.dump(out, fh, sort_keys=True)
print(f"{len(out) - 1} entries -> {path}")
