"""Record Paddle 3.3.1's ``paddle.linalg`` factorizations and solvers (lstsq, lu, lu_unpack, triangular_solve,
cond, householder_product, ormqr, svd_lowrank, pca_lowrank, cov) into tests/data/paddle_linalg.json (the cases:
``tests/linalg_cases.py``).

Run with real Paddle: ``/tmp/paddle/bin/python tests/record_paddle_linalg.py``.
"""

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from paddle_record import record_into  # noqa: E402

record_into("linalg_cases", "paddle_linalg.json")
