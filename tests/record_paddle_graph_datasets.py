"""Record Paddle 3.3.1's graph sampling and local-file datasets into tests/data/paddle_graph_datasets.json (the
cases: ``tests/graph_dataset_cases.py``).

Run with real Paddle: ``/tmp/paddle/bin/python tests/record_paddle_graph_datasets.py``.
"""

import json
import os
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import graph_dataset_cases  # noqa: E402


def main():
    import paddle

    out = {"paddle": paddle.__version__, **graph_dataset_cases.record(paddle, tempfile.mkdtemp())}
    path = os.path.join(os.path.dirname(os.path.abspath(__file__)), "data", "paddle_graph_datasets.json")
    with open(path, "w") as fh:
        json.dump(out, fh, sort_keys=True)
    print(f"{len(out) - 1} entries -> {path}")


if __name__ == "__main__":
    main()
