"""Record Paddle 3.3.1's top-level softmax (``tests/softmax_dim_cases.py``) into tests/data/paddle_softmax_dim.json.

Run with the Paddle oracle: ``/tmp/paddle/bin/python tests/record_paddle_softmax_dim.py``."""

from paddle_record import record_into

if __name__ == "__main__":
    record_into("softmax_dim_cases", "paddle_softmax_dim.json")
