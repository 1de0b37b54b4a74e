"""Record Paddle 3.3.1's results for ``tests/sampler_stream_cases.py`` into tests/data/paddle_sampler_streams.json.

Run with real Paddle: ``/tmp/paddle/bin/python tests/record_paddle_sampler_streams.py``."""

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from paddle_record import record_into  # noqa: E402

if __name__ == "__main__":
    record_into("sampler_stream_cases", "paddle_sampler_streams.json")
