"""Record what Paddle 3.3.1 answers (or raises) for ``paddle.distributed`` and ``fleet`` in one process started
without a launcher into tests/data/paddle_distributed_single.json (the cases: ``tests/distributed_single_cases.py``),
and save a checkpoint of the cases' Linear(3, 2) with ``paddle.distributed.save_state_dict`` into
tests/data/paddle_distributed_ckpt/ (read back by this package's ``load_state_dict``).

Run with real Paddle: ``/tmp/paddle/bin/python tests/record_paddle_distributed_single.py``.
"""

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from paddle_record import record_into  # noqa: E402

record_into("distributed_single_cases", "paddle_distributed_single.json")


def _save_checkpoint() -> None:
    import shutil

    import paddle
    from distributed_single_cases import _linear

    path = os.path.join(os.path.dirname(os.path.abspath(__file__)), "data", "paddle_distributed_ckpt")
    shutil.rmtree(path, ignore_errors=True)
    paddle.distributed.save_state_dict(_linear(paddle).state_dict(), path)
    print(sorted(os.listdir(path)), "->", path)


_save_checkpoint()
