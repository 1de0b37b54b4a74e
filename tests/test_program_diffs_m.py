"""The programs p51 (sparse Tensors) and p52 (quantization) against Paddle 3.3.1: the differences and failures they
(and the probes around them) showed, as focused cases (``tests/program_diff_cases_m.py``, recorded by
``tests/record_paddle_program_diffs_m.py``)."""

from __future__ import annotations

import os
import sys

import pylayer_jax as paddle

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from program_diff_cases_m import record  # noqa: E402
from recorded import recorded_tests  # noqa: E402

REF, OURS, test_as_paddle, test_every_case_recorded = recorded_tests(record, "paddle_program_diffs_m.json", paddle)
