"""Record what real Paddle does with each row of ``bad_input_cases.CASES``.

Run with Paddle 3.3.1 installed (never a dependency of pylayer_jax):

    /tmp/paddle/bin/python tests/record_paddle_bad_input.py

Writes ``tests/data/paddle_bad_input.json``: for each row id, ``{"code", "raises": type name}``
or ``{"code", "result": nested list, "dtype": name}`` (the first output when there are several),
for constant inputs (``const``) and trainable ones (``train``).
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import numpy as np
import paddle

sys.path.insert(0, str(Path(__file__).parent))
from bad_input_cases import CASES as _TABLE  # noqa: E402
from bad_input_cases import PENDING, namespace  # noqa: E402

CASES = _TABLE + PENDING  # every row, also those whose checks are not written yet


def run_row(code: str, trainable: bool) -> dict:
    ns = namespace(paddle, trainable)
    try:
        try:
            expr = compile(code, "<row>", "eval")
        except SyntaxError:
            exec(compile(code, "<row>", "exec"), ns)
            r = ns.get("y")
        else:
            r = eval(expr, ns)
        while isinstance(r, (list, tuple)) and r:
            r = r[0]
        if isinstance(r, paddle.Tensor):
            a = r.numpy()
            return {"result": np.where(np.isfinite(a), a, 0).tolist() if a.dtype.kind == "f" else a.tolist(),
                    "nonfinite": int(np.size(a) - np.isfinite(a).sum()) if a.dtype.kind == "f" else 0,
                    "dtype": str(a.dtype), "shape": list(a.shape)}
        return {"result": repr(r)}
    except BaseException as e:  # noqa: BLE001 - the type is what we record
        return {"raises": type(e).__name__, "message": str(e).strip().splitlines()[-1][:200] if str(e).strip() else ""}


def worker(start: int) -> None:
    """Run the rows from ``start`` on, one JSON line each (the parent restarts after a crash)."""
    for id_, code, _ in CASES[start:]:
        row = {"id": id_, "code": code, "const": run_row(code, False), "train": run_row(code, True)}
        print(json.dumps(row), flush=True)


def main() -> None:
    out: dict = {}
    while len(out) < len(CASES):
        start = len(out)
        proc = subprocess.run([sys.executable, __file__, "--worker", str(start)], capture_output=True, text=True,
                              timeout=600)
        for line in proc.stdout.splitlines():
            if line.startswith("{"):
                row = json.loads(line)
                out[row.pop("id")] = row
        if len(out) < len(CASES) and proc.returncode != 0:  # the next row crashed Paddle's process
            id_, code, _ = CASES[len(out)]
            crash = {"raises": "crash", "message": f"exit status {proc.returncode}"}
            out[id_] = {"code": code, "const": crash, "train": crash}
    path = Path(__file__).parent / "data" / "paddle_bad_input.json"
    path.write_text(json.dumps(out, indent=1, sort_keys=True))
    print(f"wrote {len(out)} rows to {path}")


if __name__ == "__main__":
    if len(sys.argv) == 3 and sys.argv[1] == "--worker":
        worker(int(sys.argv[2]))
    else:
        main()
