"""Record Paddle 3.3.1's sparse embedding gradients and the optimizers' updates of them into
tests/data/paddle_sparse_embedding.json (the cases: ``sparse_embedding_cases.py``).

Run with the Paddle oracle: ``/tmp/paddle/bin/python tests/record_paddle_sparse_embedding.py``. Each case runs in
a process of its own, since some of them end Paddle's (a segmentation fault or an abort in its kernels for a
SelectedRows gradient: ``ClipGradByValue``, ``ASGD``, at times ``AdamW``); such a case is recorded as
``{"crash": <exit status>}``, one that raises as ``{"raises": [type, message]}`` (the message's first line; for
an ``OSError`` from a kernel reading memory it does not own, whose numbers change from run to run, the type only).
A gradient is recorded as ``{"sparse": is_selected_rows, "rows": its rows (merged: sorted, each once), "dense":
the dense array it stands for}``, with the rows as Paddle gives them (``"raw_rows"``: unmerged, in lookup order).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

import sparse_embedding_cases as cases  # noqa: E402


def _view(t):  # noqa: ANN001, ANN202
    g = t.grad
    if g is None:
        return None
    if g.is_selected_rows():
        rows = list(g.rows())
        dense = np.zeros((cases.N, cases.D), np.float64)
        np.add.at(dense, rows, g.numpy().astype(np.float64))
        return {"sparse": True, "rows": sorted(set(rows)), "raw_rows": rows, "dense": dense.tolist()}
    return {"sparse": False, "rows": None, "dense": np.asarray(g.numpy(), np.float64).tolist()}


def _child(name: str) -> None:
    import paddle

    try:
        out = {"value": cases.run(paddle, name, _view)}
    except Exception as e:  # noqa: BLE001  (what Paddle raises is what is recorded)
        msg = str(e).strip().splitlines()[0] if str(e).strip() else ""
        out = {"raises": [type(e).__name__, "" if isinstance(e, OSError) else msg]}
    sys.stdout.write("\nRESULT " + json.dumps(out) + "\n")


def main() -> None:
    import paddle

    out = {"paddle": paddle.__version__}
    for name in (*cases.GRADS, *cases.STEPS):
        proc = subprocess.run([sys.executable, __file__, name], capture_output=True, text=True, timeout=300)
        lines = [ln for ln in proc.stdout.splitlines() if ln.startswith("RESULT ")]
        out[name] = json.loads(lines[-1][7:]) if proc.returncode == 0 and lines else {"crash": proc.returncode}
        print(name, list(out[name]))
    path = os.path.join(HERE, "data", "paddle_sparse_embedding.json")
    with open(path, "w") as fh:
        json.dump(out, fh, indent=1, sort_keys=True)
    print(f"{len(out) - 1} entries -> {path}")


if __name__ == "__main__":
    if len(sys.argv) > 1:
        _child(sys.argv[1])
    else:
        main()
